/**
 * `_cat/thread_pool` rows. Quarry runs requests on three real pools (write, search, get, see
 * src/http/overload.ts); the other pools ES 6.8 lists do their work on the event loop here, so
 * they are listed idle with no threads, as a node that has never used them.
 */
import { simpleMatch } from '../engine/index-names.js';

export interface PoolFigures {
  name: string;
  type: 'fixed' | 'fixed_auto_queue_size' | 'scaling';
  active: number;
  size: number;
  queue: number;
  /** -1: unbounded. */
  queueSize: number;
  rejected: number;
  largest: number;
  completed: number;
}

/** ES 6.8 ThreadPool.Names with their executor types. */
const ES_POOLS: ReadonlyArray<[string, PoolFigures['type']]> = [
  ['analyze', 'fixed'],
  ['fetch_shard_started', 'scaling'],
  ['fetch_shard_store', 'scaling'],
  ['flush', 'scaling'],
  ['force_merge', 'fixed'],
  ['generic', 'scaling'],
  ['get', 'fixed'],
  ['index', 'fixed'],
  ['listener', 'fixed'],
  ['management', 'scaling'],
  ['refresh', 'scaling'],
  ['search', 'fixed_auto_queue_size'],
  ['search_throttled', 'fixed_auto_queue_size'],
  ['snapshot', 'scaling'],
  ['warmer', 'scaling'],
  ['write', 'fixed'],
];

/** Every pool, sorted by name: the real ones' figures, the rest idle. */
export function allPools(real: readonly PoolFigures[]): PoolFigures[] {
  const byName = new Map(real.map((p) => [p.name, p]));
  const names = new Set([...ES_POOLS.map(([n]) => n), ...byName.keys()]);
  const types = new Map(ES_POOLS);
  return [...names].sort().map(
    (name) =>
      byName.get(name) ?? {
        name,
        type: types.get(name)!,
        active: 0,
        size: 0,
        queue: 0,
        queueSize: types.get(name) === 'scaling' ? -1 : 0,
        rejected: 0,
        largest: 0,
        completed: 0,
      },
  );
}

/** ES RestThreadPoolAction: `thread_pool_patterns` keeps the pools any pattern matches. */
export function selectPools(
  pools: readonly PoolFigures[],
  patterns: string | undefined,
): PoolFigures[] {
  const ps = (patterns ?? '*')
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p);
  if (ps.length === 0) return [...pools];
  return pools.filter((p) => ps.some((pat) => simpleMatch(pat, p.name)));
}

/** The pool's own cells of a row (min/max as ES reports them: a fixed pool's size for both). */
export function poolCells(p: PoolFigures): Record<string, string | number | null> {
  const fixed = p.type !== 'scaling';
  return {
    name: p.name,
    type: p.type,
    active: p.active,
    size: p.size,
    queue: p.queue,
    queue_size: p.queueSize,
    rejected: p.rejected,
    largest: p.largest,
    completed: p.completed,
    min: fixed ? p.size : 0,
    max: p.size,
    keep_alive: fixed ? null : '5m',
  };
}
