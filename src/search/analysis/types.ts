/** Public analysis types (the contract the indexing and query layers use). */

/** Called once per token; avoid allocating objects per token. */
export type TokenSink = (
  term: string,
  position: number,
  startOffset: number,
  endOffset: number,
  type: string,
) => void;

export interface Analyzer {
  readonly name: string;
  /**
   * Tokenize + filter `text`. Positions start at `positionBase` (default 0); offsets at
   * `offsetBase` (default 0). Returns the position after the last token, counting trailing
   * removed tokens (for multi-valued fields the caller adds positionIncrementGap; the next
   * value's offsetBase is offsetBase + text.length + 1, Lucene's offset gap).
   */
  analyze(text: string, sink: TokenSink, positionBase?: number, offsetBase?: number): number;
  readonly positionIncrementGap: number;
  /**
   * Set (to the max token length) when the chain is exactly the standard tokenizer + lowercase:
   * the indexer then tokenizes ASCII text itself without building token strings.
   */
  readonly asciiStandardLower?: number;
}

/** Keyword field normalizer. */
export interface Normalizer {
  readonly name: string;
  normalize(value: string): string;
}

export interface AnalyzedToken {
  token: string;
  start_offset: number;
  end_offset: number;
  type: string;
  position: number;
}
