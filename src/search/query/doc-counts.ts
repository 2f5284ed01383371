/**
 * Exact match counts without iterating scorers (the `_count` API, size-0 searches and the hit
 * totals of pruned top-k searches): a term's docFreq, live docs of a sorted doc list, unions by
 * inclusion-exclusion with a galloping intersection or by a bitset pass.
 */
import type { Bitset } from '../index/bitset.js';
import { popcount } from '../index/bitset.js';
import { gallop } from '../index/gallop.js';

/** Sorted unique docs `docs[start..end)`. */
export interface DocList {
  readonly docs: Int32Array;
  readonly start: number;
  readonly end: number;
}

/** Docs of a list that are live. */
export function countLive(l: DocList, live: Bitset | null): number {
  if (live === null) return l.end - l.start;
  const w = live.words;
  const docs = l.docs;
  let n = 0;
  for (let i = l.start; i < l.end; i++) {
    const d = docs[i]!;
    n += (w[d >>> 5]! >>> (d & 31)) & 1;
  }
  return n;
}

/** Size of the intersection of two lists: gallops through the longer one. */
export function intersectionCount(a: DocList, b: DocList): number {
  if (a.end - a.start > b.end - b.start) [a, b] = [b, a];
  const ad = a.docs;
  const bd = b.docs;
  const bEnd = b.end;
  let j = b.start;
  let n = 0;
  for (let i = a.start; i < a.end && j < bEnd; i++) {
    const target = ad[i]!;
    if (bd[j]! < target) {
      j = gallop(bd, j, bEnd, target);
      if (j >= bEnd) break;
    }
    if (bd[j] === target) {
      n++;
      j++;
    }
  }
  return n;
}

/** Live docs in the union of the lists. */
export function unionCount(lists: readonly DocList[], maxDoc: number, live: Bitset | null): number {
  if (lists.length === 0) return 0;
  if (lists.length === 1) return countLive(lists[0]!, live);
  if (lists.length === 2 && live === null) {
    const [a, b] = lists as [DocList, DocList];
    return a.end - a.start + (b.end - b.start) - intersectionCount(a, b);
  }
  const words = new Uint32Array((maxDoc + 31) >>> 5);
  for (const l of lists) {
    const docs = l.docs;
    for (let i = l.start; i < l.end; i++) {
      const d = docs[i]!;
      words[d >>> 5]! |= 1 << (d & 31);
    }
  }
  let n = 0;
  if (live === null) for (let i = 0; i < words.length; i++) n += popcount(words[i]!);
  else {
    const lw = live.words;
    for (let i = 0; i < words.length; i++) n += popcount(words[i]! & lw[i]!);
  }
  return n;
}
