/** Fixed-size bitsets over doc ids (Lucene FixedBitSet): live docs and dense filters. */

export class Bitset {
  readonly words: Uint32Array;
  constructor(
    readonly size: number,
    words?: Uint32Array,
  ) {
    this.words = words ?? new Uint32Array((size + 31) >>> 5);
  }

  static full(size: number): Bitset {
    const b = new Bitset(size);
    b.words.fill(0xffffffff);
    const extra = size & 31;
    if (extra) b.words[b.words.length - 1] = (1 << extra) - 1;
    return b;
  }

  get(i: number): boolean {
    return (this.words[i >>> 5]! & (1 << (i & 31))) !== 0;
  }
  set(i: number): void {
    this.words[i >>> 5]! |= 1 << (i & 31);
  }
  clear(i: number): void {
    this.words[i >>> 5]! &= ~(1 << (i & 31));
  }
  clone(): Bitset {
    return new Bitset(this.size, this.words.slice());
  }
  cardinality(): number {
    let n = 0;
    const w = this.words;
    for (let i = 0; i < w.length; i++) n += popcount(w[i]!);
    return n;
  }
  /** Next set bit at or after `from`, or -1. */
  nextSetBit(from: number): number {
    if (from >= this.size) return -1;
    let wi = from >>> 5;
    let word = this.words[wi]! & (0xffffffff << (from & 31));
    while (true) {
      if (word !== 0) {
        const r = (wi << 5) + ctz(word);
        return r < this.size ? r : -1;
      }
      if (++wi >= this.words.length) return -1;
      word = this.words[wi]!;
    }
  }
  and(o: Bitset): void {
    const a = this.words;
    const b = o.words;
    for (let i = 0; i < a.length; i++) a[i]! &= b[i]!;
  }
  or(o: Bitset): void {
    const a = this.words;
    const b = o.words;
    for (let i = 0; i < a.length; i++) a[i]! |= b[i]!;
  }
  andNot(o: Bitset): void {
    const a = this.words;
    const b = o.words;
    for (let i = 0; i < a.length; i++) a[i]! &= ~b[i]!;
  }
  /** Sorted doc ids of the set bits. */
  toArray(): Int32Array {
    const out = new Int32Array(this.cardinality());
    let k = 0;
    const w = this.words;
    for (let i = 0; i < w.length; i++) {
      let word = w[i]!;
      while (word !== 0) {
        const t = word & -word;
        out[k++] = (i << 5) + ctz(word);
        word ^= t;
      }
    }
    return out;
  }
}

export function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}

export function ctz(x: number): number {
  return 31 - Math.clz32(x & -x);
}
