/**
 * The fault test against a real cluster (cluster.md §7): etcd and Quarry node processes on
 * loopback, concurrent clients recording a history through random nodes, a nemesis playing a
 * seeded fault schedule, then heal, wait for green, read every copy and run every checker.
 * `run.ts` is its command line; `cluster-short.test.ts` runs a few cycles inside `npm test`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { shardForRouting } from '../../src/common/murmur3.js';
import { rng } from '../crash/harness/rng.js';
import { checkRun } from './check.js';
import type { CopyDoc, ShardCopy } from './checkers/copies.js';
import { diagnoseDirtyReads } from './checkers/dirty-reads.js';
import { classify, classifyError, type Completion } from './es-outcome.js';
import {
  createWorkload,
  nemesisSchedule,
  type FaultStep,
  type FaultStepKind,
  type Workload,
} from './generator.js';
import { createRecorder, operations, type Op, type Recorder } from './history.js';
import { createHttpClient, type HttpClient } from './http-client.js';
import { checkNftables, createNemesis, type Nemesis } from './nemesis.js';
import { summarize, type JepsenReport } from './report.js';
import { runSchedule } from './run-schedule.js';
import {
  CLIENT_ADDRESS,
  clusterOwners,
  startCluster,
  type Cluster,
  type ClusterNode,
} from './cluster.js';

export const INDEX = 'jepsen';

export interface FaultTestOptions {
  readonly nodes: number;
  readonly cycles: number;
  readonly seed: number;
  /** Where data, node logs, the history and the report go. */
  readonly dir: string;
  readonly shards?: number;
  readonly replicas?: number;
  readonly clientsPerNode?: number;
  readonly keys?: number;
  /** Fault kinds; partitions are dropped when nftables is unusable. */
  readonly kinds?: readonly FaultStepKind[];
  readonly minFaultMillis?: number;
  readonly maxFaultMillis?: number;
  readonly quietMillis?: readonly [number, number];
  /** A fixed schedule instead of the seeded one (steps of unusable kinds are dropped). */
  readonly steps?: readonly FaultStep[];
  /** `preference` of register reads (default `_primary`; `''` for Quarry's default copy). */
  readonly readPreference?: string;
  readonly etcdMembers?: 1 | 3;
  readonly log?: (line: string) => void;
}

export interface FaultTestResult {
  readonly report: JepsenReport & { readonly extra: Extra };
  readonly summary: string;
  readonly nft: boolean;
}

interface ShardFailover {
  readonly node: string;
  readonly shard: number;
  readonly diedAtMillis: number;
  /** From the death of the shard's primary to the first write acknowledged on that shard. */
  readonly firstWriteOnShardMillis: number | null;
}

