/**
 * Lucene BaseCharFilter offset correction: (output offset, cumulative diff) pairs; an offset in
 * the filtered text maps back by adding the diff of the last pair at or before it.
 */
export class OffsetMap {
  private readonly offs: number[] = [];
  private readonly diffs: number[] = [];

  get lastDiff(): number {
    return this.diffs.length === 0 ? 0 : this.diffs[this.diffs.length - 1]!;
  }

  add(off: number, cumulativeDiff: number): void {
    const n = this.offs.length;
    if (n > 0 && this.offs[n - 1] === off) this.diffs[n - 1] = cumulativeDiff;
    else {
      this.offs.push(off);
      this.diffs.push(cumulativeDiff);
    }
  }

  /**
   * Lucene MappingCharFilter bookkeeping for input [inStart, inStart + inLen) replaced by `outLen`
   * chars written at output offset inStart - lastDiff.
   */
  replaced(inStart: number, inLen: number, outLen: number): void {
    const diff = inLen - outLen;
    if (diff === 0) return;
    const prev = this.lastDiff;
    const outStart = inStart - prev;
    if (diff > 0) this.add(outStart + outLen, prev + diff);
    else for (let x = 0; x < -diff; x++) this.add(outStart + inLen + x, prev - x - 1);
  }

  correct(off: number): number {
    const offs = this.offs;
    let lo = 0;
    let hi = offs.length - 1;
    let idx = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      if (offs[mid]! <= off) {
        idx = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return idx < 0 ? off : off + this.diffs[idx]!;
  }
}

/** A char filter: text in, filtered text and its offset map out. */
export interface CharFilter {
  readonly name: string;
  apply(text: string): { text: string; map: OffsetMap };
}
