/** A segment as one searcher snapshot sees it: with its live docs at that point in time. */
import type { Bitset } from './bitset.js';
import type { Segment } from './segment.js';

export interface LiveSegment {
  readonly segment: Segment;
  /** null = every doc is live. Copy-on-write: a snapshot's bitset never changes. */
  readonly live: Bitset | null;
  readonly deleted: number;
  /** Shard-level doc id of this segment's doc 0 (for tie-breaking like Lucene's doc ids). */
  readonly docBase: number;
}

export interface ShardSnapshot {
  readonly generation: number;
  readonly segments: readonly LiveSegment[];
  readonly maxDoc: number;
  readonly numDocs: number;
}

export function isLive(ls: LiveSegment, doc: number): boolean {
  return ls.live === null || ls.live.get(doc);
}
