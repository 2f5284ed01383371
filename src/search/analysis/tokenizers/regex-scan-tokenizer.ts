/**
 * Tokenizers defined by an ordered list of token rules matched at each position (longest match
 * wins, earlier rule on ties): Lucene's ClassicTokenizer grammar, and the e-mail/URL rules that
 * UAX29URLEmailTokenizer adds in front of the standard tokenizer's.
 */
import { Tokenizer } from '../token-stream.js';
import { StandardTokenizer } from './standard-tokenizer.js';

export interface TokenRule {
  readonly type: string;
  /** Sticky regex matched at the current position. */
  readonly re: RegExp;
}

const sticky = (source: string) => new RegExp(source, 'uy');

const ALNUM = '[\\p{L}\\p{Nd}]';
const LETTER = '\\p{L}';
const CJ = '[\\p{sc=Han}\\p{sc=Hiragana}\\p{sc=Katakana}\\p{sc=Hangul}]';
const EMAIL_LOCAL = "[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*";
const DOMAIN_LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?';

/** Lucene ClassicTokenizer's token types in grammar order. */
export const CLASSIC_RULES: readonly TokenRule[] = [
  { type: '<ALPHANUM>', re: sticky(`(?:(?!${CJ})${ALNUM})+`) },
  { type: '<APOSTROPHE>', re: sticky(`${LETTER}+(?:'${LETTER}+)+`) },
  { type: '<ACRONYM>', re: sticky(`${LETTER}\\.(?:${LETTER}\\.)+`) },
  { type: '<COMPANY>', re: sticky(`${LETTER}+[&@]${LETTER}+`) },
  { type: '<EMAIL>', re: sticky(`${ALNUM}+(?:[._-]${ALNUM}+)*@${ALNUM}+(?:[._-]${ALNUM}+)+`) },
  { type: '<HOST>', re: sticky(`${ALNUM}+(?:\\.${ALNUM}+)+`) },
  {
    // numbers, and alphanumerics joined by punctuation where every other part has a digit
    type: '<NUM>',
    re: sticky(
      `(?:${ALNUM}*\\p{Nd}${ALNUM}*(?:[_\\-/.,]${ALNUM}+)+|${ALNUM}+(?:[_\\-/.,]${ALNUM}*\\p{Nd}${ALNUM}*)+)`,
    ),
  },
  { type: '<CJ>', re: sticky(CJ) },
];

const ALNUM_RUN = sticky(`${ALNUM}+`);
const JOINERS = "'.&@_-/,";

/** Lucene ClassicTokenizer: longest rule match at each position; other characters are skipped. */
export class ClassicTokenizer extends Tokenizer {
  private pos = 0;
  constructor(private readonly maxTokenLength = 255) {
    super();
  }
  protected override onReset(): void {
    this.pos = 0;
  }
  next(): boolean {
    const text = this.text;
    while (this.pos < text.length) {
      let best: { type: string; end: number } | null = null;
      // Only an alphanumeric run followed by joining punctuation can match more than
      // <ALPHANUM>; long runs skip the other rules (their regexes backtrack quadratically).
      ALNUM_RUN.lastIndex = this.pos;
      const run = ALNUM_RUN.exec(text);
      const runEnd = run === null ? this.pos : this.pos + run[0].length;
      const joins =
        run !== null &&
        JOINERS.includes(text[runEnd] ?? '') &&
        run[0].length <= this.maxTokenLength;
      for (const r of joins || run === null ? CLASSIC_RULES : CLASSIC_RULES.slice(0, 1)) {
        r.re.lastIndex = this.pos;
        const m = r.re.exec(text);
        if (m !== null && m[0].length > 0) {
          const end = this.pos + m[0].length;
          if (best === null || end > best.end) best = { type: r.type, end };
        }
      }
      if (best === null) {
        this.pos += text.codePointAt(this.pos)! > 0xffff ? 2 : 1;
        continue;
      }
      const start = this.pos;
      this.pos = best.end;
      if (best.end - start > this.maxTokenLength) continue; // Lucene skips overlong tokens
      const t = this.token;
      t.term = text.slice(start, best.end);
      t.startOffset = this.correctOffset(start);
      t.endOffset = this.correctOffset(best.end);
      t.type = best.type;
      t.posInc = 1;
      t.posLen = 1;
      t.keyword = false;
      return true;
    }
    return false;
  }
}

