/**
 * Per-bucket state in typed arrays indexed by bucket ordinal (ES BigArrays), and the hash that
 * turns (owning bucket, key) pairs into dense bucket ordinals (ES LongHash / LongLongHash).
 */

export function growF64(a: Float64Array, min: number, fill = 0): Float64Array<ArrayBuffer> {
  if (min <= a.length) return a as Float64Array<ArrayBuffer>;
  const n = new Float64Array(Math.max(min, a.length * 2, 8));
  n.set(a);
  if (fill !== 0) n.fill(fill, a.length);
  return n;
}

export function growI32(a: Int32Array, min: number, fill = 0): Int32Array<ArrayBuffer> {
  if (min <= a.length) return a as Int32Array<ArrayBuffer>;
  const n = new Int32Array(Math.max(min, a.length * 2, 8));
  n.set(a);
  if (fill !== 0) n.fill(fill, a.length);
  return n;
}

const scratchF = new Float64Array(1);
const scratchI = new Int32Array(scratchF.buffer);

function mix(owner: number, key: number): number {
  scratchF[0] = key === 0 ? 0 : key; // -0 and 0 are one key
  let h = Math.imul(scratchI[0]! ^ Math.imul(scratchI[1]!, 0x9e3779b1), 0x85ebca6b);
  h ^= Math.imul(owner, 0xc2b2ae35);
  h ^= h >>> 15;
  h = Math.imul(h, 0x2c1b3c6d);
  h ^= h >>> 13;
  return h;
}

/** (owner, key) → dense ordinal; keys are doubles (longs within 2^53, term ids, rounded dates). */
export class BucketHash {
  private slots: Int32Array;
  private mask: number;
  size = 0;
  owners = new Int32Array(16);
  keys = new Float64Array(16);

  constructor(capacity = 16) {
    let cap = 16;
    while (cap < capacity * 2) cap <<= 1;
    this.slots = new Int32Array(cap).fill(-1);
    this.mask = cap - 1;
  }

  /** Ordinal of (owner, key), or -1. */
  find(owner: number, key: number): number {
    const k = key === 0 ? 0 : key;
    let i = mix(owner, k) & this.mask;
    for (;;) {
      const o = this.slots[i]!;
      if (o < 0) return -1;
      if (this.keys[o] === k && this.owners[o] === owner) return o;
      i = (i + 1) & this.mask;
    }
  }

  /** Ordinal of (owner, key), adding it when new. */
  add(owner: number, key: number): number {
    const k = key === 0 ? 0 : key;
    let i = mix(owner, k) & this.mask;
    for (;;) {
      const o = this.slots[i]!;
      if (o < 0) break;
      if (this.keys[o] === k && this.owners[o] === owner) return o;
      i = (i + 1) & this.mask;
    }
    const ord = this.size++;
    if (ord >= this.keys.length) {
      this.keys = growF64(this.keys, ord + 1);
      this.owners = growI32(this.owners, ord + 1);
    }
    this.keys[ord] = k;
    this.owners[ord] = owner;
    this.slots[i] = ord;
    if (this.size * 2 > this.slots.length) this.rehash();
    return ord;
  }

  private rehash(): void {
    const cap = this.slots.length * 2;
    const slots = new Int32Array(cap).fill(-1);
    const mask = cap - 1;
    for (let o = 0; o < this.size; o++) {
      let i = mix(this.owners[o]!, this.keys[o]!) & mask;
      while (slots[i]! >= 0) i = (i + 1) & mask;
      slots[i] = o;
    }
    this.slots = slots;
    this.mask = mask;
  }
}

/** Dense ids for strings (terms seen on this shard), so string keys can live in a BucketHash. */
export class TermIds {
  private readonly map = new Map<string, number>();
  readonly terms: string[] = [];
  id(term: string): number {
    let id = this.map.get(term);
    if (id === undefined) {
      id = this.terms.length;
      this.terms.push(term);
      this.map.set(term, id);
    }
    return id;
  }
  get(term: string): number | undefined {
    return this.map.get(term);
  }
}
