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
import type { AliasFilter } from '../../engine/alias-resolution.js';
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

/**
 * What the search layer gives `executeSearch` to run each shard through the cache, with the
 * shard's alias filter (part of ES's key: ShardSearchLocalRequest writes its AliasFilter).
 */
export type ShardRunner = (
  t: ShardTarget,
  run: () => ShardResult,
  aliasFilter?: AliasFilter,
) => ShardResult;

/** A node's shard request cache. */
export type NodeRequestCache = RequestCache<CachedShard>;

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
  return (t, run, aliasFilter) => {
    if (
      policy === 'by-index-setting' &&
      !getBool(t.idx.meta.settings, 'index.requests.cache.enable', true)
    )
      return run();
    // a filter reading `now` or running a script makes the shard request uncacheable too
    if (aliasFilter && usesNowOrScript(aliasFilter.filter)) return run();
    let fresh: ShardResult | null = null;
    const alias = aliasFilter ? JSON.stringify(aliasFilter) : '';
    const cacheKey = `${t.idx.name}[${t.shard.id}]${alias}${key}`;
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

/**
 * Deep copy that keeps prototypes (results are class instances) and typed arrays. Iterative:
 * the results of aggregations nested a thousand levels deep are as deep. Keys are placed in
 * their original order before their values are copied, so property order is kept.
 */
export function cloneValue<T>(v: T, seen: Map<object, unknown>): T {
  const root: { v?: unknown } = {};
  // [source, container of the copy, key there]
  const jobs: [
    unknown,
    Record<PropertyKey, unknown> | unknown[] | Map<unknown, unknown>,
    unknown,
  ][] = [[v, root, 'v']];
  while (jobs.length > 0) {
    const [x, into, key] = jobs.pop()!;
    const c = shallowCopy(x, seen, jobs);
    if (into instanceof Map) into.set(key, c);
    else (into as Record<PropertyKey, unknown>)[key as PropertyKey] = c;
  }
  return root.v as T;
}

/** A copy of `x` whose nested values are left to `jobs` (sets are copied whole). */
function shallowCopy(
  x: unknown,
  seen: Map<object, unknown>,
  jobs: [unknown, Record<PropertyKey, unknown> | unknown[] | Map<unknown, unknown>, unknown][],
): unknown {
  if (x === null || typeof x !== 'object') return x;
  // frozen values cannot change: shared, as formats compared by identity (RAW) must be
  if (Object.isFrozen(x)) return x;
  const done = seen.get(x);
  if (done !== undefined) return done;
  const later = (y: unknown) => y !== null && typeof y === 'object';
  if (ArrayBuffer.isView(x)) {
    const c = (x as unknown as { slice(): unknown }).slice();
    seen.set(x, c);
    return c;
  }
  if (Array.isArray(x)) {
    const c: unknown[] = new Array(x.length);
    seen.set(x, c);
    for (let i = 0; i < x.length; i++) {
      if (later(x[i])) jobs.push([x[i], c, i]);
      else c[i] = x[i];
    }
    return c;
  }
  if (x instanceof Map) {
    const c = new Map();
    seen.set(x, c);
    for (const [k, y] of x) {
      c.set(k, later(y) ? undefined : y);
      if (later(y)) jobs.push([y, c, k]);
    }
    return c;
  }
  if (x instanceof Set) {
    const c = new Set();
    seen.set(x, c);
    for (const y of x) c.add(cloneValue(y, seen));
    return c;
  }
  const c = Object.create(Object.getPrototypeOf(x)) as Record<string, unknown>;
  seen.set(x, c);
  for (const [k, y] of Object.entries(x)) {
    const deep = !SHARED.has(k) && later(y);
    c[k] = deep ? undefined : y;
    if (deep) jobs.push([y, c, k]);
  }
  return c;
}

/** Rough heap bytes of a result (ES counts the serialized result's bytes). */
export function estimateBytes(v: unknown, seen: Set<object>): number {
  let n = 0;
  const todo: unknown[] = [v]; // iterative, as cloneValue
  while (todo.length > 0) {
    const x = todo.pop();
    if (typeof x === 'string') {
      n += 16 + x.length * 2;
      continue;
    }
    if (x === null || typeof x !== 'object') {
      n += 8;
      continue;
    }
    if (seen.has(x)) continue;
    seen.add(x);
    if (ArrayBuffer.isView(x)) {
      n += 32 + x.byteLength;
      continue;
    }
    n += 16;
    if (Array.isArray(x) || x instanceof Set) for (const y of x) todo.push(y);
    else if (x instanceof Map) for (const [k, y] of x) todo.push(k, y);
    else
      for (const [k, y] of Object.entries(x))
        if (!SHARED.has(k)) {
          n += 8 + k.length;
          todo.push(y);
        }
  }
  return n;
}
