/**
 * Lucene WordDelimiterFilter / WordDelimiterGraphFilter: splits a token into sub-words at
 * non-alphanumeric delimiters, lower→upper case changes and letter↔digit changes, drops a trailing
 * English possessive, and optionally adds catenations of word, number or all parts and the
 * original. The graph variant puts catenations before the parts they span (with their position
 * length); the classic one after the first part.
 */
import { Token, TokenFilter, type TokenStream } from '../token-stream.js';

const LOWER = 1;
const UPPER = 2;
const DIGIT = 4;
const DELIM = 8;
const ALPHA = LOWER | UPPER;

/** Character classes by name, for `type_table` rules (Lucene WordDelimiterFilter constants). */
export const WORD_DELIMITER_TYPES: Record<string, number> = {
  LOWER,
  UPPER,
  ALPHA,
  DIGIT,
  ALPHANUM: ALPHA | DIGIT,
  SUBWORD_DELIM: DELIM,
};

function charType(c: string, table?: ReadonlyMap<string, number>): number {
  const own = table?.get(c);
  if (own !== undefined) return own;
  if (/\p{Ll}/u.test(c)) return LOWER;
  if (/\p{Lu}/u.test(c)) return UPPER;
  if (/\p{L}/u.test(c)) return LOWER; // other letters (Lo, Lm, Lt) count as lower case
  if (/\p{Nd}/u.test(c)) return DIGIT;
  return DELIM;
}

export interface WordDelimiterOptions {
  generateWordParts: boolean;
  generateNumberParts: boolean;
  catenateWords: boolean;
  catenateNumbers: boolean;
  catenateAll: boolean;
  splitOnCaseChange: boolean;
  splitOnNumerics: boolean;
  preserveOriginal: boolean;
  stemEnglishPossessive: boolean;
  protectedWords: ReadonlySet<string>;
  /** `type_table`: characters given another class. */
  typeTable?: ReadonlyMap<string, number>;
  graph: boolean;
}

interface Part {
  start: number;
  end: number;
  alpha: boolean;
}

/** The sub-word spans of `term` (code-unit indices). */
export function subwords(term: string, o: WordDelimiterOptions): Part[] {
  const chars = Array.from(term);
  const parts: Part[] = [];
  let idx = 0;
  let start = -1;
  let last = 0;
  const close = (end: number) => {
    if (start >= 0) parts.push({ start, end, alpha: (last & ALPHA) !== 0 });
    start = -1;
  };
  for (const c of chars) {
    const t = charType(c, o.typeTable);
    if (t === DELIM) close(idx);
    else if (start < 0) start = idx;
    else if (isBreak(last, t, o)) {
      close(idx);
      start = idx;
    }
    if (t !== DELIM) last = t;
    idx += c.length;
  }
  close(idx);
  // English possessive: "'s" after the last part
  if (o.stemEnglishPossessive && parts.length >= 2) {
    const p = parts[parts.length - 1]!;
    const prev = parts[parts.length - 2]!;
    if (
      term.slice(p.start, p.end).toLowerCase() === 's' &&
      p.end === term.length &&
      /['\u2019]/.test(term.slice(prev.end, p.start)) &&
      p.start - prev.end === 1
    ) {
      parts.pop();
    }
  }
  return parts;
}

function isBreak(last: number, t: number, o: WordDelimiterOptions): boolean {
  if ((t & last) !== 0) return false;
  if (!o.splitOnCaseChange && (last & ALPHA) !== 0 && (t & ALPHA) !== 0) return false;
  if ((last & UPPER) !== 0 && (t & ALPHA) !== 0) return false;
  if (
    !o.splitOnNumerics &&
    (((last & ALPHA) !== 0 && t === DIGIT) || (last === DIGIT && (t & ALPHA) !== 0))
  ) {
    return false;
  }
  return true;
}

export class WordDelimiterFilter extends TokenFilter {
  private readonly queue: Token[] = [];
  constructor(
    input: TokenStream,
    private readonly o: WordDelimiterOptions,
  ) {
    super(input);
  }

  next(): boolean {
    while (this.queue.length === 0) {
      if (!this.input.next()) return false;
      this.expand();
    }
    this.token.copyFrom(this.queue.shift()!);
    return true;
  }

  private expand(): void {
    const original = new Token();
    original.copyFrom(this.token);
    const term = original.term;
    if (this.o.protectedWords.has(term)) {
      this.queue.push(original);
      return;
    }
    const parts = subwords(term, this.o);
    // a token that is one part already needs no splitting
    if (parts.length === 1 && parts[0]!.start === 0 && parts[0]!.end === term.length) {
      this.queue.push(original);
      return;
    }
    const exactOffsets = original.endOffset - original.startOffset === term.length;
    const make = (first: Part, lastPart: Part, text: string, posInc: number, posLen: number) => {
      const t = new Token();
      t.copyFrom(original);
      t.term = text;
      if (exactOffsets) {
        t.startOffset = original.startOffset + first.start;
        t.endOffset = original.startOffset + lastPart.end;
      }
      t.posInc = posInc;
      t.posLen = posLen;
      return t;
    };
    const emitted: Array<{ at: number; t: Token; before: boolean }> = [];
    const keep = parts
      .map((p, i) => ({ p, i }))
      .filter(({ p }) => (p.alpha ? this.o.generateWordParts : this.o.generateNumberParts));
    keep.forEach(({ p, i }) =>
      emitted.push({ at: i, t: make(p, p, term.slice(p.start, p.end), 1, 1), before: false }),
    );
    const catenate = (pred: (p: Part) => boolean) => {
      let run: number[] = [];
      const flush = () => {
        if (run.length > 1) {
          const a = parts[run[0]!]!;
          const b = parts[run[run.length - 1]!]!;
          const text = run.map((k) => term.slice(parts[k]!.start, parts[k]!.end)).join('');
          emitted.push({ at: run[0]!, t: make(a, b, text, 0, run.length), before: this.o.graph });
        }
        run = [];
      };
      parts.forEach((p, i) => (pred(p) ? run.push(i) : flush()));
      flush();
    };
    if (this.o.catenateWords) catenate((p) => p.alpha);
    if (this.o.catenateNumbers) catenate((p) => !p.alpha);
    if (this.o.catenateAll) catenate(() => true);
    // order by the part they start at; catenations before (graph) or after (classic) that part
    emitted.sort((x, y) => x.at - y.at || Number(y.before) - Number(x.before));
    const out = emitted.map((e) => e.t);
    if (this.o.preserveOriginal) {
      original.posLen = this.o.graph ? Math.max(1, keep.length) : 1;
      out.unshift(original);
    }
    // positions: the first token takes the input's increment; each further part advances by one
    const isPart = new Set(
      keep.length === 0 ? [] : emitted.filter((e) => e.t.posInc === 1).map((e) => e.t),
    );
    let partsSeen = 0;
    out.forEach((t, k) => {
      const part = isPart.has(t);
      if (k === 0) t.posInc = original.posInc;
      else t.posInc = part && partsSeen > 0 ? 1 : 0;
      if (part) partsSeen++;
      if (!this.o.graph) t.posLen = 1;
    });
    this.queue.push(...out);
  }
}
