/**
 * The analyzer pipeline: char filters → tokenizer → token filters (ES CustomAnalyzer), plus the
 * normalizer built on the keyword tokenizer. Built-in analyzers are chains too.
 */
import type { CharFilter, OffsetMap } from './char-filters/offset-map.js';
import type { Token, TokenStream, Tokenizer } from './token-stream.js';
import type { Analyzer, Normalizer, TokenSink } from './types.js';

export interface TokenizerFactory {
  readonly name: string;
  create(): Tokenizer;
  /** Set on the standard tokenizer (its max_token_length): enables the indexer's fast path. */
  readonly standardMaxTokenLength?: number;
}

export interface TokenFilterFactory {
  readonly name: string;
  create(input: TokenStream): TokenStream;
  /** Lucene MultiTermAwareComponent: usable in normalizers. */
  readonly normalizerSafe?: boolean;
  /** The filter adds Lucene's KeywordAttribute (shown as `keyword` by `_analyze` explain). */
  readonly keywordAware?: boolean;
  /** Filters the indexer's fast path understands: lowercase, and no-ops. */
  readonly role?: 'lowercase' | 'noop';
  /** ShingleTokenFilterFactory's sizes (the phrase suggester reads them to size its model). */
  readonly shingle?: {
    readonly min: number;
    readonly max: number;
    readonly outputUnigrams: boolean;
  };
}

export interface CharFilterFactory extends CharFilter {
  readonly normalizerSafe?: boolean;
}

/** Called per token with the shared token state and its absolute position. */
export type TokenVisitor = (token: Token, position: number) => void;

export class ChainAnalyzer implements Analyzer {
  readonly asciiStandardLower?: number;

  constructor(
    readonly name: string,
    readonly tokenizer: TokenizerFactory,
    readonly charFilters: readonly CharFilterFactory[],
    readonly tokenFilters: readonly TokenFilterFactory[],
    readonly positionIncrementGap: number,
    /** ES CustomAnalyzer (the `_analyze` explain output breaks it into its parts). */
    readonly custom: boolean,
  ) {
    const max = tokenizer.standardMaxTokenLength;
    const roles = tokenFilters.filter((f) => f.role !== 'noop').map((f) => f.role);
    if (
      max !== undefined &&
      charFilters.length === 0 &&
      roles.length === 1 &&
      roles[0] === 'lowercase'
    )
      this.asciiStandardLower = max;
  }

  /** Applies the char filters; returns the filtered text and the combined offset correction. */
  filterChars(text: string): { text: string; correct: ((off: number) => number) | null } {
    if (this.charFilters.length === 0) return { text, correct: null };
    const maps: OffsetMap[] = [];
    for (const cf of this.charFilters) {
      const r = cf.apply(text);
      text = r.text;
      maps.push(r.map);
    }
    // Lucene CharFilter.correctOffset: the last filter corrects first, then hands to its input.
    const correct = (off: number) => {
      for (let i = maps.length - 1; i >= 0; i--) off = maps[i]!.correct(off);
      return off;
    };
    return { text, correct };
  }

  /** Builds the token stream over `text`, stopping after `filterCount` token filters. */
  stream(text: string, filterCount = this.tokenFilters.length): TokenStream {
    const { text: filtered, correct } = this.filterChars(text);
    const tk = this.tokenizer.create();
    tk.reset(filtered, correct);
    let s: TokenStream = tk;
    for (let i = 0; i < filterCount; i++) s = this.tokenFilters[i]!.create(s);
    return s;
  }

  /** Runs the chain; returns the position after the last token (see Analyzer.analyze). */
  visit(text: string, visitor: TokenVisitor, positionBase = 0, filterCount?: number): number {
    const s = this.stream(text, filterCount);
    const t = s.token;
    let pos = positionBase - 1;
    while (s.next()) {
      if (t.posInc > 0) pos += t.posInc;
      visitor(t, pos);
    }
    s.end();
    return pos + t.posInc + 1;
  }

  analyze(text: string, sink: TokenSink, positionBase = 0, offsetBase = 0): number {
    const s = this.stream(text);
    const t = s.token;
    let pos = positionBase - 1;
    while (s.next()) {
      if (t.posInc > 0) pos += t.posInc;
      sink(t.term, pos, offsetBase + t.startOffset, offsetBase + t.endOffset, t.type);
    }
    s.end();
    return pos + t.posInc + 1;
  }

  /** The first shingle filter of a custom analyzer (ES PhraseSuggestionBuilder reads it). */
  get shingle(): TokenFilterFactory['shingle'] {
    if (!this.custom) return undefined;
    for (const f of this.tokenFilters) if (f.shingle) return f.shingle;
    return undefined;
  }

  get keywordAware(): boolean {
    return this.tokenFilters.some((f) => f.keywordAware === true);
  }
}

/** ES CustomNormalizer: keyword tokenizer + multi-term-aware char and token filters. */
export class ChainNormalizer implements Normalizer {
  constructor(
    readonly name: string,
    readonly chain: ChainAnalyzer,
  ) {}

  normalize(value: string): string {
    let out = '';
    const s = this.chain.stream(value);
    while (s.next()) out += s.token.term;
    return out;
  }
}
