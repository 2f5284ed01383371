/**
 * Search in a cluster: this node's shard-side search actions, and the coordinating side the
 * search routes run through (`searchAcrossCluster`), wired once at startup.
 */
import type { QueryNode } from '../../dsl/query/index.js';
import { parseSearch, type ExecuteOptions, type SearchOutcome } from '../../dsl/search/execute.js';
import { executeCount } from '../../dsl/search/count.js';
import type { SearchRequest } from '../../dsl/search/request.js';
import type { IndexService } from '../../engine/index-service.js';
import { shardTargets } from '../../dsl/search/execute.js';
import type { Transport } from '../transport/transport.js';
import type { ClusterState } from '../state.js';
import { roundRobin } from './copy-selection.js';
import { searchAcrossCluster, type ClusterSearchRequest } from './search-across-cluster.js';
import { registerShardSearchHandlers, type SearchHost } from './shard-search-service.js';
import {
  clearScrollsAcrossCluster,
  scrollAcrossCluster,
  type ScrollPageRequest,
} from './scroll-across-cluster.js';

export { searchAcrossCluster, type ClusterSearchRequest } from './search-across-cluster.js';
export type { SearchHost } from './shard-search-service.js';
export type { ScrollPageRequest } from './scroll-across-cluster.js';

export interface ClusterCountRequest {
  readonly indices: IndexService[];
  /** The count's query as parsed from the request (`_count` body or `q`). */
  readonly sreq: SearchRequest;
  readonly query: QueryNode;
  readonly opts: Pick<
    ExecuteOptions,
    | 'now'
    | 'limits'
    | 'nodeId'
    | 'defaultTimeoutMs'
    | 'allowPartialSearchResults'
    | 'aliasFilters'
    | 'shardFilter'
  >;
  readonly preference?: string;
}

export interface ClusterSearch {
  search(r: ClusterSearchRequest): Promise<SearchOutcome>;
  /** `_count`: a size-0 search reporting the total (ES TransportCountAction's shape). */
  count(r: ClusterCountRequest): Promise<Record<string, unknown>>;
  /** A scroll's next page (`_search/scroll`), served by any node of the cluster. */
  scroll(r: ScrollPageRequest): Promise<{ body: Record<string, unknown>; warnings: string[] }>;
  /** Clear-scroll: the scrolls freed, and how many ids named none left. */
  clearScroll(ids: readonly string[] | 'all'): Promise<{ freed: number; missing: number }>;
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
