/**
 * The spec's walkthrough on two real node processes and a real etcd: a default index (5 shards,
 * 1 replica) goes green with 10 started copies, 5 per node, no replica beside its primary; a
 * killed node turns it yellow with every primary active on the other node (replicas promoted);
 * the node back turns it green again, its copies recovered from the primaries.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEtcd, type EtcdCluster } from '../helpers/etcd.js';
import { startProcessNode, type ProcessNode } from '../helpers/process-node.js';
import { clusterNodeArgs } from '../helpers/cluster-node.js';

const dir = mkdtempSync(join(tmpdir(), 'quarry-walk-'));
let etcd: EtcdCluster;
const nodes: ProcessNode[] = [];

const argsFor = (k: number) => clusterNodeArgs(`127.0.0.${k}`, `n${k}`, etcd);

async function json(url: string, init?: RequestInit): Promise<any> {
  const r = await fetch(url, init);
  return r.json();
}

async function catShards(url: string): Promise<string[][]> {
  const r = await fetch(`${url}/_cat/shards/customer?h=shard,prirep,state,node`);
  return (await r.text())
    .trim()
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => l.trim().split(/\s+/));
}

beforeAll(async () => {
  etcd = await startEtcd();
  for (const k of [1, 2]) nodes.push(await startProcessNode(join(dir, `n${k}`), argsFor(k)));
}, 60_000);

afterAll(async () => {
  for (const n of nodes) await n.stop().catch(() => undefined);
  await etcd?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('the walkthrough on two nodes', () => {
  it('places a default index green, 5 copies per node, never a replica beside its primary', async () => {
    await json(`${nodes[0]!.url}/_cluster/health?wait_for_nodes=2&timeout=10s`);
    const created = await json(`${nodes[1]!.url}/customer`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ settings: { 'index.unassigned.node_left.delayed_timeout': '0' } }),
    });
    expect(created).toEqual({ acknowledged: true, shards_acknowledged: true, index: 'customer' });
    const health = await json(`${nodes[0]!.url}/_cluster/health?wait_for_status=green&timeout=20s`);
    expect(health).toMatchObject({ status: 'green', number_of_nodes: 2, active_shards: 10 });
    const rows = await catShards(nodes[0]!.url);
    expect(rows).toHaveLength(10);
    expect(rows.every((r) => r[2] === 'STARTED')).toBe(true);
    expect(rows.filter((r) => r[3] === 'n1')).toHaveLength(5);
    expect(rows.filter((r) => r[3] === 'n2')).toHaveLength(5);
    for (let s = 0; s < 5; s++) {
      const copies = rows.filter((r) => r[0] === String(s));
      expect(new Set(copies.map((r) => r[3])).size).toBe(2);
    }
    const cat = await (await fetch(`${nodes[1]!.url}/_cat/health?h=node.total,status`)).text();
    expect(cat.trim()).toBe('2 green');
  }, 40_000);

  it('goes yellow with every primary on the surviving node when the other dies, green when it is back', async () => {
    await nodes[1]!.kill9();
    const yellow = await json(
      `${nodes[0]!.url}/_cluster/health?wait_for_nodes=1&wait_for_status=yellow&timeout=15s`,
    );
    expect(yellow).toMatchObject({ number_of_nodes: 1, active_primary_shards: 5 });
    expect(yellow.status).toBe('yellow');
    const rows = await catShards(nodes[0]!.url);
    expect(rows.filter((r) => r[1] === 'p').every((r) => r[2] === 'STARTED' && r[3] === 'n1')).toBe(
      true,
    );
    nodes[1] = await startProcessNode(join(dir, 'n2'), argsFor(2));
    const green = await json(`${nodes[0]!.url}/_cluster/health?wait_for_status=green&timeout=30s`);
    expect(green).toMatchObject({ status: 'green', number_of_nodes: 2, active_shards: 10 });
    const after = await catShards(nodes[1]!.url);
    expect(after.filter((r) => r[3] === 'n2')).toHaveLength(5);
  }, 60_000);
});