interface Extra {
  readonly config: Record<string, unknown>;
  readonly steps: ReadonlyArray<FaultStep & { readonly applied: boolean }>;
  readonly faultSteps: Record<string, number>;
  readonly acknowledged: number;
  readonly failoverByShard: readonly ShardFailover[];
  readonly finalReads: Record<string, number>;
  readonly greenAfterMillis: number | null;
  readonly unreadable: readonly string[];
  readonly dirtyReads: {
    readonly keysFailingStrictly: readonly string[];
    /** Reads (and conflicts) naming versions no acknowledged op produced, on those keys. */
    readonly unacknowledgedObservations: number;
    /** Keys still failing once those are dropped: not explained by dirty reads. */
    readonly keysFailingWithoutThem: readonly string[];
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The op as an ES request: insert = create, write = index, cas = index if seq_no/term. */
function requestOf(
  op: Op,
  readPreference: string,
): { method: string; path: string; body?: unknown } {
  const doc = (id: string) => `/${INDEX}/_doc/${encodeURIComponent(id)}`;
  const w = 'timeout=5s';
  switch (op.kind) {
    case 'insert':
      return { method: 'PUT', path: `${doc(op.id)}?op_type=create&${w}`, body: { value: 1 } };
    case 'read':
      return {
        method: 'GET',
        path: doc(op.key) + (readPreference ? `?preference=${readPreference}` : ''),
      };
    case 'write':
      return { method: 'PUT', path: `${doc(op.key)}?${w}`, body: { value: op.value } };
    case 'cas':
      return {
        method: 'PUT',
        path: `${doc(op.key)}?if_seq_no=${op.expected.seqNo}&if_primary_term=${op.expected.primaryTerm}&${w}`,
        body: { value: op.value },
      };
    case 'delete':
      return { method: 'DELETE', path: `${doc(op.key)}?${w}` };
  }
}

/** Feeds what a client saw back to the workload, so later cas ops expect a real version. */
function observe(workload: Workload, op: Op, c: Completion): void {
  if (op.kind === 'insert') return;
  if (c.type === 'ok') {
    const r = c.result;
    if (r.kind === 'read') workload.observe(op.key, r.found ? r.version : null);
    else if (r.kind === 'delete') workload.observe(op.key, null);
    else if (r.kind !== 'insert' && r.version) workload.observe(op.key, r.version);
  } else if (c.type === 'fail' && c.failure.current !== undefined) {
    workload.observe(op.key, c.failure.current);
  }
}

/** Primaries by shard, from `_cat/shards`, polled so the schedule can ask synchronously. */
function routingWatcher(cluster: Cluster, http: HttpClient) {
  let primaries = new Map<number, string>();
  let stopped = false;
  const poll = async () => {
    for (const n of cluster.nodes) {
      if (!n.child) continue;
      try {
        const r = await http.call(
          `${n.url}/_cat/shards/${INDEX}?format=json&h=shard,prirep,state,node`,
          'GET',
          undefined,
          1_000,
        );
        if (r.status !== 200 || !Array.isArray(r.body)) continue;
        const next = new Map<number, string>();
        for (const row of r.body as Array<Record<string, string>>)
          if (row.prirep === 'p' && row.state === 'STARTED' && row.node)
            next.set(Number(row.shard), row.node);
        primaries = next;
        return;
      } catch {
        // try the next node
      }
    }
  };
  const loop = (async () => {
    while (!stopped) {
      await poll();
      await sleep(250);
    }
  })();
  return {
    primaryShards: (node: string) => [...primaries].filter(([, n]) => n === node).map(([s]) => s),
    async stop() {
      stopped = true;
      await loop;
    },
  };
}

async function waitGreen(cluster: Cluster, http: HttpClient, timeoutMs: number): Promise<boolean> {
  // monotonic: a wall-clock step must not cut the wait short
  const until = performance.now() + timeoutMs;
  while (performance.now() < until) {
    for (const n of cluster.nodes) {
      if (!n.child || performance.now() >= until) continue;
      try {
        const r = await http.call(
          `${n.url}/_cluster/health/${INDEX}?wait_for_status=green&timeout=5s&wait_for_nodes=${cluster.nodes.length}`,
          'GET',
          undefined,
          8_000,
        );
        if ((r.body as { status?: string })?.status === 'green' && r.status === 200) return true;
      } catch {
        // next node
      }
    }
    await sleep(200);
  }
  return false;
}

/** Runs `work` over `items` with at most `limit` in flight. */
async function pool<T>(items: readonly T[], limit: number, work: (x: T) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) await work(items[next++]!);
    }),
  );
}

interface LocalDoc extends CopyDoc {
  readonly found: true;
}

/** Each id as this node's own copy holds it (`preference=_only_local`); retried, then thrown. */
/** How long the final reads of one node's copies may take in all. */
const READ_COPY_BUDGET_MS = 120_000;

async function readCopy(
  http: HttpClient,
  node: ClusterNode,
  ids: readonly string[],
  unreadable: string[],
): Promise<Map<string, LocalDoc>> {
  const out = new Map<string, LocalDoc>();
  // bounded in time as well as in attempts: a node that answers nothing (out of the cluster, red)
  // must not hold the run for hours over tens of thousands of ids
  const until = Date.now() + READ_COPY_BUDGET_MS;
  await pool(ids, 8, async (id) => {
    let last = 'not read: the final reads of this node ran out of time';
    for (let attempt = 0; attempt < 10 && Date.now() < until; attempt++) {
      try {
        const r = await http.call(
          `${node.url}/${INDEX}/_doc/${encodeURIComponent(id)}?preference=_only_local`,
          'GET',
          undefined,
          5_000,
        );
        const b = r.body as {
          found?: boolean;
          _version?: number;
          _seq_no?: number;
          _primary_term?: number;
        };
        if (r.status === 200 && b.found) {
          out.set(id, {
            found: true,
            id,
            version: b._version!,
            seqNo: b._seq_no!,
            primaryTerm: b._primary_term!,
          });
          return;
        }
        if (r.status === 404 && b.found === false) return;
        last = `${r.status} ${JSON.stringify(r.body).slice(0, 300)}`;
      } catch (e) {
        last = (e as Error).message;
      }
      await sleep(500);
    }
    unreadable.push(`${id} on ${node.name}: ${last}`);
  });
  return out;
}

