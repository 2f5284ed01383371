/**
 * Writes a primary has applied but not yet acknowledged (replication under way), by document, so
 * a realtime GET on the primary never returns a version that may still be lost — the dirty read
 * ES allows. A GET of a document with a write in flight waits for its outcome: acknowledged, it
 * reads the new version; failed (the primary found its term stale while replicating), the copy
 * may hold writes no other copy has, and it serves no read of that shard until the shard's
 * primary term moves on (the master failed it over) or the node no longer holds the primary.
 */
import { EsError } from '../../common/errors.js';

export interface PendingWrites {
  /** Marks `ids` of a shard in flight; the returned function settles them (ok: acknowledged). */
  begin(index: string, shard: number, term: number, ids: readonly string[]): (ok: boolean) => void;
  /**
   * Resolves once no write of `id` is in flight; throws when one failed, or when the shard's
   * copy here is suspect since a failed write (see above). `termNow` is the shard's primary term
   * in this node's cluster state, `primaryHere` whether this node holds its primary.
   */
  settled(
    index: string,
    shard: number,
    id: string,
    termNow: number,
    primaryHere: boolean,
  ): Promise<void>;
}

const key = (index: string, shard: number) => `${index}\u0000${shard}`;

function suspectCopy(index: string, shard: number): EsError {
  return new EsError(
    'no_shard_available_action_exception',
    `[${index}][${shard}] the primary here failed to replicate a write and may hold unacknowledged operations; retry once the shard failed over`,
    503,
    { meta: { index, shard: String(shard) } },
  );
}

export function pendingWrites(): PendingWrites {
  /**
   * Shard key -> document id -> outcomes of its writes in flight: the one outcome itself, a list
   * only when several writes of the document overlap (a bulk's thousands of ids hold no list each).
   */
  const inFlight = new Map<string, Map<string, Promise<boolean> | Promise<boolean>[]>>();
  /** Shard key -> the primary term a write failed in. */
  const suspect = new Map<string, number>();

  const checkSuspect = (index: string, shard: number, termNow: number, primaryHere: boolean) => {
    const k = key(index, shard);
    const failedIn = suspect.get(k);
    if (failedIn === undefined) return;
    if (!primaryHere || termNow > failedIn) {
      suspect.delete(k);
      return;
    }
    throw suspectCopy(index, shard);
  };

  return {
    begin(index, shard, term, ids) {
      const k = key(index, shard);
      let docs = inFlight.get(k);
      if (!docs) inFlight.set(k, (docs = new Map()));
      let settle!: (ok: boolean) => void;
      const outcome = new Promise<boolean>((r) => (settle = r));
      for (const id of ids) {
        const had = docs.get(id);
        if (had === undefined) docs.set(id, outcome);
        else if (Array.isArray(had)) had.push(outcome);
        else docs.set(id, [had, outcome]);
      }
      return (ok) => {
        if (!ok) suspect.set(k, Math.max(term, suspect.get(k) ?? 0));
        settle(ok);
        for (const id of ids) {
          const had = docs.get(id);
          if (had === outcome) docs.delete(id);
          else if (Array.isArray(had)) {
            const i = had.indexOf(outcome);
            if (i >= 0) had.splice(i, 1);
            if (had.length === 0) docs.delete(id);
          }
        }
        if (docs.size === 0 && inFlight.get(k) === docs) inFlight.delete(k);
      };
    },
    async settled(index, shard, id, termNow, primaryHere) {
      checkSuspect(index, shard, termNow, primaryHere);
      const had = inFlight.get(key(index, shard))?.get(id);
      if (had === undefined || (Array.isArray(had) && had.length === 0)) return;
      const outcomes = Array.isArray(had) ? await Promise.all([...had]) : [await had];
      if (outcomes.includes(false)) throw suspectCopy(index, shard);
      checkSuspect(index, shard, termNow, primaryHere);
    },
  };
}
