/**
 * Seeded generation: the same seed gives the same workload and the same fault schedule, different
 * seeds differ; the mix, the bounds and the cas-after-observation rule hold; and a schedule plays
 * out through a nemesis in order, healing after every step and when stopped early.
 */
import { describe, expect, it } from 'vitest';
import { createWorkload, nemesisSchedule, parseSeed, type FaultStep } from './generator.js';
import { createClock, type Op } from './history.js';
import type { Nemesis } from './nemesis.js';
import { runSchedule } from './run-schedule.js';
import { v } from './simulate.js';

const drain = (seed: number, n = 1_000): Op[] => {
  const w = createWorkload({ seed, maxOps: n });
  const out: Op[] = [];
  for (let op = w.next(); op; op = w.next()) out.push(op);
  return out;
};

describe('workload', () => {
  it('is deterministic given the seed, and differs across seeds', () => {
    expect(drain(42)).toEqual(drain(42));
    expect(drain(42)).not.toEqual(drain(43));
  });

  it('stops at its op bound and at its time bound', () => {
    expect(drain(1, 250)).toHaveLength(250);
    let t = 0;
    const w = createWorkload({ seed: 1, maxOps: 1_000_000, maxMillis: 100, now: () => t });
    let n = 0;
    while (w.next()) {
      n++;
      t += 1;
    }
    expect(n).toBe(100);
    expect(w.issued()).toBe(100);
  });

  it('mixes unique inserts, reads, writes and deletes on a small key set', () => {
    const ops = drain(7, 5_000);
    const by = (k: string) => ops.filter((o) => o.kind === k).length;
    expect(by('insert')).toBeGreaterThan(1_700);
    expect(by('insert')).toBeLessThan(2_300);
    expect(by('write')).toBeGreaterThan(100);
    expect(by('delete')).toBeGreaterThan(100);
    // without observations every cas turns into a read of its key
    expect(by('cas')).toBe(0);
    expect(by('read')).toBeGreaterThan(2_000);
    const ids = ops.flatMap((o) => (o.kind === 'insert' ? [o.id] : []));
    expect(new Set(ids).size).toBe(ids.length);
    const keys = new Set(ops.flatMap((o) => (o.kind === 'insert' ? [] : [o.key])));
    expect([...keys].sort()).toEqual(['k0', 'k1', 'k2', 'k3', 'k4']);
  });

  it('issues cas with the last version observed for the key', () => {
    const w = createWorkload({
      seed: 3,
      maxOps: 2_000,
      keys: 2,
      mix: { insert: 0, cas: 1, read: 0, write: 0, delete: 0 },
    });
    w.observe('k0', v(5, 2));
    const ops: Op[] = [];
    for (let op = w.next(); op; op = w.next()) ops.push(op);
    const cas = ops.filter((o) => o.kind === 'cas');
    expect(cas.length).toBeGreaterThan(800);
    for (const c of cas) expect(c).toMatchObject({ key: 'k0', expected: v(5, 2) });
    expect(
      ops.filter((o) => o.kind === 'read').every((o) => o.kind === 'read' && o.key === 'k1'),
    ).toBe(true);
    const values = cas.map((c) => (c.kind === 'cas' ? c.value : null));
    expect(new Set(values).size).toBe(values.length);
    w.observe('k0', null);
  });

  it('parses --seed', () => {
    expect(parseSeed(['node', 'x', '--seed', '17'])).toBe(17);
    expect(parseSeed(['node', 'x', '--seed=9'])).toBe(9);
    expect(() => parseSeed(['--seed', 'abc'])).toThrow(/non-negative integer/);
    const s = parseSeed([]);
    expect(Number.isInteger(s) && s >= 0).toBe(true);
  });
});

