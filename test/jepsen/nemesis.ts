/**
 * Fault injection on this machine only: kill -9, SIGSTOP/SIGCONT, and network partitions between
 * 127.0.0.k addresses. Partitions live in one nftables table of our own, rebuilt atomically on
 * every change and deleted by `heal()`; any address outside 127.0.0.0/8 is refused. Every fault is
 * bounded: a count per nemesis, and a duration after which a pause or partition heals itself.
 * `heal()` is idempotent and also runs on exit, SIGINT and SIGTERM, so no rule and no stopped
 * process outlives the test.
 */
import { execFileSync, spawn } from 'node:child_process';
import { createClock, type Clock } from './history.js';

export const NFT = '/usr/sbin/nft';
export const DEFAULT_TABLE = 'quarry_jepsen';

export type FaultKind = 'kill' | 'pause' | 'partition';

export interface FaultRecord {
  readonly kind: FaultKind;
  /** What was hit: a label or pid, or the partitioned pairs. */
  readonly target: string;
  /** Monotonic ns on the nemesis clock (the recorder's, when shared). */
  readonly start: number;
  end?: number;
}

export interface NemesisOptions {
  readonly table?: string;
  readonly nft?: string;
  readonly clock?: Clock;
  /** Faults this nemesis may start in all (default 100). */
  readonly maxFaults?: number;
  /** A pause or partition heals itself after this long (default 60 s). */
  readonly maxFaultMillis?: number;
  /**
   * Address → uid of the process listening there, for processes that cannot bind their outgoing
   * sockets (etcd, grpc-js clients): their connections leave from 127.0.0.1, so their traffic is
   * told apart by the socket's owner instead. Call `track()` before they connect.
   */
  readonly owners?: Readonly<Record<string, number>>;
}

export interface Nemesis {
  kill9(pid: number, label?: string): void;
  pause(pid: number, label?: string): void;
  resume(pid: number): void;
  /** Drops traffic both ways between each pair, on top of the partitions already in place. */
  partition(pairs: ReadonlyArray<readonly [string, string]>): Promise<void>;
  /** Cuts `addr` off from each of `others`. */
  isolate(addr: string, others: readonly string[]): Promise<void>;
  /**
   * With `owners`: installs the table with only the chain that tags each owner's new connections,
   * so connections made before a partition are cut by it too.
   */
  track(): Promise<void>;
  /**
   * Resumes every paused process and deletes the table (with `owners`, every drop rule: the
   * tagging chain stays until `dispose()` or exit). Safe to call any number of times.
   */
  heal(): Promise<void>;
  healSync(): void;
  faults(): readonly FaultRecord[];
  /** Heals and removes the exit hooks. */
  dispose(): Promise<void>;
}

const LOOPBACK = /^127\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

/** Throws unless `addr` is a dotted IPv4 address in 127.0.0.0/8. */
export function assertLoopback(addr: string): void {
  const m = LOOPBACK.exec(addr);
  if (!m || m.slice(1).some((x) => Number(x) > 255))
    throw new Error(
      `nemesis: refusing ${JSON.stringify(addr)}: only 127.0.0.0/8 addresses may be partitioned`,
    );
}