const EMAIL_WHOLE = new RegExp(`^${EMAIL_LOCAL}@(?:${DOMAIN_LABEL}\\.)+[A-Za-z]{2,}$`);
const URL_WHOLE = new RegExp(
  `^(?:[A-Za-z][A-Za-z0-9+.-]*://[^\\s<>"'\\p{Ps}\\p{Pe}]*[^\\s<>"'.,;:!?\\p{Ps}\\p{Pe}]|www\\.(?:${DOMAIN_LABEL}\\.)+[A-Za-z]{2,}(?:/[^\\s<>"']*[^\\s<>"'.,;:!?])?)$`,
  'u',
);
/** Longest e-mail or URL considered (bounds the expansion and the validating regexes). */
const MAX_SPAN = 1024;
const LOCAL_CHAR = /[A-Za-z0-9!#$%&'*+/=?^_`{|}~.-]/;
const DOMAIN_CHAR = /[A-Za-z0-9.-]/;
const URL_CHAR = /[^\s<>"'\p{Ps}\p{Pe}]/u;
const SCHEME_CHAR = /[A-Za-z0-9+.-]/;

/** E-mail spans: each '@' expanded over local and domain characters (linear in the text). */
function emailSpans(text: string): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (let at = text.indexOf('@'); at >= 0; at = text.indexOf('@', at + 1)) {
    let a = at;
    while (a > 0 && at - a < MAX_SPAN && LOCAL_CHAR.test(text[a - 1]!)) a--;
    let b = at + 1;
    while (b < text.length && b - at < MAX_SPAN && DOMAIN_CHAR.test(text[b]!)) b++;
    // trim what cannot end or start an address
    while (a < at && text[a] === '.') a++;
    while (b > at + 1 && /[.-]/.test(text[b - 1]!)) b--;
    if (b - a <= MAX_SPAN && EMAIL_WHOLE.test(text.slice(a, b))) out.push([a, b]);
  }
  return out;
}

/** URL spans: each "://" (with its scheme) or "www." expanded over URL characters. */
function urlSpans(text: string): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  const starts: number[] = [];
  for (let i = text.indexOf('://'); i >= 0; i = text.indexOf('://', i + 3)) {
    let a = i;
    while (a > 0 && i - a < MAX_SPAN && SCHEME_CHAR.test(text[a - 1]!)) a--;
    if (a < i) starts.push(a);
  }
  for (let i = text.indexOf('www.'); i >= 0; i = text.indexOf('www.', i + 4)) {
    if (i === 0 || !/[\p{L}\p{Nd}]/u.test(text[i - 1]!)) starts.push(i);
  }
  starts.sort((x, y) => x - y);
  let covered = 0;
  for (const a of starts) {
    if (a < covered) continue; // inside a URL already found
    let b = a;
    while (b < text.length && b - a < MAX_SPAN && URL_CHAR.test(text[b]!)) b++;
    while (b > a && /[.,;:!?]/.test(text[b - 1]!)) b--;
    if (URL_WHOLE.test(text.slice(a, b))) {
      out.push([a, b]);
      covered = b;
    }
  }
  return out;
}

/**
 * Lucene UAX29URLEmailTokenizer: the standard tokenizer, except that e-mail addresses (<EMAIL>)
 * and URLs with a scheme or a www. host (<URL>) are kept whole.
 */
export class UaxUrlEmailTokenizer extends Tokenizer {
  private readonly std: StandardTokenizer;
  private tokens: Array<{ start: number; end: number; type: string }> = [];
  private at = 0;

  constructor(maxTokenLength = 255) {
    super();
    this.std = new StandardTokenizer(maxTokenLength);
  }

  protected override onReset(): void {
    const spans: Array<{ start: number; end: number; type: string }> = [];
    for (const [found, type] of [
      [emailSpans(this.text), '<EMAIL>'],
      [urlSpans(this.text), '<URL>'],
    ] as const) {
      for (const [start, end] of found) {
        if (!spans.some((x) => start < x.end && end > x.start)) spans.push({ start, end, type });
      }
    }
    // standard tokens outside the e-mail/URL spans, merged with the spans in text order
    const out = [...spans];
    this.std.reset(this.text, null);
    const st = this.std.token;
    while (this.std.next()) {
      const a = st.startOffset;
      const b = st.endOffset;
      if (!spans.some((x) => a < x.end && b > x.start))
        out.push({ start: a, end: b, type: st.type });
    }
    out.sort((x, y) => x.start - y.start);
    this.tokens = out;
    this.at = 0;
  }

  next(): boolean {
    const tok = this.tokens[this.at++];
    if (tok === undefined) return false;
    const t = this.token;
    t.term = this.text.slice(tok.start, tok.end);
    t.startOffset = this.correctOffset(tok.start);
    t.endOffset = this.correctOffset(tok.end);
    t.type = tok.type;
    t.posInc = 1;
    t.posLen = 1;
    t.keyword = false;
    return true;
  }
}
