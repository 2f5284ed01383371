/**
 * The node-level `_cat` tables and cluster admin endpoints of ES 6.8 on a lone node: each renders
 * this node's real figures (pools, fielddata, segments, disk, attributes).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestNode, type TestNode } from '../helpers/node.js';

let node: TestNode;
const repoDir = mkdtempSync(join(tmpdir(), 'quarry-repo-'));

beforeAll(async () => {
  node = await startTestNode(undefined, {
    'node.attr.rack': 'r1',
    'thread_pool.write.queue_size': '17',
    'path.repo': repoDir,
  });
  await node.req('PUT', '/docs', {
    settings: { number_of_shards: 2, number_of_replicas: 1 },
    mappings: { _doc: { properties: { t: { type: 'text', fielddata: true } } } },
  });
  for (const [id, t] of [
    ['1', 'pear'],
    ['2', 'apple'],
    ['3', 'fig'],
  ])
    await node.req('PUT', `/docs/_doc/${id}`, { t });
  await node.req('POST', '/docs/_refresh');
});

afterAll(async () => {
  await node?.destroy();
  rmSync(repoDir, { recursive: true, force: true });
});

const cat = async (path: string) => {
  const r = await node.req('GET', path);
  expect(r.status).toBe(200);
  return r.text;
};

describe('_cat/allocation', () => {
  it('lists the started shards on this node and the unassigned replicas apart', async () => {
    const rows = (await cat('/_cat/allocation?h=shards,node&format=json')) as string;
    const json = JSON.parse(rows) as Array<{ shards: string; node: string }>;
    expect(json).toEqual([
      { shards: '2', node: node.context.nodeName },
      { shards: '2', node: 'UNASSIGNED' },
    ]);
    expect(await cat('/_cat/allocation/no_such_node?h=node')).toBe('UNASSIGNED\n');
  });
});

describe('_cat/nodeattrs', () => {
  it("lists the node's node.attr settings", async () => {
    expect(await cat('/_cat/nodeattrs?h=attr,value')).toBe('rack r1\n');
  });
});

describe('_cat/thread_pool', () => {
  it("shows the real write pool's settings", async () => {
    const text = await cat('/_cat/thread_pool/write?h=name,type,queue_size');
    expect(text).toBe('write fixed 17\n');
  });
  it('lists idle ES pools by pattern', async () => {
    expect(await cat('/_cat/thread_pool/flush,force*?h=name,active')).toBe(
      'flush       0\nforce_merge 0\n',
    );
  });
});

describe('_cat/fielddata and sorting on a text field', () => {
  it('sorts by the uninverted terms and then reports their memory', async () => {
    const r = await node.req('POST', '/docs/_search', { sort: 't', size: 3 });
    expect(r.json.hits.hits.map((h: { sort: string[] }) => h.sort[0])).toEqual([
      'apple',
      'fig',
      'pear',
    ]);
    const text = await cat('/_cat/fielddata?h=field,size&bytes=b');
    expect(text).toMatch(/^t \d+\n$/);
    expect(Number(text.split(' ')[1])).toBeGreaterThan(0);
  });
});

describe('_cat/segments', () => {
  it('lists each refreshed segment with its documents', async () => {
    const rows = JSON.parse(
      await cat('/_cat/segments/docs?format=json&h=index,segment,docs.count,searchable'),
    ) as Array<Record<string, string>>;
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.reduce((n, r) => n + Number(r['docs.count']), 0)).toBe(3);
    expect(rows[0]).toMatchObject({ index: 'docs', searchable: 'true' });
    expect(rows[0]!.segment).toMatch(/^_[0-9a-z]+$/);
  });
  it('marks segments committed once a flush wrote them to a commit point', async () => {
    await node.req('PUT', '/fresh/_doc/1?refresh=true', { a: 1 });
    const committed = async () =>
      (await cat('/_cat/segments/fresh?h=committed')).trim().split('\n');
    expect(await committed()).toEqual(['false']);
    // segments are numbered per shard, as Lucene's IndexWriter names them
    expect(await cat('/_cat/segments/fresh?h=segment,generation')).toBe('_0 0\n');
    await node.req('POST', '/fresh/_flush');
    expect(await committed()).toEqual(['true']);
    await node.req('DELETE', '/fresh');
  });
  it('refuses a closed index by name', async () => {
    await node.req('PUT', '/shut');
    await node.req('POST', '/shut/_close');
    expect((await node.req('GET', '/_cat/segments/shut')).status).toBe(400);
    expect((await node.req('GET', '/shut/_segments')).status).toBe(400);
    const ignored = await node.req('GET', '/shut/_segments?ignore_unavailable=true');
    expect(ignored.json).toEqual({ _shards: { total: 0, successful: 0, failed: 0 }, indices: {} });
  });
  it('_segments gives the same segments per shard copy', async () => {
    const r = await node.req('GET', '/docs/_segments');
    expect(r.json._shards).toEqual({ total: 4, successful: 2, failed: 0 });
    const copies = Object.values(r.json.indices.docs.shards) as Array<
      Array<{ routing: { primary: boolean }; segments: Record<string, { num_docs: number }> }>
    >;
    let docs = 0;
    for (const [copy] of copies) {
      expect(copy!.routing.primary).toBe(true);
      for (const s of Object.values(copy!.segments)) docs += s.num_docs;
    }
    expect(docs).toBe(3);
  });
});

describe('snapshot repositories', () => {
  it('registers fs repositories under path.repo and lists them in _cat/repositories', async () => {
    const put = await node.req('PUT', '/_snapshot/r1', {
      type: 'fs',
      settings: { location: 'one' },
    });
    expect(put.json).toEqual({ acknowledged: true });
    const bad = await node.req('PUT', '/_snapshot/r2', {
      type: 'fs',
      settings: { location: '/elsewhere' },
    });
    expect(bad.status).toBe(500);
    expect(bad.json.error.caused_by.reason).toMatch(/doesn't match any of the locations/);
    expect(await cat('/_cat/repositories')).toBe('r1 fs\n');
    expect((await node.req('GET', '/_snapshot/r1')).json).toEqual({
      r1: { type: 'fs', settings: { location: 'one' } },
    });
    expect((await node.req('DELETE', '/_snapshot/r1')).status).toBe(200);
    expect((await node.req('GET', '/_snapshot/r1')).status).toBe(404);
  });
});

describe('_cat/tasks, plugins and repositories', () => {
  it('lists the listing task itself', async () => {
    expect(await cat('/_cat/tasks?h=action,parent_task_id')).toBe(
      'cluster:monitor/tasks/lists -\n',
    );
  });
  it('has no plugins and no repositories', async () => {
    expect(await cat('/_cat/plugins')).toBe('');
    expect(await cat('/_cat/repositories')).toBe('');
  });
});

describe('cluster admin endpoints', () => {
  it('_cluster/stats sums the indices and describes this node', async () => {
    const r = await node.req('GET', '/_cluster/stats');
    expect(r.status).toBe(200);
    expect(r.json.cluster_uuid).toBe(node.context.clusterUuid);
    expect(r.json.indices.count).toBe(1); // docs (shut is closed)
    expect(r.json.indices.docs.count).toBe(3);
    expect(r.json.indices.shards).toMatchObject({ total: 2, primaries: 2, replication: 0 });
    expect(r.json.nodes.count).toMatchObject({ total: 1, master: 1, data: 1 });
    expect(r.json.nodes.os.mem.total_in_bytes).toBeGreaterThan(0);
  });
  it('_cluster/pending_tasks, _remote/info and reload_secure_settings', async () => {
    expect((await node.req('GET', '/_cluster/pending_tasks')).json).toEqual({ tasks: [] });
    expect((await node.req('GET', '/_remote/info')).json).toEqual({});
    const r = await node.req('POST', '/_nodes/reload_secure_settings');
    expect(r.json.nodes).toEqual({ [node.context.nodeId]: { name: node.context.nodeName } });
    const none = await node.req('POST', '/_nodes/nobody/reload_secure_settings');
    expect(none.json._nodes.total).toBe(0);
  });
  it('PUT _cluster/settings answers flat with flat_settings; defaults show node settings', async () => {
    const r = await node.req('PUT', '/_cluster/settings?flat_settings=true', {
      transient: { 'search.max_buckets': 500 },
    });
    expect(r.json.transient).toEqual({ 'search.max_buckets': '500' });
    await node.req('PUT', '/_cluster/settings', { transient: { 'search.max_buckets': null } });
    const d = await node.req('GET', '/_cluster/settings?include_defaults&flat_settings');
    expect(d.json.defaults['node.attr.rack']).toBe('r1');
  });
});

describe('PUT _cluster/settings validation', () => {
  it('refuses a request with no settings (ES ClusterUpdateSettingsRequest.validate)', async () => {
    const r = await node.req('PUT', '/_cluster/settings', { transient: {} });
    expect(r.status).toBe(400);
    expect(r.json.error.type).toBe('action_request_validation_exception');
    expect(r.json.error.reason).toBe('Validation Failed: 1: no settings to update;');
  });
});

describe('_cat', () => {
  it('lists the new tables among its endpoints', async () => {
    const text = await cat('/_cat');
    expect(text.startsWith('=^.^=\n')).toBe(true);
    for (const p of ['/_cat/allocation', '/_cat/thread_pool', '/_cat/nodeattrs', '/_cat/segments'])
      expect(text.split('\n')).toContain(p);
  });
});
