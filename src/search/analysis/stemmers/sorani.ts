/**
 * The light Sorani Kurdish stemmer of Lucene 7.7 (SoraniStemmer, after Esmaili et al.): one
 * postposition, one possessive pronoun, then one article/plural/ezafe suffix, each only when
 * enough of the word remains.
 */

const SUFFIXES: ReadonlyArray<readonly [string, number]> = [
  // [suffix, minimum word length + 1]: checked in order, the first match is removed
  ['ێکی', 7], // indefinite singular ezafe
  ['یەکی', 8],
  ['ێک', 6], // indefinite singular
  ['یەک', 7],
  ['ەکە', 7], // definite singular
  ['کە', 6],
  ['ەکان', 8], // definite plural
  ['کان', 7],
  ['یانی', 8], // indefinite plural ezafe
  ['انی', 7],
  ['یان', 7], // indefinite plural
  ['ان', 6],
  ['یانە', 8], // demonstrative plural
  ['انە', 7],
  ['ایە', 6], // demonstrative singular
  ['ەیە', 6],
  ['ە', 5],
  ['ی', 5], // absolute singular ezafe
];

export function soraniStem(word: string): string {
  let s = word;
  // postpositions
  if (s.length > 5 && s.endsWith('دا')) s = s.slice(0, -2);
  else if (s.length > 4 && s.endsWith('نا')) s = s.slice(0, -1);
  else if (s.length > 6 && s.endsWith('ەوە')) s = s.slice(0, -3);
  // possessive pronouns
  if (s.length > 6 && (s.endsWith('مان') || s.endsWith('یان') || s.endsWith('تان'))) {
    s = s.slice(0, -3);
  }
  for (const [suffix, min] of SUFFIXES) {
    if (s.length >= min && s.endsWith(suffix)) {
      // demonstrative singular -ایە/-ەیە drops only the final two letters
      const cut = suffix === 'ایە' || suffix === 'ەیە' ? 2 : suffix.length;
      return s.slice(0, s.length - cut);
    }
  }
  return s;
}
