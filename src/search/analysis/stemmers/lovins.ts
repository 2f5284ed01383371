/**
 * The Lovins stemmer (J. B. Lovins, "Development of a stemming algorithm", 1968), as Snowball
 * publishes it and Lucene's LovinsStemmer runs it (ES `stemmer` language `lovins`, `snowball`
 * language `Lovins`): the longest ending of Appendix A whose condition of Appendix B holds for
 * what is left is removed (at least two letters always stay), then a final double consonant is
 * undoubled and the respelling rules of Appendix C fix the stem's end.
 */

/** Appendix B: the condition an ending puts on the stem left before it. */
type Condition = (stem: string) => boolean;

const ends = (s: string, ...xs: string[]) => xs.some((x) => s.endsWith(x));
/** Lovins' "u*e": the stem ends in e with u two letters before. */
const uStarE = (s: string) => s.endsWith('e') && s.length >= 3 && s[s.length - 3] === 'u';

const COND: Record<string, Condition> = {
  A: (s) => s.length >= 2,
  B: (s) => s.length >= 3,
  C: (s) => s.length >= 4,
  D: (s) => s.length >= 5,
  E: (s) => s.length >= 2 && !ends(s, 'e'),
  F: (s) => s.length >= 3 && !ends(s, 'e'),
  G: (s) => s.length >= 3 && ends(s, 'f'),
  H: (s) => s.length >= 2 && ends(s, 't', 'll'),
  I: (s) => s.length >= 2 && !ends(s, 'o', 'e'),
  J: (s) => s.length >= 2 && !ends(s, 'a', 'e'),
  K: (s) => s.length >= 3 && (ends(s, 'l', 'i') || uStarE(s)),
  L: (s) => s.length >= 2 && !ends(s, 'u', 'x') && !(ends(s, 's') && !ends(s, 'os')),
  M: (s) => s.length >= 2 && !ends(s, 'a', 'c', 'e', 'm'),
  // at least three letters, four when the third from the end is s (Lovins: "unless following s")
  N: (s) => s.length >= 3 && (s[s.length - 3] !== 's' || s.length >= 4),
  O: (s) => s.length >= 2 && ends(s, 'l', 'i'),
  P: (s) => s.length >= 2 && !ends(s, 'c'),
  Q: (s) => s.length >= 3 && !ends(s, 'l', 'n'),
  R: (s) => s.length >= 2 && ends(s, 'n', 'r'),
  S: (s) => s.length >= 2 && (ends(s, 'dr') || (ends(s, 't') && !ends(s, 'tt'))),
  T: (s) => s.length >= 2 && (ends(s, 's') || (ends(s, 't') && !ends(s, 'ot'))),
  U: (s) => s.length >= 2 && ends(s, 'l', 'm', 'n', 'r'),
  V: (s) => s.length >= 2 && ends(s, 'c'),
  W: (s) => s.length >= 2 && !ends(s, 's', 'u'),
  X: (s) => s.length >= 2 && (ends(s, 'l', 'i') || uStarE(s)),
  Y: (s) => s.length >= 2 && ends(s, 'in'),
  Z: (s) => s.length >= 2 && !ends(s, 'f'),
  AA: (s) => s.length >= 2 && ends(s, 'd', 'f', 'ph', 'th', 'l', 'er', 'or', 'es', 't'),
  BB: (s) => s.length >= 3 && !ends(s, 'met', 'ryst'),
  CC: (s) => s.length >= 2 && ends(s, 'l'),
};

