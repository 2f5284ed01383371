/**
 * A node whose etcd lease is lost and that rejoins gets its copies back: its in-sync primary is
 * placed on it again under the same allocation id (its store), and the node reports it started
 * again — the copy does not stay initializing, the index goes green, the document is there.
 * Losing the lease twice in a row (the second while rejoining) still ends with the node a member.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Etcd3 } from 'etcd3';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startEtcd, type EtcdCluster } from '../helpers/etcd.js';
import { startProcessNode, type ProcessNode } from '../helpers/process-node.js';
import { call, clusterNodeArgs } from '../helpers/cluster-node.js';

const dir = mkdtempSync(join(tmpdir(), 'quarry-rejoin-'));
let etcd: EtcdCluster;
let admin: Etcd3;
const nodes = new Map<string, ProcessNode>();
const HOSTS: Record<string, string> = { r1: '127.0.0.61', r2: '127.0.0.62' };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(async () => {
  etcd = await startEtcd();
  admin = new Etcd3({ hosts: [...etcd.endpoints] });
  for (const name of ['r1', 'r2']) {
    const n = await startProcessNode(join(dir, name), clusterNodeArgs(HOSTS[name]!, name, etcd));
    nodes.set(name, n);
  }
  await call(`${nodes.get('r1')!.url}/_cluster/health?wait_for_nodes=2&timeout=10s`);
}, 60_000);

afterAll(async () => {
  for (const n of nodes.values()) await n.kill9().catch(() => undefined);
  admin?.close();
  await etcd?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** Revokes the lease r2's membership key is bound to; resolves with the lease id. */
async function revokeLeaseOf(nodeId: string): Promise<string> {
  const kvs = (await admin.getAll().prefix('/quarry/').exec()).kvs;
  const kv = kvs.find((k) => k.key.toString().endsWith(`/nodes/${nodeId}`))!;
  expect(kv).toBeDefined();
  await admin.leaseClient.leaseRevoke({ ID: kv.lease });
  return kv.lease;
}

async function health(url: string) {
  return (await call(`${url}/_cluster/health/solo`)).json as { status: string; number_of_nodes: number }; // prettier-ignore
}

it('a primary placed again on its store after the node rejoined starts again', async () => {
  const [r1, r2] = [nodes.get('r1')!, nodes.get('r2')!];
  // one copy only, pinned to r2: when r2 leaves, only r2's store can bring it back
  await call(`${r1.url}/solo`, 'PUT', {
    settings: { number_of_shards: 1, number_of_replicas: 0, 'index.routing.allocation.require._name': 'r2' }, // prettier-ignore
  });
  await call(`${r1.url}/solo/_doc/1?refresh=true`, 'PUT', { n: 1 });
  expect((await call(`${r1.url}/_cluster/health/solo?wait_for_status=green&timeout=20s`)).json.status).toBe('green'); // prettier-ignore
  const r2Id = (await call(`${r2.url}/_nodes/_local`)).json.nodes;
  const id = Object.keys(r2Id)[0]!;

  const first = await revokeLeaseOf(id);
  // the node leaves, the primary goes unassigned, then the node is back
  let sawRed = false;
  for (let i = 0; i < 60 && !sawRed; i++) {
    sawRed = (await health(r1.url)).status === 'red';
    if (!sawRed) await sleep(100);
  }
  expect(sawRed).toBe(true);
  // and once more while it rejoins: the membership must still come back
  await sleep(300);
  const second = await revokeLeaseOf(id).catch(() => null);
  expect(second).not.toBe(first);
  const deadline = Date.now() + 30_000;
  let h = await health(r1.url);
  while (Date.now() < deadline && (h.status !== 'green' || h.number_of_nodes !== 2)) {
    await sleep(250);
    h = await health(r1.url);
  }
  expect(h).toMatchObject({ status: 'green', number_of_nodes: 2 });
  const got = await call(`${r1.url}/solo/_doc/1`);
  expect(got.json).toMatchObject({ found: true, _source: { n: 1 } });
  const seenBy2 = (await call(`${r2.url}/_cat/nodes?format=json&h=name`)).json as Array<{ name: string }>; // prettier-ignore
  expect(seenBy2.map((n) => n.name).sort()).toEqual(['r1', 'r2']);
}, 60_000);
