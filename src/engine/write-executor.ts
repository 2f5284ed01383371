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
import { acknowledge } from './write-ack.js';
import type { RefreshPolicy, WriteRequest } from './write-request.js';

export interface WriteOptions {
  readonly policy: RefreshPolicy;
  /** Runs before a request is routed (ingest): may rewrite it or finish it (a dropped document). */
  readonly prepare?: (req: WriteRequest) => WriteRequest | WriteOutcome;
  /** How long a write waits for an active primary (the `timeout` parameter, ES default 1m). */
  readonly timeoutMs?: number;
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
      const items = executeBulk(documents, [...reqs], opts.prepare);
      const touched = items.filter((i) => i.outcome).map((i) => i.outcome!);
      const forcedRefresh = await acknowledge(store, touched, opts.policy);
      return { items, forcedRefresh };
    },
  };
}

/** The one item of a single-document write: its outcome, or its error thrown. */
export function singleOutcome(r: WriteResult): WriteOutcome {
  const item = r.items[0]!;
  if (item.error) throw item.error;
  const out = item.outcome!;
  if (r.forcedRefresh) out.body.forced_refresh = true;
  return out;
}
