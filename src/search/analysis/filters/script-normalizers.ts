/**
 * Orthographic normalisers of Lucene 7.7 written from their published rules: Scandinavian
 * normalisation and folding, Serbian (Cyrillic and Latin to bald Latin), Sorani, Hindi, and
 * Bengali. Each maps one term to one term.
 */
import { ARABIC_DROP } from '../stemmers/arabic-persian.js';

const SCANDI_A = new Set(['a', 'A']);
const SCANDI_O = new Set(['o', 'O']);

/** Lucene ScandinavianNormalizationFilter: ä/ö → æ/ø; aa, ao → å; ae → æ; oe, oo → ø. */
export function scandinavianNormalize(term: string): string {
  let out = '';
  for (let i = 0; i < term.length; i++) {
    const c = term[i]!;
    const next = term[i + 1];
    if (c === 'ä') out += 'æ';
    else if (c === 'Ä') out += 'Æ';
    else if (c === 'ö') out += 'ø';
    else if (c === 'Ö') out += 'Ø';
    else if (SCANDI_A.has(c) && next !== undefined && 'aAoO'.includes(next)) {
      out += c === 'a' ? 'å' : 'Å';
      i++;
    } else if (SCANDI_A.has(c) && next !== undefined && 'eE'.includes(next)) {
      out += c === 'a' ? 'æ' : 'Æ';
      i++;
    } else if (SCANDI_O.has(c) && next !== undefined && 'eEoO'.includes(next)) {
      out += c === 'o' ? 'ø' : 'Ø';
      i++;
    } else out += c;
  }
  return out;
}

/** Lucene ScandinavianFoldingFilter: å/ä/æ → a, ö/ø → o; aa, ae, ao → a; oe, oo → o. */
export function scandinavianFold(term: string): string {
  const FOLD: Record<string, string> = {
    å: 'a',
    ä: 'a',
    æ: 'a',
    Å: 'A',
    Ä: 'A',
    Æ: 'A',
    ø: 'o',
    ö: 'o',
    Ø: 'O',
    Ö: 'O',
  };
  let out = '';
  for (let i = 0; i < term.length; i++) {
    const c = term[i]!;
    const next = term[i + 1];
    if (FOLD[c] !== undefined) out += FOLD[c];
    else if (SCANDI_A.has(c) && next !== undefined && 'aAeEoO'.includes(next)) {
      out += c;
      i++;
    } else if (SCANDI_O.has(c) && next !== undefined && 'eEoO'.includes(next)) {
      out += c;
      i++;
    } else out += c;
  }
  return out;
}

const SERBIAN: Record<string, string> = {
  а: 'a',
  б: 'b',
  в: 'v',
  г: 'g',
  д: 'd',
  ђ: 'dj',
  е: 'e',
  ж: 'z',
  з: 'z',
  и: 'i',
  ј: 'j',
  к: 'k',
  л: 'l',
  љ: 'lj',
  м: 'm',
  н: 'n',
  њ: 'nj',
  о: 'o',
  п: 'p',
  р: 'r',
  с: 's',
  т: 't',
  ћ: 'c',
  у: 'u',
  ф: 'f',
  х: 'h',
  ц: 'c',
  ч: 'c',
  џ: 'dz',
  ш: 's',
  ć: 'c',
  č: 'c',
  đ: 'dj',
  š: 's',
  ž: 'z',
};

/** Lucene SerbianNormalizationFilter: lower-case Cyrillic and Latin Serbian to "bald" Latin. */
export function serbianNormalize(term: string): string {
  let out = '';
  for (const c of term) out += SERBIAN[c] ?? c;
  return out;
}

// Sorani drops what Arabic drops: tatweel and the harakat
const SORANI_DROP = ARABIC_DROP;

