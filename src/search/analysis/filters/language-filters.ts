/**
 * Token filters the language analyzers share: a term normaliser (Lucene's *NormalizationFilter
 * family, applied to every token), elision (Lucene ElisionFilter), decimal digits (Lucene
 * DecimalDigitFilter), CJK width folding (Lucene CJKWidthFilter), Turkish/Irish/Greek lower-casing
 * and the apostrophe filter (Lucene ApostropheFilter).
 */
import { TokenFilter, type TokenStream } from '../token-stream.js';

/** Rewrites every term with `fn` (normalisers ignore the keyword flag). */
export class TermMapFilter extends TokenFilter {
  constructor(
    input: TokenStream,
    private readonly fn: (term: string) => string,
  ) {
    super(input);
  }
  next(): boolean {
    if (!this.input.next()) return false;
    this.token.term = this.fn(this.token.term);
    return true;
  }
}

/** Lucene ElisionFilter: strips an article and its apostrophe (' or ’) from the term's start. */
export function elide(term: string, articles: ReadonlySet<string>, ignoreCase: boolean): string {
  for (let i = 0; i < term.length; i++) {
    const c = term[i];
    if (c === "'" || c === '\u2019') {
      const prefix = term.slice(0, i);
      return articles.has(ignoreCase ? prefix.toLowerCase() : prefix) ? term.slice(i + 1) : term;
    }
  }
  return term;
}

export const FRENCH_ARTICLES = [
  'l',
  'm',
  't',
  'qu',
  'n',
  's',
  'j',
  'd',
  'c',
  'jusqu',
  'quoiqu',
  'lorsqu',
  'puisqu',
];
export const ITALIAN_ARTICLES = [
  'c',
  'l',
  'all',
  'dall',
  'dell',
  'nell',
  'sull',
  'coll',
  'pell',
  'gl',
  'agl',
  'dagl',
  'degl',
  'negl',
  'sugl',
  'un',
  'm',
  't',
  's',
  'v',
  'd',
];
export const CATALAN_ARTICLES = ['d', 'l', 'm', 'n', 's', 't'];
export const IRISH_ARTICLES = ['d', 'm', 'b'];

/** Lucene DecimalDigitFilter: any Unicode decimal digit (Nd) becomes its ASCII digit. */
export function foldDecimalDigits(term: string): string {
  if (/^[\x00-\x7f]*$/.test(term)) return term;
  let out = '';
  for (const c of term) {
    if (/\p{Nd}/u.test(c) && !(c >= '0' && c <= '9')) {
      // digits come in runs of ten starting at zero: the value is the distance from the run start
      let cp = c.codePointAt(0)!;
      let k = 0;
      while (/\p{Nd}/u.test(String.fromCodePoint(cp - 1))) {
        cp--;
        k++;
      }
      out += String(k % 10);
    } else out += c;
  }
  return out;
}

/**
 * Lucene CJKWidthFilter: full-width ASCII variants become ASCII, half-width katakana become
 * full-width (a following half-width voiced/semi-voiced mark is combined).
 */
export function foldCjkWidth(term: string): string {
  let out = '';
  for (let i = 0; i < term.length; i++) {
    const code = term.charCodeAt(i);
    if (code >= 0xff01 && code <= 0xff5e) out += String.fromCharCode(code - 0xfee0);
    else if (code >= 0xff65 && code <= 0xff9f) {
      const next = term.charCodeAt(i + 1);
      if (next === 0xff9e || next === 0xff9f) {
        const composed = (term[i]! + term[i + 1]!).normalize('NFKC');
        if (composed.length === 1) {
          out += composed;
          i++;
          continue;
        }
      }
      out += term[i]!.normalize('NFKC');
    } else out += term[i];
  }
  return out;
}

/** Lucene TurkishLowerCaseFilter: dotted/dotless i rules (I → ı, İ → i, I + U+0307 → i). */
export function turkishLowerCase(term: string): string {
  const cps = Array.from(term);
  let out = '';
  // inside an I and the non-spacing marks after it: a combining dot above goes (it is in the i)
  let iOrAfter = false;
  for (let i = 0; i < cps.length; i++) {
    const c = cps[i]!;
    iOrAfter = c === 'I' || (iOrAfter && NON_SPACING_MARK.test(c));
    if (iOrAfter && c === '\u0307') continue;
    if (c === 'I') {
      if (dotFollows(cps, i + 1)) out += 'i';
      else {
        out += '\u0131';
        iOrAfter = false;
      }
      continue;
    }
    // Java lower-cases code point by code point: İ is plain i
    out += c === '\u0130' ? 'i' : c.toLowerCase();
  }
  return out;
}

const NON_SPACING_MARK = /^\p{Mn}$/u;

/** A combining dot above comes before anything but non-spacing marks. */
function dotFollows(cps: readonly string[], from: number): boolean {
  for (let i = from; i < cps.length; i++) {
    if (!NON_SPACING_MARK.test(cps[i]!)) return false;
    if (cps[i] === '\u0307') return true;
  }
  return false;
}

/** Lucene IrishLowerCaseFilter: a prefixed n/t before an upper-case vowel gets a hyphen (nAthair → n-athair). */
export function irishLowerCase(term: string): string {
  const first = term[0];
  if (term.length > 1 && (first === 'n' || first === 't') && 'AEIOUÁÉÍÓÚ'.includes(term[1]!)) {
    return first + '-' + term.slice(1).toLowerCase();
  }
  return term.toLowerCase();
}

/** Lucene GreekLowerCaseFilter: lower-cases and removes the tonos and dialytika accents. */
export function greekLowerCase(term: string): string {
  let out = '';
  for (const c of term) out += GREEK_LOWER[c] ?? c.toLowerCase();
  return out;
}
const GREEK_LOWER: Record<string, string> = {
  Ά: 'α',
  ά: 'α',
  Έ: 'ε',
  έ: 'ε',
  Ή: 'η',
  ή: 'η',
  Ί: 'ι',
  ί: 'ι',
  Ϊ: 'ι',
  ϊ: 'ι',
  ΐ: 'ι',
  Ό: 'ο',
  ό: 'ο',
  Ύ: 'υ',
  ύ: 'υ',
  Ϋ: 'υ',
  ϋ: 'υ',
  ΰ: 'υ',
  Ώ: 'ω',
  ώ: 'ω',
  ς: 'σ',
  Σ: 'σ',
  ϲ: 'σ',
  Ϲ: 'σ',
  ϐ: 'β',
  ϑ: 'θ',
  ϒ: 'υ',
  ϰ: 'κ',
  ϱ: 'ρ',
  ϕ: 'φ',
  ϖ: 'π',
};

/** Lucene ApostropheFilter (Turkish): drops the apostrophe and everything after it. */
export function stripApostrophe(term: string): string {
  const i = term.search(/['\u2019]/);
  return i < 0 ? term : term.slice(0, i);
}