interface CopyListing {
  readonly shard: number;
  readonly docs: ReadonlyArray<{
    _id: string;
    _version: number;
    _seq_no: number;
    _primary_term: number;
    deleted: boolean;
  }>;
}

/** The node's own copies by shard, from `GET /_quarry/copies/{index}`; empty when unavailable. */
async function listCopies(http: HttpClient, node: ClusterNode): Promise<Map<number, CopyListing>> {
  const out = new Map<number, CopyListing>();
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const r = await http.call(`${node.url}/_quarry/copies/${INDEX}`, 'GET', undefined, 30_000);
      if (r.status !== 200) continue;
      for (const l of (r.body as { shards: CopyListing[] }).shards) out.set(l.shard, l);
      return out;
    } catch {
      await sleep(300);
    }
  }
  return out;
}

export async function runFaultTest(o: FaultTestOptions): Promise<FaultTestResult> {
  const log = o.log ?? (() => {});
  const shards = o.shards ?? 3;
  const replicas = o.replicas ?? Math.min(2, o.nodes - 1);
  const readPreference = o.readPreference ?? '_primary';
  mkdirSync(o.dir, { recursive: true });

  let nft = false;
  if (process.getuid?.() === 0) {
    try {
      await checkNftables();
      nft = true;
    } catch (e) {
      log(`partitions left out: ${(e as Error).message}`);
    }
  } else log('partitions left out: not root');
  const etcdMembers = o.etcdMembers ?? 3;
  const kinds = (o.kinds ?? ['kill', 'pause', 'partition-node', 'partition-etcd'])
    .filter((k) => nft || (k !== 'partition-node' && k !== 'partition-etcd'))
    .filter((k) => k !== 'partition-etcd' || etcdMembers > 1);

  const recorder: Recorder = createRecorder();
  const clock = recorder.clock;
  let cluster: Cluster | null = null;
  let nemesis: Nemesis | null = null;
  const http = createHttpClient(CLIENT_ADDRESS);
  const control = createHttpClient(CLIENT_ADDRESS);
  try {
    // The tagging chain goes in before anyone connects, so every connection is attributed.
    const etcdNames = Array.from({ length: etcdMembers }, (_, i) => `e${i + 1}`);
    nemesis = createNemesis({
      clock,
      owners: nft ? clusterOwners(o.nodes, etcdMembers) : {},
      maxFaults: o.cycles * 2 + 10,
      maxFaultMillis: 60_000,
    });
    if (nft) await nemesis.track();
    log(
      `starting etcd (${etcdMembers}) and ${o.nodes} nodes${nft ? ', each under its own uid' : ''}`,
    );
    cluster = await startCluster({
      nodes: o.nodes,
      etcdMembers,
      dir: o.dir,
      owners: nft,
    });
    const c = cluster;
    const first = c.nodes[0]!;
    const joined = await control.call(
      `${first.url}/_cluster/health?wait_for_nodes=${o.nodes}&timeout=30s`,
      'GET',
      undefined,
      35_000,
    );
    if ((joined.body as { number_of_nodes?: number }).number_of_nodes !== o.nodes)
      throw new Error(`the nodes did not join: ${JSON.stringify(joined.body)}`);
    const created = await control.call(
      `${first.url}/${INDEX}`,
      'PUT',
      {
        settings: {
          number_of_shards: shards,
          number_of_replicas: replicas,
          // a restarted node comes back within seconds: its copies wait for it, as in production
          'index.unassigned.node_left.delayed_timeout': '30s',
        },
        mappings: { _doc: { properties: { value: { type: 'keyword' } } } },
      },
      30_000,
    );
    if (created.status !== 200) throw new Error(`index creation: ${JSON.stringify(created.body)}`);
    if (!(await waitGreen(c, control, 30_000))) throw new Error('the new index never went green');

    // ---- faults and clients ----
    const names = c.nodes.map((n) => n.name);
    const byName = new Map(c.nodes.map((n) => [n.name, n]));
    const maxLen = o.maxFaultMillis ?? 5_000;
    const quiet = o.quietMillis ?? [2_000, 4_000];
    const steps =
      o.steps?.filter((st) => kinds.includes(st.kind)) ??
      nemesisSchedule({
        seed: o.seed,
        nodes: names,
        etcdMembers: kinds.includes('partition-etcd') ? etcdNames : [],
        maxFaults: o.cycles,
        totalMillis: o.cycles * (maxLen + quiet[1]) + quiet[1] + 1,
        maxFaultMillis: maxLen,
        minFaultMillis: o.minFaultMillis ?? 1_000,
        quietMillis: quiet,
        kinds,
      });
    const watcher = routingWatcher(c, control);
    const stop = new AbortController();
    const workload = createWorkload({ seed: o.seed, keys: o.keys ?? 5, maxOps: 1_000_000 });
    const concurrency = o.nodes * (o.clientsPerNode ?? 2);
    const client = async (i: number) => {
      const r = rng(o.seed * 7919 + i);
      let process = i;
      while (!stop.signal.aborted) {
        const op = workload.next();
        if (!op) break;
        const node = r.pick(c.nodes);
        const req = requestOf(op, readPreference);
        const outcome = await recorder.call(process, op, async () => {
          let done: Completion;
          try {
            const a = await http.call(node.url + req.path, req.method, req.body, 8_000);
            done = classify(op, a.status, a.body);
          } catch (e) {
            done = classifyError(e);
          }
          observe(workload, op, done);
          return done;
        });
        // Jepsen's rule: the op may still take effect, so this process id is retired.
        if (outcome === 'info') process += concurrency;
        // a node that refuses connections (killed) is not hammered in a tight loop
        if (outcome !== 'ok') await sleep(20);
      }
    };
    const clients = Array.from({ length: concurrency }, (_, i) => client(i));

    const primaryDeaths: Array<{ node: string; at: number; shards: number[] }> = [];
    const applied: boolean[] = steps.map(() => false);
    const t0 = clock.mono();
    const since = () => ((clock.mono() - t0) / 1e6).toFixed(0);
    try {
      // One step at a time, its offset counted from the previous heal: a slow restart never eats
      // the quiet time the cluster needs to recover before the next fault.
      let prevEnd = 0;
      for (let i = 0; i < steps.length; i++) {
        const step = steps[i]!;
        const gap = step.at - prevEnd;
        prevEnd = step.at + step.duration;
        // the primaries on the node as last seen, read the moment it is killed
        let shardsHere: number[] = [];
        const run = await runSchedule(
          [{ ...step, at: gap }],
          nemesis,
          {
            pid: (n) => byName.get(n)!.pid(),
            address: (n) => byName.get(n)!.address,
            etcdAddress: (m) => c.etcdAddresses[etcdNames.indexOf(m)]!,
            peers: (addr) =>
              [...c.nodes.map((n) => n.address), ...c.etcdAddresses].filter((a) => a !== addr),
            restart: async (n) => {
              const node = byName.get(n)!;
              const child = node.child;
              if (child && child.exitCode === null && child.signalCode === null)
                await new Promise((r) => child.once('exit', r));
              node.child = null;
              await c.start(node);
            },
            isPrimary: (n) => (shardsHere = watcher.primaryShards(n)).length > 0,
          },
          {
            clock,
            log: (l) =>
              log(`[${since()} ms] step ${i + 1}/${steps.length}: ${l.replace(/^\d+ ms: /, '')}`),
          },
        );
        applied[i] = run.applied > 0;
        for (const d of run.primaryDeaths)
          primaryDeaths.push({ node: d.node, at: d.at, shards: shardsHere });
      }
      // the last heal is followed by a quiet time too, with the clients still running
      await sleep(quiet[0]);
    } finally {
      stop.abort();
      await Promise.all(clients);
      await watcher.stop();
      await nemesis.heal();
    }
    log(`[${since()} ms] faults done; ${recorder.events().length} events; waiting for green`);
    // kept even if what follows fails
    writeFileSync(join(o.dir, 'history.jsonl'), recorder.toJsonLines());

    // ---- final reads ----
    const tGreen = clock.mono();
    for (const n of c.nodes) if (!n.child) await c.start(n);
    const green = await waitGreen(c, control, 90_000);
    const greenAfterMillis = green ? (clock.mono() - tGreen) / 1e6 : null;
    if (!green) log('the cluster did not go green within 90 s; reading the copies anyway');
    const ops = operations(recorder.events());
    const insertIds = [...new Set(ops.flatMap((x) => (x.op.kind === 'insert' ? [x.op.id] : [])))];
    const ids = [...insertIds, ...workload.keys];
    const copies = new Map<string, Map<string, LocalDoc>>();
    const unreadable: string[] = [];
    for (const n of c.nodes) copies.set(n.name, await readCopy(control, n, ids, unreadable));
    if (unreadable.length) log(`${unreadable.length} final reads failed, e.g. ${unreadable[0]}`);
    const routing = await control.call(
      `${first.url}/_cat/shards/${INDEX}?format=json&h=shard,prirep,state,node`,
    );
    const holders = new Map<number, string[]>();
    for (const row of routing.body as Array<Record<string, string>>) {
      if (!row.node) continue;
      const s = Number(row.shard);
      holders.set(s, [...(holders.get(s) ?? []), row.node]);
    }
    // Each node's full listing of its copies (Quarry's read-only `_quarry/copies`): documents and
    // tombstones the clients never named are compared too.
    const listings = new Map<string, Map<number, CopyListing>>();
    for (const n of c.nodes) listings.set(n.name, await listCopies(control, n));
    const keys = new Set(workload.keys);
    const finalCopies: Record<string, string[]> = {};
    const shardCopies: Record<string, ShardCopy[]> = {};
    for (const [name, docs] of copies) {
      const listed = [...(listings.get(name)?.values() ?? [])].flatMap((l) =>
        l.docs.filter((d) => !d.deleted && !keys.has(d._id)).map((d) => d._id),
      );
      // what a GET found, plus what only the listing shows (an id no client inserted)
      finalCopies[name] = [...new Set([...insertIds.filter((id) => docs.has(id)), ...listed])];
    }
    for (let s = 0; s < shards; s++) {
      const onShard = ids.filter((id) => shardForRouting(id, shards) === s);
      shardCopies[`${INDEX}[${s}]`] = (holders.get(s) ?? []).sort().map((name): ShardCopy => {
        const listing = listings.get(name)?.get(s);
        if (listing)
          return {
            copy: name,
            docs: listing.docs.map((d) => ({
              id: d.deleted ? `${d._id} (deleted)` : d._id,
              version: d._version,
              seqNo: d._seq_no,
              primaryTerm: d._primary_term,
            })),
          };
        return {
          copy: name,
          docs: onShard.flatMap((id) => {
            const d = copies.get(name)?.get(id);
            return d
              ? [{ id, version: d.version, seqNo: d.seqNo, primaryTerm: d.primaryTerm }]
              : [];
          }),
        };
      });
    }

    // ---- checks and report ----
    const base = checkRun({
      events: recorder.events(),
      seed: o.seed,
      finalCopies,
      shards: shardCopies,
      faults: nemesis.faults(),
      primaryDeaths,
      linearizable: { maxMillis: 60_000 },
    });
    const acked = ops
      .filter((x) => x.outcome === 'ok' && x.op.kind !== 'read')
      .map((x) => ({
        at: x.complete!.mono,
        shard: shardForRouting(x.op.kind === 'insert' ? x.op.id : x.op.key, shards),
      }))
      .sort((a, b) => a.at - b.at);
    const evT0 = recorder.events()[0]?.mono ?? 0;
    const failoverByShard: ShardFailover[] = primaryDeaths.flatMap((d) =>
      d.shards.map((s) => {
        const w = acked.find((a) => a.shard === s && a.at > d.at);
        return {
          node: d.node,
          shard: s,
          diedAtMillis: (d.at - evT0) / 1e6,
          firstWriteOnShardMillis: w ? (w.at - d.at) / 1e6 : null,
        };
      }),
    );
    const faultSteps: Record<string, number> = {};
    steps.forEach((s, i) => {
      if (applied[i]) faultSteps[s.kind] = (faultSteps[s.kind] ?? 0) + 1;
    });
    const finalReads: Record<string, number> = {};
    for (const [name, docs] of copies) finalReads[name] = docs.size;
    // When keys fail, whether dirty reads (a known ES 6.8 limitation) explain every failure
    const strictBad = base.linearizability.filter((l) => l.verdict !== 'linearizable');
    const dirty = strictBad.length
      ? diagnoseDirtyReads(
          ops.filter((x) => strictBad.some((l) => 'key' in x.op && x.op.key === l.key)),
          { maxMillis: 60_000 },
        )
      : null;
    const dirtyReads = {
      keysFailingStrictly: strictBad.map((l) => l.key),
      unacknowledgedObservations: dirty?.unacknowledgedObservations ?? 0,
      keysFailingWithoutThem: (dirty?.verdicts ?? [])
        .filter((v) => v.verdict !== 'linearizable')
        .map((v) => v.key),
    };
    // a copy that cannot be read fails the run: its absence proves nothing either way
    const readsCheck = {
      name: 'final reads',
      status: unreadable.length === 0 && green ? ('pass' as const) : ('fail' as const),
      detail:
        (green ? 'green' : 'not green after 90 s') +
        `; ${ids.length} ids read on ${c.nodes.length} nodes, ${unreadable.length} unreadable` +
        (unreadable.length ? ` (${unreadable.slice(0, 3).join('; ')})` : ''),
    };
    // a node that died unasked (a crash, or a signal from outside the test) fails the run
    const exits = c.unexpectedExits;
    const processCheck = {
      name: 'processes',
      status: exits.length === 0 ? ('pass' as const) : ('fail' as const),
      detail: exits.length
        ? exits
            .map((e) => `${e.node} exited unasked at ${e.at} (code ${e.code}, signal ${e.signal})`)
            .join('; ')
        : 'no node exited unasked',
    };
    const checks = [...base.checks, readsCheck, processCheck];
    const passed = checks.filter((x) => x.status === 'pass').length;
    const report = {
      ...base,
      checks,
      passed,
      failed: checks.length - passed,
      extra: {
        config: {
          nodes: o.nodes,
          cycles: o.cycles,
          shards,
          replicas,
          etcdMembers,
          clients: concurrency,
          keys: workload.keys.length,
          readPreference: readPreference || '(default)',
          kinds,
          partitions: nft,
        },
        steps: steps.map((s, i) => ({ ...s, applied: applied[i]! })),
        faultSteps,
        acknowledged: ops.filter((x) => x.outcome === 'ok').length,
        failoverByShard,
        finalReads,
        greenAfterMillis,
        unreadable,
        dirtyReads,
      },
    };
    let summary = summarize(report);
    const extraLines = [
      `fault steps: ${
        Object.entries(faultSteps)
          .map(([k, v]) => `${k} ${v}`)
          .join(', ') || 'none'
      }`,
      `acknowledged ops: ${report.extra.acknowledged}`,
      ...(dirtyReads.keysFailingStrictly.length
        ? [
            `dirty reads: ${dirtyReads.unacknowledgedObservations} observation(s) of unacknowledged versions on ` +
              `${dirtyReads.keysFailingStrictly.join(', ')}; without them ` +
              (dirtyReads.keysFailingWithoutThem.length
                ? `still failing: ${dirtyReads.keysFailingWithoutThem.join(', ')}`
                : 'every key is linearizable'),
          ]
        : []),
      ...failoverByShard.map(
        (f) =>
          `failover ${INDEX}[${f.shard}] (primary on ${f.node}, killed at ${(f.diedAtMillis / 1000).toFixed(1)} s): ` +
          (f.firstWriteOnShardMillis === null
            ? 'no write acknowledged on the shard afterwards'
            : `first write on the shard ${(f.firstWriteOnShardMillis / 1000).toFixed(2)} s later`),
      ),
    ];
    const lines = summary.split('\n');
    summary = [...lines.slice(0, -1), ...extraLines, lines.at(-1)!].join('\n');
    writeFileSync(join(o.dir, 'history.jsonl'), recorder.toJsonLines());
    // the rest of the run's material, for `check-cli.ts --history … --material …`
    writeFileSync(
      join(o.dir, 'material.json'),
      JSON.stringify({
        seed: o.seed,
        finalCopies,
        shards: shardCopies,
        faults: nemesis.faults(),
        primaryDeaths,
      }) + '\n',
    );
    writeFileSync(join(o.dir, 'report.json'), JSON.stringify(report, null, 2) + '\n');
    writeFileSync(join(o.dir, 'summary.txt'), summary + '\n');
    return { report, summary, nft };
  } catch (e) {
    const exits = cluster?.unexpectedExits ?? [];
    if (exits.length === 0) throw e;
    // what died unasked is most often why the run could not go on
    throw new Error(
      `${(e as Error).message}\nexited unasked: ` +
        exits.map((x) => `${x.node} at ${x.at} (code ${x.code}, signal ${x.signal})`).join('; '),
      { cause: e },
    );
  } finally {
    http.close();
    control.close();
    await cluster?.stop().catch(() => undefined);
    await nemesis?.dispose().catch(() => undefined);
  }
}
