/**
 * Shard statistics in a cluster of two real node processes and a real etcd: `_stats` asks every
 * node for the copies it holds, so from either node it counts each primary once in `primaries`
 * and every copy in `total`, with `_shards` counting every copy, and level=shards lists both
 * copies of each shard with the node that holds it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProcessNode } from '../helpers/process-node.js';
import { call, startProcessCluster, type ProcessCluster } from '../helpers/cluster-node.js';

let cluster: ProcessCluster;
let nodes: ProcessNode[] = [];

beforeAll(async () => {
  cluster = await startProcessCluster(2, 'stats');
  nodes = cluster.nodes;
}, 60_000);

afterAll(() => cluster?.stop());

describe('_stats in a two-node cluster', () => {
  it('counts primaries once and every copy in total, from either node', async () => {
    await call(`${nodes[0]!.url}/logs`, 'PUT', {
      settings: { number_of_shards: 2, number_of_replicas: 1 },
    });
    const health = await call(`${nodes[1]!.url}/_cluster/health?wait_for_status=green&timeout=20s`);
    expect(health.json.status).toBe('green');
    let lines = '';
    for (let i = 0; i < 30; i++)
      lines += `{"index":{"_index":"logs","_type":"_doc","_id":"${i}"}}\n{"n":${i}}\n`;
    const bulk = await call(`${nodes[0]!.url}/_bulk?refresh=true`, 'POST', lines);
    expect(bulk.json.errors).toBe(false);

    for (const n of nodes) {
      const s = await call(`${n.url}/logs/_stats/docs?level=shards`);
      expect(s.status).toBe(200);
      expect(s.json._shards).toEqual({ total: 4, successful: 4, failed: 0 });
      expect(s.json._all.primaries.docs.count).toBe(30);
      expect(s.json._all.total.docs.count).toBe(60);
      const shards = s.json.indices.logs.shards as Record<string, Array<{ routing: { primary: boolean; node: string }; docs: { count: number } }>>; // prettier-ignore
      for (const copies of Object.values(shards)) {
        expect(copies.map((c) => c.routing.primary).sort()).toEqual([false, true]);
        // the two copies are on different nodes and hold the same documents
        expect(new Set(copies.map((c) => c.routing.node)).size).toBe(2);
        expect(copies[0]!.docs.count).toBe(copies[1]!.docs.count);
      }
    }
  }, 60_000);
});