function runNft(nft: string, script: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(nft, ['-f', '-'], { stdio: ['pipe', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    child.on('error', (e) => reject(nftError(nft, e.message)));
    child.on('close', (code) =>
      code === 0 ? resolve() : reject(nftError(nft, err.trim() || `exit ${code}`)),
    );
    child.stdin.end(script);
  });
}

function nftError(nft: string, detail: string): Error {
  return new Error(
    `nemesis: nftables unavailable or not permitted (${nft}: ${detail}); partitions need the Debian ` +
      '`nftables` package and root (CAP_NET_ADMIN)',
  );
}

/** Fails with a clear message when nft is missing or may not change the ruleset. */
export async function checkNftables(nft = NFT, table = `${DEFAULT_TABLE}_probe`): Promise<void> {
  await runNft(nft, `table inet ${table} {}\ndelete table inet ${table}\n`);
}

// `table X {}` first makes the delete succeed when the table is absent: heal stays idempotent.
const dropTable = (table: string) => `table inet ${table} {}\ndelete table inet ${table}\n`;

function tableScript(
  table: string,
  pairs: ReadonlyArray<readonly [string, string]>,
  owners: ReadonlyMap<string, number>,
): string {
  let tag = '';
  for (const uid of new Set(owners.values()))
    tag += `    meta skuid ${uid} ct state new ct mark set ${uid}\n`;
  let egress = '';
  let ingress = '';
  const cut = (from: string, to: string) => {
    // Dropped on the way in, like a lossy network: senders see timeouts, not errors.
    ingress += `    iifname "lo" ip saddr ${from} ip daddr ${to} drop\n`;
    const uid = owners.get(from);
    if (uid === undefined) return;
    // Sent by the owner's sockets, whatever their source address...
    egress += `    meta skuid ${uid} ip daddr ${to} drop\n`;
    // ...and the answers on connections the owner opened from 127.0.0.1.
    ingress += `    iifname "lo" ct mark ${uid} ip saddr ${to} drop\n`;
  };
  for (const [a, b] of pairs) {
    cut(a, b);
    cut(b, a);
  }
  const chain = (name: string, hook: string, prio: number, rules: string) =>
    `  chain ${name} {\n    type filter hook ${hook} priority ${prio}; policy accept;\n${rules}  }\n`;
  return (
    dropTable(table) +
    `table inet ${table} {\n` +
    (tag ? chain('tag', 'output', -160, tag) : '') +
    (egress ? chain('egress', 'output', -150, egress) : '') +
    chain('ingress', 'input', -150, ingress) +
    '}\n'
  );
}

export function createNemesis(options: NemesisOptions = {}): Nemesis {
  const table = options.table ?? DEFAULT_TABLE;
  if (!/^[a-z_][a-z0-9_]*$/.test(table)) throw new Error(`nemesis: bad table name ${table}`);
  const nft = options.nft ?? NFT;
  const clock = options.clock ?? createClock();
  const maxFaults = options.maxFaults ?? 100;
  const maxFaultMillis = options.maxFaultMillis ?? 60_000;
  const owners = new Map<string, number>();
  for (const [addr, uid] of Object.entries(options.owners ?? {})) {
    assertLoopback(addr);
    if (!Number.isInteger(uid) || uid <= 0) throw new Error(`nemesis: bad uid ${uid} for ${addr}`);
    owners.set(addr, uid);
  }

  const records: FaultRecord[] = [];
  const paused = new Map<number, { record: FaultRecord; timer: NodeJS.Timeout }>();
  const pairs = new Map<string, readonly [string, string]>();
  let partitionRecord: FaultRecord | null = null;
  let partitionTimer: NodeJS.Timeout | null = null;
  let tableTouched = false;
  let tracking = false;

  const begin = (kind: FaultKind, target: string): FaultRecord => {
    if (records.length >= maxFaults)
      throw new Error(`nemesis: fault budget of ${maxFaults} exhausted`);
    const r: FaultRecord = { kind, target, start: clock.mono() };
    records.push(r);
    return r;
  };
  const checkPid = (pid: number) => {
    if (!Number.isInteger(pid) || pid <= 1 || pid === process.pid)
      throw new Error(`nemesis: refusing pid ${pid}`);
  };
  const endPartition = () => {
    if (partitionTimer) clearTimeout(partitionTimer);
    partitionTimer = null;
    if (partitionRecord) partitionRecord.end = clock.mono();
    partitionRecord = null;
    pairs.clear();
  };

  const nemesis: Nemesis = {
    kill9(pid, label) {
      checkPid(pid);
      const r = begin('kill', label ?? String(pid));
      r.end = r.start;
      const p = paused.get(pid);
      if (p) {
        clearTimeout(p.timer);
        p.record.end = clock.mono();
        paused.delete(pid);
      }
      process.kill(pid, 'SIGKILL');
    },
    pause(pid, label) {
      checkPid(pid);
      if (paused.has(pid)) return;
      const record = begin('pause', label ?? String(pid));
      process.kill(pid, 'SIGSTOP');
      const timer = setTimeout(() => nemesis.resume(pid), maxFaultMillis);
      timer.unref();
      paused.set(pid, { record, timer });
    },
    resume(pid) {
      const p = paused.get(pid);
      if (!p) return;
      paused.delete(pid);
      clearTimeout(p.timer);
      p.record.end = clock.mono();
      try {
        process.kill(pid, 'SIGCONT');
      } catch {
        // already gone
      }
    },
    async partition(list) {
      for (const [a, b] of list) {
        assertLoopback(a);
        assertLoopback(b);
        if (a === b) throw new Error(`nemesis: cannot partition ${a} from itself`);
      }
      const fresh = list.filter(([a, b]) => !pairs.has(`${a}|${b}`) && !pairs.has(`${b}|${a}`));
      if (fresh.length === 0) return;
      const target = fresh.map(([a, b]) => `${a}<->${b}`).join(' ');
      // One record per partition step; a growing partition closes the previous step.
      const record = begin('partition', target);
      const next = new Map(pairs);
      for (const [a, b] of fresh) next.set(`${a}|${b}`, [a, b]);
      tableTouched = true;
      try {
        await runNft(nft, tableScript(table, [...next.values()], owners));
      } catch (e) {
        record.end = record.start;
        throw e;
      }
      if (partitionRecord) partitionRecord.end = record.start;
      pairs.clear();
      for (const [k, p] of next) pairs.set(k, p);
      partitionRecord = record;
      if (partitionTimer) clearTimeout(partitionTimer);
      partitionTimer = setTimeout(() => void nemesis.heal().catch(() => {}), maxFaultMillis);
      partitionTimer.unref();
    },
    isolate(addr, others) {
      return nemesis.partition(others.filter((o) => o !== addr).map((o) => [addr, o] as const));
    },
    async track() {
      if (owners.size === 0) return;
      tableTouched = true;
      tracking = true;
      if (pairs.size === 0) await runNft(nft, tableScript(table, [], owners));
    },
    async heal() {
      for (const pid of [...paused.keys()]) nemesis.resume(pid);
      endPartition();
      if (!tableTouched) return;
      await runNft(nft, tracking ? tableScript(table, [], owners) : dropTable(table));
    },
    healSync() {
      for (const pid of [...paused.keys()]) nemesis.resume(pid);
      endPartition();
      if (tableTouched) {
        try {
          execFileSync(nft, ['-f', '-'], {
            input: dropTable(table),
            stdio: ['pipe', 'ignore', 'ignore'],
          });
        } catch {
          // on the way out: nothing more can be done
        }
      }
    },
    faults: () => records,
    async dispose() {
      unhook();
      tracking = false;
      await nemesis.heal();
    },
  };

  const onExit = () => nemesis.healSync();
  const onSignal = (signal: NodeJS.Signals) => {
    nemesis.healSync();
    unhook();
    // With our listener gone the default action applies again: die of the same signal.
    process.kill(process.pid, signal);
  };
  const unhook = () => {
    process.off('exit', onExit);
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  };
  process.on('exit', onExit);
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return nemesis;
}

/** Every pair across two groups: a majority/minority split is `partition(crossPairs(a, b))`. */
export function crossPairs(
  a: readonly string[],
  b: readonly string[],
): Array<readonly [string, string]> {
  return a.flatMap((x) => b.filter((y) => y !== x).map((y) => [x, y] as const));
}

/** Count and total time per fault kind, for the report (open faults counted up to `now`). */
export function faultTotals(
  records: readonly FaultRecord[],
  now: number,
): Record<FaultKind, { count: number; millis: number }> {
  const out = {
    kill: { count: 0, millis: 0 },
    pause: { count: 0, millis: 0 },
    partition: { count: 0, millis: 0 },
  };
  for (const r of records) {
    out[r.kind].count++;
    out[r.kind].millis += ((r.end ?? now) - r.start) / 1e6;
  }
  return out;
}
