/**
 * Lucene PathHierarchyTokenizer: "a/b/c" → "a", "a/b", "a/b/c" (delimiter, replacement, skip).
 * All tokens start at offset 0 (after skipped components); later ones have position increment 0.
 */
import { Tokenizer } from '../token-stream.js';

export class PathHierarchyTokenizer extends Tokenizer {
  private ends: number[] = [];
  private idx = 0;
  private start = 0;

  constructor(
    private readonly delimiter: string,
    private readonly replacement: string,
    private readonly skip: number,
  ) {
    super();
  }

  protected override onReset(): void {
    const text = this.text;
    const parts: number[] = []; // indexes of delimiters
    for (let i = 0; i < text.length; i++) if (text[i] === this.delimiter) parts.push(i);
    // component boundaries: a leading delimiter belongs to the first component
    const bounds: number[] = [];
    for (const d of parts) if (d > 0) bounds.push(d);
    bounds.push(text.length);
    const uniq = [...new Set(bounds)];
    let first = 0;
    if (this.skip > 0) {
      const cut = parts.filter((d) => d > 0 || text[0] !== this.delimiter);
      first = this.skip - 1 < cut.length ? cut[this.skip - 1]! : text.length;
    }
    this.start = first;
    this.ends = uniq.filter((e) => e > first);
    this.idx = 0;
  }

  next(): boolean {
    if (this.idx >= this.ends.length) return false;
    const end = this.ends[this.idx]!;
    const t = this.token;
    let term = this.text.slice(this.start, end);
    if (this.replacement !== this.delimiter)
      term = term.split(this.delimiter).join(this.replacement);
    t.term = term;
    t.startOffset = this.correctOffset(this.start);
    t.endOffset = this.correctOffset(end);
    t.type = 'word';
    t.posInc = this.idx === 0 ? 1 : 0;
    t.posLen = 1;
    t.keyword = false;
    this.idx++;
    return true;
  }
}
