/**
 * A shard's writes that are queued for LMDB but not yet committed, by id, so that GET, version
 * checks and source fetches see them. Kept in one map per store commit: a commit settles its
 * writes by dropping its map whole, instead of a lookup and a delete per document (a 5000-document
 * bulk paid both for every item). A lookup asks the maps newest first, so the latest write of an
 * id wins, as it would in one map; only a few commits are ever in flight.
 */
export interface Uncommitted<V> {
  get(id: string): V | undefined;
  has(id: string): boolean;
  /** Records the write of `id` in the commit `batch` (the store's promise for that commit). */
  set(batch: Promise<void>, id: string, value: V): void;
  /** Forgets every write of `id` (a rollback removing the record outright). */
  delete(id: string): void;
  values(): Generator<V>;
  /** Writes held (an id written in two commits in flight counts twice). */
  readonly size: number;
}

interface Batch<V> {
  readonly commit: Promise<void>;
  readonly writes: Map<string, V>;
}

export function uncommitted<V>(): Uncommitted<V> {
  // oldest first
  let batches: Batch<V>[] = [];
  const settle = (b: Batch<V>) => {
    const at = batches.indexOf(b);
    if (at < 0) return;
    // commits settle in order, so any older batch still here failed: its writes of these ids
    // are superseded by the ones now stored
    for (let i = 0; i < at; i++) for (const id of b.writes.keys()) batches[i]!.writes.delete(id);
    batches = batches.filter((x) => x !== b);
  };
  return {
    get(id) {
      for (let i = batches.length - 1; i >= 0; i--) {
        const v = batches[i]!.writes.get(id);
        if (v !== undefined) return v;
      }
      return undefined;
    },
    has(id) {
      for (let i = batches.length - 1; i >= 0; i--) if (batches[i]!.writes.has(id)) return true;
      return false;
    },
    set(commit, id, value) {
      let b = batches.length > 0 ? batches[batches.length - 1]! : undefined;
      if (b === undefined || b.commit !== commit) {
        const nb: Batch<V> = { commit, writes: new Map() };
        batches.push(nb);
        // a failed commit leaves its writes visible, as the store may still hold them
        commit.then(
          () => settle(nb),
          () => undefined,
        );
        b = nb;
      }
      b.writes.set(id, value);
    },
    delete(id) {
      for (const b of batches) b.writes.delete(id);
    },
    *values() {
      for (const b of batches) yield* b.writes.values();
    },
    get size() {
      let n = 0;
      for (const b of batches) n += b.writes.size;
      return n;
    },
  };
}