/** Appendix A: each ending with the letter of its condition. */
const ENDING_TABLE = `
alistically B arizability A izationally B
antialness A arisations A arizations A entialness A
allically C antaneous A antiality A arisation A arization A ationally B ativeness A eableness E
entations A entiality A entialize A entiation A ionalness A istically A itousness A izability A
izational A
ableness A arizable A entation A entially A eousness A ibleness A icalness A ionalism A
ionality A ionalize A iousness A izations A lessness A
ability A aically A alistic B alities A ariness E aristic A arizing A ateness A atingly A
ational B atively A ativism A elihood E encible A entally A entials A entiate A entness A
fulness A ibility A icalism A icalist A icality A icalize A ication G icianry A ination A
ingness A ionally A isation A ishness A istical A iteness A iveness A ivistic A ivities A
ization F izement A oidally A ousness A
aceous A acious B action G alness A ancial A ancies A ancing B ariser A arized A arizer A
atable A ations B atives A eature Z efully A encies A encing A ential A enting C entist A
eously A ialist A iality A ialize A ically A icance A icians A icists A ifully A ionals A
ionate D ioning A ionist A iously A istics A izable E lessly A nesses A oidism A
acies A acity A aging B aical A alist A alism B ality A alize A allic BB anced B ances B
antic C arial A aries A arily A arity B arize A aroid A ately A ating I ation B ative A
ators A atory A ature E early Y ehood A eless A elity A ement A enced A ences A eness E
ening E ental A ented C ently A fully A ially A icant A ician A icide A icism A icist A
icity A idine I iedly A ihood A inate A iness A ingly B inism J inity CC ional A ioned A
ished A istic A ities A itous A ively A ivity A izers F izing F oidal A oides A otide A
ously A
able A ably A ages B ally B ance B ancy B ants B aric A arly K ated I ates A atic B ator A
ealy Y edly E eful A eity A ence A ency A ened E enly E eous A hood A ials A ians A ible A
ibly A ical A ides L iers A iful A ines M ings N ions B ious A isms B ists A itic H ized F
izer F less A lily A ness A ogen A ward A wise A ying B yish A
acy A age B aic A als BB ant B ars O ary F ata A ate A eal Y ear Y ely E ene E ent C ery E
ese A ful A ial A ian A ics A ide L ied A ier A ies P ily A ine M ing N ion Q ish C ism B
ist A ite AA ity A ium A ive A ize F oid A one R ous A
ae A al BB ar X as B ed E en F es E ia A ic A is A ly B on S or T um U us V yl R 's A s' A
a A e A i A o A s W y B
`;

/** Endings by length, longest first, each with its condition. */
const ENDINGS: ReadonlyArray<readonly [string, Condition]> = (() => {
  const words = ENDING_TABLE.split(/\s+/).filter((w) => w.length > 0);
  const out: Array<[string, Condition]> = [];
  for (let i = 0; i < words.length; i += 2) out.push([words[i]!, COND[words[i + 1]!]!]);
  return out.sort((a, b) => b[0].length - a[0].length);
})();

const DOUBLES = ['bb', 'dd', 'gg', 'll', 'mm', 'nn', 'pp', 'rr', 'ss', 'tt'];

/**
 * Appendix C's respellings: an end, what replaces it, and letters that may not come before it.
 * ("ent" was "end" in the 1968 paper, a typo.)
 */
const RESPELL: ReadonlyArray<readonly [string, string, string]> = [
  ['iev', 'ief', ''],
  ['uct', 'uc', ''],
  ['umpt', 'um', ''],
  ['rpt', 'rb', ''],
  ['urs', 'ur', ''],
  ['istr', 'ister', ''],
  ['metr', 'meter', ''],
  ['olv', 'olut', ''],
  ['ul', 'l', 'aio'],
  ['bex', 'bic', ''],
  ['dex', 'dic', ''],
  ['pex', 'pic', ''],
  ['tex', 'tic', ''],
  ['ax', 'ac', ''],
  ['ex', 'ec', ''],
  ['ix', 'ic', ''],
  ['lux', 'luc', ''],
  ['uad', 'uas', ''],
  ['vad', 'vas', ''],
  ['cid', 'cis', ''],
  ['lid', 'lis', ''],
  ['erid', 'eris', ''],
  ['pand', 'pans', ''],
  ['end', 'ens', 's'],
  ['ond', 'ons', ''],
  ['lud', 'lus', ''],
  ['rud', 'rus', ''],
  ['her', 'hes', 'pt'],
  ['mit', 'mis', ''],
  ['ent', 'ens', 'm'],
  ['ert', 'ers', ''],
  ['et', 'es', 'n'],
  ['yt', 'ys', ''],
  ['yz', 'ys', ''],
];
const RESPELL_LONGEST = [...RESPELL].sort((a, b) => b[0].length - a[0].length);

export function lovinsStem(word: string): string {
  let w = word;
  for (const [ending, cond] of ENDINGS) {
    if (w.length > ending.length && w.endsWith(ending) && cond(w.slice(0, -ending.length))) {
      w = w.slice(0, -ending.length);
      break;
    }
  }
  if (DOUBLES.some((d) => w.endsWith(d))) w = w.slice(0, -1);
  // the longest matching end decides; when the letter before it is barred, nothing changes
  const r = RESPELL_LONGEST.find(([end]) => w.endsWith(end));
  if (r) {
    const [end, to, barred] = r;
    const before = w[w.length - end.length - 1];
    if (before === undefined || !barred.includes(before)) w = w.slice(0, -end.length) + to;
  }
  return w;
}
