/**
 * Savoy's light stemmers for French, Spanish, Portuguese and Italian, as Lucene 7.7's
 * FrenchLightStemmer, SpanishLightStemmer, PortugueseLightStemmer and ItalianLightStemmer apply
 * them (written from Savoy's published rules: plural and feminine endings, a few derivational
 * suffixes, then accent folding).
 */

const isLetter = (c: string): boolean => /\p{L}/u.test(c);

/** Folds the accented vowels in `map` (char → replacement) throughout `s`. */
function fold(s: string, map: Record<string, string>): string {
  let out = '';
  for (const c of s) out += map[c] ?? c;
  return out;
}

const FRENCH_FOLD: Record<string, string> = {
  à: 'a',
  á: 'a',
  â: 'a',
  ô: 'o',
  è: 'e',
  é: 'e',
  ê: 'e',
  ù: 'u',
  û: 'u',
  î: 'i',
  ç: 'c',
};

/** Savoy's French light stemmer (Lucene FrenchLightStemmer). */
export function frenchLightStem(word: string): string {
  let s = word;
  const ends = (suf: string) => s.endsWith(suf);
  const cut = (n: number) => (s = s.slice(0, s.length - n));
  const n = () => s.length;
  if (n() > 5 && ends('x')) {
    if (s[n() - 3] === 'a' && s[n() - 2] === 'u' && s[n() - 4] !== 'e') {
      s = s.slice(0, n() - 2) + 'l' + s.slice(n() - 1);
    }
    cut(1);
  }
  if (n() > 3 && ends('x')) cut(1);
  if (n() > 3 && ends('s')) cut(1);
  if (n() > 9 && ends('issement')) return frenchNorm(s.slice(0, n() - 7) + 'r');
  if (n() > 8 && ends('issant')) return frenchNorm(s.slice(0, n() - 5) + 'r');
  if (n() > 6 && ends('ement')) {
    cut(4);
    if (n() > 3 && ends('ive')) return frenchNorm(s.slice(0, n() - 2) + 'f');
    return frenchNorm(s);
  }
  if (n() > 11 && ends('ficatrice')) return frenchNorm(s.slice(0, n() - 7) + 'er');
  if (n() > 10 && ends('ficateur')) return frenchNorm(s.slice(0, n() - 6) + 'er');
  if (n() > 9 && ends('catrice')) return frenchNorm(s.slice(0, n() - 7) + 'quer');
  if (n() > 8 && ends('cateur')) return frenchNorm(s.slice(0, n() - 6) + 'quer');
  if (n() > 8 && ends('atrice')) return frenchNorm(s.slice(0, n() - 6) + 'er');
  if (n() > 7 && ends('ateur')) return frenchNorm(s.slice(0, n() - 5) + 'er');
  if (n() > 6 && ends('trice')) s = s.slice(0, n() - 5) + 'teur';
  if (n() > 5 && ends('ième')) return frenchNorm(s.slice(0, n() - 4));
  if (n() > 7 && ends('teuse')) return frenchNorm(s.slice(0, n() - 5) + 'ter');
  if (n() > 6 && ends('teur')) return frenchNorm(s.slice(0, n() - 4) + 'ter');
  if (n() > 5 && ends('euse')) return frenchNorm(s.slice(0, n() - 2));
  if (n() > 8 && ends('ère')) return frenchNorm(s.slice(0, n() - 3) + 'er');
  if (n() > 7 && ends('ive')) return frenchNorm(s.slice(0, n() - 3) + 'if');
  if (n() > 4 && (ends('folle') || ends('molle'))) return frenchNorm(s.slice(0, n() - 3) + 'u');
  if (n() > 9 && ends('nnelle')) return frenchNorm(s.slice(0, n() - 5));
  if (n() > 9 && ends('nnel')) return frenchNorm(s.slice(0, n() - 3));
  if (n() > 4 && ends('ète')) s = s.slice(0, n() - 3) + 'et';
  if (n() > 8 && ends('ique')) cut(4);
  if (n() > 8 && ends('esse')) return frenchNorm(s.slice(0, n() - 3));
  if (n() > 7 && ends('inage')) return frenchNorm(s.slice(0, n() - 3));
  if (n() > 9 && ends('isation')) {
    cut(7);
    if (n() > 5 && ends('ual')) s = s.slice(0, n() - 2) + 'el';
    return frenchNorm(s);
  }
  if (n() > 9 && ends('isateur')) return frenchNorm(s.slice(0, n() - 7));
  if (n() > 8 && ends('ation')) return frenchNorm(s.slice(0, n() - 5));
  if (n() > 8 && ends('ition')) return frenchNorm(s.slice(0, n() - 5));
  return frenchNorm(s);
}

