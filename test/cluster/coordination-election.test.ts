/** Membership and election on a real etcd: one master, fencing, lease loss, leaving. */
import { Etcd3 } from 'etcd3';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { EtcdCoordinator } from '../../src/cluster/coordination/etcd-coordinator.js';
import { fencedMasterTxn } from '../../src/cluster/coordination/etcd-txn.js';
import { startEtcd, type EtcdCluster } from '../helpers/etcd.js';
import {
  coordinator,
  index,
  node,
  oneMaster,
  startChild,
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

describe('etcd coordination: election', () => {
  it('three nodes elect exactly one master and converge on the same state and version', async () => {
    const cs = await startAll('elect', ['a', 'b', 'c']);
    const master = await oneMaster(cs);
    const masterId = master.state().masterNodeId;
    expect(['a', 'b', 'c']).toContain(masterId);
    // The first master gave the cluster its uuid.
    await waitUntil(
      () => cs.every((c) => c.state().metadata.clusterUuid !== '_na_'),
      5000,
      'cluster uuid',
    );
    const v = await master.masterTxn([{ type: 'putIndex', index: index('logs', 'U1') }]);
    await Promise.all(cs.map((c) => c.waitForVersion(v, 5000)));
    const states = cs.map((c) => c.state());
    for (const s of states) {
      expect(s.version).toBe(states[0]!.version);
      expect(s.masterNodeId).toBe(masterId);
      expect([...s.nodes.keys()].sort()).toEqual(['a', 'b', 'c']);
      expect(s.metadata.clusterUuid).toBe(states[0]!.metadata.clusterUuid);
      expect(s.metadata.indices.get('logs')!.uuid).toBe('U1');
    }
    // Followers cannot write.
    const follower = cs.find((c) => !c.isMaster())!;
    await expect(follower.masterTxn([{ type: 'deleteIndex', uuid: 'U1' }])).rejects.toMatchObject({
      type: 'not_master_exception',
    });
    expect(follower.state().metadata.indices.has('logs')).toBe(true);
  });

  it('a deposed master (its lease revoked) can never commit, blocks writes and rejoins with a new lease', async () => {
    const cs = await startAll('depose', ['a', 'b', 'c']);
    const old = await oneMaster(cs);
    const oldId = old.state().masterNodeId!;
    const m = old.membership()!;
    const fence = { campaignKey: m.campaignKey, createRevision: m.campaignRevision };
    const others = cs.filter((c) => c !== old);
    let noMaster = 0;
    old.onNoMaster(() => noMaster++);

    // The old master stops hearing from etcd (its watch paused), and its lease is killed behind
    // its back: it still believes it is master, but etcd refuses its write.
    await old.pauseWatch();
    const t0 = Date.now();
    await admin.leaseClient.leaseRevoke({ ID: m.leaseId });
    const believed = old.isMaster();
    const refused = await old
      .masterTxn([{ type: 'putTemplate', name: 'stale', body: {} }])
      .catch((e: unknown) => e);
    expect(believed).toBe(true);
    expect(refused).toMatchObject({ type: 'not_master_exception' });
    expect(await admin.get('/quarry/depose/meta/templates/stale').string()).toBeNull();
    await waitUntil(
      () =>
        others.every((c) => !c.state().nodes.has(oldId)) &&
        others.filter((c) => c.isMaster()).length === 1 &&
        others.every((c) => c.state().masterNodeId !== null && c.state().masterNodeId !== oldId),
      (TTL_SECONDS + 1) * 1000,
      'the others see the old master leave and elect a new one',
    );
    const took = Date.now() - t0;
    expect(took).toBeLessThan(10_000);

    // The old master's fenced write fails in etcd, whatever it believes.
    await expect(
      fencedMasterTxn(admin, fence, [
        { type: 'put', key: '/quarry/depose/meta/templates/evil', value: '{}' },
      ]),
    ).rejects.toMatchObject({ type: 'not_master_exception' });
    await expect(old.masterTxn([{ type: 'deleteTemplate', name: 'x' }])).rejects.toMatchObject({
      type: expect.stringMatching(/not_master_exception|master_not_discovered_exception/),
    });
    expect((await admin.get('/quarry/depose/meta/templates/evil').string()) ?? null).toBeNull();

    // It noticed, blocked, and rejoins on its own with a new lease (and is not master).
    await waitUntil(() => noMaster === 1, TTL_SECONDS * 1000 + 1000, 'onNoMaster');
    await waitUntil(
      () => old.membership() !== null && others.every((c) => c.state().nodes.has(oldId)),
      10_000,
      'the old master rejoins',
    );
    expect(old.membership()!.leaseId).not.toBe(m.leaseId);
    const master = await oneMaster(cs);
    expect(master).not.toBe(old);
    // The new master writes; everyone applies it.
    const v = await master.masterTxn([{ type: 'putTemplate', name: 't', body: { order: 1 } }]);
    await Promise.all(cs.map((c) => c.waitForVersion(v, 5000)));
    expect(cs.every((c) => c.state().metadata.templates.has('t'))).toBe(true);
  });

  it('stop() leaves at once: the node key goes and another node takes over', async () => {
    const cs = await startAll('leave', ['a', 'b']);
    const master = await oneMaster(cs);
    const other = cs.find((c) => c !== master)!;
    const id = master.state().masterNodeId!;
    const t0 = Date.now();
    await master.stop();
    await waitUntil(
      () => !other.state().nodes.has(id) && other.isMaster(),
      TTL_SECONDS * 1000,
      'the other node sees the master leave and takes over',
    );
    // Well before the lease would have run out.
    expect(Date.now() - t0).toBeLessThan(TTL_SECONDS * 1000);
    expect(other.state().masterNodeId).toBe(id === 'a' ? 'b' : 'a');
    expect([...other.state().nodes.keys()]).toEqual([id === 'a' ? 'b' : 'a']);
  });

  it('a crashed master (kill -9) leaves for every watcher, and a new master is elected, within ttl + 1 s', async () => {
    // The child campaigns first, so it leads.
    const crashed = await startChild(etcd.endpoints, 'crash', 'a');
    try {
      const rest = await startAll('crash', ['b', 'c']);
      await waitUntil(
        () => rest.every((c) => c.state().masterNodeId === 'a' && c.state().nodes.size === 3),
        5000,
        'the child is master of three nodes',
      );
      const t0 = Date.now();
      await crashed.kill9();
      const took = await waitUntil(
        () =>
          rest.every((c) => !c.state().nodes.has('a')) &&
          rest.filter((c) => c.isMaster()).length === 1 &&
          rest.every((c) => ['b', 'c'].includes(c.state().masterNodeId ?? '')) &&
          new Set(rest.map((c) => c.state().masterNodeId)).size === 1,
        10_000,
        'the crashed node leaves and the survivor is master',
      );
      const ms = Date.now() - t0;
      console.log(
        `kill -9 of the master to a new master on every node: ${ms} ms (ttl ${TTL_SECONDS} s)`,
      );
      expect(ms).toBeLessThan((TTL_SECONDS + 1) * 1000);
      expect(took).toBeGreaterThan(0);
      // The node that holds the master role is the one every state names.
      const ids = ['b', 'c'];
      expect(rest[0]!.state().masterNodeId).toBe(ids[rest.findIndex((c) => c.isMaster())]);
      expect([...rest[1]!.state().nodes.keys()].sort()).toEqual(ids);
    } finally {
      await crashed.kill9();
    }
  });

  it('a node id held by a live node is refused; a dead holder is waited out', async () => {
    const [a] = await startAll('dup', ['a']);
    const dup = coordinator(etcd.endpoints, 'dup');
    running.push(dup);
    await expect(dup.start(node('a'))).rejects.toMatchObject({
      type: 'illegal_state_exception',
      reason: 'node id [a] is already in the cluster',
    });
    // The first holder dies without leaving (its lease runs out): the same id can then join.
    const leaseId = a!.membership()!.leaseId;
    const again = coordinator(etcd.endpoints, 'dup');
    running.push(again);
    const starting = again.start(node('a'));
    await a!.stop().catch(() => undefined);
    await admin.leaseClient.leaseRevoke({ ID: leaseId }).catch(() => undefined);
    const s = await starting;
    expect(s.nodes.get('a')!.ephemeralId).toMatch(/^eph-a-/);
    expect(again.membership()!.leaseId).not.toBe(leaseId);
  });
});
