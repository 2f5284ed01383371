/**
 * Nodes info and nodes stats against a real node: ES's response shape, the metric and node-id
 * forms clients use (sniffers ask `_nodes/_all/http`), live figures that follow the data
 * (documents, store, connections, disk of the data path), and ES's errors for bad metrics.
 */
import { statfsSync } from 'node:fs';
import { totalmem } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestNode, type TestNode } from '../helpers/node.js';

let node: TestNode;
let id: string;

beforeAll(async () => {
  node = await startTestNode();
  id = node.context.nodeId;
  const bulk = [];
  for (let i = 0; i < 25; i++) bulk.push('{"index":{"_index":"n1","_type":"_doc"}}', `{"v":${i}}`);
  for (let i = 0; i < 5; i++) bulk.push('{"index":{"_index":"n2","_type":"_doc"}}', `{"v":${i}}`);
  const r = await node.req('POST', '/_bulk?refresh=true', bulk.join('\n') + '\n', {
    'content-type': 'application/x-ndjson',
  });
  expect(r.json.errors).toBe(false);
});

afterAll(() => node.destroy());

describe('GET _nodes', () => {
  it('describes the node as ES does', async () => {
    const r = await node.req('GET', '/_nodes');
    expect(r.status).toBe(200);
    expect(r.json._nodes).toEqual({ total: 1, successful: 1, failed: 0 });
    expect(r.json.cluster_name).toBe('elasticsearch');
    expect(Object.keys(r.json.nodes)).toEqual([id]);
    const n = r.json.nodes[id];
    const port = new URL(node.url).port;
    expect(n).toMatchObject({
      name: node.context.nodeName,
      transport_address: '127.0.0.1:9300',
      host: '127.0.0.1',
      ip: '127.0.0.1',
      version: '6.8.13',
      build_flavor: 'default',
      build_type: 'tar',
      roles: ['master', 'data', 'ingest'],
      settings: {
        cluster: { name: 'elasticsearch' },
        path: { data: node.dataPath },
        node: { name: node.context.nodeName },
      },
      process: { refresh_interval_in_millis: 1000, id: process.pid, mlockall: false },
      http: {
        bound_address: [`127.0.0.1:${port}`],
        publish_address: `127.0.0.1:${port}`,
        max_content_length_in_bytes: 104857600,
      },
      plugins: [],
      modules: [
        { name: 'ingest-common', classname: 'org.elasticsearch.ingest.common.IngestCommonPlugin' },
        expect.objectContaining({ name: 'lang-mustache' }),
      ],
    });
    expect(n.ingest.processors.map((p: { type: string }) => p.type)).toContain('grok');
    expect(n.os.available_processors).toBeGreaterThan(0);
    expect(n.os.name).toBe(process.platform === 'linux' ? 'Linux' : n.os.name);
    // Sections a JVM-free node cannot report are absent, not faked.
    expect(n.jvm).toBeUndefined();
    expect(n.thread_pool).toBeUndefined();
  });

  it('takes metrics in the node-id place, node ids, and filters with flat_settings', async () => {
    // What the official clients' sniffers send.
    for (const path of ['/_nodes/_all/http', '/_nodes/http', '/_nodes/_local/info/http']) {
      const r = await node.req('GET', path);
      const n = r.json.nodes[id];
      expect(n.http.publish_address).toBe(new URL(node.url).host);
      expect(n.settings).toBeUndefined();
      expect(n.os).toBeUndefined();
    }
    const both = await node.req('GET', '/_nodes/os,process');
    expect(Object.keys(both.json.nodes[id])).toEqual(
      expect.arrayContaining(['os', 'process', 'name', 'roles']),
    );
    expect(both.json.nodes[id].http).toBeUndefined();
    for (const sel of [id, node.context.nodeName, '_master', 'data:true', '127.0.0.*']) {
      const r = await node.req('GET', `/_nodes/${encodeURIComponent(sel)}/settings`);
      expect(r.json._nodes.total, sel).toBe(1);
    }
    const none = await node.req('GET', '/_nodes/other-node');
    expect(none.json).toEqual({
      _nodes: { total: 0, successful: 0, failed: 0 },
      cluster_name: 'elasticsearch',
      nodes: {},
    });
    const flat = await node.req('GET', '/_nodes/settings?flat_settings=true');
    expect(flat.json.nodes[id].settings['path.data']).toBe(node.dataPath);
  });
});

