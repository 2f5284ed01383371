/**
 * The pull-based token pipeline (Lucene's TokenStream/attribute model): one mutable `Token` is
 * shared by a tokenizer and the filters wrapped around it, so a whole chain runs without
 * allocating per token beyond the term strings themselves.
 */

/** The current token's attributes (Lucene CharTerm/Offset/PositionIncrement/Type/Keyword). */
export class Token {
  term = '';
  startOffset = 0;
  endOffset = 0;
  type = 'word';
  posInc = 1;
  posLen = 1;
  /** KeywordAttribute: stemmers leave keyword-marked tokens alone. */
  keyword = false;
  /** PayloadAttribute: bytes a payload filter attached (term vectors show them). */
  payload: Uint8Array | null = null;

  copyFrom(o: Token): void {
    this.payload = o.payload;
    this.term = o.term;
    this.startOffset = o.startOffset;
    this.endOffset = o.endOffset;
    this.type = o.type;
    this.posInc = o.posInc;
    this.posLen = o.posLen;
    this.keyword = o.keyword;
  }
}

/** Maps an offset in char-filtered text back to the original text (Lucene CharFilter.correctOffset). */
export type OffsetCorrector = (offset: number) => number;

export interface TokenStream {
  readonly token: Token;
  /** Lucene incrementToken(): advances to the next token; false at the end. */
  next(): boolean;
  /** Lucene end(): leaves the final position increment in `token.posInc` and final offset in `token.endOffset`. */
  end(): void;
}

export abstract class Tokenizer implements TokenStream {
  readonly token = new Token();
  protected text = '';
  protected correct: OffsetCorrector | null = null;

  /** Starts tokenizing `text`; `correct` maps offsets back through char filters. */
  reset(text: string, correct: OffsetCorrector | null = null): void {
    this.text = text;
    this.correct = correct;
    this.onReset();
  }

  protected onReset(): void {}

  protected correctOffset(off: number): number {
    return this.correct === null ? off : this.correct(off);
  }

  abstract next(): boolean;

  end(): void {
    const t = this.token;
    t.posInc = 0;
    t.startOffset = t.endOffset = this.correctOffset(this.text.length);
  }
}

/** A filter over another stream; shares its token. */
export abstract class TokenFilter implements TokenStream {
  readonly token: Token;
  constructor(protected readonly input: TokenStream) {
    this.token = input.token;
  }
  abstract next(): boolean;
  end(): void {
    this.input.end();
  }
}

/**
 * Lucene FilteringTokenFilter: drops tokens for which `accept()` is false, adding their position
 * increments to the next kept token (and to the final increment at end()).
 */
export abstract class FilteringTokenFilter extends TokenFilter {
  private skipped = 0;
  protected abstract accept(): boolean;
  next(): boolean {
    this.skipped = 0;
    while (this.input.next()) {
      if (this.accept()) {
        if (this.skipped !== 0) this.token.posInc += this.skipped;
        return true;
      }
      this.skipped += this.token.posInc;
    }
    return false;
  }
  override end(): void {
    this.input.end();
    this.token.posInc += this.skipped;
  }
}

/** A stream of one token, a copy of `source` (a filter chain run on the current token alone). */
export class SingleTokenStream implements TokenStream {
  readonly token = new Token();
  private used = false;
  constructor(private readonly source: Token) {}
  next(): boolean {
    if (this.used) return false;
    this.used = true;
    this.token.copyFrom(this.source);
    return true;
  }
  end(): void {
    this.token.posInc = 0;
  }
}
