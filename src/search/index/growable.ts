/** Append-only typed-array buffers for the indexing buffer (amortised doubling). */

export class IntBuf {
  data: Int32Array;
  length = 0;
  constructor(cap = 8) {
    this.data = new Int32Array(cap);
  }
  push(v: number): void {
    if (this.length === this.data.length) {
      const n = new Int32Array(this.data.length * 2);
      n.set(this.data);
      this.data = n;
    }
    this.data[this.length++] = v;
  }
  last(): number {
    return this.data[this.length - 1]!;
  }
  setLast(v: number): void {
    this.data[this.length - 1] = v;
  }
  toArray(): Int32Array {
    return this.data.slice(0, this.length);
  }
}

export class FloatBuf {
  data: Float64Array;
  length = 0;
  constructor(cap = 8) {
    this.data = new Float64Array(cap);
  }
  push(v: number): void {
    if (this.length === this.data.length) {
      const n = new Float64Array(this.data.length * 2);
      n.set(this.data);
      this.data = n;
    }
    this.data[this.length++] = v;
  }
  toArray(): Float64Array {
    return this.data.slice(0, this.length);
  }
}

/**
 * An append-only int list in chunks that never move: growing never copies, and the freed chunks
 * of one indexing buffer are the right size for the next one's (no large reallocations left as
 * holes in the malloc heap). Chunks start small and double up to CHUNK_MAX ints.
 */
const CHUNK_MIN = 256;
const CHUNK_MAX = 1 << 14;
const NO_CHUNK = new Int32Array(0);

export class ChunkedInts {
  readonly chunks: Int32Array[] = [];
  private cur: Int32Array = NO_CHUNK;
  /** Fill of the last chunk. */
  private off = 0;
  /** Ints in the chunks before the last. */
  private before = 0;

  get length(): number {
    return this.before + this.off;
  }

  push(v: number): void {
    if (this.off === this.cur.length) this.next();
    this.cur[this.off++] = v;
  }

  /** Number of ints in chunk `c`. */
  chunkLength(c: number): number {
    return c === this.chunks.length - 1 ? this.off : this.chunks[c]!.length;
  }

  private next(): void {
    this.before += this.off;
    const size = this.cur.length === 0 ? CHUNK_MIN : Math.min(this.cur.length * 2, CHUNK_MAX);
    this.cur = new Int32Array(size);
    this.chunks.push(this.cur);
    this.off = 0;
  }
}
