/**
 * Which shard query results the request cache may hold and how (ES IndicesService.canCache +
 * loadIntoContext): size-0 query_then_fetch requests by default (`index.requests.cache.enable`),
 * any request with `request_cache=true`, never scrolls, dfs searches or requests that read `now`
 * or run scripts (ES QueryShardContext.isCacheable). The key is the whole shard request; a
 * cached result is deep-copied in and out, since the reduce phase updates results in place,
 * except for the shard and its searcher snapshot (immutable segments), kept by reference.
 *
 * An entry is reused by any request with the same body on the same shard at the same reader, so a
 * shard result must hold nothing else of the request that produced it: not its shard list (a
 * top_hits hit names its shard, ShardAggContext.origin, never a position in that list).
 */
import { getHeapStatistics } from 'node:v8';
import { parseByteSize } from '../../common/units.js';
import { getBool } from '../../engine/index-settings.js';
import { DEFAULT_REQUEST_CACHE_FRACTION, RequestCache } from '../../engine/request-cache.js';
import type { Segment } from '../../search/index/segment.js';
import type { ResolvedLookup } from '../query/terms-lookup-once.js';
import type { ShardTarget } from './execute.js';
import type { ShardResult } from './query-phase.js';
import type { SearchRequest } from './request.js';

/** A cached shard result and the terms lookups it was computed with. */
interface CachedShard {
  readonly result: ShardResult;
  readonly lookups: readonly ResolvedLookup[];
}

/** What the search layer gives `executeSearch` to run each shard through the cache. */
export type ShardRunner = (t: ShardTarget, run: () => ShardResult) => ShardResult;

const caches = new WeakMap<object, RequestCache<CachedShard>>();

/** The node's cache (one per `owner`, the node's indices service), sized by
 *  `indices.requests.cache.size` (a byte size or a heap percentage, default 1%). */
export function nodeRequestCache(
  owner: object,
  setting: string | undefined,
): RequestCache<CachedShard> {
  let c = caches.get(owner);
  if (!c) caches.set(owner, (c = new RequestCache<CachedShard>(cacheLimit(setting))));
  return c;
}

function cacheLimit(setting: string | undefined): number {
  const heap = getHeapStatistics().heap_size_limit;
  if (setting === undefined) return Math.floor(heap * DEFAULT_REQUEST_CACHE_FRACTION);
  const pct = /^\s*(\d+(?:\.\d+)?)\s*%\s*$/.exec(setting);
  if (pct) return Math.floor((heap * Number(pct[1])) / 100);
  return parseByteSize(setting, 'indices.requests.cache.size');
}

/** ES IndicesService.canCache, the request-level part (the index setting is checked per shard). */
export function requestMayCache(
  req: SearchRequest,
  searchType: string,
  scroll: boolean,
  requestCacheParam: string | undefined,
): boolean | 'by-index-setting' {
  if (scroll || searchType !== 'query_then_fetch') return false;
  if (requestCacheParam === undefined)
    return req.size === 0 && isDeterministic(req) ? 'by-index-setting' : false;
  if (requestCacheParam === 'false') return false;
  return isDeterministic(req);
}

/**
 * Whether the request reads nothing but the index: no `now` date math and no scripts
 * (ES marks the QueryShardContext uncacheable when either is used). Any string starting with
 * `now` counts, wherever it is: a conservative reading of where date math may appear.
 */
export function isDeterministic(req: SearchRequest): boolean {
  if (req.scriptFields.length > 0) return false;
  return !usesNowOrScript([req.query, req.postFilter, req.aggs, req.sort, req.rescore]);
}

const SCRIPT_KEYS = new Set(['script', 'script_score', 'buckets_path_script', 'random_score']);

function usesNowOrScript(v: unknown): boolean {
  if (typeof v === 'string') return v.startsWith('now');
  if (v === null || typeof v !== 'object') return false;
  if (Array.isArray(v)) return v.some(usesNowOrScript);
  for (const [k, x] of Object.entries(v)) {
    if (SCRIPT_KEYS.has(k) || k.startsWith('bucket_script') || k === 'bucket_selector') return true;
    if (usesNowOrScript(x)) return true;
  }
  return false;
}

/** The shard-independent part of the cache key: everything the request says. */
export function requestCacheKey(req: SearchRequest, typedKeys: boolean): string {
  return JSON.stringify({ ...req, deprecations: undefined, typedKeys });
}

/**
 * A ShardRunner over the node cache: `policy` from requestMayCache, `lookups` the request's
 * resolved terms lookups (a hit must have seen the same values; ES caches the rewritten query).
 */
