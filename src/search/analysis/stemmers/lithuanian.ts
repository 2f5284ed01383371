/**
 * The Snowball Lithuanian stemmer as Lucene 7.7 ships it (LithuanianStemmer, generated from the
 * Snowball project's lithuanian.sbl by Dainius Jocas, as published in 2015-2018, before the
 * 2025 changes that dropped the -er- endings; snowballstem.org, BSD licence). R1 starts after
 * the first vowel-consonant pair (skipping a leading "a" of words longer than 6); the steps:
 * fix known conflicts, remove one inflectional ending inside R1, č→t / dž→d, remove derivational
 * suffixes inside R1 repeatedly, č→t / dž→d again, gd→g. Suffix lists are the algorithm's own.
 */

const words = (s: string): ReadonlySet<string> => new Set(s.split(/\s+/).filter((w) => w));

const VOWELS = new Set('aeiyouąęįųėū');

/** step1's inflectional endings (nouns, adjectives, verbs, participles). */
const STEP1 = words(`
as ias is ys o io ui iui ą ią į u iu e yje y au i an ai iai ų ių ams am iams iam us ius ais iais
uose iuose uos iuos uosna iuosna ysna asis aisi osi ųsi uisi ąsi usi esi uo a ia os ios oj oje
ioje osna iosna om oms ioms omis iomis ose iose on ion ė ės ei ę ėj ėje ėms es ėmis ėse ėsna ėn
aus iaus umi iumi uje iuje iau ūs ums umis un iun ies ens enio ers eniui eriai enį erį imi eniu
erimi eria enyje eryje ie enie erie enys erys erų ims enims erims enis imis enimis yse enyse
eryse iem iems ame iame uosi iuosi iesi asi iasi amės iamės at ate iat iate atės iatės isi im
imės it ite ome ot ote ėjo ėjosi otės eisi ėsi ėm ėme ėmės ėt ėte ėtės ausi omės siu siuosi si
siesi s ysis sim sime sit site čiau čiausi tum tumei tumeis tumeisi tųsi tumėm tumėme tumėmės
tute tumėt tumėte tumėtės k ki kimės uoti iuoti auti iauti oti ioti ėti yti inti inėti enti
telėti terėti ti ąs iąs įs tųs simės sitės kite`);

/** step2's derivational suffixes (removed repeatedly). */
const STEP2 = words(`
ing išk ėt ot uot iuot yt iuk iul ėl yl učiuk uliuk utėait ok iok sv šv zgan op iop ain ykšt
ykšč esn aus iaus ias oj ioj aj iaj ąj iąj uoj iuoj iej ųj iųj ies uos iuos ais iais os ios ąs
iąs dav ant iant int ėj ę ėję ęs siant dam auj jam iau am`);

const CONFLICTS: ReadonlyArray<readonly [string, string]> = [
  ['aite', 'aitė'],
  ['aitės', 'aitė'],
  ['uotės', 'uotė'],
  ['uote', 'uotė'],
  ['ėjime', 'ėjimas'],
  ['esiu', 'esys'],
  ['asius', 'asys'],
  ['avime', 'avimas'],
  ['ojime', 'ojimas'],
  ['okatės', 'okatė'],
  ['okate', 'okatė'],
];
const CHDZ: ReadonlyArray<readonly [string, string]> = [
  ['č', 't'],
  ['dž', 'd'],
];
const GD: ReadonlyArray<readonly [string, string]> = [['gd', 'g']];

const maxLen = (set: ReadonlySet<string>) => Math.max(...[...set].map((w) => w.length));
const STEP1_MAX = maxLen(STEP1);
const STEP2_MAX = maxLen(STEP2);

/** The length of the longest suffix of `s` in `set` starting at or after `from`, or 0. */
function longestSuffix(s: string, set: ReadonlySet<string>, max: number, from: number): number {
  for (let n = Math.min(max, s.length - from); n > 0; n--) {
    if (set.has(s.slice(s.length - n))) return n;
  }
  return 0;
}

/** Snowball's `[substring] among (... (<- ...))`: the longest listed ending is replaced. */
function replaceEnding(s: string, rules: ReadonlyArray<readonly [string, string]>): string {
  let best: readonly [string, string] | undefined;
  for (const r of rules) {
    if (s.endsWith(r[0]) && (best === undefined || r[0].length > best[0].length)) best = r;
  }
  return best === undefined ? s : s.slice(0, s.length - best[0].length) + best[1];
}

function r1(s: string): number {
  let i = s.startsWith('a') && s.length > 6 ? 1 : 0;
  while (i < s.length && !VOWELS.has(s[i]!)) i++;
  if (i >= s.length) return s.length;
  i++;
  while (i < s.length && VOWELS.has(s[i]!)) i++;
  return i >= s.length ? s.length : i + 1;
}

export function lithuanianStem(word: string): string {
  const p1 = r1(word);
  let s = replaceEnding(word, CONFLICTS);
  const n1 = longestSuffix(s, STEP1, STEP1_MAX, p1);
  s = s.slice(0, s.length - n1);
  s = replaceEnding(s, CHDZ);
  for (;;) {
    if (s.length < p1) break;
    const n2 = longestSuffix(s, STEP2, STEP2_MAX, p1);
    if (n2 === 0) break;
    s = s.slice(0, s.length - n2);
  }
  s = replaceEnding(s, CHDZ);
  return replaceEnding(s, GD);
}
