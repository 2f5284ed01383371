/**
 * What `_cat/indices` and `_cat/count` show of each index — health and the document, segment and
 * size counts of its copies — as a seam: a lone node reads its own shards, a node in a cluster
 * asks every node for the copies it holds (src/cluster/index-summaries.ts).
 */
import { indexHealth } from './health.js';
import type { IndexService } from './index-service.js';
import { segmentMemory } from './segment-stats.js';

export interface IndexSummary {
  status: 'green' | 'yellow' | 'red';
  /** Live documents in the primaries. */
  docs: number;
  deleted: number;
  /** Store size of every copy, and of the primaries. */
  bytes: number;
  priBytes: number;
  segments: number;
  priSegments: number;
  refreshes: number;
  priRefreshes: number;
}

export interface IndexSummaries {
  of(indices: readonly IndexService[]): Promise<Map<IndexService, IndexSummary>>;
  /** Documents and segment bytes of the primaries, refreshed first (rollover conditions). */
  primaryFacts(idx: IndexService): Promise<PrimaryFacts>;
}

export interface PrimaryFacts {
  docs: number;
  bytes: number;
}

/** Documents and segment bytes of these shards of `idx`, refreshed first as ES reads index stats. */
export function shardFacts(idx: IndexService, shards: readonly number[]): PrimaryFacts {
  let docs = 0;
  let bytes = 0;
  for (const n of shards) {
    const si = idx.shard(n).search;
    if (!si) continue;
    si.refresh();
    const snap = si.searcher();
    docs += snap.numDocs;
    const m = segmentMemory(snap);
    bytes += m.terms + m.storedFields + m.norms + m.points + m.docValues;
  }
  return { docs, bytes };
}

/** The counts of this node's shards of `idx` (only `shards` when given). */
export function localCounts(idx: IndexService, shards: readonly number[] | null = null) {
  let docs = 0;
  let deleted = 0;
  let segments = 0;
  let refreshes = 0;
  for (const n of shards ?? idx.shards.map((s) => s.id)) {
    const st = idx.shard(n).search?.stats();
    if (!st) continue;
    docs += st.docs;
    deleted += st.deleted;
    segments += st.segments;
    refreshes += st.refreshes;
  }
  return { docs, deleted, segments, refreshes };
}

export function localSummaries(): IndexSummaries {
  return {
    primaryFacts: async (idx) =>
      shardFacts(
        idx,
        idx.shards.map((s) => s.id),
      ),
    async of(indices) {
      const out = new Map<IndexService, IndexSummary>();
      for (const idx of indices) {
        const c = localCounts(idx);
        const bytes = idx.storeBytes();
        out.set(idx, {
          status: indexHealth(idx).status as IndexSummary['status'],
          ...c,
          bytes,
          priBytes: bytes,
          priSegments: c.segments,
          priRefreshes: c.refreshes,
        });
      }
      return out;
    },
  };
}
