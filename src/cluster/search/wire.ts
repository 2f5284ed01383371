/**
 * What the search actions carry between the coordinating node and the nodes holding the shards
 * (ES ShardSearchTransportRequest, QuerySearchResult, ShardFetchSearchRequest, FetchSearchResult).
 * Everything travels in the frame's binary attachment as v8 `serialize` (NaN, Infinity, bigints
 * and Maps survive it; JSON would not); rendered hits keep their raw `_source` text.
 */
import { deserialize, serialize } from 'node:v8';
import { RawJson } from '../../common/json.js';
import type { IndexService } from '../../engine/index-service.js';
import type { SortValue } from '../../search/collect/sort.js';
import type { ExecuteOptions } from '../../dsl/search/execute.js';
import type { SearchRequest } from '../../dsl/search/request.js';
import { toEsError } from '../../common/errors.js';
import type { StatsTable } from '../../search/query/stats-table.js';
import type { LookupOutcome } from '../../dsl/query/terms-lookup-once.js';
import type { Entry, ShardSuggest, ShardSuggestion } from '../../dsl/search/suggest.js';
import { deserializeError, serializeError, type SerializedError } from '../transport/errors.js';

export const QUERY_ACTION = 'indices:data/read/search[phase/query]';
export const FETCH_ACTION = 'indices:data/read/search[phase/fetch/id]';
export const FREE_CONTEXT_ACTION = 'indices:data/read/search[free_context]';
export const DFS_ACTION = 'indices:data/read/search[phase/dfs]';
export const SCROLL_QUERY_ACTION = 'indices:data/read/search[phase/query/scroll]';
export const CLEAR_SCROLLS_ACTION = 'indices:data/read/search[clear_scroll_contexts]';

/** The execution options that matter on the shard's node (its own limits' breaker apart). */
export interface WireOptions {
  readonly searchType: ExecuteOptions['searchType'];
  readonly typedKeys: boolean;
  readonly now: number;
  readonly maxClauseCount: number;
  readonly maxBuckets: number;
  readonly defaultTimeoutMs?: number;
  readonly allowPartialSearchResults?: boolean;
  /** By index name (the node resolves its own IndexService). */
  readonly aliasFilters: readonly (readonly [string, unknown])[];
  readonly indexBoosts: readonly (readonly [string, number])[];
  readonly scriptDialect?: 'sql';
  /** The shard request cache may hold this request's shard results (ExecuteOptions'). */
  readonly requestCache?: true | 'by-index-setting';
  /** A scroll's first query: every hit kept, the keep alive checked against the limit. */
  readonly scroll?: boolean;
  readonly scrollKeepAliveMs?: number;
  readonly maxKeepAliveMs?: number;
}

export interface WireShardRef {
  readonly index: string;
  readonly shard: number;
  readonly shardIndex: number;
}

export interface QueryRequest {
  readonly sreq: SearchRequest;
  readonly maxAggDepth?: number;
  readonly opts: WireOptions;
  readonly shards: readonly WireShardRef[];
  /** Leading ranks to leave out (the only shard of the request). */
  readonly skipHits: number;
  /** Whether to report can_match per shard (the pre-filter applies to this request). */
  readonly canMatch: boolean;
  /** Keep the shard results for a fetch (hits to fetch may follow); false: nothing is kept. */
  readonly keepContext: boolean;
  /**
   * A scroll's first query: the context keeps every hit of its shards for the scroll's pages
   * until cleared or idle for the keep alive; `id` names the scroll (clear-all counts scrolls).
   */
  readonly scroll?: { readonly id: string; readonly keepAliveMs: number };
  /** dfs_query_then_fetch: the statistics of all the search's shards, summed. */
  readonly dfs?: StatsTable;
  /** The request's terms lookups, read once on the coordinating node (by lookupKey). */
  readonly lookups?: readonly (readonly [string, WireLookup])[];
}

export type WireLookup =
  { readonly values: unknown[] | null } | { readonly error: SerializedError };

export const encodeLookups = (
  ls: readonly (readonly [string, LookupOutcome])[],
): (readonly [string, WireLookup])[] =>
  ls.map(([k, o]) => [k, 'error' in o ? { error: serializeError(toEsError(o.error)) } : o]);

export const decodeLookups = (
  ls: readonly (readonly [string, WireLookup])[],
): [string, LookupOutcome][] =>
  ls.map(([k, o]) => [k, 'error' in o ? { error: deserializeError(o.error) } : o]);

/** The statistics each shard's query read (by shard index), and the shards that failed. */
export interface DfsReply {
  readonly tables: readonly (readonly [number, StatsTable])[];
  readonly failed: readonly number[];
}

/** The next page of a scroll's context (ES InternalScrollSearchRequest). */
export interface ScrollQueryRequest {
  readonly contextId: string;
  /** A new keep alive, or null to keep the current one. */
  readonly keepAliveMs: number | null;
  readonly maxKeepAliveMs: number;
}

export type ScrollShardReply =
  | {
      readonly shardIndex: number;
      readonly index: string;
      readonly shard: number;
      readonly ok: true;
      readonly totalHits: number;
      readonly maxScore: number;
      readonly terminatedEarly: boolean;
      /** The shard's next hits after those already fetched, at most a page. */
      readonly hits: readonly WireHit[];
    }
  | {
      readonly shardIndex: number;
      readonly index: string;
      readonly shard: number;
      readonly ok: false;
      readonly error: SerializedError;
    };

