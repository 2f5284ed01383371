/**
 * The master's one writer (ES MasterService): cluster state updates run one at a time, each a
 * pure function from the current state to the next; the difference is written to etcd in one
 * transaction fenced on the master's election key, and the update resolves once this node has
 * applied the state it wrote. A node that is not the elected master refuses updates
 * (`not_master_exception`), and a master deposed between computing and writing cannot commit.
 *
 * While it is master, the service also reacts to the state as ES's master does: nodes that left
 * have their copies failed over (`nodesLeft`, promotion with a new term), joined nodes are
 * allocated to, and delayed copies are retried when their delay ends.
 */
import { EsError, toEsError } from '../../common/errors.js';
import {
  nextDelayedAllocation,
  nodesJoined,
  nodesLeft,
  reroute,
  type AllocationContext,
} from '../allocation/index.js';
import type { Coordinator } from '../coordination/coordinator.js';
import type { ClusterState } from '../state.js';
import type { PendingTask } from '../../engine/routing-view.js';
import { stateDiff } from './state-diff.js';

export type StateUpdate = (state: ClusterState) => ClusterState;

export interface MasterService {
  /**
   * Runs `update` on the current state and publishes the result; resolves with the state
   * applied here (the same state when nothing changed). Rejects on a non-master node.
   */
  submit(source: string, update: StateUpdate): Promise<ClusterState>;
  /** Updates queued or running, oldest first (ES `_cluster/pending_tasks`). */
  pending(): PendingTask[];
  stop(): void;
}

export type { PendingTask };

export interface MasterServiceOptions {
  /** The allocation context for the master's reroutes (settings, shard stores, ids, time). */
  allocation: () => AllocationContext;
  /** How long to wait for this node to apply the state it wrote. */
  applyTimeoutMs?: number;
  log?: (level: string, msg: string) => void;
}

const STALE_TERMS = 'failed_to_commit_cluster_state_exception';
const MAX_STALE_RETRIES = 10;
const STALE_WAIT_MS = 2_000;

export function startMasterService(
  coordinator: Coordinator,
  opts: MasterServiceOptions,
): MasterService {
  let queue: Promise<unknown> = Promise.resolve();
  let stopped = false;
  let delayTimer: NodeJS.Timeout | null = null;
  const applyTimeoutMs = opts.applyTimeoutMs ?? 30_000;

  const run = async (update: StateUpdate): Promise<ClusterState> => {
    for (let attempt = 0; ; attempt++) {
      if (!coordinator.isMaster())
        throw new EsError('not_master_exception', 'no longer master. source: [cluster state update]', 500); // prettier-ignore
      const current = coordinator.state();
      const next = update(current);
      const ops = stateDiff(current, next);
      if (ops.length === 0) return current;
      try {
        const version = await coordinator.masterTxn(ops, current.version);
        return await coordinator.waitForVersion(version, applyTimeoutMs);
      } catch (e) {
        // a primary changed a shard's in-sync set after `current`: run again on the state that
        // has it (bounded; the watch brings it within moments)
        if (toEsError(e).type !== STALE_TERMS || attempt >= MAX_STALE_RETRIES) throw e;
        await coordinator.waitForVersion(current.version + 1, STALE_WAIT_MS).catch(() => undefined);
      }
    }
  };

  let insertOrder = 0;
  const queued = new Map<number, { source: string; insertedAt: number; executing: boolean }>();
  const submit = (source: string, update: StateUpdate): Promise<ClusterState> => {
    if (stopped) return Promise.reject(new EsError('illegal_state_exception', 'master service stopped', 500)); // prettier-ignore
    const order = ++insertOrder;
    const task = { source, insertedAt: Date.now(), executing: false };
    queued.set(order, task);
    const runTask = () => {
      task.executing = true;
      return run(update).finally(() => queued.delete(order));
    };
    const p = queue.then(runTask, runTask);
    queue = p.catch((e: unknown) => opts.log?.('DEBUG', `[${source}] failed: ${String(e)}`));
    return p;
  };

  /** ES's reactions to membership: fail over lost copies, allocate, retry delayed copies. */
  const react = (prev: ClusterState, next: ClusterState) => {
    if (stopped || !coordinator.isMaster()) return;
    const left = [...prev.nodes.keys()].filter((id) => !next.nodes.has(id));
    const joined = [...next.nodes.keys()].filter((id) => !prev.nodes.has(id));
    const becameMaster = prev.masterNodeId !== next.masterNodeId;
    if (left.length === 0 && joined.length === 0 && !becameMaster) return;
    void submit('node-left-or-joined', (s) => {
      const ctx = opts.allocation();
      // a new master also checks for nodes whose keys went while nobody was master
      const gone = [...s.routing.values()]
        .flatMap((t) => t.shards.flat())
        .map((c) => c.nodeId)
        .filter((id): id is string => id !== null && !s.nodes.has(id));
      let out = gone.length > 0 ? nodesLeft(s, [...new Set(gone)], ctx.now) : s;
      out = joined.length > 0 ? nodesJoined(out, [], ctx).state : out;
      return reroute(out, ctx).state;
    }).then(scheduleDelayed, () => undefined);
  };

  const scheduleDelayed = (state: ClusterState) => {
    if (delayTimer) clearTimeout(delayTimer);
    delayTimer = null;
    const ms = nextDelayedAllocation(state, opts.allocation().now);
    if (ms === null || ms === undefined || !Number.isFinite(ms) || stopped) return;
    delayTimer = setTimeout(
      () => {
        void submit('delayed-allocation', (s) => reroute(s, opts.allocation()).state).then(
          scheduleDelayed,
          () => undefined,
        );
      },
      Math.max(0, ms),
    );
    delayTimer.unref();
  };

  const unsubscribe = coordinator.onState(react);
  return {
    submit,
    pending: () =>
      [...queued].map(([o, t]) => ({ insertOrder: o, source: t.source, insertedAt: t.insertedAt, executing: t.executing })), // prettier-ignore
    stop() {
      stopped = true;
      unsubscribe();
      if (delayTimer) clearTimeout(delayTimer);
    },
  };
}