describe('GET _nodes/stats', () => {
  it('reports indices, os memory, process, fs and http figures that match the node', async () => {
    const r = await node.req('GET', '/_nodes/stats');
    expect(r.status).toBe(200);
    expect(r.json._nodes).toEqual({ total: 1, successful: 1, failed: 0 });
    const n = r.json.nodes[id];
    expect(n.ip).toBe('127.0.0.1:9300');
    expect(n.version).toBeUndefined();
    expect(n.indices.docs).toEqual({ count: 30, deleted: 0 });
    expect(n.indices.store.size_in_bytes).toBeGreaterThan(0);
    expect(n.indices.indexing.index_total).toBe(30);
    const os = n.os;
    expect(os.mem.total_in_bytes).toBe(totalmem());
    expect(os.mem.used_in_bytes + os.mem.free_in_bytes).toBe(os.mem.total_in_bytes);
    expect(os.mem.used_percent + os.mem.free_percent).toBe(100);
    expect(os.cpu.percent).toBeGreaterThanOrEqual(0);
    expect(os.cpu.percent).toBeLessThanOrEqual(100);
    expect(Object.keys(os.cpu.load_average)).toEqual(['1m', '5m', '15m']);
    if (process.platform === 'linux') {
      expect(n.process.open_file_descriptors).toBeGreaterThan(3);
      expect(n.process.max_file_descriptors).toBeGreaterThan(n.process.open_file_descriptors);
      expect(n.process.mem.total_virtual_in_bytes).toBeGreaterThan(0);
    }
    expect(n.process.cpu.total_in_millis).toBeGreaterThan(0);
    const st = statfsSync(node.dataPath);
    expect(n.fs.data[0].path).toBe(node.dataPath);
    expect(n.fs.data[0].total_in_bytes).toBe(st.blocks * st.bsize);
    expect(n.fs.total.total_in_bytes).toBe(st.blocks * st.bsize);
    expect(n.http.current_open).toBeGreaterThanOrEqual(1);
    expect(n.http.total_opened).toBeGreaterThanOrEqual(n.http.current_open);
    // the runtime's own figures under ES's names (http/runtime-stats.ts): V8's heap, OS threads
    expect(n.jvm.mem.heap_used_in_bytes).toBeGreaterThan(0);
    expect(n.jvm.mem.heap_used_in_bytes).toBeLessThanOrEqual(n.jvm.mem.heap_max_in_bytes);
    expect(n.jvm.threads.count).toBeGreaterThanOrEqual(1);
  });

  it('selects metrics and index metrics, per index at level=indices, human-readable', async () => {
    const r = await node.req('GET', '/_nodes/stats/indices/docs,store?level=indices');
    const ind = r.json.nodes[id].indices;
    expect(Object.keys(ind)).toEqual(['docs', 'store', 'indices']);
    expect(ind.indices.n1.docs.count).toBe(25);
    expect(ind.indices.n2.docs.count).toBe(5);
    expect(r.json.nodes[id].os).toBeUndefined();
    const h = await node.req('GET', `/_nodes/${id}/stats/fs?human`);
    const d = h.json.nodes[id].fs.data[0];
    expect(Object.keys(d).slice(-2)).toEqual(['available', 'available_in_bytes']);
    expect(d.total).toMatch(/^\d+(\.\d+)?(b|kb|mb|gb|tb|pb)$/);
  });

  it('answers bad metrics with ES’s errors', async () => {
    const cases: Array<[string, string]> = [
      ['/_nodes/stats/cpu', 'request [/_nodes/stats/cpu] contains unrecognized metric: [cpu]'],
      [
        '/_nodes/stats/indices/doc',
        'request [/_nodes/stats/indices/doc] contains unrecognized index metric: [doc] -> did you mean [docs]?',
      ],
      [
        '/_nodes/stats/os/docs',
        'request [/_nodes/stats/os/docs] contains index metrics [docs] but indices stats not requested',
      ],
      [
        '/_nodes/stats/_all,os',
        'request [/_nodes/stats/_all,os] contains _all and individual metrics [_all,os]',
      ],
      [
        '/_nodes/stats?level=cluster',
        'level parameter must be one of [indices] or [node] or [shards] but was [cluster]',
      ],
    ];
    for (const [path, reason] of cases) {
      const r = await node.req('GET', path);
      expect(r.status, path).toBe(400);
      expect(r.json.error.type).toBe('illegal_argument_exception');
      expect(r.json.error.reason).toBe(reason);
    }
  });
});