export interface ScrollQueryReply {
  /** The scroll's sort (the coordinator merges by it) and page size. */
  readonly sort: SearchRequest['sort'];
  readonly size: number;
  readonly shards: readonly ScrollShardReply[];
}

export interface WireHit {
  readonly globalDoc: number;
  readonly score: number;
  readonly sort: SortValue[] | null | undefined;
  readonly collapseValue?: unknown;
}

export type ShardQueryReply =
  | {
      readonly shardIndex: number;
      readonly ok: true;
      readonly canMatch: boolean;
      readonly totalHits: number;
      readonly maxScore: number;
      readonly terminatedEarly: boolean;
      readonly hits: readonly WireHit[];
      readonly hitsFrom: number;
      readonly timedOut: boolean;
      /** encodeShardAggs output, or null without aggregations. */
      readonly aggs: unknown;
      /** The shard's suggestions (encodeSuggest), or null without any. */
      readonly suggest: WireSuggest | null;
    }
  | { readonly shardIndex: number; readonly ok: false; readonly error: SerializedError };

/** A shard's suggestions: entries with rendered completion hits, or the error each threw. */
export type WireSuggest = Readonly<
  Record<string, { readonly entries: unknown } | { readonly error: SerializedError }>
>;

export function encodeSuggest(s: ShardSuggest): WireSuggest {
  const out: Record<string, { entries: unknown } | { error: SerializedError }> = {};
  for (const [name, r] of Object.entries(s))
    out[name] =
      'error' in r
        ? { error: serializeError(toEsError(r.error)) }
        : { entries: encodeRendered(r.entries) };
  return out;
}

export function decodeSuggest(w: WireSuggest): ShardSuggest {
  const out: Record<string, ShardSuggestion> = {};
  for (const [name, r] of Object.entries(w))
    out[name] =
      'error' in r
        ? { error: deserializeError(r.error) }
        : { entries: decodeRendered(r.entries) as Entry[] };
  return out;
}

export interface QueryReply {
  /** Null when nothing was kept. */
  readonly contextId: string | null;
  readonly shards: readonly ShardQueryReply[];
  readonly warnings: readonly string[];
}

export interface FetchRequest {
  readonly contextId: string;
  readonly shards: readonly { readonly shardIndex: number; readonly docs: readonly number[] }[];
}

export type ShardFetchReply =
  | { readonly shardIndex: number; readonly ok: true; readonly hits: readonly unknown[] }
  | { readonly shardIndex: number; readonly ok: false; readonly error: SerializedError };

export interface FetchReply {
  readonly shards: readonly ShardFetchReply[];
  readonly warnings: readonly string[];
}

export function wireOptions(opts: ExecuteOptions): WireOptions {
  const byName = <T>(m: ReadonlyMap<IndexService, T> | undefined) =>
    [...(m ?? new Map<IndexService, T>())].map(([idx, v]) => [idx.name, v] as const);
  return {
    searchType: opts.searchType,
    typedKeys: opts.typedKeys,
    now: opts.now,
    maxClauseCount: opts.limits.maxClauseCount,
    maxBuckets: opts.limits.maxBuckets,
    ...(opts.defaultTimeoutMs !== undefined ? { defaultTimeoutMs: opts.defaultTimeoutMs } : {}),
    ...(opts.allowPartialSearchResults !== undefined
      ? { allowPartialSearchResults: opts.allowPartialSearchResults }
      : {}),
    aliasFilters: byName(opts.aliasFilters),
    indexBoosts: byName(opts.indexBoosts),
    ...(opts.scriptDialect ? { scriptDialect: opts.scriptDialect } : {}),
    ...(opts.requestCachePolicy !== undefined ? { requestCache: opts.requestCachePolicy } : {}),
    ...(opts.scroll
      ? {
          scroll: true,
          ...(opts.scrollKeepAliveMs !== undefined
            ? { scrollKeepAliveMs: opts.scrollKeepAliveMs }
            : {}),
          ...(opts.maxKeepAliveMs !== undefined ? { maxKeepAliveMs: opts.maxKeepAliveMs } : {}),
        }
      : {}),
  };
}

/** Rendered hits keep `_source` as raw text across the wire. */
export function encodeRendered(v: unknown): unknown {
  if (v instanceof RawJson) return { '\u0000raw': v.text };
  if (Array.isArray(v)) return v.map(encodeRendered);
  if (v === null || typeof v !== 'object') return v;
  // what the response renders of it (script values: dates, doubles, geo points), as
  // JSON.stringify does on a lone node; the object itself may hold functions
  const toJSON = (v as { toJSON?: unknown }).toJSON;
  if (typeof toJSON === 'function') return encodeRendered(toJSON.call(v));
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) out[k] = encodeRendered(x);
  return out;
}

export function decodeRendered(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(decodeRendered);
  if (v === null || typeof v !== 'object') return v;
  const o = v as Record<string, unknown>;
  if (typeof o['\u0000raw'] === 'string') return new RawJson(o['\u0000raw']);
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(o)) out[k] = decodeRendered(x);
  return out;
}

export const pack = (v: unknown): Buffer => serialize(v);
export const unpack = <T>(b: Buffer | undefined): T => {
  if (!b) throw new Error('search action without its attachment');
  return deserialize(b) as T;
};
