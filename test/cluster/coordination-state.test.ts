/** The cluster state on a real etcd: revision order, term fencing, watch recovery, etcd restart. */
import { Etcd3 } from 'etcd3';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { EtcdCoordinator } from '../../src/cluster/coordination/etcd-coordinator.js';
import type { ClusterState } from '../../src/cluster/state.js';
import { startEtcd, type EtcdCluster } from '../helpers/etcd.js';
import {
  coordinator,
  index,
  node,
  oneMaster,
  retryTransient,
  TTL_SECONDS,
  waitUntil,
} from './coordination-support.js';

let etcd: EtcdCluster;
let admin: Etcd3;
let running: EtcdCoordinator[] = [];

beforeAll(async () => {
  etcd = await startEtcd();
  admin = new Etcd3({ hosts: [...etcd.endpoints] });
});
afterEach(async () => {
  await Promise.all(running.map((c) => c.stop()));
  running = [];
});
afterAll(async () => {
  admin?.close();
  await etcd?.stop();
});

async function startAll(cluster: string, ids: string[]) {
  const cs = ids.map(() => coordinator(etcd.endpoints, cluster));
  running.push(...cs);
  await Promise.all(cs.map((c, i) => c.start(node(ids[i]!))));
  return cs;
}

/** What must be equal on every node (the state minus nothing: all of it). */
const snapshot = (s: ClusterState) => s;

