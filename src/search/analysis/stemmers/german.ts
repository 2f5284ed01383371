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

/**
 * Caumanns' German stemmer (Lucene GermanStemmer, used by `german_stem`): letter groups are
 * masked (sch, ch, ei, ie, ig, st, doubled letters), the endings e/s/n/t/em/er/nd stripped while
 * enough remains, then the masks restored and a ge- particle inside the word removed.
 */
export function germanCaumannsStem(word: string): string {
  const term = word.toLowerCase();
  if (!/^\p{L}+$/u.test(term)) return term;
  const b = Array.from(term);
  let subst = 0;
  // substitute: mask letter groups so the strip step sees them as one letter
  for (let c = 0; c < b.length; c++) {
    if (c > 0 && b[c] === b[c - 1]) b[c] = '*';
    else if (b[c] === 'ä') b[c] = 'a';
    else if (b[c] === 'ö') b[c] = 'o';
    else if (b[c] === 'ü') b[c] = 'u';
    else if (b[c] === 'ß') {
      b[c] = 's';
      b.splice(c + 1, 0, 's');
      subst++;
    }
    if (c < b.length - 1) {
      const pair = b[c]! + b[c + 1]!;
      if (c < b.length - 2 && pair === 'sc' && b[c + 2] === 'h') {
        b.splice(c, 3, '$');
        subst += 2;
      } else if (Object.hasOwn(MASKS, pair)) {
        b.splice(c, 2, MASKS[pair]!);
        subst++;
      }
    }
  }
  const strip = () => {
    for (;;) {
      const n = b.length;
      if (n <= 3) return;
      const tail = b[n - 2]! + b[n - 1]!;
      if (n + subst > 5 && tail === 'nd') b.splice(n - 2, 2);
      else if (n + subst > 4 && (tail === 'em' || tail === 'er')) b.splice(n - 2, 2);
      else if ('esnt'.includes(b[n - 1]!)) b.splice(n - 1, 1);
      else return;
    }
  };
  strip();
  // female plurals of professions and inhabitants (-erin*), irregular plurals (-z → -x)
  if (b.length > 5 && b.slice(-5).join('') === 'erin*') {
    b.pop();
    strip();
  }
  if (b[b.length - 1] === 'z') b[b.length - 1] = 'x';
  // resubstitute
  let out = '';
  for (const ch of b) {
    if (ch === '*') out += out[out.length - 1] ?? '';
    else out += UNMASK[ch] ?? ch;
  }
  // particle denotion: the first "gege" inside the word loses its "ge"
  if (out.length > 4) {
    const at = out.indexOf('gege');
    if (at >= 0 && at < out.length - 3) out = out.slice(0, at) + out.slice(at + 2);
  }
  return out;
}

const MASKS: Record<string, string> = { ch: '§', ei: '%', ie: '&', ig: '#', st: '!' };
const UNMASK: Record<string, string> = {
  $: 'sch',
  '§': 'ch',
  '%': 'ei',
  '&': 'ie',
  '#': 'ig',
  '!': 'st',
};
