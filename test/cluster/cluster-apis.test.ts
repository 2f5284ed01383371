/**
 * APIs a clustered node serves as a lone node does, across two real node processes and a real
 * etcd: `_explain` of a document whose shard is on the other node, snapshot repositories
 * registered through one node and read through the other, `_rollover` through a node that is not
 * the master, every node's tasks, and `_cat/thread_pool` rows from both nodes.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProcessNode } from '../helpers/process-node.js';
import { call, startProcessCluster, type ProcessCluster } from '../helpers/cluster-node.js';

let cluster: ProcessCluster;
let nodes: ProcessNode[] = [];
let repoDir = '';

beforeAll(async () => {
  cluster = await startProcessCluster(2, 'apis', (dir) => ['-E', `path.repo=${join(dir, 'repos')}`]); // prettier-ignore
  nodes = cluster.nodes;
  repoDir = join(cluster.dir, 'repos');
}, 60_000);

afterAll(() => cluster?.stop());

describe('APIs across a two-node cluster', () => {
  it('explains a document on the node that holds its shard, the same through either node', async () => {
    const created = await call(`${nodes[0]!.url}/ex`, 'PUT', {
      settings: { number_of_shards: 2, number_of_replicas: 0 },
      mappings: { _doc: { properties: { title: { type: 'text' } } } },
    });
    expect(created.json).toMatchObject({ acknowledged: true, shards_acknowledged: true });
    let lines = '';
    for (let i = 0; i < 10; i++)
      lines += `{"index":{"_index":"ex","_type":"_doc","_id":"d${i}"}}\n{"title":"quick fox ${i}"}\n`;
    const bulk = await call(`${nodes[0]!.url}/_bulk?refresh=true`, 'POST', lines);
    expect(bulk.json.errors).toBe(false);
    // each primary, here and on the other node, refreshed before answering, and says so
    expect(bulk.json.items.map((i: any) => i.index.forced_refresh)).toEqual(Array(10).fill(true));
    // one shard on each node: explaining all ten through one node reaches the other's shard
    const shards = await call(`${nodes[0]!.url}/_cat/shards/ex?format=json&h=shard,node`);
    expect(new Set(shards.json.map((r: { node: string }) => r.node)).size).toBe(2);
    const query = { query: { match: { title: 'fox' } } };
    for (let i = 0; i < 10; i++) {
      const [a, b] = await Promise.all(
        nodes.map((n) => call(`${n.url}/ex/_doc/d${i}/_explain`, 'POST', query)),
      );
      expect(a!.status).toBe(200);
      expect(a!.json).toMatchObject({ _index: 'ex', _type: '_doc', _id: `d${i}`, matched: true });
      expect(a!.json.explanation.value).toBeGreaterThan(0);
      expect(b!.json).toEqual(a!.json);
    }
    const miss = await call(`${nodes[1]!.url}/ex/_doc/nope/_explain`, 'POST', query);
    expect(miss).toEqual({ status: 404, json: { _index: 'ex', _type: '_doc', _id: 'nope', matched: false } }); // prettier-ignore
    const no = await call(`${nodes[1]!.url}/ex/_doc/d1/_explain?q=title:absent`);
    expect(no.json.matched).toBe(false);
  }, 60_000);

  it('answers term vectors on the node that holds the shard, the same through either node', async () => {
    const created = await call(`${nodes[0]!.url}/tv`, 'PUT', {
      settings: { number_of_shards: 2, number_of_replicas: 0 },
      mappings: { _doc: { properties: { body: { type: 'text', term_vector: 'with_positions_offsets' } } } }, // prettier-ignore
    });
    expect(created.json).toMatchObject({ acknowledged: true, shards_acknowledged: true });
    let lines = '';
    for (let i = 0; i < 6; i++)
      lines += `{"index":{"_index":"tv","_type":"_doc","_id":"t${i}"}}\n{"body":"brown fox ${i} brown"}\n`;
    expect((await call(`${nodes[0]!.url}/_bulk?refresh=true`, 'POST', lines)).json.errors).toBe(false); // prettier-ignore
    const shards = await call(`${nodes[0]!.url}/_cat/shards/tv?format=json&h=shard,node`);
    expect(new Set(shards.json.map((r: { node: string }) => r.node)).size).toBe(2);
    const withoutTook = (j: Record<string, unknown>) => ({ ...j, took: 0 });
    for (let i = 0; i < 6; i++) {
      const [a, b] = await Promise.all(
        nodes.map((n) => call(`${n.url}/tv/_doc/t${i}/_termvectors?term_statistics=true`)),
      );
      expect(a!.status).toBe(200);
      expect(a!.json).toMatchObject({ _index: 'tv', _id: `t${i}`, found: true });
      const brown = a!.json.term_vectors.body.terms.brown;
      expect(brown.term_freq).toBe(2);
      expect(brown.doc_freq).toBeGreaterThan(0);
      expect(brown.tokens[1]).toEqual({ position: 3, start_offset: 11 + String(i).length, end_offset: 16 + String(i).length }); // prettier-ignore
      expect(withoutTook(b!.json)).toEqual(withoutTook(a!.json));
    }
    const multi = await call(`${nodes[1]!.url}/tv/_doc/_mtermvectors`, 'POST', {
      ids: ['t0', 't1', 'nope'],
    });
    expect(multi.json.docs.map((d: { found: boolean }) => d.found)).toEqual([true, true, false]);
  });

  it('registers a repository through one node; the other lists, verifies and deletes it', async () => {
    const body = { type: 'fs', settings: { location: join(repoDir, 'r1') } };
    expect((await call(`${nodes[1]!.url}/_snapshot/r1`, 'PUT', body)).json).toEqual({ acknowledged: true }); // prettier-ignore
    for (const n of nodes) {
      const g = await call(`${n.url}/_snapshot/r1`);
      expect(g.json).toEqual({ r1: body });
    }
    const cat = await call(`${nodes[0]!.url}/_cat/repositories?format=json`);
    expect(cat.json).toEqual([{ id: 'r1', type: 'fs' }]);
    const verified = await call(`${nodes[0]!.url}/_snapshot/r1/_verify`, 'POST');
    expect(Object.values(verified.json.nodes).map((v: any) => v.name).sort()).toEqual(['d1', 'd2']); // prettier-ignore
    expect((await call(`${nodes[0]!.url}/_snapshot/r1`, 'DELETE')).json).toEqual({ acknowledged: true }); // prettier-ignore
    const gone = await call(`${nodes[1]!.url}/_snapshot/r1`);
    expect(gone.status).toBe(404);
    expect(gone.json.error.type).toBe('repository_missing_exception');
  }, 60_000);

  it('rolls an alias over through either node; the alias then reads the new index everywhere', async () => {
    await call(`${nodes[0]!.url}/logs-1`, 'PUT', { aliases: { logs: {} } });
    await call(`${nodes[0]!.url}/logs-1/_doc/1?refresh=true`, 'PUT', { a: 1 });
    const r = await call(`${nodes[1]!.url}/logs/_rollover`, 'POST', { conditions: { max_docs: 1 } }); // prettier-ignore
    expect(r.json).toMatchObject({ old_index: 'logs-1', new_index: 'logs-000002', rolled_over: true, shards_acknowledged: true }); // prettier-ignore
    for (const n of nodes) {
      const a = await call(`${n.url}/_alias/logs`);
      expect(a.json).toEqual({ 'logs-000002': { aliases: { logs: {} } } });
    }
    // an explicit write alias stays on the old index, no longer its write index; a write through
    // the alias on either node goes to the new one
    await call(`${nodes[1]!.url}/w-1`, 'PUT', { aliases: { w: { is_write_index: true } } });
    const w = await call(`${nodes[0]!.url}/w/_rollover`, 'POST', {});
    expect(w.json).toMatchObject({ new_index: 'w-000002', rolled_over: true });
    for (const n of nodes) {
      const a = await call(`${n.url}/_alias/w`);
      expect(a.json).toEqual({
        'w-1': { aliases: { w: { is_write_index: false } } },
        'w-000002': { aliases: { w: { is_write_index: true } } },
      });
      const doc = await call(`${n.url}/w/_doc`, 'POST', { n: n.url });
      expect(doc.json._index).toBe('w-000002');
    }
  }, 60_000);

  it('lists the tasks of every node; a task id is answered by its own node', async () => {
    const ids = (await call(`${nodes[0]!.url}/_nodes/_all/none`)).json.nodes;
    const byNode = await call(`${nodes[0]!.url}/_tasks`);
    expect(Object.keys(byNode.json.nodes).sort()).toEqual(Object.keys(ids).sort());
    // the listing on the node asked, with a child on every node
    const byParent = await call(`${nodes[1]!.url}/_tasks?group_by=parents`);
    const [top] = Object.values(byParent.json.tasks) as any[];
    expect(top.action).toBe('cluster:monitor/tasks/lists');
    expect(top.children.map((c: any) => c.node).sort()).toEqual(Object.keys(ids).sort());
    const other = Object.keys(ids).find((id) => ids[id].name === 'd2')!;
    const missing = await call(`${nodes[0]!.url}/_tasks/${other}:99999`);
    expect(missing.status).toBe(404);
    expect(missing.json.error.reason).toBe(`task [${other}:99999] isn't running and hasn't stored its results`); // prettier-ignore
  });

  it('lists the thread pools of every node', async () => {
    const r = await call(`${nodes[0]!.url}/_cat/thread_pool/search?format=json&h=node_name,name`);
    expect(r.json.map((x: any) => x.node_name).sort()).toEqual(['d1', 'd2']);
  });
});
