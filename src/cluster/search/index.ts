/**
 * Search in a cluster: this node's shard-side search actions, and the coordinating side the
 * search routes run through (`searchAcrossCluster`), wired once at startup.
 */
import { parseSearch, type SearchOutcome } from '../../dsl/search/execute.js';
import { executeCount } from '../../dsl/search/count.js';
import type { CountRun, SearchService } from '../../dsl/search/search-service.js';
import { shardTargets } from '../../dsl/search/execute.js';
import type { Transport } from '../transport/transport.js';
import type { ClusterState } from '../state.js';
import { roundRobin } from './copy-selection.js';
import { searchAcrossCluster, type ClusterSearchRequest } from './search-across-cluster.js';
import { registerShardSearchHandlers, type SearchHost } from './shard-search-service.js';
import { clearScrollsAcrossCluster, scrollAcrossCluster } from './scroll-across-cluster.js';

export { searchAcrossCluster, type ClusterSearchRequest } from './search-across-cluster.js';
export type { SearchHost } from './shard-search-service.js';
export type { ScrollPageRequest } from './scroll-across-cluster.js';

export type ClusterCountRequest = CountRun;

/** The search APIs of a node in a cluster: shards read on the nodes holding them. */
export interface ClusterSearch extends SearchService {
  search(r: ClusterSearchRequest): Promise<SearchOutcome>;
  /** Search contexts this node holds for other coordinators now. */
  openContexts(): number;
  close(): void;
}

export interface ClusterSearchOptions {
  state(): ClusterState;
  readonly transport: Transport;
  readonly host: SearchHost;
  readonly requestTimeoutMs?: number;
}

export function startClusterSearch(o: ClusterSearchOptions): ClusterSearch {
  const service = registerShardSearchHandlers(o.transport, o.host);
  const deps = {
    state: o.state,
    localNodeId: o.host.nodeId,
    transport: o.transport,
    roundRobin: roundRobin(),
    local: service,
    ...(o.requestTimeoutMs !== undefined ? { requestTimeoutMs: o.requestTimeoutMs } : {}),
  };
  return {
    search: (r) => searchAcrossCluster(deps, r),
    async count(r) {
      // what the lone node's executeCount reads of the request: the query alone
      const sreq = { ...r.sreq, size: 0, trackTotalHits: true, minScore: null, terminateAfter: 0 };
      const out = await searchAcrossCluster(deps, {
        indices: r.indices,
        req: sreq,
        parsed: parseSearch(sreq),
        opts: {
          ...r.opts,
          searchType: 'query_then_fetch',
          typedKeys: false,
          // a count skips no shard
          preFilterShardSize: Number.MAX_SAFE_INTEGER,
        },
        ...(r.preference !== undefined ? { preference: r.preference } : {}),
        runLocally: (shardFilter) => ({
          body: executeCount(shardTargets(r.indices, shardFilter), r.query, r.opts),
          warnings: [],
        }),
      });
      if ('count' in out.body) return out.body;
      const shards = out.body._shards as Record<string, number>;
      return {
        count: (out.body.hits as { total: number }).total,
        _shards: {
          total: shards.total,
          successful: shards.successful,
          skipped: 0,
          failed: shards.failed,
        },
      };
    },
    scroll: (r) => scrollAcrossCluster(deps, o.host, r),
    clearScroll: (ids) => clearScrollsAcrossCluster(deps, ids),
    openContexts: () => service.openContexts(),
    close: () => service.close(),
  };
}
