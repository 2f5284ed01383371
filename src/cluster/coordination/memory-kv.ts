/**
 * An in-memory key-value store with etcd's revision rules, for a lone node (LocalCoordinator)
 * and for tests of the codec: every transaction is one revision, and a put keeps the key's create
 * revision.
 */
import type { Kv, KvEvent } from './codec.js';
import type { KvOp } from './ops.js';

/** Applies `ops` as one transaction at `revision` to `store` (in place); returns the events. */
export function applyKvOps(
  store: Map<string, Kv>,
  ops: readonly KvOp[],
  revision: number,
): KvEvent[] {
  const events: KvEvent[] = [];
  const remove = (key: string) => {
    if (!store.delete(key)) return;
    events.push({ type: 'delete', key, value: '', createRevision: 0, modRevision: revision });
  };
  for (const op of ops) {
    if (op.type === 'put') {
      const createRevision = store.get(op.key)?.createRevision ?? revision;
      const kv = { key: op.key, value: op.value, createRevision, modRevision: revision };
      store.set(op.key, kv);
      events.push({ type: 'put', ...kv });
    } else if (op.type === 'delete') remove(op.key);
    else for (const key of [...store.keys()]) if (key.startsWith(op.prefix)) remove(key);
  }
  return events;
}

/** The store's key-values sorted by key, as etcd's range read returns them. */
export const sortedKvs = (store: ReadonlyMap<string, Kv>): Kv[] =>
  [...store.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
