/**
 * Plays a fault schedule against the cluster through a nemesis: each step at its offset, held for
 * its duration, then healed (restart, resume, partition removed) before the next. Stopping early
 * or failing still heals. What a name means (pid, address, who talks to whom) is the harness's
 * business, given as `targets`.
 */
import type { FaultStep } from './generator.js';
import type { Clock } from './history.js';
import type { Nemesis } from './nemesis.js';

export interface ScheduleTargets {
  pid(node: string): number;
  address(node: string): string;
  etcdAddress(member: string): string;
  /** Every address `address` exchanges traffic with: other nodes, etcd members, clients. */
  peers(address: string): readonly string[];
  /** Starts a killed node again on its data path. */
  restart(node: string): Promise<void>;
  /** Whether the node is primary of some shard now (its death then starts a failover clock). */
  isPrimary?(node: string): boolean;
}

export interface RunScheduleOptions {
  readonly clock: Clock;
  readonly signal?: AbortSignal;
  readonly log?: (line: string) => void;
}

export interface ScheduleRun {
  readonly applied: number;
  readonly primaryDeaths: ReadonlyArray<{ readonly node: string; readonly at: number }>;
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (ms <= 0 || signal?.aborted) return resolve();
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

export async function runSchedule(
  steps: readonly FaultStep[],
  nemesis: Nemesis,
  targets: ScheduleTargets,
  options: RunScheduleOptions,
): Promise<ScheduleRun> {
  const { clock, signal } = options;
  const log = options.log ?? (() => {});
  const t0 = clock.mono();
  const elapsed = () => (clock.mono() - t0) / 1e6;
  const primaryDeaths: Array<{ node: string; at: number }> = [];
  let applied = 0;
  let heal: (() => Promise<void>) | null = null;
  try {
    for (const step of steps) {
      await sleep(step.at - elapsed(), signal);
      if (signal?.aborted) break;
      const name = step.kind === 'partition-etcd' ? step.member : step.node;
      log(`${elapsed().toFixed(0)} ms: ${step.kind} ${name} for ${step.duration} ms`);
      switch (step.kind) {
        case 'kill': {
          const primary = targets.isPrimary?.(step.node) ?? false;
          nemesis.kill9(targets.pid(step.node), step.node);
          if (primary) primaryDeaths.push({ node: step.node, at: clock.mono() });
          heal = () => targets.restart(step.node);
          break;
        }
        case 'pause': {
          const pid = targets.pid(step.node);
          nemesis.pause(pid, step.node);
          heal = async () => nemesis.resume(pid);
          break;
        }
        case 'partition-node':
        case 'partition-etcd': {
          const addr =
            step.kind === 'partition-node'
              ? targets.address(step.node)
              : targets.etcdAddress(step.member);
          await nemesis.isolate(addr, targets.peers(addr));
          heal = () => nemesis.heal();
          break;
        }
      }
      applied++;
      await sleep(step.duration, signal);
      const h = heal;
      heal = null;
      await h();
      log(`${elapsed().toFixed(0)} ms: healed ${step.kind} ${name}`);
    }
  } finally {
    if (heal) await heal();
    await nemesis.heal();
  }
  return { applied, primaryDeaths };
}
