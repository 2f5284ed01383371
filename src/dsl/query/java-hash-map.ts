/**
 * A model of `java.util.HashMap<String, V>` iteration order. ES keeps query fields in HashMaps
 * (`fields`, resolved field patterns), so the Lucene queries it builds list fields in bucket order;
 * reproducing it keeps query shapes, `toString` output and float summation order identical.
 * Treeified buckets (8+ colliding keys) are not modelled: their order is insertion order here.
 */
import { javaStringHash } from './java.js';

const MAX_CAPACITY = 1 << 30;

function tableSizeFor(c: number): number {
  let n = 1;
  while (n < c) n *= 2;
  return Math.min(n, MAX_CAPACITY);
}

const spread = (h: number): number => h ^ (h >>> 16);

export class JavaHashMap<V> {
  private table: Array<Array<[string, V]>> | null = null;
  private threshold = 0;
  private count = 0;

  get size(): number {
    return this.count;
  }

  private resize(): void {
    const oldCap = this.table ? this.table.length : 0;
    let newCap: number;
    if (oldCap > 0) newCap = oldCap * 2;
    else if (this.threshold > 0) newCap = this.threshold;
    else newCap = 16;
    const next: Array<Array<[string, V]>> = Array.from({ length: newCap }, () => []);
    if (this.table) {
      // Java splits each bucket into lo/hi lists, preserving relative order.
      for (const bucket of this.table)
        for (const e of bucket) next[spread(javaStringHash(e[0])) & (newCap - 1)]!.push(e);
    }
    this.table = next;
    this.threshold = Math.floor(newCap * 0.75);
  }

  set(key: string, value: V): this {
    if (!this.table) this.resize();
    const t = this.table!;
    const bucket = t[spread(javaStringHash(key)) & (t.length - 1)]!;
    for (const e of bucket) {
      if (e[0] === key) {
        e[1] = value;
        return this;
      }
    }
    bucket.push([key, value]);
    if (++this.count > this.threshold) this.resize();
    return this;
  }

  /** `putAll`, including its pre-sizing of an empty map. */
  setAll(other: JavaHashMap<V>): this {
    const s = other.size;
    if (s > 0) {
      if (!this.table) {
        const t = Math.trunc(Math.fround(Math.fround(s / 0.75) + 1));
        if (t > this.threshold) this.threshold = tableSizeFor(t);
      } else if (s > this.threshold) this.resize();
      for (const [k, v] of other.entries()) this.set(k, v);
    }
    return this;
  }

  get(key: string): V | undefined {
    if (!this.table) return undefined;
    const bucket = this.table[spread(javaStringHash(key)) & (this.table.length - 1)]!;
    for (const e of bucket) if (e[0] === key) return e[1];
    return undefined;
  }

  has(key: string): boolean {
    return this.get(key) !== undefined;
  }

  *entries(): IterableIterator<[string, V]> {
    if (!this.table) return;
    for (const bucket of this.table) for (const e of bucket) yield [e[0], e[1]];
  }

  keys(): string[] {
    return [...this.entries()].map((e) => e[0]);
  }

  static of<V>(entries: Iterable<[string, V]>): JavaHashMap<V> {
    const m = new JavaHashMap<V>();
    for (const [k, v] of entries) m.set(k, v);
    return m;
  }
}
