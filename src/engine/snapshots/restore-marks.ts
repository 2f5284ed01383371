/**
 * A restore in progress, kept durably in the node's store: set before the restored index is
 * made, given the index's uuid once it exists, cleared once every document is durable. A node
 * that starts and finds one (it was killed mid-restore) marks that index red instead of serving
 * it half filled, as ES leaves an interrupted restore's shards unassigned; deleting the index and
 * restoring again is the way back.
 */
import type { Store } from '../../store/store.js';
import type { IndicesService } from '../indices-service.js';

const PREFIX = 'restoring:';

interface Mark {
  readonly snapshot: string;
  /** Null until the index is made. */
  readonly uuid: string | null;
}

export interface RestoreMarks {
  begin(index: string, snapshot: string): Promise<void>;
  created(index: string, snapshot: string, uuid: string): Promise<void>;
  done(index: string): Promise<void>;
}

export function storeRestoreMarks(store: Store): RestoreMarks {
  const put = async (index: string, mark: Mark) => {
    await store.putMeta(PREFIX + index, mark);
    await store.durable();
  };
  return {
    begin: (index, snapshot) => put(index, { snapshot, uuid: null }),
    created: (index, snapshot, uuid) => put(index, { snapshot, uuid }),
    async done(index) {
      await store.removeMeta(PREFIX + index);
      await store.durable();
    },
  };
}

/**
 * At start: each index a restore was still filling is marked failed (red); a mark whose index
 * is gone or is another index of that name (deleted and made again) is dropped.
 */
export async function failUnfinishedRestores(
  store: Store,
  indices: IndicesService,
): Promise<Array<{ index: string; reason: string }>> {
  const out: Array<{ index: string; reason: string }> = [];
  for (const key of store.metaKeys(PREFIX)) {
    const name = key.slice(PREFIX.length);
    const mark = store.getMeta<Mark>(key);
    const idx = indices.get(name);
    if (!mark || !idx || (mark.uuid !== null && mark.uuid !== idx.uuid)) {
      await store.removeMeta(key);
      continue;
    }
    // stamped, so the mark cannot outlive this index and fail a later one of the same name
    if (mark.uuid === null) await store.putMeta(key, { ...mark, uuid: idx.uuid });
    const reason = `restore of snapshot [${mark.snapshot}] did not complete`;
    idx.stop();
    idx.failed = true;
    idx.failure = reason;
    out.push({ index: name, reason });
  }
  return out;
}
