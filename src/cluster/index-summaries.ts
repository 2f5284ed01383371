/**
 * `_cat/indices` and `_cat/count` in a cluster: every node counts the started copies it holds
 * (documents, deletions, segments, refreshes and its share of the index's store size), the
 * coordinating node adds the primaries' counts (documents) and every copy's (sizes), and takes
 * each index's health from the routing table.
 */
import type { IndexService } from '../engine/index-service.js';
import type { IndicesService } from '../engine/indices-service.js';
import {
  localCounts,
  shardFacts,
  type IndexSummaries,
  type IndexSummary,
  type PrimaryFacts,
} from '../engine/index-summaries.js';
import { clusterHealth } from './allocation/index.js';
import type { ClusterMembership } from './membership.js';

export const INDEX_COUNTS_ACTION = 'indices:monitor/counts[n]';
/** Each node's started primaries of one index: documents and segment bytes (rollover). */
export const PRIMARY_FACTS_ACTION = 'indices:monitor/primary-facts[n]';

interface CopyCounts {
  docs: number;
  deleted: number;
  segments: number;
  refreshes: number;
  bytes: number;
}

export function clusterSummaries(
  membership: ClusterMembership,
  indices: IndicesService,
): IndexSummaries {
  const me = membership.localNode.id;
  membership.handle(INDEX_COUNTS_ACTION, (b) => {
    const names = (b as { indices: string[] }).indices;
    const state = membership.state();
    const out: Record<string, CopyCounts> = {};
    for (const name of names) {
      const idx = indices.get(name);
      const table = state.routing.get(name);
      if (!idx || !table) continue;
      const total = localCounts(idx);
      const bytes = idx.storeBytes();
      for (const copies of table.shards)
        for (const c of copies) {
          if (c.nodeId !== me || !c.allocationId || (c.state !== 'STARTED' && c.state !== 'RELOCATING')) continue; // prettier-ignore
          const n = localCounts(idx, [c.shard]);
          const share = total.docs > 0 ? n.docs / total.docs : 1 / idx.numberOfShards;
          out[c.allocationId.id] = { ...n, bytes: Math.round(bytes * share) };
        }
    }
    return out;
  });
  membership.handle(PRIMARY_FACTS_ACTION, (b) => {
    const { index, uuid } = b as { index: string; uuid: string };
    const idx = indices.get(index);
    const table = membership.state().routing.get(index);
    if (!idx || idx.uuid !== uuid || !table) return { docs: 0, bytes: 0 };
    const mine = table.shards.flatMap((copies) =>
      copies
        .filter(
          (c) =>
            c.primary && c.nodeId === me && (c.state === 'STARTED' || c.state === 'RELOCATING'),
        ) // prettier-ignore
        .map((c) => c.shard),
    );
    return shardFacts(idx, mine);
  });
  return {
    async primaryFacts(idx) {
      const r = await membership.collect(PRIMARY_FACTS_ACTION, { index: idx.name, uuid: idx.uuid }, 10_000); // prettier-ignore
      const out: PrimaryFacts = { docs: 0, bytes: 0 };
      for (const v of r.results.values()) {
        const f = v as PrimaryFacts;
        out.docs += f.docs;
        out.bytes += f.bytes;
      }
      return out;
    },
    async of(targets: readonly IndexService[]) {
      const r = await membership.collect(INDEX_COUNTS_ACTION, { indices: targets.map((i) => i.name) }, 10_000); // prettier-ignore
      const counts = new Map<string, CopyCounts>();
      for (const v of r.results.values())
        for (const [aid, c] of Object.entries(v as Record<string, CopyCounts>)) counts.set(aid, c);
      const state = membership.state();
      const health = clusterHealth(state, {
        level: 'indices',
        indices: targets.map((i) => i.name),
      });
      const out = new Map<IndexService, IndexSummary>();
      for (const idx of targets) {
        const s: IndexSummary = {
          status: (health.indices?.[idx.name]?.status ?? 'red') as IndexSummary['status'],
          docs: 0,
          deleted: 0,
          bytes: 0,
          priBytes: 0,
          segments: 0,
          priSegments: 0,
          refreshes: 0,
          priRefreshes: 0,
        };
        for (const copies of state.routing.get(idx.name)?.shards ?? [])
          for (const c of copies) {
            const n = c.allocationId ? counts.get(c.allocationId.id) : undefined;
            if (!n) continue;
            s.bytes += n.bytes;
            s.segments += n.segments;
            s.refreshes += n.refreshes;
            if (!c.primary) continue;
            s.docs += n.docs;
            s.deleted += n.deleted;
            s.priBytes += n.bytes;
            s.priSegments += n.segments;
            s.priRefreshes += n.refreshes;
          }
        out.set(idx, s);
      }
      return out;
    },
  };
}
