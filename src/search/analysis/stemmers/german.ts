/**
 * German normalisation (Lucene GermanNormalizationFilter: umlauts folded, ß → ss, the
 * ae/oe/ue spellings of umlauts collapsed) and Savoy's German light stemmer (Lucene
 * GermanLightStemmer), written from their published descriptions.
 */

/** Lucene GermanNormalizationFilter. */
export function germanNormalize(word: string): string {
  // state: 0 = none, 1 = after a vowel that blocks 'e'-deletion, 2 = after a/o/u ('e' drops)
  let state = 0;
  let out = '';
  for (const c of word) {
    switch (c) {
      case 'a':
      case 'o':
        state = 2;
        break;
      case 'u':
        state = state === 0 ? 2 : 1;
        break;
      case 'e':
        if (state === 2) {
          state = 1;
          continue;
        }
        state = 1;
        break;
      case 'i':
      case 'q':
      case 'y':
        state = 1;
        break;
      case 'ä':
        out += 'a';
        state = 1;
        continue;
      case 'ö':
        out += 'o';
        state = 1;
        continue;
      case 'ü':
        out += 'u';
        state = 1;
        continue;
      case 'ß':
        out += 'ss';
        state = 0;
        continue;
      default:
        state = 0;
    }
    out += c;
  }
  return out;
}

const GERMAN_FOLD: Record<string, string> = {
  ä: 'a',
  à: 'a',
  á: 'a',
  â: 'a',
  ö: 'o',
  ò: 'o',
  ó: 'o',
  ô: 'o',
  ï: 'i',
  ì: 'i',
  í: 'i',
  î: 'i',
  ü: 'u',
  ù: 'u',
  ú: 'u',
  û: 'u',
};

/** Consonants after which a final -s / -st is an inflection. */
const ST_ENDING = new Set(['b', 'd', 'f', 'g', 'h', 'k', 'l', 'm', 'n', 't']);

/** Savoy's German light stemmer (Lucene GermanLightStemmer). */
export function germanLightStem(word: string): string {
  let s = '';
  for (const c of word) s += GERMAN_FOLD[c] ?? c;
  return germanStep2(germanStep1(s));
}

function germanStep1(s: string): string {
  const n = s.length;
  if (n > 5 && s.endsWith('ern')) return s.slice(0, n - 3);
  if (n > 4 && s[n - 2] === 'e' && 'mnrs'.includes(s[n - 1]!)) return s.slice(0, n - 2);
  if (n > 3 && s[n - 1] === 'e') return s.slice(0, n - 1);
  if (n > 3 && s[n - 1] === 's' && ST_ENDING.has(s[n - 2]!)) return s.slice(0, n - 1);
  return s;
}

function germanStep2(s: string): string {
  const n = s.length;
  if (n > 5 && s.endsWith('est')) return s.slice(0, n - 3);
  if (n > 4 && (s.endsWith('er') || s.endsWith('en'))) return s.slice(0, n - 2);
  if (n > 4 && s.endsWith('st') && ST_ENDING.has(s[n - 3]!)) return s.slice(0, n - 2);
  return s;
}
