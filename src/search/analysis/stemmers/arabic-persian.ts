/**
 * Arabic orthographic normalisation and light stemming (Larkey, Ballesteros & Connell's light-10,
 * as Lucene 7.7's ArabicNormalizer and ArabicStemmer apply it) and Persian normalisation (Lucene
 * PersianNormalizer), written from the published descriptions.
 */

const ARABIC_NORM: Record<string, string> = {
  '\u0622': '\u0627', // alef madda → alef
  '\u0623': '\u0627', // alef hamza above → alef
  '\u0625': '\u0627', // alef hamza below → alef
  '\u0649': '\u064A', // dotless yeh → yeh
  '\u0629': '\u0647', // teh marbuta → heh
};
/** Tatweel and the harakat (short vowels, tanween, shadda, sukun) are removed. */
export const ARABIC_DROP: ReadonlySet<string> = new Set([
  '\u0640',
  '\u064B',
  '\u064C',
  '\u064D',
  '\u064E',
  '\u064F',
  '\u0650',
  '\u0651',
  '\u0652',
]);

export function arabicNormalize(s: string): string {
  let out = '';
  for (const c of s) {
    if (ARABIC_DROP.has(c)) continue;
    out += ARABIC_NORM[c] ?? c;
  }
  return out;
}

const AR_PREFIXES = [
  '\u0627\u0644',
  '\u0648\u0627\u0644',
  '\u0628\u0627\u0644',
  '\u0643\u0627\u0644',
  '\u0641\u0627\u0644',
  '\u0644\u0644',
  '\u0648',
];
const AR_SUFFIXES = [
  '\u0647\u0627',
  '\u0627\u0646',
  '\u0627\u062A',
  '\u0648\u0646',
  '\u064A\u0646',
  '\u064A\u0647',
  '\u064A\u0629',
  '\u0647',
  '\u0629',
  '\u064A',
];

/** Light-10: one prefix (leaving at least two letters; 'و' only before three), then suffixes. */
export function arabicStem(word: string): string {
  let s = word;
  for (const p of AR_PREFIXES) {
    if (p.length === 1 && s.length < 4) continue;
    if (s.length >= p.length + 2 && s.startsWith(p)) {
      s = s.slice(p.length);
      break;
    }
  }
  for (const x of AR_SUFFIXES) {
    if (s.length >= x.length + 2 && s.endsWith(x)) s = s.slice(0, s.length - x.length);
  }
  return s;
}

const PERSIAN_NORM: Record<string, string> = {
  '\u06CC': '\u064A', // farsi yeh → yeh
  '\u06D2': '\u064A', // yeh barree → yeh
  '\u06A9': '\u0643', // keheh → kaf
  '\u06C0': '\u0647', // heh with yeh above → heh
  '\u06C1': '\u0647', // heh goal → heh
};

export function persianNormalize(s: string): string {
  let out = '';
  for (const c of s) {
    if (c === '\u0654') continue; // hamza above is dropped
    out += PERSIAN_NORM[c] ?? c;
  }
  return out;
}
