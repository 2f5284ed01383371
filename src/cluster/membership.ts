/**
 * A node's place in a cluster coordinated by etcd (`discovery.etcd.endpoints`): its transport
 * (node-to-node port), its coordinator (lease-bound membership, master election, the cluster
 * state from etcd's watch), and `collect`, which asks every node of the state for its part of an
 * answer over the transport, as ES's TransportNodesAction does for `_nodes` and `_cat/nodes`.
 *
 * What this stage of the cluster does not do yet: index metadata, shard allocation and the data
 * path are still per node, so a clustered node serves only the cluster, node and health APIs
 * (`dataPlane` is false and the HTTP layer blocks the others with a clear error).
 */
import { EsError, toEsError } from '../common/errors.js';
import type { ClusterIndices } from './cluster-indices.js';
import type { Coordinator } from './coordination/coordinator.js';
import { etcdCoordinator, etcdSettings } from './coordination/etcd-coordinator.js';
import type { ClusterState, DiscoveryNode } from './state.js';
import { createTransport, type RequestHandler, type Transport } from './transport/transport.js';
import { QUARRY_VERSION, SPOKEN_ES_VERSION } from './version.js';

export interface ClusterMembership {
  /** False until the data path is cluster-aware: index and document APIs are blocked. */
  readonly dataPlane: boolean;
  readonly localNode: DiscoveryNode;
  readonly coordinator: Coordinator;
  readonly transport: Transport;
  state(): ClusterState;
  /** Registers what this node answers when another node collects `action`. */
  handle(action: string, handler: (body: unknown) => unknown): void;
  /**
   * Asks every node of the state (this one directly) for its answer to `action`; nodes that fail
   * or time out are counted in `failures`.
   */
  collect(
    action: string,
    body: unknown,
    timeoutMs: number,
  ): Promise<{
    results: Map<string, unknown>;
    failures: Array<{ nodeId: string; error: EsError }>;
  }>;
  /** Index creation and deletion through the master, once wired (cluster-indices.ts). */
  indices: ClusterIndices | null;
  /**
   * Joins: registers the node in etcd, reads the state, campaigns. Called once every handler is
   * registered, so no other node sends this one an action it cannot answer yet.
   */
  start(): Promise<void>;
  /** Sends `action` to the elected master (this node's own handler when it is the master). */
  toMaster(action: string, body: unknown, timeoutMs?: number): Promise<unknown>;
  stop(): Promise<void>;
}

export interface JoinOptions {
  /** Flat settings (`discovery.etcd.*`, `transport.*`, `node.attr.*`, security). */
  settings: Readonly<Record<string, string>>;
  clusterName: string;
  nodeId: string;
  nodeName: string;
  ephemeralId: string;
  /** `host:port` of this node's HTTP port. */
  httpAddress: string;
  log?: (level: string, msg: string) => void;
}

/** Whether the settings ask for a cluster (`discovery.etcd.endpoints`). */
export function wantsCluster(settings: Readonly<Record<string, string>>): boolean {
  return etcdSettings(settings) !== null;
}

/**
 * Opens the transport and builds the node's membership; the node registers its handlers, then
 * `start()` joins the cluster.
 */
export async function joinCluster(opts: JoinOptions): Promise<ClusterMembership> {
  const settings = { ...opts.settings, 'cluster.name': opts.clusterName };
  const etcd = etcdSettings(settings);
  if (!etcd) throw new Error('joinCluster needs discovery.etcd.endpoints');
  const transport = createTransport({
    local: {
      clusterName: opts.clusterName,
      nodeId: opts.nodeId,
      nodeName: opts.nodeName,
      version: QUARRY_VERSION,
    },
    settings,
    onError: (e, remote) =>
      opts.log?.('WARN', `transport connection from [${remote}] refused: ${e.reason}`),
  });
  const transportAddress = await transport.start();
  const attributes: Record<string, string> = {};
  for (const [k, v] of Object.entries(settings))
    if (k.startsWith('node.attr.')) attributes[k.slice('node.attr.'.length)] = v;
  const localNode: DiscoveryNode = {
    id: opts.nodeId,
    name: opts.nodeName,
    ephemeralId: opts.ephemeralId,
    transportAddress,
    httpAddress: opts.httpAddress,
    attributes,
    version: QUARRY_VERSION,
    esVersion: SPOKEN_ES_VERSION,
    roles: ['master', 'data', 'ingest'],
  };
  const coordinator = etcdCoordinator(etcd, {
    onListenerError: (e) => opts.log?.('WARN', `cluster state listener failed: ${String(e)}`),
  });
  coordinator.onNoMaster(() =>
    opts.log?.('WARN', 'lost the cluster membership (etcd lease): rejoining'),
  );
  coordinator.onRejoin(() => opts.log?.('INFO', 'rejoined the cluster'));
  let lastMaster: string | null = null;
  coordinator.onState((_prev, next) => {
    if (next.masterNodeId !== lastMaster) {
      lastMaster = next.masterNodeId;
      const m = lastMaster === null ? null : next.nodes.get(lastMaster);
      opts.log?.(
        'INFO',
        m ? `master node changed: {${m.name}}{${m.id}}{${m.transportAddress}}` : 'no master',
      );
    }
  });
  const local = new Map<string, (body: unknown) => unknown>();
  const membership: ClusterMembership = {
    dataPlane: false,
    indices: null,
    localNode,
    coordinator,
    transport,
    state: () => coordinator.state(),
    handle(action, handler) {
      local.set(action, handler);
      const h: RequestHandler = async (req) => ({ body: await handler(req.body) });
      transport.registerHandler(action, h);
    },
    async collect(action, body, timeoutMs) {
      const results = new Map<string, unknown>();
      const failures: Array<{ nodeId: string; error: EsError }> = [];
      const state = coordinator.state();
      await Promise.all(
        [...state.nodes.values()].map(async (n) => {
          try {
            if (n.id === localNode.id) {
              const h = local.get(action);
              if (!h) throw new EsError('action_not_found_transport_exception', `No handler for action [${action}]`, 500); // prettier-ignore
              results.set(n.id, await h(body));
            } else {
              const r = await transport.send(
                { id: n.id, name: n.name, transportAddress: n.transportAddress },
                action,
                body,
                { timeoutMs },
              );
              results.set(n.id, r.body);
            }
          } catch (e) {
            failures.push({ nodeId: n.id, error: toEsError(e) });
          }
        }),
      );
      return { results, failures };
    },
    async toMaster(action, body, timeoutMs = 30_000) {
      const state = coordinator.state();
      const master = state.masterNodeId === null ? undefined : state.nodes.get(state.masterNodeId);
      if (!master)
        throw new EsError('master_not_discovered_exception', 'no master is elected', 503);
      if (master.id === localNode.id) {
        const h = local.get(action);
        if (!h) throw new EsError('action_not_found_transport_exception', `No handler for action [${action}]`, 500); // prettier-ignore
        return h(body);
      }
      const peer = { id: master.id, name: master.name, transportAddress: master.transportAddress };
      return (await transport.send(peer, action, body, { timeoutMs })).body;
    },
    async start() {
      try {
        await coordinator.start(localNode);
      } catch (e) {
        await transport.close();
        throw e;
      }
    },
    async stop() {
      membership.indices?.stop();
      await coordinator.stop().catch(() => undefined);
      await transport.close();
    },
  };
  return membership;
}
