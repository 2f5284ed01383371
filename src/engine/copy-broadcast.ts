/**
 * Per-copy operations over every copy of some indices (ES TransportBroadcastByNodeAction): the
 * seam behind the shard-statistics APIs (`_stats`, `_segments`, `_cache/clear`, `_forcemerge`...).
 * An operation is registered once by name and computes its answer for the copies one node holds
 * of one index; a lone node runs it on its own shards (every primary, started here), a node in a
 * cluster sends each node one request naming the copies it holds and merges the answers
 * (src/cluster/copy-broadcast.ts). `_shards` counts every copy in `total`, the copies that
 * answered in `successful`, those whose node failed in `failed`; unassigned copies are neither.
 */
import { EsError } from '../common/errors.js';
import type { IndexService } from './index-service.js';
import { allocationId } from './shard-routing.js';
import type { ShardsSummary } from './shard-broadcast.js';

/** Where a copy that answered is (ES ShardRouting as the stats APIs print it). */
export interface CopyRouting {
  readonly index: string;
  readonly shard: number;
  readonly primary: boolean;
  readonly state: 'STARTED' | 'RELOCATING' | 'INITIALIZING';
  readonly nodeId: string;
  readonly relocatingNodeId: string | null;
  readonly allocationId: string;
}

export interface CopyAnswer<T> {
  readonly routing: CopyRouting;
  readonly result: T;
}

export interface CopyBroadcastResult<T> {
  readonly shards: ShardsSummary;
  /** In the targets' order, then by shard number, primary first. */
  readonly copies: ReadonlyArray<CopyAnswer<T>>;
}

/**
 * One node's part of an operation on `idx`: one JSON-serializable answer per shard number of
 * `shards` (the copies this node holds), in that order. `body` is the request's, as JSON.
 */
export type CopyOperation = (
  idx: IndexService,
  shards: readonly number[],
  body: unknown,
) => unknown[] | Promise<unknown[]>;

export interface CopyBroadcast {
  /** Operations by name, registered when routes are (every node registers the same). */
  readonly operations: Map<string, CopyOperation>;
  run<T>(
    op: string,
    indices: readonly IndexService[],
    body: unknown,
  ): Promise<CopyBroadcastResult<T>>;
}

export function copyOperation(ops: ReadonlyMap<string, CopyOperation>, op: string): CopyOperation {
  const fn = ops.get(op);
  if (!fn) throw new EsError('action_not_found_transport_exception', `No handler for action [${op}]`, 500); // prettier-ignore
  return fn;
}

/** The number of copies of `idx` the metadata has: every primary and every replica. */
export const copiesOf = (idx: IndexService): number =>
  idx.numberOfShards * (1 + idx.numberOfReplicas);

/** A lone node: every started primary is here; replicas are unassigned (counted in total only). */
export function localCopies(nodeId: () => string): CopyBroadcast {
  const operations = new Map<string, CopyOperation>();
  return {
    operations,
    async run<T>(op: string, indices: readonly IndexService[], body: unknown) {
      const fn = copyOperation(operations, op);
      let total = 0;
      let successful = 0;
      const copies: Array<CopyAnswer<T>> = [];
      for (const idx of indices) {
        total += copiesOf(idx);
        if (idx.failed) continue;
        const shards = idx.shards.map((s) => s.id);
        const results = await fn(idx, shards, body);
        shards.forEach((shard, i) => {
          copies.push({
            routing: {
              index: idx.name,
              shard,
              primary: true,
              state: 'STARTED',
              nodeId: nodeId(),
              relocatingNodeId: null,
              allocationId: allocationId(idx.uuid, shard),
            },
            result: results[i] as T,
          });
        });
        successful += shards.length;
      }
      return { shards: { total, successful, failed: 0 }, copies };
    },
  };
}
