/**
 * Per-copy operations in a cluster (ES TransportBroadcastByNodeAction): the coordinating node
 * reads the routing table, sends every node that holds started copies of the targets one request
 * naming them, each node runs the registered operation on its copies, and the answers are merged
 * in the targets' order. A node that fails or does not answer counts its copies as failed.
 */
import { toEsError } from '../common/errors.js';
import {
  copiesOf,
  copyOperation,
  type CopyAnswer,
  type CopyBroadcast,
  type CopyOperation,
  type CopyRouting,
} from '../engine/copy-broadcast.js';
import type { IndexService } from '../engine/index-service.js';
import type { IndicesService } from '../engine/indices-service.js';
import type { ClusterMembership } from './membership.js';
import type { ClusterState, ShardRouting } from './state.js';

export const COPIES_ACTION = 'indices:monitor/copies[n]';

interface NodeRequest {
  op: string;
  body: unknown;
  /** Per index: its uuid and the shard numbers of the copies the node holds. */
  indices: Array<{ name: string; uuid: string; shards: number[] }>;
}

/** Per index name, one answer per shard number asked (null: the copy is not here). */
type NodeResponse = Record<string, unknown[] | null>;

const active = (c: ShardRouting): boolean =>
  c.nodeId !== null && c.allocationId !== null && (c.state === 'STARTED' || c.state === 'RELOCATING'); // prettier-ignore

function routingOf(c: ShardRouting): CopyRouting {
  return {
    index: c.index,
    shard: c.shard,
    primary: c.primary,
    state: c.state as CopyRouting['state'],
    nodeId: c.nodeId!,
    relocatingNodeId: c.relocatingNodeId,
    allocationId: c.allocationId!.id,
  };
}

/** The started copies of the targets, by node. */
function copiesByNode(state: ClusterState, targets: readonly IndexService[]) {
  const out = new Map<string, ShardRouting[]>();
  for (const idx of targets) {
    const table = state.routing.get(idx.name);
    if (!table || table.indexUuid !== idx.uuid) continue;
    for (const copies of table.shards)
      for (const c of copies) {
        if (!active(c)) continue;
        const list = out.get(c.nodeId!) ?? [];
        list.push(c);
        out.set(c.nodeId!, list);
      }
  }
  return out;
}

export function clusterCopies(
  membership: ClusterMembership,
  indices: IndicesService,
  operations: Map<string, CopyOperation>,
): CopyBroadcast {
  const onNode = async (req: NodeRequest): Promise<NodeResponse> => {
    const fn = copyOperation(operations, req.op);
    const out: NodeResponse = {};
    for (const { name, uuid, shards } of req.indices) {
      const idx = indices.get(name);
      out[name] = !idx || idx.uuid !== uuid || idx.failed ? null : await fn(idx, shards, req.body);
    }
    return out;
  };
  membership.handle(COPIES_ACTION, (b) => onNode(b as NodeRequest));
  return {
    operations,
    async run<T>(op: string, targets: readonly IndexService[], body: unknown) {
      const state = membership.state();
      let total = 0;
      for (const idx of targets) total += copiesOf(idx);
      const byNode = copiesByNode(state, targets);
      const answers = new Map<string, unknown>();
      let failed = 0;
      await Promise.all(
        [...byNode].map(async ([nodeId, copies]) => {
          const perIndex = new Map<string, { name: string; uuid: string; shards: number[] }>();
          for (const c of copies) {
            const e = perIndex.get(c.index) ?? { name: c.index, uuid: c.indexUuid, shards: [] };
            e.shards.push(c.shard);
            perIndex.set(c.index, e);
          }
          const req: NodeRequest = { op, body, indices: [...perIndex.values()] };
          try {
            let res: NodeResponse;
            if (nodeId === membership.localNode.id) res = await onNode(req);
            else {
              const n = state.nodes.get(nodeId);
              if (!n) throw toEsError(new Error(`node [${nodeId}] is not in the cluster`));
              const peer = { id: n.id, name: n.name, transportAddress: n.transportAddress };
              res = (await membership.transport.send(peer, COPIES_ACTION, req, { timeoutMs: 30_000 })).body as NodeResponse; // prettier-ignore
            }
            for (const e of req.indices) {
              const got = res[e.name];
              e.shards.forEach((shard, i) => {
                const c = copies.find((x) => x.index === e.name && x.shard === shard)!;
                if (got) answers.set(c.allocationId!.id, got[i]);
                else failed++;
              });
            }
          } catch {
            failed += copies.length;
          }
        }),
      );
      const out: Array<CopyAnswer<T>> = [];
      for (const idx of targets) {
        const table = state.routing.get(idx.name);
        if (!table || table.indexUuid !== idx.uuid) continue;
        for (const copies of table.shards) {
          const ordered = [...copies].sort((a, b) => Number(b.primary) - Number(a.primary));
          for (const c of ordered) {
            if (!active(c) || !answers.has(c.allocationId!.id)) continue;
            out.push({ routing: routingOf(c), result: answers.get(c.allocationId!.id) as T });
          }
        }
      }
      return { shards: { total, successful: out.length, failed }, copies: out };
    },
  };
}
