/**
 * Filters that add tokens at the position of their input token: Lucene
 * DictionaryCompoundWordTokenFilter, PatternCaptureGroupTokenFilter, CommonGramsFilter, and ES's
 * multiplexer. Each buffers what one input token expands to and emits it in Lucene's order.
 */
import { SingleTokenStream, Token, TokenFilter, type TokenStream } from '../token-stream.js';

/** Emits queued tokens first, then asks `expand` to fill the queue from the next input token. */
abstract class BufferingFilter extends TokenFilter {
  protected readonly queue: Token[] = [];
  next(): boolean {
    while (this.queue.length === 0) {
      if (!this.input.next()) return false;
      this.expand();
    }
    this.token.copyFrom(this.queue.shift()!);
    return true;
  }
  /** Reads `this.token` (the input token just read) and queues its outputs. */
  protected abstract expand(): void;
  protected snapshot(): Token {
    const t = new Token();
    t.copyFrom(this.token);
    return t;
  }
}

export interface DecompounderOptions {
  minWordSize: number;
  minSubwordSize: number;
  maxSubwordSize: number;
  onlyLongestMatch: boolean;
}

/** Lucene DictionaryCompoundWordTokenFilter: the token, then each dictionary word inside it. */
export class DictionaryDecompounder extends BufferingFilter {
  constructor(
    input: TokenStream,
    private readonly dictionary: ReadonlySet<string>,
    private readonly o: DecompounderOptions,
  ) {
    super(input);
  }
  protected expand(): void {
    const original = this.snapshot();
    this.queue.push(original);
    const term = original.term;
    if (term.length < this.o.minWordSize) return;
    for (let i = 0; i <= term.length - this.o.minSubwordSize; i++) {
      let longest: string | null = null;
      for (let j = this.o.minSubwordSize; j <= this.o.maxSubwordSize && i + j <= term.length; j++) {
        const part = term.slice(i, i + j);
        if (!this.dictionary.has(part)) continue;
        if (this.o.onlyLongestMatch) longest = part;
        else this.push(original, part);
      }
      if (longest !== null) this.push(original, longest);
    }
  }
  private push(original: Token, part: string): void {
    const t = new Token();
    t.copyFrom(original);
    t.term = part;
    t.posInc = 0;
    this.queue.push(t);
  }
}

/**
 * Lucene PatternCaptureGroupTokenFilter: every capture group of every match of every pattern
 * (the whole match when a pattern has no groups), ordered by start (longer first on ties); the
 * original first when preserved (or when nothing matched).
 */
export class PatternCaptureFilter extends BufferingFilter {
  constructor(
    input: TokenStream,
    private readonly patterns: readonly RegExp[],
    private readonly preserveOriginal: boolean,
  ) {
    super(input);
  }
  protected expand(): void {
    const original = this.snapshot();
    const term = original.term;
    const captures: Array<{ start: number; end: number; order: number }> = [];
    let order = 0;
    for (const p of this.patterns) {
      const re = new RegExp(p.source, p.flags.includes('g') ? p.flags : p.flags + 'gd');
      for (const m of term.matchAll(re)) {
        const indices = (m as RegExpMatchArray & { indices?: Array<[number, number] | undefined> })
          .indices!;
        const first = indices.length > 1 ? 1 : 0;
        for (let g = first; g < indices.length; g++) {
          const span = indices[g];
          if (span === undefined) continue;
          const [start, end] = span;
          if (start === end) continue;
          if (this.preserveOriginal && start === 0 && end === term.length) continue;
          captures.push({ start, end, order: order++ });
        }
        if (m[0].length === 0) re.lastIndex++;
      }
    }
    captures.sort((a, b) => a.start - b.start || b.end - a.end || a.order - b.order);
    if (this.preserveOriginal || captures.length === 0) this.queue.push(original);
    for (const c of captures) {
      const t = new Token();
      t.copyFrom(original);
      t.term = term.slice(c.start, c.end);
      t.posInc = this.queue.length === 0 ? original.posInc : 0;
      this.queue.push(t);
    }
  }
}

/**
 * Lucene CommonGramsFilter: every token, plus a `gram` token (term_next, position length 2)
 * after each token that is or precedes a common word. In query mode (CommonGramsQueryFilter)
 * a unigram is dropped when a gram starting at it was formed, and a common word's unigram is
 * dropped when it is the second word of the previous gram.
 */
export class CommonGramsFilter extends TokenFilter {
  private readonly out: Token[] = [];
  private lookahead: Token | null = null;
  private done = false;
  private lastWasGram = false;
  constructor(
    input: TokenStream,
    private readonly common: ReadonlySet<string>,
    private readonly ignoreCase: boolean,
    private readonly queryMode: boolean,
  ) {
    super(input);
  }
  private isCommon(t: Token): boolean {
    return this.common.has(this.ignoreCase ? t.term.toLowerCase() : t.term);
  }
  private read(): Token | null {
    if (this.done) return null;
    if (!this.input.next()) {
      this.done = true;
      return null;
    }
    const t = new Token();
    t.copyFrom(this.token);
    return t;
  }
  next(): boolean {
    if (this.out.length === 0) {
      const cur = this.lookahead ?? this.read();
      this.lookahead = null;
      if (cur === null) return false;
      const nxt = this.read();
      this.lookahead = nxt;
      const gram =
        nxt !== null && (this.isCommon(cur) || this.isCommon(nxt)) ? this.gramOf(cur, nxt) : null;
      if (this.queryMode) {
        // a unigram that starts a gram is replaced by it; the last unigram is dropped when it
        // ended the gram emitted before it
        if (gram === null && nxt === null && this.lastWasGram) return false;
        this.lastWasGram = gram !== null;
        this.out.push(gram ?? cur);
      } else {
        this.out.push(cur);
        if (gram !== null) this.out.push(gram);
      }
    }
    this.token.copyFrom(this.out.shift()!);
    return true;
  }
  private gramOf(a: Token, b: Token): Token {
    const g = new Token();
    g.copyFrom(a);
    g.term = a.term + '_' + b.term;
    g.endOffset = b.endOffset;
    g.type = 'gram';
    g.posInc = this.queryMode ? 1 : 0;
    g.posLen = 2;
    return g;
  }
  override end(): void {
    this.input.end();
  }
}

/**
 * ES MultiplexerTokenFilter: each input token runs through every filter chain (and itself when
 * `preserve_original`); the outputs are stacked at the token's position, duplicates removed.
 */
export class MultiplexFilter extends BufferingFilter {
  constructor(
    input: TokenStream,
    private readonly chains: ReadonlyArray<(input: TokenStream) => TokenStream>,
    private readonly preserveOriginal: boolean,
  ) {
    super(input);
  }
  protected expand(): void {
    const original = this.snapshot();
    const seen = new Set<string>();
    const push = (t: Token) => {
      if (seen.has(t.term)) return;
      seen.add(t.term);
      const c = new Token();
      c.copyFrom(t);
      c.posInc = this.queue.length === 0 ? original.posInc : 0;
      this.queue.push(c);
    };
    if (this.preserveOriginal) push(original);
    for (const chain of this.chains) {
      const s = chain(new SingleTokenStream(original));
      while (s.next()) push(s.token);
    }
  }
}
