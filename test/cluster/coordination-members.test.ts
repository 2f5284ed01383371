/** Coordination on a 3-member etcd (127.0.0.1/.2/.3): losing one member loses nothing. */
import { Etcd3 } from 'etcd3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EtcdCoordinator } from '../../src/cluster/coordination/etcd-coordinator.js';
import { startEtcd, type EtcdCluster } from '../helpers/etcd.js';
import { coordinator, node, oneMaster, retryTransient, waitUntil } from './coordination-support.js';

let etcd: EtcdCluster;
let running: EtcdCoordinator[] = [];

beforeAll(async () => {
  etcd = await startEtcd({ members: 3 });
});
afterAll(async () => {
  await Promise.all(running.map((c) => c.stop()));
  await etcd?.stop();
});

/** The index of the member that is etcd's raft leader now. */
async function leaderIndex(): Promise<number> {
  for (const [i, url] of etcd.endpoints.entries()) {
    const client = new Etcd3({ hosts: url });
    try {
      const st = await client.maintenance.status();
      if (st.leader === st.header.member_id) return i;
    } finally {
      client.close();
    }
  }
  throw new Error('no etcd leader');
}

/** A master write by whoever is master, retried while the call itself fails. */
const write = (cs: readonly EtcdCoordinator[], name: string) =>
  retryTransient(async () =>
    (await oneMaster(cs)).masterTxn([{ type: 'putTemplate', name, body: { name } }]),
  );

describe('etcd coordination on three etcd members', () => {
  it('a killed etcd leader is survived: the nodes keep their master, write and converge', async () => {
    expect(etcd.endpoints.map((u) => new URL(u).hostname)).toEqual([
      '127.0.0.1',
      '127.0.0.2',
      '127.0.0.3',
    ]);
    // Each node lists the members in another order, so they talk to different members first.
    const cs = [0, 1, 2].map((i) =>
      // The default lease TTL (5 s): an etcd leader election must not cost a node its lease.
      coordinator([...etcd.endpoints.slice(i), ...etcd.endpoints.slice(0, i)], 'members', 5),
    );
    running = cs;
    await Promise.all(cs.map((c, i) => c.start(node(`n${i}`))));
    const v1 = await write(cs, 'before');
    await Promise.all(cs.map((c) => c.waitForVersion(v1, 5000)));

    const masterBefore = cs[0]!.state().masterNodeId;
    let lost = 0;
    for (const c of cs) c.onNoMaster(() => lost++);
    const killed = etcd.members[await leaderIndex()]!;
    await killed.kill9();
    const v2 = await write(cs, 'during');
    await Promise.all(cs.map((c) => c.waitForVersion(v2, 10_000)));
    // No node lost its lease: etcd renews leases when a new etcd leader takes over.
    expect(lost).toBe(0);
    for (const c of cs) {
      expect(c.state().masterNodeId).toBe(masterBefore);
      expect(c.state().nodes.size).toBe(3);
      expect(c.state().metadata.templates.has('during')).toBe(true);
    }

    await killed.start();
    const v3 = await write(cs, 'after');
    await Promise.all(cs.map((c) => c.waitForVersion(v3, 10_000)));
    await waitUntil(
      () => new Set(cs.map((c) => c.state().version)).size === 1,
      5000,
      'same version everywhere',
    );
    expect(cs[1]!.state()).toEqual(cs[0]!.state());
    expect(cs[2]!.state()).toEqual(cs[0]!.state());
  });
});
