/**
 * The `_count` API's shard phase (ES TransportCountAction: a size-0 search that reports only the
 * hit count): the query lowered once per index, then counted per shard through the weights' cheap
 * per-segment counts where the query has them. Shard failures are reported as a search's are.
 */
import { toEsError } from '../../common/errors.js';
import type { IndexService } from '../../engine/index-service.js';
import { countDocs } from '../../search/collect/top-docs.js';
import type { Query } from '../../search/query/query.js';
import { shardStats } from '../../search/query/stats.js';
import { createWeight } from '../../search/query/weights.js';
import { toSearchQuery, type QueryNode } from '../query/index.js';
import type { ShardTarget } from './execute.js';
import { indexQueryContext, type RequestLimits } from './index-context.js';
import { allShardsFailed, type ShardFailure } from './shard-failures.js';

export interface CountOptions {
  now: number;
  limits: RequestLimits;
  nodeId: string;
}

/** The `_count` response body for `query` over `targets`. */
export function executeCount(
  targets: ShardTarget[],
  query: QueryNode,
  o: CountOptions,
): Record<string, unknown> {
  let total = 0;
  const failures: ShardFailure[] = [];
  let unavailable = 0;
  // the lowered query of the index of the previous target (targets come grouped by index)
  let lastIdx: IndexService | null = null;
  let lowered: Query | null = null;
  let error: unknown = null;
  for (const t of targets) {
    if (t.idx.failed) {
      unavailable++;
      continue;
    }
    if (t.idx !== lastIdx) {
      lastIdx = t.idx;
      lowered = null;
      error = null;
      try {
        lowered = toSearchQuery(query, indexQueryContext(t.idx, o.now, o.limits));
      } catch (e) {
        error = e;
      }
    }
    try {
      if (lowered === null) throw error;
      const w = createWeight(lowered, { stats: shardStats(t.snapshot), needsScores: false });
      total += countDocs(t.snapshot, w);
    } catch (e) {
      failures.push({ shard: t.shard.id, index: t.idx.name, node: o.nodeId, error: toEsError(e) });
    }
  }
  if (targets.length > 0 && failures.length + unavailable === targets.length)
    throw allShardsFailed('query', failures);
  return {
    count: total,
    _shards: {
      total: targets.length,
      successful: targets.length - failures.length - unavailable,
      skipped: 0,
      failed: failures.length,
    },
  };
}
