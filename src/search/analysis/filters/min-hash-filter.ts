/**
 * Lucene MinHashFilter: reads the whole stream, hashes every term (MurmurHash3 x64 128 of its
 * UTF-16LE code units, seed 0) once per hash function, keeps the smallest hashes of each bucket
 * (buckets split the top 32 bits of the hash's high half), and emits them as MIN_HASH tokens at
 * one position spanning the input. With rotation (and one hash per bucket) an empty bucket takes
 * the hash of the first non-empty bucket to its circular right.
 */
import { TokenFilter, type TokenStream } from '../token-stream.js';
import { murmur3x64_128, type Hash128 } from './murmur3-128.js';

export interface MinHashOptions {
  readonly hashCount: number;
  readonly bucketCount: number;
  readonly hashSetSize: number;
  readonly withRotation: boolean;
}

const MASK = (1n << 64n) - 1n;

/** Hash order: the high half, then the low half, both unsigned. */
const compare = (a: Hash128, b: Hash128) =>
  a.high !== b.high ? (a.high < b.high ? -1 : 1) : a.low < b.low ? -1 : a.low > b.low ? 1 : 0;

/** The hash of hash function `i`'s number (4 bytes, big-endian), mixed into each term hash. */
const intHashes = new Map<number, Hash128>();
function intHash(i: number): Hash128 {
  let h = intHashes.get(i);
  if (h === undefined) {
    h = murmur3x64_128(new Uint8Array([i >>> 24, (i >>> 16) & 255, (i >>> 8) & 255, i & 255]));
    intHashes.set(i, h);
  }
  return h;
}

function utf16le(s: string): Uint8Array {
  const b = new Uint8Array(s.length * 2);
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    b[2 * i] = c & 255;
    b[2 * i + 1] = c >>> 8;
  }
  return b;
}

/** Lucene's combineOrdered(termHash, functionHash): each half is h * 37 + f (64-bit wrap). */
const combine = (h: Hash128, f: Hash128): Hash128 => ({
  low: (h.low * 37n + f.low) & MASK,
  high: (h.high * 37n + f.high) & MASK,
});

/** The 16-bit chars of `x` from the most significant, `n` of them counting from `from`. */
function chars(x: bigint, from: number, n: number): string {
  let s = '';
  for (let i = from; i < from + n; i++) {
    s += String.fromCharCode(Number((x >> BigInt(48 - 16 * i)) & 0xffffn));
  }
  return s;
}

export class MinHashFilter extends TokenFilter {
  private out: string[] | null = null;
  private at = 0;
  private endOffset = 0;

  constructor(
    input: TokenStream,
    private readonly o: MinHashOptions,
  ) {
    super(input);
  }

  private collect(): string[] {
    const { hashCount, bucketCount, hashSetSize } = this.o;
    let bucketSize = 2n ** 32n / BigInt(bucketCount);
    if (2n ** 32n % BigInt(bucketCount) !== 0n) bucketSize++;
    // sets[hash][bucket]: the smallest hashes seen, ascending
    const sets: Hash128[][][] = Array.from({ length: hashCount }, () =>
      Array.from({ length: bucketCount }, () => []),
    );
    let found = false;
    while (this.input.next()) {
      found = true;
      const h = murmur3x64_128(utf16le(this.token.term));
      for (let i = 0; i < hashCount; i++) {
        const r = combine(h, intHash(i));
        addBounded(sets[i]![Number((r.high >> 32n) / bucketSize)]!, r, hashSetSize);
      }
      this.endOffset = this.token.endOffset;
    }
    if (!found) return [];
    if (this.o.withRotation && hashSetSize === 1) {
      for (const buckets of sets) {
        for (let b = 0; b < bucketCount; b++) {
          if (buckets[b]!.length !== 0) continue;
          for (let off = 1; off < bucketCount; off++) {
            const src = buckets[(b + off) % bucketCount]!;
            if (src.length > 0) {
              buckets[b]!.push(src[0]!);
              break;
            }
          }
        }
      }
    }
    const terms: string[] = [];
    sets.forEach((buckets, i) => {
      for (const set of buckets) {
        for (const h of set) {
          let t = hashCount > 1 ? chars(BigInt(i), 2, 2) : '';
          t += chars(h.high, 0, 4) + chars(h.low, 0, hashCount === 1 ? 4 : 2);
          terms.push(t);
        }
      }
    });
    return terms;
  }

  next(): boolean {
    if (this.out === null) this.out = this.collect();
    if (this.at >= this.out.length) return false;
    const t = this.token;
    t.term = this.out[this.at]!;
    t.posInc = this.at === 0 ? 1 : 0;
    this.at++;
    t.startOffset = 0;
    t.endOffset = this.endOffset;
    t.type = 'MIN_HASH';
    t.posLen = 1;
    t.keyword = false;
    return true;
  }
}

/** Lucene's FixedSizeTreeSet.add: a sorted set keeping the `cap` smallest. */
function addBounded(set: Hash128[], h: Hash128, cap: number): void {
  let i = 0;
  while (i < set.length && compare(set[i]!, h) < 0) i++;
  if (i < set.length && compare(set[i]!, h) === 0) return;
  if (set.length >= cap) {
    if (i >= set.length) return;
    set.pop();
  }
  set.splice(i, 0, h);
}
