/**
 * Where document writes run: the seam between the REST layer and the node's data path. Index,
 * delete, update and bulk hand their parsed requests here and get one item per request back, each
 * acknowledged as the refresh policy asks. A lone node runs them on its own shards (`localWrites`);
 * a node in a cluster routes each to its primary's node, which replicates it before answering
 * (src/cluster/writes). Items fail on their own, as `_bulk` items do.
 */
import type { Store } from '../store/store.js';
import { executeBulk, type BulkItem } from './bulk.js';
import type { DocumentService, WriteOutcome } from './documents.js';
import { markForcedRefresh, withForcedRefresh } from './forced-refresh.js';
import { acknowledge } from './write-ack.js';
import {
  describeBulkShardRequest,
  notEnoughActiveCopies,
  requiredActiveShards,
} from './active-shards.js';
import type { IndexService } from './index-service.js';
import type { EsError } from '../common/errors.js';
import type { RefreshPolicy, WriteRequest } from './write-request.js';

export interface WriteOptions {
  readonly policy: RefreshPolicy;
  /** Runs before a request is routed (ingest): may rewrite it or finish it (a dropped document). */
  readonly prepare?: (req: WriteRequest) => WriteRequest | WriteOutcome;
  /** How long a write waits for an active primary (the `timeout` parameter, ES default 1m). */
  readonly timeoutMs?: number;
  /** `wait_for_active_shards` as given (a number or `all`); the index's setting otherwise. */
  readonly waitForActiveShards?: string;
  /**
   * Hears the items once they are final and before they are acknowledged, so the caller can
   * prepare its answer while their commit is flushed (the executor may not call it). Not called
   * when the write fails as a whole.
   */
  readonly whileDurable?: (items: readonly BulkItem[]) => void;
}

export interface WriteResult {
  readonly items: BulkItem[];
  /** A refresh was forced (`refresh=true`): single-document answers say `forced_refresh`. */
  readonly forcedRefresh: boolean;
}

export interface WriteExecutor {
  run(reqs: readonly WriteRequest[], opts: WriteOptions): Promise<WriteResult>;
}

/** The lone node's writes: in order on its own shards, then durable (and refreshed) together. */
export function localWrites(documents: DocumentService, store: Store): WriteExecutor {
  return {
    async run(reqs, opts) {
      // a lone node has one active copy of each shard: more can never become active, so a write
      // asking for more fails once its wait is over, as ES's would
      const short = new Map<number, EsError>();
      let waitMs = 0;
      // checked once per index named (the bulk hot path routes nothing twice)
      const needs = new Map<string, boolean>();
      // the requests of each shard that must wait, as ES groups them into BulkShardRequests
      const waiting = new Map<string, { index: IndexService; shard: number; at: number[] }>();
      reqs.forEach((req, i) => {
        let need = needs.get(req.index);
        if (need === undefined) {
          let idx: ReturnType<typeof documents.writeTarget>;
          try {
            idx = documents.writeTarget(req.index);
          } catch {
            idx = undefined; // the write itself reports it
          }
          // a red index's write reports its inactive primary itself, at once
          need = !!idx && !idx.failed && requiredActiveShards(opts.waitForActiveShards, idx).required > 1; // prettier-ignore
          needs.set(req.index, need);
        }
        if (!need) return;
        try {
          const r = documents.routeWrite(req);
          if ('missing' in r) return;
          const key = `${r.index.name}\u0000${r.shard}`;
          const group = waiting.get(key);
          if (group) group.at.push(i);
          else waiting.set(key, { index: r.index, shard: r.shard, at: [i] });
        } catch {
          // the write itself reports it
        }
      });
      for (const { index, shard, at } of waiting.values()) {
        const count = requiredActiveShards(opts.waitForActiveShards, index);
        waitMs = opts.timeoutMs ?? 60_000;
        const request = describeBulkShardRequest(
          index.name,
          shard,
          at.map((i) => reqs[i]!),
        );
        const e = notEnoughActiveCopies(index.name, shard, count, 1, waitMs, request);
        for (const i of at) short.set(i, e);
      }
      if (short.size > 0) await new Promise((r) => setTimeout(r, waitMs));
      // the usual bulk has no short items: its requests and items are not copied again
      const runnable = short.size === 0 ? reqs : reqs.filter((_, i) => !short.has(i));
      const ran = executeBulk(documents, runnable, opts.prepare);
      let k = 0;
      const items: BulkItem[] =
        short.size === 0
          ? ran
          : reqs.map((req, i) => {
              const e = short.get(i);
              if (!e) return ran[k++]!;
              const verb =
                req.kind === 'index' ? (req.opType === 'create' ? 'create' : 'index') : req.kind;
              return { verb, outcome: null, error: e, req };
            });
      const touched: WriteOutcome[] = [];
      for (const i of items) if (i.outcome) touched.push(i.outcome);
      // the refresh comes before the answer; the answers say so before they are rendered
      if (opts.policy === 'true') markForcedRefresh(touched);
      const acked = acknowledge(store, touched, opts.policy);
      const meanwhile = opts.whileDurable;
      if (meanwhile) {
        // a failed commit is answered through `acked` below, not reported as unhandled meanwhile
        acked.catch(() => {});
        // the store's writes were queued in this turn: its write thread commits them once the
        // turn is over (lmdb-js batches a turn's writes), so the answer is prepared after that
        await new Promise<void>((res) => setImmediate(res));
        meanwhile(items);
      }
      const forcedRefresh = await acked;
      return { items, forcedRefresh };
    },
  };
}

/** The one item of a single-document write: its outcome, or its error thrown. */
export function singleOutcome(r: WriteResult): WriteOutcome {
  const item = r.items[0]!;
  if (item.error) throw item.error;
  const out = item.outcome!;
  if (r.forcedRefresh) out.body = withForcedRefresh(out.body);
  return out;
}
