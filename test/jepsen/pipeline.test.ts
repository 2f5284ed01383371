/**
 * The tools assembled as the real fault test will be, against a toy primary-backup store in this
 * process: seeded workload → clients recording a history → a primary failover in the middle →
 * set, linearizability and copies checks → report. A correct store passes every check; a store
 * that acknowledges before replicating loses writes at failover, and one that reads from a lagging
 * replica serves stale reads — the checkers must name both.
 */
import { describe, expect, it } from 'vitest';
import { rng } from '../crash/harness/rng.js';
import { checkCopies, type CopyDoc } from './checkers/copies.js';
import { checkLinearizable } from './checkers/linearizable.js';
import { checkSet } from './checkers/set.js';
import { createWorkload } from './generator.js';
import {
  createRecorder,
  operations,
  type Failure,
  type Op,
  type Recorder,
  type Result,
  type Value,
} from './history.js';
import { buildReport, summarize } from './report.js';
import { fakeClock } from './simulate.js';

type Bug = 'none' | 'ack-before-replicate' | 'stale-replica-reads';
interface Doc {
  value: Value | null; // null: a tombstone-free delete removes the entry instead
  seqNo: number;
  primaryTerm: number;
  version: number;
}

/** Two copies of one shard. Replication is a queue applied in order, eventually or at once. */
function toyStore(bug: Bug, seed: number) {
  const r = rng(seed);
  let primary = new Map<string, Doc>();
  let replica = new Map<string, Doc>();
  let queue: Array<() => void> = [];
  let seq = 0;
  let term = 1;
  const tick = () => new Promise<void>((res) => setTimeout(res, r.int(0, 1)));
  const replicate = (f: (m: Map<string, Doc>) => void) => {
    f(primary);
    if (bug !== 'none') queue.push(() => f(replica));
    else f(replica);
  };
  // The replica lags a few operations behind.
  const drainSome = () => {
    if (queue.length > 8 || r.chance(0.3)) for (const f of queue.splice(0, r.int(1, 3))) f();
  };
  return {
    async run(op: Op): Promise<{ ok: Result } | { conflict: Failure }> {
      await tick();
      drainSome();
      if (op.kind === 'read') {
        const d = (bug === 'stale-replica-reads' && r.chance(0.5) ? replica : primary).get(op.key);
        return d
          ? {
              ok: {
                kind: 'read',
                found: true,
                value: d.value!,
                version: { seqNo: d.seqNo, primaryTerm: d.primaryTerm },
              },
            }
          : { ok: { kind: 'read', found: false } };
      }
      const key = op.kind === 'insert' ? op.id : op.key;
      const cur = primary.get(key);
      if (
        op.kind === 'cas' &&
        (!cur || cur.seqNo !== op.expected.seqNo || cur.primaryTerm !== op.expected.primaryTerm)
      )
        return {
          conflict: {
            error: 'version_conflict_engine_exception',
            conflict: true,
            current: cur ? { seqNo: cur.seqNo, primaryTerm: cur.primaryTerm } : null,
          },
        };
      const version = { seqNo: seq++, primaryTerm: term };
      if (op.kind === 'delete') {
        replicate((m) => m.delete(key));
        return { ok: { kind: 'delete', found: cur !== undefined, version } };
      }
      const doc: Doc = {
        value: op.kind === 'insert' ? 1 : op.value,
        ...version,
        version: (cur?.version ?? 0) + 1,
      };
      replicate((m) => m.set(key, { ...doc }));
      return { ok: { kind: op.kind, version } };
    },
    /** The primary dies: the replica is promoted in a new term (losing what it never got). */
    failover() {
      // only the broken store acknowledged what its replica never got
      if (bug === 'ack-before-replicate') queue = [];
      else for (const f of queue.splice(0)) f();
      primary = replica;
      replica = new Map([...primary].map(([k, d]) => [k, { ...d }]));
      term++;
    },
    copies: () => ({ p: primary, r: replica }),
  };
}

async function runTest(bug: Bug, seed: number) {
  const clock = fakeClock();
  const rec: Recorder = createRecorder(clock);
  const store = toyStore(bug, seed);
  const workload = createWorkload({ seed, maxOps: 1_500, keys: 3 });
  let deathAt = 0;
  const client = async (p: number) => {
    for (let op = workload.next(); op; op = workload.next()) {
      const o = op;
      await rec.call(p, o, async () => {
        const answer = await store.run(o);
        if ('conflict' in answer) {
          if (o.kind === 'cas') workload.observe(o.key, answer.conflict.current ?? null);
          return { type: 'fail', failure: answer.conflict };
        }
        const res = answer.ok;
        if (o.kind !== 'insert') {
          if (res.kind === 'read') workload.observe(o.key, res.found ? res.version : null);
          else if (res.kind === 'delete') workload.observe(o.key, null);
          else if (res.version) workload.observe(o.key, res.version);
        }
        return { type: 'ok', result: res };
      });
      if (rec.events().length > 1_500 && !deathAt) {
        deathAt = clock.mono();
        store.failover();
      }
    }
  };
  await Promise.all([0, 1, 2, 3, 4].map(client));

  const ops = operations(rec.events());
  const { p, r } = store.copies();
  const ids = (m: Map<string, Doc>) => [...m.keys()].filter((k) => !/^k\d$/.test(k));
  const docs = (m: Map<string, Doc>): CopyDoc[] =>
    [...m].map(([id, d]) => ({
      id,
      version: d.version,
      seqNo: d.seqNo,
      primaryTerm: d.primaryTerm,
    }));
  return buildReport({
    events: rec.events(),
    seed,
    set: checkSet(ops, { p: ids(p), r: ids(r) }),
    linearizable: checkLinearizable(ops),
    copies: checkCopies({
      'toy[0]': [
        { copy: 'p', docs: docs(p) },
        { copy: 'r', docs: docs(r) },
      ],
    }),
    faults: [{ kind: 'kill', target: 'primary', start: deathAt, end: deathAt }],
    primaryDeaths: [{ node: 'primary', at: deathAt }],
  });
}

describe('the tools assembled against a toy store', () => {
  it('a correct store passes every check', async () => {
    const report = await runTest('none', 1);
    const text = summarize(report);
    expect(report.failed, text).toBe(0);
    expect(report.passed).toBe(5); // set, three keys, copies
    expect(report.ops.insert.ok).toBeGreaterThan(400);
    expect(report.ops.cas.ok).toBeGreaterThan(50);
    expect(report.ops.cas.fail).toBeGreaterThan(10);
    expect(report.failover[0]!.firstWriteAfterMillis).not.toBeNull();
    expect(text.split('\n').at(-1)).toBe('5 passed, 0 failed');
  });

  it('acknowledging before replicating loses writes at failover', async () => {
    const report = await runTest('ack-before-replicate', 2);
    const text = summarize(report);
    if (process.env.SHOW) console.log(text);
    expect(report.set!.valid, text).toBe(false);
    expect(report.set!.lost.length).toBeGreaterThan(0);
    expect(text).toContain('FAIL set');
    expect(text).toContain('  lost: ');
    expect(report.failed).toBeGreaterThan(0);
  });

  it('stale replica reads are not linearizable', async () => {
    const report = await runTest('stale-replica-reads', 3);
    if (process.env.SHOW) console.log(summarize(report));
    const bad = report.linearizability.filter((l) => l.verdict === 'non-linearizable');
    expect(bad.length, summarize(report)).toBeGreaterThan(0);
    expect(bad[0]!.explanation).toContain('cannot be linearized');
  });
});
