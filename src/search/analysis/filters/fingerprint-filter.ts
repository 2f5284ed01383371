/**
 * Lucene FingerprintFilter: one token holding the sorted, de-duplicated terms joined by
 * `separator`, or nothing when it would exceed `maxOutputTokenSize` chars.
 */
import { TokenFilter, type TokenStream } from '../token-stream.js';

export class FingerprintFilter extends TokenFilter {
  private done = false;

  constructor(
    input: TokenStream,
    private readonly separator: string,
    private readonly maxOutputTokenSize: number,
  ) {
    super(input);
  }

  next(): boolean {
    if (this.done) return false;
    this.done = true;
    const terms = new Set<string>();
    let start = -1;
    let end = 0;
    while (this.input.next()) {
      terms.add(this.token.term);
      if (start < 0) start = this.token.startOffset;
      end = this.token.endOffset;
    }
    if (terms.size === 0) return false;
    // Lucene sorts the terms as char arrays (UTF-16 code unit order), like JS string comparison.
    const out = [...terms].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)).join(this.separator);
    if (out.length > this.maxOutputTokenSize) return false;
    const t = this.token;
    t.term = out;
    t.startOffset = 0;
    t.endOffset = end;
    t.type = 'fingerprint';
    t.posInc = 1;
    t.posLen = 1;
    void start;
    return true;
  }
}
