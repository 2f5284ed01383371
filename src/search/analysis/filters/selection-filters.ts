/**
 * Filters that keep, drop or cap tokens: Lucene LimitTokenCountFilter, KeepWordFilter,
 * TypeTokenFilter (keep_types) and ES's delimited payload filter (the term before the delimiter;
 * payloads are not stored here).
 */
import { FilteringTokenFilter, TokenFilter, type TokenStream } from '../token-stream.js';

export class LimitFilter extends TokenFilter {
  private count = 0;
  private exhausted = false;
  constructor(
    input: TokenStream,
    private readonly max: number,
    private readonly consumeAll: boolean,
  ) {
    super(input);
  }
  next(): boolean {
    if (this.exhausted) return false;
    if (this.count < this.max && this.input.next()) {
      this.count++;
      return true;
    }
    this.exhausted = true;
    // consume_all_tokens: read the rest so end() reports the true final offset/position
    if (this.consumeAll) while (this.input.next());
    return false;
  }
}

export class KeepWordFilter extends FilteringTokenFilter {
  constructor(
    input: TokenStream,
    private readonly words: ReadonlySet<string>,
    private readonly ignoreCase: boolean,
  ) {
    super(input);
  }
  protected accept(): boolean {
    const t = this.token.term;
    return this.words.has(this.ignoreCase ? t.toLowerCase() : t);
  }
}

export class KeepTypesFilter extends FilteringTokenFilter {
  constructor(
    input: TokenStream,
    private readonly types: ReadonlySet<string>,
    private readonly include: boolean,
  ) {
    super(input);
  }
  protected accept(): boolean {
    return this.types.has(this.token.type) === this.include;
  }
}

/** Lucene DelimitedPayloadTokenFilter: the term is cut at the first delimiter. */
export class DelimitedPayloadFilter extends TokenFilter {
  constructor(
    input: TokenStream,
    private readonly delimiter: string,
  ) {
    super(input);
  }
  next(): boolean {
    if (!this.input.next()) return false;
    const i = this.token.term.indexOf(this.delimiter);
    if (i >= 0) this.token.term = this.token.term.slice(0, i);
    return true;
  }
}