/** Lucene SoraniNormalizer: Arabic letter variants to Sorani ones, final heh to ae, harakat dropped. */
export function soraniNormalize(term: string): string {
  const s = Array.from(term);
  const out: string[] = [];
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    switch (c) {
      case '\u064A': // yeh
      case '\u0649': // dotless yeh
        out.push('\u06CC');
        break;
      case '\u0643': // kaf
        out.push('\u06A9');
        break;
      case '\u200C': // zwnj after heh: the heh is the vowel ae
        if (out.length > 0 && out[out.length - 1] === '\u0647') out[out.length - 1] = '\u06D5';
        break;
      case '\u0647': // final heh
        out.push(i === s.length - 1 ? '\u06D5' : c);
        break;
      case '\u0629': // teh marbuta
        out.push('\u06D5');
        break;
      case '\u06BE': // heh doachashmee
        out.push('\u0647');
        break;
      case '\u0631': // initial reh is the trilled rreh
        out.push(i === 0 ? '\u0695' : c);
        break;
      case '\u0692': // reh with small v above
        out.push('\u0695');
        break;
      default:
        if (SORANI_DROP.has(c) || /\p{Cf}/u.test(c)) break;
        out.push(c);
    }
  }
  return out.join('');
}

const HINDI_MAP: Record<string, string> = {
  '\u0901': '\u0902', // candrabindu → anusvara
  '\u0929': '\u0928',
  '\u0931': '\u0930',
  '\u0934': '\u0933', // nukta letters
  '\u0958': '\u0915',
  '\u0959': '\u0916',
  '\u095A': '\u0917',
  '\u095B': '\u091C',
  '\u095C': '\u0921',
  '\u095D': '\u0922',
  '\u095E': '\u092B',
  '\u095F': '\u092F',
  '\u0945': '\u0947',
  '\u0946': '\u0947',
  '\u0949': '\u094B',
  '\u094A': '\u094B', // chandra/short
  '\u090D': '\u090F',
  '\u090E': '\u090F',
  '\u0911': '\u0913',
  '\u0912': '\u0913',
  '\u0972': '\u0905',
  '\u0906': '\u0905',
  '\u0908': '\u0907',
  '\u090A': '\u0909',
  '\u0960': '\u090B', // long → short
  '\u0961': '\u090C',
  '\u0910': '\u090F',
  '\u0914': '\u0913',
  '\u0940': '\u093F',
  '\u0942': '\u0941',
  '\u0944': '\u0943',
  '\u0963': '\u0962',
  '\u0948': '\u0947',
  '\u094C': '\u094B',
};
const HINDI_DROP = new Set(['\u093C', '\u200D', '\u200C', '\u094D']); // nukta, zwj, zwnj, virama

/**
 * Lucene HindiNormalizer (Leah Larkey's rules): dead n → anusvara, nukta and virama dropped,
 * variant and long vowels folded to their short forms.
 */
export function hindiNormalize(term: string): string {
  const s = Array.from(term);
  const out: string[] = [];
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c === '\u0928' && s[i + 1] === '\u094D') {
      out.push('\u0902');
      i++;
    } else if (HINDI_DROP.has(c)) continue;
    else out.push(HINDI_MAP[c] ?? c);
  }
  return out.join('');
}

const HI_SUFFIXES: ReadonlyArray<readonly [number, readonly string[]]> = [
  [5, ['ाएंगी', 'ाएंगे', 'ाऊंगी', 'ाऊंगा', 'ाइयाँ', 'ाइयों', 'ाइयां']],
  [
    4,
    [
      'ाएगी',
      'ाएगा',
      'ाओगी',
      'ाओगे',
      'एंगी',
      'ेंगी',
      'एंगे',
      'ेंगे',
      'ूंगी',
      'ूंगा',
      'ातीं',
      'नाओं',
      'नाएं',
      'ताओं',
      'ताएं',
      'ियाँ',
      'ियों',
      'ियां',
    ],
  ],
  [
    3,
    [
      'ाकर',
      'ाइए',
      'ाईं',
      'ाया',
      'ेगी',
      'ेगा',
      'ोगी',
      'ोगे',
      'ाने',
      'ाना',
      'ाते',
      'ाती',
      'ाता',
      'तीं',
      'ाओं',
      'ाएं',
      'ुओं',
      'ुएं',
      'ुआं',
    ],
  ],
  [2, ['कर', 'ाओ', 'िए', 'ाई', 'ाए', 'ने', 'नी', 'ना', 'ते', 'ीं', 'ती', 'ता', 'ाँ', 'ां', 'ों', 'ें']],
  [1, ['ो', 'े', 'ू', 'ु', 'ी', 'ि', 'ा']],
];