export function cachedShardRunner(
  cache: RequestCache<CachedShard>,
  policy: boolean | 'by-index-setting',
  key: string,
  lookups: () => ResolvedLookup[],
  lookupNow: (l: ResolvedLookup) => readonly unknown[] | null,
): ShardRunner | null {
  if (policy === false) return null;
  return (t, run) => {
    if (
      policy === 'by-index-setting' &&
      !getBool(t.idx.meta.settings, 'index.requests.cache.enable', true)
    )
      return run();
    let fresh: ShardResult | null = null;
    const cacheKey = `${t.idx.name}[${t.shard.id}]${key}`;
    const { value } = cache.getOrLoad(
      t.shard,
      t.snapshot.generation,
      cacheKey,
      () => {
        fresh = run();
        return { result: cloneValue(fresh, immutables(t)), lookups: lookups() };
      },
      (v) => estimateBytes(v.result, new Set(immutables(t).keys())),
      (v) => v.lookups.every((l) => JSON.stringify(lookupNow(l)) === JSON.stringify(l.values)),
    );
    // ES IndicesService.loadIntoContext: a result that timed out is invalidated again
    if (fresh !== null && (fresh as ShardResult).timedOut)
      cache.invalidate(t.shard, t.snapshot.generation, cacheKey);
    return fresh ?? reuse(value.result, t);
  };
}

/** A fresh copy of a cached result, placed on this request's shard target. */
function reuse(cached: ShardResult, t: ShardTarget): ShardResult {
  return { ...cloneValue(cached, immutables(t)), target: t };
}

/**
 * What copies of `t`'s results keep by reference, each mapped to itself (a `seen` map for
 * cloneValue): the index and the shard (node objects; hits name their shard), and the reader the
 * entry is keyed on (its generation) down to its segments and their nested blocks, immutable.
 * Hits point at segments: copying one would copy the whole segment (and count it in the entry's
 * bytes), and the copy would miss the caches keyed on the segment (sort orders, block impacts,
 * term tables).
 */
export function immutables(t: ShardTarget): Map<object, unknown> {
  const m = new Map<object, unknown>([
    [t.idx, t.idx],
    [t.shard, t.shard],
    [t.snapshot, t.snapshot],
  ]);
  const segment = (s: Segment) => {
    if (m.has(s)) return;
    m.set(s, s);
    for (const b of s.nested.values()) {
      m.set(b, b);
      segment(b.segment);
    }
  };
  for (const ls of t.snapshot.segments) {
    m.set(ls, ls);
    segment(ls.segment);
  }
  return m;
}

/** Properties kept by reference: request nodes, weights and the shard target. */
const SHARED = new Set(['node', 'target', 'weight', 'rescoreWeights', 'sortKeys']);

/** Deep copy that keeps prototypes (results are class instances) and typed arrays. */
export function cloneValue<T>(v: T, seen: Map<object, unknown>): T {
  if (v === null || typeof v !== 'object') return v;
  const done = seen.get(v);
  if (done !== undefined) return done as T;
  if (ArrayBuffer.isView(v)) {
    const c = (v as unknown as { slice(): T }).slice();
    seen.set(v, c);
    return c;
  }
  if (Array.isArray(v)) {
    const c: unknown[] = [];
    seen.set(v, c);
    for (const x of v) c.push(cloneValue(x, seen));
    return c as T;
  }
  if (v instanceof Map) {
    const c = new Map();
    seen.set(v, c);
    for (const [k, x] of v) c.set(k, cloneValue(x, seen));
    return c as T;
  }
  if (v instanceof Set) {
    const c = new Set();
    seen.set(v, c);
    for (const x of v) c.add(cloneValue(x, seen));
    return c as T;
  }
  const c = Object.create(Object.getPrototypeOf(v)) as Record<string, unknown>;
  seen.set(v, c);
  for (const [k, x] of Object.entries(v)) c[k] = SHARED.has(k) ? x : cloneValue(x, seen);
  return c as T;
}

/** Rough heap bytes of a result (ES counts the serialized result's bytes). */
export function estimateBytes(v: unknown, seen: Set<object>): number {
  if (typeof v === 'string') return 16 + v.length * 2;
  if (v === null || typeof v !== 'object') return 8;
  if (seen.has(v)) return 0;
  seen.add(v);
  if (ArrayBuffer.isView(v)) return 32 + v.byteLength;
  let n = 16;
  if (Array.isArray(v) || v instanceof Set) for (const x of v) n += estimateBytes(x, seen);
  else if (v instanceof Map)
    for (const [k, x] of v) n += estimateBytes(k, seen) + estimateBytes(x, seen);
  else
    for (const [k, x] of Object.entries(v))
      if (!SHARED.has(k)) n += 8 + k.length + estimateBytes(x, seen);
  return n;
}