describe('etcd coordination: state', () => {
  it('every watcher applies the same states in the same version order under concurrent writes', async () => {
    const cs = await startAll('order', ['a', 'b', 'c']);
    const master = await oneMaster(cs);
    await waitUntil(
      () => cs.every((c) => c.state().metadata.clusterUuid !== '_na_'),
      5000,
      'bootstrapped',
    );
    const from = Math.max(...cs.map((c) => c.state().version));
    await Promise.all(cs.map((c) => c.waitForVersion(from, 5000)));
    const seen = cs.map(() => [] as number[]);
    cs.forEach((c, i) =>
      c.onState((prev, next) => {
        if (next.version <= prev.version) seen[i]!.push(-1); // caught below
        seen[i]!.push(next.version);
      }),
    );
    await master.masterTxn([
      { type: 'putIndex', index: index('ord', 'UO', 1) },
      { type: 'putTerms', indexUuid: 'UO', shard: 0, terms: { primaryTerm: 1, inSync: [] } },
    ]);
    // 60 master writes and, meanwhile, every node writing the shard's terms under the same term.
    const writes = Array.from({ length: 60 }, (_, i) =>
      master.masterTxn([{ type: 'putTemplate', name: `t${i}`, body: { order: i } }]),
    );
    const termWrites = cs.flatMap((c, n) =>
      Array.from({ length: 5 }, (_, i) =>
        c.termTxn('UO', 0, 1, { primaryTerm: 1, inSync: [`n${n}-${i}`] }),
      ),
    );
    const revisions = await Promise.all([...writes, ...termWrites]);
    expect(new Set(revisions).size).toBe(revisions.length);
    const last = Math.max(...revisions);
    await Promise.all(cs.map((c) => c.waitForVersion(last, 10_000)));
    for (const s of seen) {
      expect(s).toEqual([...new Set(s)].sort((x, y) => x - y));
      expect(s).toEqual(seen[0]);
      for (const r of revisions) expect(s).toContain(r);
    }
    expect(seen[0]!.length).toBeGreaterThanOrEqual(76);
    const states = cs.map((c) => snapshot(c.state()));
    expect(states[0]!.metadata.templates.size).toBe(60);
    expect(states[1]).toEqual(states[0]);
    expect(states[2]).toEqual(states[0]);
    // The last terms write in revision order is the one every node holds.
    expect(states[0]!.metadata.indices.get('ord')!.terms[0]!.inSync).toHaveLength(1);
  });

  it('term fencing: a write under an old primary term fails and changes nothing', async () => {
    const cs = await startAll('terms', ['a', 'b']);
    const master = await oneMaster(cs);
    const primary = cs.find((c) => c !== master)!;
    await master.masterTxn([
      { type: 'putIndex', index: index('i', 'UT', 2) },
      {
        type: 'putTerms',
        indexUuid: 'UT',
        shard: 1,
        terms: { primaryTerm: 1, inSync: ['p', 'r'] },
      },
    ]);
    // The primary drops a failed replica under its term.
    const v1 = await primary.termTxn('UT', 1, 1, { primaryTerm: 1, inSync: ['p'] });
    await primary.waitForVersion(v1, 5000);
    expect(primary.state().metadata.indices.get('i')!.terms[1]).toEqual({
      primaryTerm: 1,
      inSync: ['p'],
    });
    // The master promotes another copy: term 2.
    const v2 = await master.masterTxn([
      { type: 'putTerms', indexUuid: 'UT', shard: 1, terms: { primaryTerm: 2, inSync: ['r'] } },
    ]);
    // The old primary, still at term 1, can no longer change the in-sync set.
    await expect(primary.termTxn('UT', 1, 1, { primaryTerm: 1, inSync: [] })).rejects.toMatchObject(
      { type: 'no_longer_primary_shard_exception', meta: { index_uuid: 'UT', shard: '1' } },
    );
    // A shard with no terms yet is at term 0.
    await expect(primary.termTxn('UT', 0, 1, { primaryTerm: 1, inSync: [] })).rejects.toMatchObject(
      { type: 'no_longer_primary_shard_exception' },
    );
    await Promise.all(cs.map((c) => c.waitForVersion(v2, 5000)));
    for (const c of cs)
      expect(c.state().metadata.indices.get('i')!.terms).toEqual([
        { primaryTerm: 0, inSync: [] },
        { primaryTerm: 2, inSync: ['r'] },
      ]);
    expect(Number((await admin.get('/quarry/terms/').exec()).header.revision)).toBe(
      cs[0]!.state().version,
    );
  });

  it('a master write computed before a primary narrowed the in-sync set is refused, never puts it back', async () => {
    const cs = await startAll('stale-terms', ['a', 'b']);
    const master = await oneMaster(cs);
    const primary = cs.find((c) => c !== master)!;
    const v0 = await master.masterTxn([
      { type: 'putIndex', index: index('i', 'ST', 1) },
      { type: 'putTerms', indexUuid: 'ST', shard: 0, terms: { primaryTerm: 1, inSync: ['p', 'r'] } }, // prettier-ignore
    ]);
    await master.waitForVersion(v0, 5000);
    const seen = master.state().version;
    // the primary drops its failed replica
    await primary.termTxn('ST', 0, 1, { primaryTerm: 1, inSync: ['p'] });
    // the master, from the state before that, writes the old set back (say, with a new copy)
    await expect(
      master.masterTxn(
        [{ type: 'putTerms', indexUuid: 'ST', shard: 0, terms: { primaryTerm: 1, inSync: ['p', 'r', 'n'] } }], // prettier-ignore
        seen,
      ),
    ).rejects.toMatchObject({ type: 'failed_to_commit_cluster_state_exception' });
    const latest = await master.waitForVersion(seen + 1, 5000);
    expect(latest.metadata.indices.get('i')!.terms[0]).toEqual({ primaryTerm: 1, inSync: ['p'] });
    // computed from the state that has the change, it goes through
    const v = await master.masterTxn(
      [{ type: 'putTerms', indexUuid: 'ST', shard: 0, terms: { primaryTerm: 1, inSync: ['p', 'n'] } }], // prettier-ignore
      latest.version,
    );
    expect(v).toBeGreaterThan(latest.version);
  });

  it('a watcher behind a compacted revision re-reads everything and carries on', async () => {
    const cs = await startAll('compact', ['a', 'b']);
    const master = await oneMaster(cs);
    const behind = cs.find((c) => c !== master)!;
    const v0 = behind.state().version;
    const seen: number[] = [];
    behind.onState((_p, n) => seen.push(n.version));
    await behind.pauseWatch();
    let last = 0;
    for (let i = 0; i < 20; i++)
      last = await master.masterTxn([{ type: 'putScript', id: `s${i}`, source: { n: i } }]);
    await admin.kv.compact({ revision: last, physical: true });
    await behind.rewatchFrom(v0 + 1);
    await behind.waitForVersion(last, 10_000);
    // It jumped to a full read (the compacted revisions are gone), and it follows new writes.
    expect(seen[0]).toBeGreaterThanOrEqual(last);
    expect(behind.state().metadata.scripts.size).toBe(20);
    const v = await master.masterTxn([{ type: 'deleteScript', id: 's0' }]);
    await Promise.all(cs.map((c) => c.waitForVersion(v, 5000)));
    expect(behind.state().metadata.scripts.has('s0')).toBe(false);
    expect(behind.state()).toEqual(master.state());
  });

  it('after an etcd restart (same data dir) the nodes reconnect, rejoin and write again', async () => {
    const cs = await startAll('restart', ['a', 'b']);
    await oneMaster(cs);
    const lost = cs.map(() => 0);
    const back = cs.map(() => 0);
    cs.forEach((c, i) => {
      c.onNoMaster(() => lost[i]!++);
      c.onRejoin(() => back[i]!++);
    });
    const member = etcd.members[0]!;
    await member.stop();
    // Down for longer than a lease: both nodes must notice and block.
    await waitUntil(() => lost.every((n) => n === 1), (TTL_SECONDS + 2) * 1000, 'onNoMaster');
    expect(cs.every((c) => !c.isMaster())).toBe(true);
    await expect(cs[0]!.masterTxn([])).rejects.toMatchObject({
      type: 'master_not_discovered_exception',
    });
    const t0 = Date.now();
    await member.start();
    await waitUntil(() => back.every((n) => n === 1), 15_000, 'both rejoined');
    const master = await oneMaster(cs);
    console.log(`etcd restart to a master again: ${Date.now() - t0} ms`);
    const v = await retryTransient(() =>
      master.masterTxn([{ type: 'putTemplate', name: 'after', body: {} }]),
    );
    await Promise.all(cs.map((c) => c.waitForVersion(v, 5000)));
    for (const c of cs) {
      expect([...c.state().nodes.keys()].sort()).toEqual(['a', 'b']);
      expect(c.state().metadata.templates.has('after')).toBe(true);
    }
    expect(cs[1]!.state()).toEqual(cs[0]!.state());
  });

  it('a short etcd outage (within the lease TTL) costs no lease: the watch re-reads and goes on', async () => {
    const cs = ['a', 'b'].map(() => coordinator(etcd.endpoints, 'blip', 5));
    running.push(...cs);
    await Promise.all(cs.map((c, i) => c.start(node(['a', 'b'][i]!))));
    const master = await oneMaster(cs);
    const leases = cs.map((c) => c.membership()!.leaseId);
    let lost = 0;
    for (const c of cs) c.onNoMaster(() => lost++);
    await etcd.members[0]!.stop();
    // Written while etcd is down: refused (unreachable), never half-applied.
    await expect(
      master.masterTxn([{ type: 'putTemplate', name: 'down', body: {} }]),
    ).rejects.toBeTruthy();
    await etcd.members[0]!.start();
    const v = await retryTransient(() =>
      master.masterTxn([{ type: 'putTemplate', name: 'up', body: {} }]),
    );
    await Promise.all(cs.map((c) => c.waitForVersion(v, 10_000)));
    expect(lost).toBe(0);
    expect(cs.map((c) => c.membership()!.leaseId)).toEqual(leases);
    expect(master.isMaster()).toBe(true);
    for (const c of cs) {
      expect(c.state().metadata.templates.has('up')).toBe(true);
      expect(c.state().metadata.templates.has('down')).toBe(false);
    }
    expect(cs[1]!.state()).toEqual(cs[0]!.state());
  });
});
