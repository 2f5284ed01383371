/**
 * The coordinator of a lone node (no `discovery.etcd.endpoints`): the node is always master, a
 * change applies synchronously in memory, one version per change, after the persistence
 * callback accepted it. The state goes through the same key layout and fold as in etcd, so both
 * coordinators build states the same way.
 */
import { randomBase64Uuid } from '../../common/ids.js';
import type { ClusterState, DiscoveryNode, ShardTerms } from '../state.js';
import {
  applyEvents,
  decodeState,
  emptyState,
  encodeState,
  encodeNode,
  INITIAL_TERMS,
  UNKNOWN_CLUSTER_UUID,
  type Kv,
  type StateView,
} from './codec.js';
import type { Coordinator } from './coordinator.js';
import { masterNotDiscovered, noLongerPrimary } from './errors.js';
import { keyForNode, keySpace, masterPrefix } from './keys.js';
import { listeners, waitForVersion } from './listeners.js';
import { applyKvOps, sortedKvs } from './memory-kv.js';
import { toKvOps, type KvOp, type StateOp } from './ops.js';

export interface LocalCoordinatorOptions {
  readonly clusterName: string;
  /** The state the node's store holds (its version is kept); empty when absent. */
  readonly initial?: ClusterState;
  /**
   * Called with every change before it applies; a throw rejects the change and leaves the state
   * as it was.
   */
  readonly persist?: (next: ClusterState, ops: readonly StateOp[]) => void;
  readonly onListenerError?: (e: unknown) => void;
}

export function localCoordinator(opts: LocalCoordinatorOptions): Coordinator {
  const ks = keySpace(opts.clusterName);
  const initial = opts.initial ?? emptyState(opts.clusterName);
  const store = new Map<string, Kv>();
  applyKvOps(
    store,
    encodeState(ks, initial).map((kv) => ({ type: 'put', ...kv })),
    initial.version,
  );
  let view: StateView = decodeState(sortedKvs(store), initial.version, opts.clusterName);
  let started = false;
  const onError = opts.onListenerError ?? (() => undefined);
  const stateListeners = listeners<[ClusterState, ClusterState]>(onError);
  const noMaster = listeners<[]>(onError);
  const rejoin = listeners<[]>(onError);

  /** One change: persisted, then applied, then announced. */
  function commit(kvOps: readonly KvOp[], ops: readonly StateOp[]): number {
    const revision = view.state.version + 1;
    const scratch = new Map(store);
    const next = applyEvents(view, applyKvOps(scratch, kvOps, revision));
    const state = { ...next.state, version: revision };
    opts.persist?.(state, ops);
    store.clear();
    for (const [k, v] of scratch) store.set(k, v);
    const prev = view.state;
    view = { ...next, state };
    stateListeners.emit(prev, state);
    return revision;
  }

  const coordinator: Coordinator = {
    async start(localNode: DiscoveryNode) {
      // The node and its (only) candidacy, as in etcd; a new cluster gets its uuid.
      const ops: StateOp[] =
        view.state.metadata.clusterUuid === UNKNOWN_CLUSTER_UUID
          ? [{ type: 'putClusterUuid', clusterUuid: randomBase64Uuid() }]
          : [];
      commit(
        [
          { type: 'put', key: keyForNode(ks, localNode.id), value: encodeNode(localNode) },
          { type: 'put', key: `${masterPrefix(ks)}local`, value: localNode.id },
          ...toKvOps(ks, ops),
        ],
        ops,
      );
      started = true;
      return view.state;
    },
    async stop() {
      started = false;
    },
    state: () => view.state,
    isMaster: () => started,
    async masterTxn(ops) {
      if (!started) throw masterNotDiscovered();
      return commit(toKvOps(ks, ops), ops);
    },
    async termTxn(indexUuid, shard, expectedTerm, next) {
      if (!started) throw masterNotDiscovered();
      const current = view.indices.get(indexUuid)?.terms.get(shard) ?? INITIAL_TERMS;
      if (current.primaryTerm !== expectedTerm)
        throw noLongerPrimary(
          indexUuid,
          shard,
          `primary term [${expectedTerm}] did not match current primary term [${current.primaryTerm}]`,
        );
      const terms = typeof next === 'function' ? next(current) : next;
      const ops: StateOp[] = [{ type: 'putTerms', indexUuid, shard, terms }];
      return commit(toKvOps(ks, ops), ops);
    },
    waitForVersion: (version, timeoutMs) =>
      waitForVersion(() => view.state, stateListeners.add, version, timeoutMs),
    onState: stateListeners.add,
    onNoMaster: noMaster.add,
    onRejoin: rejoin.add,
  };
  return coordinator;
}
