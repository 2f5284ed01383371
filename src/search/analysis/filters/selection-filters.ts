/**
 * Filters that keep, drop or cap tokens: Lucene LimitTokenCountFilter, KeepWordFilter,
 * TypeTokenFilter (keep_types), and the payload filters: Lucene DelimitedPayloadTokenFilter (the
 * term before the delimiter, the rest encoded as its payload) and TypeAsPayloadTokenFilter.
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

/** How the delimited payload filter encodes the text after the delimiter. */
export type PayloadEncoding = 'float' | 'int' | 'identity';

/** Lucene FloatEncoder / IntegerEncoder (4 bytes, big-endian) and IdentityEncoder (UTF-8). */
export function encodePayload(text: string, encoding: PayloadEncoding): Uint8Array {
  if (encoding === 'identity') return new TextEncoder().encode(text);
  const out = new Uint8Array(4);
  const view = new DataView(out.buffer);
  if (encoding === 'float') view.setFloat32(0, Number.parseFloat(text));
  else view.setInt32(0, Number.parseInt(text, 10) | 0);
  return out;
}

/** Lucene DelimitedPayloadTokenFilter: the term is cut at the first delimiter. */
export class DelimitedPayloadFilter extends TokenFilter {
  constructor(
    input: TokenStream,
    private readonly delimiter: string,
    private readonly encoding: PayloadEncoding = 'float',
  ) {
    super(input);
  }
  next(): boolean {
    if (!this.input.next()) return false;
    const i = this.token.term.indexOf(this.delimiter);
    if (i >= 0) {
      this.token.payload = encodePayload(this.token.term.slice(i + 1), this.encoding);
      this.token.term = this.token.term.slice(0, i);
    } else this.token.payload = null;
    return true;
  }
}

/** Lucene TypeAsPayloadTokenFilter: the token type's UTF-8 bytes become its payload. */
export class TypeAsPayloadFilter extends TokenFilter {
  next(): boolean {
    if (!this.input.next()) return false;
    const type = this.token.type;
    this.token.payload = type ? new TextEncoder().encode(type) : null;
    return true;
  }
}
