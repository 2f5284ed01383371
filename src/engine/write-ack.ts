/**
 * When a write may be acknowledged: after its LMDB commit is flushed (or only committed when the
 * index uses `index.translog.durability: async`), then after the refresh the request asked for.
 */
import type { Store } from '../store/store.js';
import type { IndexService } from './index-service.js';
import type { Shard } from './shard.js';
import type { RefreshPolicy } from './write-request.js';

export interface Touched {
  index: IndexService | null;
  shard: Shard | null;
}

/** Returns true when a refresh was forced (the `forced_refresh` response flag). */
export async function acknowledge(
  store: Store,
  touched: Touched[],
  policy: RefreshPolicy,
): Promise<boolean> {
  const allAsync = touched.length > 0 && touched.every((t) => !t.index || t.index.asyncDurability);
  if (allAsync) await store.committed();
  else await store.durable();
  if (policy === 'false') return false;
  const shards = new Set<Shard>();
  for (const t of touched) if (t.shard) shards.add(t.shard);
  if (policy === 'true') {
    for (const s of shards) s.search?.refresh();
    return shards.size > 0;
  }
  await Promise.all([...shards].map((s) => s.search?.nextRefresh()));
  return false;
}