/** Lucene HindiStemmer (Ramanathan & Rao's light suffix stripper). */
export function hindiStem(term: string): string {
  for (const [n, suffixes] of HI_SUFFIXES) {
    if (term.length > n + 1 && suffixes.some((x) => term.endsWith(x))) {
      return term.slice(0, term.length - n);
    }
  }
  return term;
}

export { indicNormalize } from './indic-normalizer.js';

/**
 * Lucene 7.7 BengaliNormalizer (UzZaman and Khan's rules), on a char buffer as Lucene runs it:
 * chandrabindu dropped, long i/u kars shortened, ka + hasanta + i-kar → kha, nga → anusvara, ya
 * phala (hasanta + ya) and ba phala (hasanta + ba) folded, visarga doubled or dropped, the
 * sibilants → sa, murdhanya na → na, rra/rha → ra, khanda ta → ta.
 */
export function bengaliNormalize(term: string): string {
  const s = term.split('');
  const del = (i: number) => {
    // Lucene would fail on a ya at the very start (it deletes the char before it); skip that
    if (i >= 0 && i < s.length) s.splice(i, 1);
  };
  for (let i = 0; i < s.length; i++) {
    switch (s[i]) {
      case '\u0981': // chandrabindu
        del(i);
        i--;
        break;
      case '\u09C0':
        s[i] = '\u09BF';
        break;
      case '\u09C2':
        s[i] = '\u09C1';
        break;
      case '\u0995': // khio
        if (i + 2 < s.length && s[i + 1] === '\u09CD' && s[i + 2] === '\u09BF') {
          if (i === 0) {
            s[i] = '\u0996';
            del(i + 2);
            del(i + 1);
          } else {
            s[i + 1] = '\u0996';
            del(i + 2);
          }
        }
        break;
      case '\u0999':
        s[i] = '\u0982';
        break;
      case '\u09AF': // ya phala; Lucene drops every other ya with the char before it
        if (i - 2 === 0 && s[i - 1] === '\u09CD') {
          s[i - 1] = '\u09C7';
          if (s[i + 1] === '\u09BE') del(i + 1);
          del(i);
          i--;
        } else {
          del(i);
          del(i - 1);
          i -= 2;
        }
        break;
      case '\u09AC': // ba phala
        if (i === 0 || s[i - 1] !== '\u09CD') break;
        if (i - 2 === 0) {
          del(i);
          del(i - 1);
          i -= 2;
        } else if (i - 5 >= 0 && s[i - 3] === '\u09CD') {
          del(i);
          del(i - 1);
          i -= 2;
        } else {
          s[i - 1] = s[i - 2]!;
          del(i);
          i--;
        }
        break;
      case '\u0983': // visarga
        if (i === s.length - 1) {
          if (s.length <= 3) s[i] = '\u09B9';
          else del(i);
        } else {
          s[i] = s[i + 1]!;
        }
        break;
      case '\u09B6':
      case '\u09B7':
        s[i] = '\u09B8';
        break;
      case '\u09A3':
        s[i] = '\u09A8';
        break;
      case '\u09DC':
      case '\u09DD':
        s[i] = '\u09B0';
        break;
      case '\u09CE':
        s[i] = '\u09A4';
        break;
    }
    if (i < -1) i = -1;
  }
  return s.join('');
}
