/**
 * Copies of short byte runs packed into shared blocks: hits copying their `_source` bytes out of
 * LMDB's reused read buffer pay a block allocation per 8 KB copied, not one Buffer.allocUnsafe
 * (with its pool bookkeeping) and one temporary view per copy. Each copy is a view of its block,
 * never written again: the block lives as long as any copy of it does (as a slice of Node's pool
 * keeps its pool), so one arena may serve every request.
 */

/** Bytes of a block (Node's own pool size). */
const BLOCK = 8192;
/** Longest run copied into a block; longer ones get a Buffer of their own. */
const MAX_RUN = BLOCK >>> 2;

export class ByteArena {
  private block: Buffer | null = null;
  private used = 0;

  /** A copy of `src[start, end)`. */
  copy(src: Uint8Array, start: number, end: number): Buffer {
    const n = end - start;
    if (n > MAX_RUN) {
      const out = Buffer.allocUnsafe(n);
      out.set(src.subarray(start, end));
      return out;
    }
    let b = this.block;
    if (b === null || this.used + n > BLOCK) {
      b = this.block = Buffer.allocUnsafeSlow(BLOCK);
      this.used = 0;
    }
    const at = this.used;
    b.set(src.subarray(start, end), at);
    // 8-byte aligned, as Node's pool keeps its slices
    this.used = (at + n + 7) & ~7;
    return b.subarray(at, at + n);
  }
}
