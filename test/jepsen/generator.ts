/**
 * Seeded workloads and fault schedules: the same `--seed` gives the same sequence of operations
 * (given the same observations fed back) and the same faults at the same offsets, so a failing run
 * can be replayed. Both are bounded: a workload in op count and time, a schedule in fault count,
 * each fault's duration and the total time.
 */
import { rng } from '../crash/harness/rng.js';
import type { Op, Version } from './history.js';

export interface Mix {
  readonly insert: number;
  readonly cas: number;
  readonly read: number;
  readonly write: number;
  readonly delete: number;
}

export const DEFAULT_MIX: Mix = { insert: 0.4, cas: 0.25, read: 0.25, write: 0.05, delete: 0.05 };

export interface WorkloadOptions {
  readonly seed: number;
  /** Size of the register key set (small, so ops on a key contend). */
  readonly keys?: number;
  readonly mix?: Mix;
  readonly maxOps: number;
  readonly maxMillis?: number;
  /** ms clock for the time bound (default performance.now). */
  readonly now?: () => number;
}

export interface Workload {
  readonly keys: readonly string[];
  /** The next op, or null once a bound is reached. */
  next(): Op | null;
  /**
   * Feeds back a key's version as a client saw it (null: not found), so a later cas can expect
   * it. Without a known version for its key, a cas is issued as a read of that key instead.
   */
  observe(key: string, version: Version | null): void;
  issued(): number;
}

export function createWorkload(o: WorkloadOptions): Workload {
  const r = rng(o.seed);
  const keys = Array.from({ length: o.keys ?? 5 }, (_, i) => `k${i}`);
  const mix = o.mix ?? DEFAULT_MIX;
  const total = mix.insert + mix.cas + mix.read + mix.write + mix.delete;
  if (!(total > 0)) throw new Error('workload mix has no weight');
  const now = o.now ?? (() => performance.now());
  const start = now();
  const known = new Map<string, Version>();
  let issued = 0;
  let nextId = 0;
  let nextValue = 0;
  // Values and ids carry the seed so two runs' data never mix in one index.
  const tag = o.seed.toString(36);

  const pick = (): keyof Mix => {
    let x = r.next() * total;
    for (const k of ['insert', 'cas', 'read', 'write', 'delete'] as const) {
      if ((x -= mix[k]) < 0) return k;
    }
    return 'read';
  };

  return {
    keys,
    next() {
      if (issued >= o.maxOps) return null;
      if (o.maxMillis !== undefined && now() - start >= o.maxMillis) return null;
      issued++;
      const kind = pick();
      const key = r.pick(keys);
      switch (kind) {
        case 'insert':
          return { kind: 'insert', id: `${tag}-${nextId++}` };
        case 'read':
          return { kind: 'read', key };
        case 'write':
          return { kind: 'write', key, value: `${tag}-${nextValue++}` };
        case 'delete':
          return { kind: 'delete', key };
        case 'cas': {
          const expected = known.get(key);
          if (!expected) return { kind: 'read', key };
          return { kind: 'cas', key, expected, value: `${tag}-${nextValue++}` };
        }
      }
    },
    observe(key, version) {
      if (version) known.set(key, version);
      else known.delete(key);
    },
    issued: () => issued,
  };
}

export type FaultStep =
  | { readonly kind: 'kill'; readonly node: string; readonly at: number; readonly duration: number }
  | {
      readonly kind: 'pause';
      readonly node: string;
      readonly at: number;
      readonly duration: number;
    }
  | {
      readonly kind: 'partition-node';
      readonly node: string;
      readonly at: number;
      readonly duration: number;
    }
  | {
      readonly kind: 'partition-etcd';
      readonly member: string;
      readonly at: number;
      readonly duration: number;
    };

export type FaultStepKind = FaultStep['kind'];

export interface ScheduleOptions {
  readonly seed: number;
  readonly nodes: readonly string[];
  readonly etcdMembers: readonly string[];
  readonly maxFaults: number;
  /** Every fault starts and ends within this many ms from the start. */
  readonly totalMillis: number;
  /** Longest fault, ms (for a kill: until the restart). */
  readonly maxFaultMillis?: number;
  readonly minFaultMillis?: number;
  /** Quiet time between faults, so the cluster can recover and the checkers see it did. */
  readonly quietMillis?: readonly [number, number];
  readonly kinds?: readonly FaultStepKind[];
}

/**
 * One fault at a time, each followed by its heal (the restart, resume or healed partition) and a
 * quiet gap — Jepsen's usual rhythm. `at` and `duration` are ms from the start of the run.
 */
export function nemesisSchedule(o: ScheduleOptions): FaultStep[] {
  const r = rng(o.seed ^ 0x5bd1e995);
  const maxLen = o.maxFaultMillis ?? 5_000;
  const minLen = Math.min(o.minFaultMillis ?? 500, maxLen);
  const [quietLo, quietHi] = o.quietMillis ?? [1_000, 3_000];
  const kinds = (o.kinds ?? ['kill', 'pause', 'partition-node', 'partition-etcd']).filter((k) =>
    k === 'partition-etcd' ? o.etcdMembers.length > 0 : o.nodes.length > 0,
  );
  const steps: FaultStep[] = [];
  if (kinds.length === 0) return steps;
  let t = r.int(quietLo, quietHi);
  while (steps.length < o.maxFaults) {
    const duration = r.int(minLen, maxLen);
    if (t + duration > o.totalMillis) break;
    const kind = r.pick(kinds);
    steps.push(
      kind === 'partition-etcd'
        ? { kind, member: r.pick(o.etcdMembers), at: t, duration }
        : { kind, node: r.pick(o.nodes), at: t, duration },
    );
    t += duration + r.int(quietLo, quietHi);
  }
  return steps;
}

/** `--seed N` from the command line, or a fresh random seed (print it: it replays the run). */
export function parseSeed(argv: readonly string[] = process.argv): number {
  const i = argv.indexOf('--seed');
  const raw = i >= 0 ? argv[i + 1] : argv.find((a) => a.startsWith('--seed='))?.slice(7);
  if (raw === undefined) return Math.floor(Math.random() * 2 ** 31);
  const seed = Number(raw);
  if (!Number.isInteger(seed) || seed < 0)
    throw new Error(`--seed must be a non-negative integer, got ${raw}`);
  return seed;
}
