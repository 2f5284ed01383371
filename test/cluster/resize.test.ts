/**
 * Shrink and split in a cluster of two real node processes and a real etcd: asked of either node,
 * the target is created through the master and filled from the source's shards wherever their
 * primaries are, every document in the target shard ES's routing gives it, with its version, and
 * every node sees the target.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shardForRouting } from '../../src/common/murmur3.js';
import type { ProcessNode } from '../helpers/process-node.js';
import { call, startProcessCluster, type ProcessCluster } from '../helpers/cluster-node.js';

let cluster: ProcessCluster;
let nodes: ProcessNode[] = [];
const IDS = Array.from({ length: 40 }, (_, i) => `d${i}`);

beforeAll(async () => {
  cluster = await startProcessCluster(2, 'resize');
  nodes = cluster.nodes;
}, 60_000);

afterAll(() => cluster?.stop());

/** Primary document counts per shard, from the shard-level stats. */
const primaryDocs = async (url: string, index: string, shards: number) => {
  const s = await call(`${url}/${index}/_stats/docs?level=shards`);
  const table = s.json.indices[index].shards as Record<string, Array<{ routing: { primary: boolean }; docs: { count: number } }>>; // prettier-ignore
  return Array.from({ length: shards }, (_, n) =>
    table[String(n)]!.filter((c) => c.routing.primary).reduce((a, c) => a + c.docs.count, 0),
  );
};

const expectedDocs = (shards: number, routingShards: number) => {
  const out = Array.from({ length: shards }, () => 0);
  for (const id of IDS) out[shardForRouting(id, shards, routingShards)]!++;
  return out;
};

describe('resize in a two-node cluster', () => {
  it('shrinks and splits from either node, documents where routing puts them', async () => {
    const [a, b] = [nodes[0]!.url, nodes[1]!.url];
    await call(`${a}/src`, 'PUT', {
      settings: { number_of_shards: 4, number_of_replicas: 1, number_of_routing_shards: 8 },
    });
    expect((await call(`${b}/_cluster/health/src?wait_for_status=green&timeout=20s`)).json.status).toBe('green'); // prettier-ignore
    let lines = '';
    for (const id of IDS) lines += `{"index":{"_index":"src","_type":"_doc","_id":"${id}"}}\n{"id":"${id}"}\n`; // prettier-ignore
    expect((await call(`${a}/_bulk?refresh=true`, 'POST', lines)).json.errors).toBe(false);
    await call(`${b}/src/_doc/d7?refresh=true`, 'PUT', { id: 'd7', again: true });
    await call(`${a}/src/_settings`, 'PUT', { 'index.blocks.write': true });

    const shrunk = await call(`${b}/src/_shrink/small?copy_settings=true`, 'POST', {
      settings: { 'index.number_of_shards': 2 },
    });
    expect(shrunk.json).toEqual({ acknowledged: true, shards_acknowledged: true, index: 'small' });
    await call(`${a}/_cluster/health/small?wait_for_status=green&timeout=20s`);
    for (const n of nodes) {
      expect(await primaryDocs(n.url, 'small', 2)).toEqual(expectedDocs(2, 8));
      const d7 = await call(`${n.url}/small/_doc/d7`);
      expect(d7.json).toMatchObject({ _version: 2, _source: { id: 'd7', again: true } });
      const s = await call(`${n.url}/small/_settings?flat_settings=true`);
      expect(s.json.small.settings['index.blocks.write']).toBe('true');
    }

    const split = await call(`${a}/src/_split/big?copy_settings=true`, 'PUT', {
      settings: { 'index.number_of_shards': 8, 'index.number_of_replicas': 0 },
    });
    expect(split.status).toBe(200);
    expect(await primaryDocs(b, 'big', 8)).toEqual(expectedDocs(8, 8));
    expect((await call(`${b}/big/_count`)).json.count).toBe(IDS.length);
  }, 90_000);
});
