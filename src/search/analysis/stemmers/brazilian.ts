/**
 * Lucene 7.7's Brazilian Portuguese stemmer (BrazilianStemmer, by João Kramer, after the
 * Snowball Portuguese algorithm). The word is lower-cased and its accents and cedilla dropped,
 * one leading and one trailing punctuation mark removed; words of fewer than 3 or more than 29
 * chars are left alone, words with a non-letter are only normalised. Regions R1, R2 and RV are
 * computed once from the normalised word and not updated as suffixes go. Step 1 removes a
 * standard suffix, or else step 2 a verb ending; then step 3 (after a removal) drops an "i"
 * after "c", or step 4 (none) a residual vowel ending; step 5 drops a final "e" (with the "u" of
 * "gue" and the "i" of "cie"). Lucene's quirks are kept: "logias" and the three-letter verb
 * ending "ira" count as removed without changing the word.
 */

type Region = 'R1' | 'R2' | 'RV';

interface Rule {
  readonly suffix: string;
  readonly region: Region;
  /** What replaces the suffix; null: nothing changes, yet the step counts as done. */
  readonly replacement: string | null;
  /** The suffix must follow an "e" (and lie in RV) and becomes "ir". */
  readonly afterE?: boolean;
}

const r2 = (list: string, replacement = ''): Rule[] =>
  list.split(' ').map((suffix) => ({ suffix, region: 'R2', replacement }));

/** Step 1, in Lucene's order (the first fitting rule fires). */
const STEP1: readonly Rule[] = [
  ...r2('uciones', 'u'),
  ...r2('imentos amentos adores adoras'),
  { suffix: 'logias', region: 'R2', replacement: null },
  ...r2('encias', 'ente'),
  { suffix: 'amente', region: 'R1', replacement: '' },
  ...r2('idades acoes imento amento adora ismos istas'),
  ...r2('logia', 'log'),
  ...r2('ucion', 'u'),
  ...r2('encia', 'ente'),
  ...r2('mente idade acao ezas icos icas ismo avel ivel ista osos osas ador ivas ivos'),
  { suffix: 'iras', region: 'RV', replacement: 'ir', afterE: true },
  ...r2('eza ico ica oso osa iva ivo'),
  { suffix: 'ira', region: 'RV', replacement: 'ir', afterE: true },
];

/** Step 2's verb endings in RV, in Lucene's order; "ira*" marks the no-op quirk. */
const STEP2 = (
  'issemos essemos assemos ariamos eriamos iriamos ' +
  'iremos eremos aremos avamos iramos eramos aramos asseis esseis isseis arieis erieis irieis ' +
  'irmos iamos armos ermos areis ereis ireis asses esses isses astes assem essem issem ardes ' +
  'erdes irdes ariam eriam iriam arias erias irias estes istes areis aveis ' +
  'aria eria iria asse esse isse aste este iste arei erei irei aram eram iram avam arem erem ' +
  'irem ando endo indo arao erao irao adas idas aras eras iras avas ares eres ires ados idos ' +
  'amos emos imos iras ieis ' +
  'ada ida ara era ira* iam ado ido ias ais eis ira ear ' +
  'ia ei am em ar er ir as es is eu iu ou'
).split(' ');

const VOWELS = new Set('aeiou');
const isVowel = (c: string | undefined) => c !== undefined && VOWELS.has(c);

const FOLD: Record<string, string> = {
  á: 'a',
  â: 'a',
  ã: 'a',
  é: 'e',
  ê: 'e',
  í: 'i',
  ó: 'o',
  ô: 'o',
  õ: 'o',
  ú: 'u',
  ü: 'u',
  ç: 'c',
  ñ: 'n',
};

/** The region after the first non-vowel following a vowel (the last char never starts it). */
function regionAfterVC(s: string | null): string | null {
  if (s === null) return null;
  const last = s.length - 1;
  let j = 0;
  while (j < last && !isVowel(s[j])) j++;
  if (j >= last) return null;
  while (j < last && isVowel(s[j])) j++;
  return j >= last ? null : s.slice(j + 1);
}

function regionRV(s: string): string | null {
  const last = s.length - 1;
  if (last > 0 && !isVowel(s[1])) {
    let j = 2;
    while (j < last && !isVowel(s[j])) j++;
    if (j < last) return s.slice(j + 1);
  }
  if (last > 1 && isVowel(s[0]) && isVowel(s[1])) {
    let j = 2;
    while (j < last && isVowel(s[j])) j++;
    if (j < last) return s.slice(j + 1);
  }
  return last > 2 ? s.slice(3) : null;
}

const LEADING = new Set(['"', "'", '-', ',', ';', '.', '?', '!']);
const TRAILING = LEADING;

function normalise(term: string): string {
  let ct = term.toLowerCase().replace(/[áâãéêíóôõúüçñ]/g, (c) => FOLD[c]!);
  if (ct.length < 2) return ct;
  if (LEADING.has(ct[0]!)) ct = ct.slice(1);
  if (ct.length < 2) return ct;
  if (TRAILING.has(ct[ct.length - 1]!)) ct = ct.slice(0, -1);
  return ct;
}

const ends = (s: string | null, suffix: string) => s !== null && s.endsWith(suffix);
const drop = (s: string, suffix: string) =>
  s.endsWith(suffix) ? s.slice(0, s.length - suffix.length) : s;

/** Java Character.isLetter per UTF-16 unit (a surrogate is not a letter). */
const allLetters = (s: string) => /^\p{L}*$/u.test(s) && !/[\uD800-\uDFFF]/.test(s);

/** The stem, or the term itself when Lucene leaves it alone. */
export function brazilianStem(term: string): string {
  let ct = normalise(term);
  if (ct.length < 3 || ct.length >= 30) return term;
  if (!allLetters(ct)) return ct;
  const regions: Record<Region, string | null> = {
    R1: regionAfterVC(ct),
    R2: regionAfterVC(regionAfterVC(ct)),
    RV: regionRV(ct),
  };
  const rv = regions.RV;
  let altered = false;
  for (const rule of STEP1) {
    if (!ct.endsWith(rule.suffix) || !ends(regions[rule.region], rule.suffix)) continue;
    if (rule.afterE === true && !drop(ct, rule.suffix).endsWith('e')) continue;
    if (rule.replacement !== null) ct = drop(ct, rule.suffix) + rule.replacement;
    altered = true;
    break;
  }
  if (!altered && rv !== null) {
    for (const e of STEP2) {
      const quirk = e.endsWith('*');
      const suffix = quirk ? e.slice(0, -1) : e;
      if (!rv.endsWith(suffix)) continue;
      if (!quirk) ct = drop(ct, suffix);
      altered = true;
      break;
    }
  }
  if (rv !== null) {
    if (altered) {
      if (rv.endsWith('ci')) ct = drop(ct, 'i');
    } else {
      const residual = ['os', 'a', 'i', 'o'].find((x) => rv.endsWith(x));
      if (residual !== undefined) ct = drop(ct, residual);
    }
    if (rv.endsWith('e')) {
      ct = drop(ct, 'e');
      if (rv.endsWith('gue')) ct = drop(ct, 'u');
      else if (rv.endsWith('cie')) ct = drop(ct, 'i');
    }
  }
  return ct;
}