/** The light stemmer's final normalisation: accents, doubled letters, final r/e/e and doubles. */
function frenchNorm(word: string): string {
  let s = word;
  if (s.length > 4) {
    s = fold(s, FRENCH_FOLD);
    let out = s[0]!;
    for (let i = 1; i < s.length; i++) {
      const c = s[i]!;
      if (c === out[out.length - 1] && isLetter(c)) continue;
      out += c;
    }
    s = out;
  }
  if (s.length > 4 && s.endsWith('ie')) s = s.slice(0, -2);
  if (s.length > 4) {
    if (s.endsWith('r')) s = s.slice(0, -1);
    if (s.endsWith('e')) s = s.slice(0, -1);
    if (s.endsWith('e')) s = s.slice(0, -1);
    const l = s.length;
    if (l >= 2 && s[l - 1] === s[l - 2] && isLetter(s[l - 1]!)) s = s.slice(0, -1);
  }
  return s;
}

const VOWEL_FOLD: Record<string, string> = {
  à: 'a',
  á: 'a',
  â: 'a',
  ä: 'a',
  ò: 'o',
  ó: 'o',
  ô: 'o',
  ö: 'o',
  è: 'e',
  é: 'e',
  ê: 'e',
  ë: 'e',
  ù: 'u',
  ú: 'u',
  û: 'u',
  ü: 'u',
  ì: 'i',
  í: 'i',
  î: 'i',
  ï: 'i',
};

/** Savoy's Spanish light stemmer (Lucene SpanishLightStemmer): plural and gender endings. */
export function spanishLightStem(word: string): string {
  if (word.length < 5) return word;
  const s = fold(word, VOWEL_FOLD);
  const n = s.length;
  switch (s[n - 1]) {
    case 'o':
    case 'a':
    case 'e':
      return s.slice(0, n - 1);
    case 's':
      if (s[n - 2] === 'e' && s[n - 3] === 's' && s[n - 4] === 'e') return s.slice(0, n - 2);
      if (s[n - 2] === 'e' && s[n - 3] === 'c') return s.slice(0, n - 3) + 'z';
      if (s[n - 2] === 'o' || s[n - 2] === 'a' || s[n - 2] === 'e') return s.slice(0, n - 2);
      return s;
    default:
      return s;
  }
}

const PT_FOLD: Record<string, string> = { ...VOWEL_FOLD, ã: 'a', õ: 'o', ç: 'c' };

/** Savoy's Portuguese light stemmer (Lucene PortugueseLightStemmer). */
export function portugueseLightStem(word: string): string {
  if (word.length < 4) return word;
  let s = portugueseSuffix(word);
  if (s.length > 3 && s.endsWith('a')) s = portugueseFeminine(s);
  if (s.length > 4 && 'eao'.includes(s[s.length - 1]!)) s = s.slice(0, -1);
  return fold(s, PT_FOLD);
}

function portugueseSuffix(s: string): string {
  const n = s.length;
  const ends = (x: string) => s.endsWith(x);
  if (n > 4 && ends('es') && 'rslz'.includes(s[n - 3]!)) return s.slice(0, n - 2);
  if (n > 3 && ends('ns')) return s.slice(0, n - 2) + 'm';
  if (n > 4 && (ends('eis') || ends('éis'))) return s.slice(0, n - 3) + 'el';
  if (n > 4 && ends('ais')) return s.slice(0, n - 2) + 'l';
  if (n > 4 && ends('óis')) return s.slice(0, n - 3) + 'ol';
  if (n > 4 && ends('is')) return s.slice(0, n - 1) + 'l';
  if (n > 3 && (ends('ões') || ends('ães'))) return s.slice(0, n - 3) + 'ão';
  if (n > 6 && ends('mente')) return s.slice(0, n - 5);
  if (n > 3 && ends('s')) return s.slice(0, n - 1);
  return s;
}

function portugueseFeminine(s: string): string {
  const n = s.length;
  const ends = (x: string) => s.endsWith(x);
  if (n > 7 && (ends('inha') || ends('iaca') || ends('eira'))) return s.slice(0, n - 1) + 'o';
  if (n > 6) {
    if (['osa', 'ica', 'ida', 'ada', 'iva', 'ama'].some(ends)) return s.slice(0, n - 1) + 'o';
    if (ends('ona')) return s.slice(0, n - 3) + 'ão';
    if (ends('ora')) return s.slice(0, n - 1);
    if (ends('esa')) return s.slice(0, n - 3) + 'ês';
    if (ends('na')) return s.slice(0, n - 1) + 'o';
  }
  return s;
}

/** Savoy's Italian light stemmer (Lucene ItalianLightStemmer): final vowel (and i/h before it). */
export function italianLightStem(word: string): string {
  if (word.length < 6) return word;
  const s = fold(word, VOWEL_FOLD);
  const n = s.length;
  const prev = s[n - 2];
  switch (s[n - 1]) {
    case 'e':
    case 'i':
      return prev === 'i' || prev === 'h' ? s.slice(0, n - 2) : s.slice(0, n - 1);
    case 'a':
    case 'o':
      return prev === 'i' ? s.slice(0, n - 2) : s.slice(0, n - 1);
    default:
      return s;
  }
}
