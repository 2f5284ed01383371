/**
 * The node's shard request cache (ES IndicesRequestCache): values keyed by shard, reader
 * generation and request key, bounded by an estimated byte size with least-recently-used
 * eviction. Hits, misses, evictions and held bytes are reported on each shard's counters
 * (ES ShardRequestCache). Entries of an older reader are dropped when the shard is next asked
 * at a newer generation (ES cleans them when the old reader closes; not counted as evictions).
 */
import type { ShardCounters } from './stats.js';

/** The shard side of an entry: its counters and identity. */
export interface CacheShard {
  readonly counters: ShardCounters;
}

interface Entry<V> {
  readonly shard: CacheShard;
  readonly generation: number;
  readonly key: string;
  readonly value: V;
  readonly bytes: number;
}

/** ES IndicesRequestCache: `indices.requests.cache.size` defaults to 1% of the heap. */
export const DEFAULT_REQUEST_CACHE_FRACTION = 0.01;

/** Key and entry overhead ES counts besides the value (Key.ramBytesUsed + accounting). */
const ENTRY_OVERHEAD = 64;

export class RequestCache<V> {
  /** Map order is recency order: the first entry is the least recently used. */
  private readonly entries = new Map<string, Entry<V>>();
  private readonly generations = new Map<CacheShard, number>();
  private shardIds = new WeakMap<CacheShard, number>();
  private nextShardId = 0;
  private bytes = 0;

  constructor(private maxBytes: number) {}

  /** Total bytes held (all shards). */
  get sizeInBytes(): number {
    return this.bytes;
  }

  get count(): number {
    return this.entries.size;
  }

  setMaxBytes(max: number): void {
    this.maxBytes = max;
    this.evictToFit();
  }

  /**
   * The cached value for `key` on `shard` at reader `generation`, else `load()` stored (when it
   * fits) and returned. `valid` can reject a stale hit (then it is replaced, and counts as a
   * miss); `size` estimates a value's bytes.
   */
  getOrLoad(
    shard: CacheShard,
    generation: number,
    key: string,
    load: () => V,
    size: (v: V) => number,
    valid: (v: V) => boolean = () => true,
  ): { value: V; hit: boolean } {
    this.onGeneration(shard, generation);
    const k = `${this.shardId(shard)}:${generation}:${key}`;
    const e = this.entries.get(k);
    if (e && valid(e.value)) {
      this.entries.delete(k);
      this.entries.set(k, e);
      shard.counters.requestCacheHits++;
      return { value: e.value, hit: true };
    }
    if (e) this.remove(k, e, false);
    shard.counters.requestCacheMisses++;
    const value = load();
    const bytes = size(value) + key.length * 2 + ENTRY_OVERHEAD;
    if (bytes <= this.maxBytes) {
      this.entries.set(k, { shard, generation, key, value, bytes });
      this.bytes += bytes;
      shard.counters.requestCacheBytes += bytes;
      this.evictToFit();
    }
    return { value, hit: false };
  }

  /** Drops the entry for `key` on `shard` at `generation`, if any (not an eviction). */
  invalidate(shard: CacheShard, generation: number, key: string): void {
    const k = `${this.shardId(shard)}:${generation}:${key}`;
    const e = this.entries.get(k);
    if (e) this.remove(k, e, false);
  }

  /** Drops every entry of `shard` (clear cache API, closed or deleted index). */
  clearShard(shard: CacheShard): void {
    for (const [k, e] of this.entries) if (e.shard === shard) this.remove(k, e, false);
    this.generations.delete(shard);
  }

  private shardId(shard: CacheShard): number {
    let id = this.shardIds.get(shard);
    if (id === undefined) this.shardIds.set(shard, (id = this.nextShardId++));
    return id;
  }

  /** A newer reader of `shard`: entries of its previous readers can never hit again. */
  private onGeneration(shard: CacheShard, generation: number): void {
    const prev = this.generations.get(shard);
    if (prev === generation) return;
    this.generations.set(shard, generation);
    if (prev === undefined) return;
    for (const [k, e] of this.entries)
      if (e.shard === shard && e.generation !== generation) this.remove(k, e, false);
  }

  private evictToFit(): void {
    for (const [k, e] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.remove(k, e, true);
    }
  }

  private remove(k: string, e: Entry<V>, evicted: boolean): void {
    this.entries.delete(k);
    this.bytes -= e.bytes;
    e.shard.counters.requestCacheBytes -= e.bytes;
    if (evicted) e.shard.counters.requestCacheEvictions++;
  }
}
