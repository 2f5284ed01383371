/**
 * Field collapsing on one shard (Lucene FirstPassGroupingCollector as ES CollapsingTopDocsCollector
 * uses it): the top N groups by their best document, where a group is a single-valued keyword or
 * numeric doc value (docs without a value form the `null` group). A group pushed out of the top N
 * is forgotten and can come back with a better document, exactly as in Lucene.
 */
import type { LiveSegment } from '../index/live-segment.js';
import type { CollectedHit } from './top-docs.js';

export type GroupValue = number | string | null;

/** Reads the collapse value of a doc; one reader per segment. */
export type GroupReader = (ls: LiveSegment) => (doc: number) => GroupValue;

/** The top `max` groups; `worse(a, b)` is true when hit a ranks below hit b. */
export class GroupQueue {
  /** Group heads, best first. */
  private readonly heads: CollectedHit[] = [];
  private readonly byValue = new Map<GroupValue, CollectedHit>();

  constructor(
    private readonly max: number,
    private readonly worse: (a: CollectedHit, b: CollectedHit) => boolean,
  ) {}

  get size(): number {
    return this.heads.length;
  }

  offer(hit: CollectedHit, value: GroupValue): void {
    if (this.max <= 0) return;
    hit.collapseValue = value;
    const current = this.byValue.get(value);
    if (current !== undefined) {
      if (!this.worse(current, hit)) return;
      this.heads.splice(this.heads.indexOf(current), 1);
      this.insert(hit);
      this.byValue.set(value, hit);
      return;
    }
    if (this.heads.length >= this.max) {
      const bottom = this.heads[this.heads.length - 1]!;
      if (!this.worse(bottom, hit)) return;
      this.heads.pop();
      this.byValue.delete(bottom.collapseValue ?? null);
    }
    this.insert(hit);
    this.byValue.set(value, hit);
  }

  private insert(hit: CollectedHit): void {
    const h = this.heads;
    let lo = 0;
    let hi = h.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.worse(h[mid]!, hit)) hi = mid;
      else lo = mid + 1;
    }
    h.splice(lo, 0, hit);
  }

  /** Group heads, best first. */
  sorted(): CollectedHit[] {
    return [...this.heads];
  }
}

/**
 * ES CollapseTopFieldDocs.merge: shard results already merged in order; keeps the first hit of
 * every collapse value and then applies from/size.
 */
export function dedupCollapsed<H extends CollectedHit>(
  merged: H[],
  from: number,
  size: number,
): H[] {
  const seen = new Set<GroupValue>();
  const out: H[] = [];
  let upto = 0;
  for (const h of merged) {
    if (upto >= from + size) break;
    const v = h.collapseValue ?? null;
    if (seen.has(v)) continue;
    seen.add(v);
    if (upto >= from) out.push(h);
    upto++;
  }
  return out;
}