describe('nemesis schedule', () => {
  const opts = {
    seed: 5,
    nodes: ['n1', 'n2', 'n3'],
    etcdMembers: ['e1', 'e2', 'e3'],
    maxFaults: 50,
    totalMillis: 120_000,
  };

  it('is deterministic, bounded in count, duration and total time, one fault at a time', () => {
    const s = nemesisSchedule(opts);
    expect(s).toEqual(nemesisSchedule(opts));
    expect(s).not.toEqual(nemesisSchedule({ ...opts, seed: 6 }));
    expect(s.length).toBeGreaterThan(10);
    expect(s.length).toBeLessThanOrEqual(50);
    for (let i = 0; i < s.length; i++) {
      const f = s[i]!;
      expect(f.duration).toBeGreaterThanOrEqual(500);
      expect(f.duration).toBeLessThanOrEqual(5_000);
      expect(f.at + f.duration).toBeLessThanOrEqual(120_000);
      if (i > 0) expect(f.at).toBeGreaterThanOrEqual(s[i - 1]!.at + s[i - 1]!.duration + 1_000);
    }
    expect(new Set(s.map((f) => f.kind))).toEqual(
      new Set(['kill', 'pause', 'partition-node', 'partition-etcd']),
    );
    expect(nemesisSchedule({ ...opts, maxFaults: 3 })).toHaveLength(3);
  });

  it('draws only the kinds asked for, and etcd faults only with members', () => {
    const s = nemesisSchedule({ ...opts, etcdMembers: [], kinds: ['pause', 'partition-etcd'] });
    expect(s.length).toBeGreaterThan(0);
    expect(s.every((f) => f.kind === 'pause')).toBe(true);
  });
});

describe('running a schedule', () => {
  function fakeNemesis() {
    const calls: string[] = [];
    const n: Nemesis = {
      kill9: (pid, label) => void calls.push(`kill ${pid} ${label}`),
      pause: (pid) => void calls.push(`pause ${pid}`),
      resume: (pid) => void calls.push(`resume ${pid}`),
      partition: async (pairs) =>
        void calls.push(`partition ${pairs.map((p) => p.join('-')).join(' ')}`),
      isolate: async (a, others) =>
        void calls.push(`isolate ${a} from ${others.filter((o) => o !== a).join(',')}`),
      track: async () => {},
      heal: async () => void calls.push('heal'),
      healSync: () => {},
      faults: () => [],
      dispose: async () => {},
    };
    return { n, calls };
  }
  const targets = (calls: string[]) => ({
    pid: (node: string) => 1000 + Number(node.slice(1)),
    address: (node: string) => `127.0.0.${1 + Number(node.slice(1))}`,
    etcdAddress: (m: string) => `127.0.0.${10 + Number(m.slice(1))}`,
    peers: () => ['127.0.0.2', '127.0.0.3', '127.0.0.11'],
    restart: async (node: string) => void calls.push(`restart ${node}`),
    isPrimary: (node: string) => node === 'n1',
  });

  it('applies each step in order and heals it before the next', async () => {
    const { n, calls } = fakeNemesis();
    const steps: FaultStep[] = [
      { kind: 'kill', node: 'n1', at: 0, duration: 10 },
      { kind: 'pause', node: 'n2', at: 15, duration: 10 },
      { kind: 'partition-node', node: 'n1', at: 30, duration: 10 },
      { kind: 'partition-etcd', member: 'e1', at: 45, duration: 10 },
    ];
    const clock = createClock();
    const t0 = clock.mono();
    const run = await runSchedule(steps, n, targets(calls), { clock });
    expect((clock.mono() - t0) / 1e6).toBeGreaterThanOrEqual(50);
    expect(run.applied).toBe(4);
    expect(run.primaryDeaths.map((d) => d.node)).toEqual(['n1']);
    expect(calls).toEqual([
      'kill 1001 n1',
      'restart n1',
      'pause 1002',
      'resume 1002',
      'isolate 127.0.0.2 from 127.0.0.3,127.0.0.11',
      'heal',
      'isolate 127.0.0.11 from 127.0.0.2,127.0.0.3',
      'heal',
      'heal',
    ]);
  });

  it('heals when stopped in the middle of a fault', async () => {
    const { n, calls } = fakeNemesis();
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 30);
    const run = await runSchedule(
      [
        { kind: 'pause', node: 'n2', at: 0, duration: 10_000 },
        { kind: 'kill', node: 'n3', at: 10_010, duration: 10 },
      ],
      n,
      targets(calls),
      { clock: createClock(), signal: ac.signal },
    );
    expect(run.applied).toBe(1);
    expect(calls).toEqual(['pause 1002', 'resume 1002', 'heal']);
  });
});
