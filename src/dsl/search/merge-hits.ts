/**
 * The coordinator's merge of the shards' top hits (ES SearchPhaseController.sortDocs): by sort
 * values, or by score, ties by shard index then doc id. Every shard returns its hits best first,
 * so this is a k-way merge that builds hit objects only for the ranks the response needs.
 */
import type { CollectedHit } from '../../search/collect/top-docs.js';
import { compareSortValues, type SortKey } from '../../search/collect/sort.js';
import type { MergedHit, ShardTarget } from './execute.js';

export interface ShardHits {
  target: ShardTarget;
  hits: CollectedHit[];
  /** Rank of hits[0] in the shard's order (non-zero only for the single shard of a request). */
  hitsFrom: number;
}

type Order = (a: CollectedHit, ta: ShardTarget, b: CollectedHit, tb: ShardTarget) => number;

/** Negative when `a` (of shard `ta`) ranks before `b`. `keys` null: by score. */
export function hitOrder(keys: SortKey[] | null): Order {
  return (a, ta, b, tb) => {
    if (keys) {
      const c = compareSortValues(keys, a.sort!, b.sort!);
      if (c !== 0) return c;
    } else if (a.score !== b.score) return b.score - a.score;
    if (ta.shardIndex !== tb.shardIndex) return ta.shardIndex - tb.shardIndex;
    return a.globalDoc - b.globalDoc;
  };
}

/** Merged ranks `from` .. `limit`-1 (fewer when the shards have fewer hits). */
export function mergeShardHits(
  shards: ShardHits[],
  keys: SortKey[] | null,
  from: number,
  limit: number,
): MergedHit[] {
  const out: MergedHit[] = [];
  const order = hitOrder(keys);
  if (shards.length === 1) {
    const { target, hits, hitsFrom } = shards[0]!;
    const list = inOrder(hits, target, order);
    const end = Math.min(list.length, limit - hitsFrom);
    for (let i = Math.max(0, from - hitsFrom); i < end; i++) out.push(mergedHit(list[i]!, target));
    return out;
  }
  const lists: CollectedHit[][] = [];
  for (const s of shards) {
    // only the single shard of a request may leave out leading ranks
    if (s.hitsFrom !== 0) throw new Error('merging shard hits that leave out leading ranks');
    lists.push(inOrder(s.hits, s.target, order));
  }
  const pos = new Int32Array(lists.length);
  for (let rank = 0; rank < limit; rank++) {
    let best = -1;
    for (let s = 0; s < lists.length; s++) {
      const l = lists[s]!;
      if (pos[s]! >= l.length) continue;
      if (
        best < 0 ||
        order(l[pos[s]!]!, shards[s]!.target, lists[best]![pos[best]!]!, shards[best]!.target) < 0
      )
        best = s;
    }
    if (best < 0) break;
    const h = lists[best]![pos[best]!++]!;
    if (rank >= from) out.push(mergedHit(h, shards[best]!.target));
  }
  return out;
}

/** The hit with its shard (built field by field: an object spread costs more per hit). */
function mergedHit(h: CollectedHit & { rescored?: boolean[] }, target: ShardTarget): MergedHit {
  const m: MergedHit = {
    segment: h.segment,
    doc: h.doc,
    globalDoc: h.globalDoc,
    score: h.score,
    sort: h.sort,
    target,
  };
  if (h.collapseValue !== undefined) m.collapseValue = h.collapseValue;
  if (h.rescored !== undefined) m.rescored = h.rescored;
  return m;
}

/** The hits best first (collectors return them so; anything else is sorted here). */
function inOrder(hits: CollectedHit[], t: ShardTarget, order: Order): CollectedHit[] {
  for (let i = 1; i < hits.length; i++) {
    if (order(hits[i - 1]!, t, hits[i]!, t) > 0) return [...hits].sort((a, b) => order(a, t, b, t));
  }
  return hits;
}
