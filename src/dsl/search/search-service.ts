/**
 * Where the search APIs run (`_search`, `_count`, scroll pages, clear-scroll): over this node's
 * shards (local-search-service.ts), or — on a node of a cluster — over one copy of each shard on
 * the node holding it (src/cluster/search). The routes see one interface: a lone node is a
 * cluster of one.
 */
import type { QueryNode } from '../query/index.js';
import type { LookupOutcome } from '../query/terms-lookup-once.js';
import type { IndexService } from '../../engine/index-service.js';
import type { ExecuteOptions, ParsedSearch, SearchOutcome } from './execute.js';
import type { SearchRequest } from './request.js';

export interface SearchRun {
  /** The resolved indices, as this node holds them (every node opens every index). */
  readonly indices: IndexService[];
  readonly req: SearchRequest;
  readonly parsed: ParsedSearch;
  /** A scroll's first page when `scroll` is set (`scrollKeepAliveMs` its keep alive). */
  readonly opts: ExecuteOptions;
  readonly preference?: string;
  readonly maxAggDepth?: number;
  /**
   * The request's terms lookups, read beforehand by this node (ES rewrites them on the
   * coordinating node); shards on other nodes get them with the query.
   */
  readonly termsLookups?: readonly (readonly [string, LookupOutcome])[];
}

export interface CountRun {
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

export interface ScrollPageRequest {
  readonly scrollId: string;
  /** The new keep alive (`scroll`), or null to keep the current one. */
  readonly keepAliveMs: number | null;
  /** `search.max_keep_alive`. */
  readonly maxKeepAliveMs: number;
}

export interface SearchService {
  /** The search's response; a scroll's first page opens its contexts and names them. */
  search(r: SearchRun): Promise<SearchOutcome>;
  /** `_count`: a size-0 search reporting the total (ES TransportCountAction's shape). */
  count(r: CountRun): Promise<Record<string, unknown>>;
  /** A scroll's next page (`_search/scroll`). */
  scroll(r: ScrollPageRequest): Promise<{ body: Record<string, unknown>; warnings: string[] }>;
  /** Clear-scroll: the scrolls freed, and how many ids named none left. */
  clearScroll(ids: readonly string[] | 'all'): Promise<{ freed: number; missing: number }>;
}
