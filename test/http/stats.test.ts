import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestNode, type TestNode } from '../helpers/node.js';

let node: TestNode;
beforeAll(async () => {
  node = await startTestNode();
});
afterAll(async () => {
  await node.destroy();
});
beforeEach(async () => {
  await node.req('DELETE', '/*');
});

const SECTIONS = [
  'docs',
  'store',
  'indexing',
  'get',
  'search',
  'merges',
  'refresh',
  'flush',
  'warmer',
  'query_cache',
  'fielddata',
  'completion',
  'segments',
  'translog',
  'request_cache',
  'recovery',
];

describe('GET _stats', () => {
  it('counts index, delete, noop update and failed operations per index', async () => {
    await node.req('PUT', '/s', { settings: { number_of_shards: 2, refresh_interval: -1 } });
    for (const id of ['1', '2', '3']) await node.req('PUT', `/s/doc/${id}`, { v: id });
    await node.req('PUT', '/s/doc/1', { v: 'again' });
    await node.req('PUT', '/s/doc/2?version=9', { v: 'x' }); // version conflict
    await node.req('DELETE', '/s/doc/3');
    await node.req('DELETE', '/s/doc/4'); // not found: still a delete
    await node.req('POST', '/s/doc/1/_update', { doc: { v: 'again' } }); // detected noop
    const r = await node.req('GET', '/s/_stats/indexing,translog');
    const ix = r.json.indices.s.primaries.indexing;
    expect(ix).toMatchObject({
      index_total: 4,
      index_current: 0,
      index_failed: 1,
      delete_total: 2,
      delete_current: 0,
      noop_update_total: 1,
      is_throttled: false,
      throttle_time_in_millis: 0,
    });
    expect(ix.index_time_in_millis).toBeGreaterThanOrEqual(0);
    expect(r.json.indices.s.primaries.translog.operations).toBe(6);
    expect(Object.keys(r.json.indices.s.primaries)).toEqual(['indexing', 'translog']);
    expect(r.json._all.total.indexing.index_total).toBe(4);
  });

  it('counts gets, shard query phases and refreshes', async () => {
    await node.req('PUT', '/s', { settings: { number_of_shards: 3, refresh_interval: -1 } });
    await node.req('PUT', '/s/doc/1', { v: 1 });
    await node.req('GET', '/s/doc/1');
    await node.req('GET', '/s/doc/1');
    await node.req('GET', '/s/doc/2');
    await node.req('POST', '/s/_refresh'); // three shards: three refreshes
    await node.req('POST', '/s/_refresh'); // explicit refreshes count even with nothing new
    await node.req('GET', '/s/_search');
    await node.req('GET', '/s/_search?routing=1');
    const r = await node.req('GET', '/s/_stats/get,search,refresh,warmer,docs');
    const p = r.json.indices.s.primaries;
    expect(p.get).toMatchObject({ total: 3, exists_total: 2, missing_total: 1, current: 0 });
    expect(p.search).toMatchObject({ open_contexts: 0, query_total: 4, query_current: 0 });
    expect(p.refresh).toMatchObject({ total: 6, listeners: 0 });
    // only one shard opened a new reader
    expect(p.warmer.total).toBe(1);
    expect(p.docs).toEqual({ count: 1, deleted: 0 });
  });

  it('does not count scheduled refreshes that found nothing to refresh', async () => {
    await node.req('PUT', '/s', { settings: { number_of_shards: 1, refresh_interval: '50ms' } });
    await node.req('PUT', '/s/doc/1', { v: 1 });
    await new Promise((r) => setTimeout(r, 400));
    const r = await node.req('GET', '/s/_stats/refresh');
    expect(r.json.indices.s.primaries.refresh.total).toBe(1);
  });

  it('reports every section in CommonStats order with the _shards header', async () => {
    await node.req('PUT', '/a', { settings: { number_of_shards: 2, number_of_replicas: 1 } });
    await node.req('PUT', '/b', { settings: { number_of_shards: 1, number_of_replicas: 0 } });
    await node.req('PUT', '/a/doc/1?refresh', { text: 'hello world', n: 3, k: 'x' });
    const r = await node.req('GET', '/_stats');
    expect(r.status).toBe(200);
    expect(Object.keys(r.json)).toEqual(['_shards', '_all', 'indices']);
    expect(r.json._shards).toEqual({ total: 5, successful: 3, failed: 0 });
    expect(Object.keys(r.json._all.primaries)).toEqual(SECTIONS);
    expect(r.json._all.primaries).toEqual(r.json._all.total);
    expect(Object.keys(r.json.indices).sort()).toEqual(['a', 'b']);
    const a = r.json.indices.a;
    expect(a.uuid).toMatch(/^[\w-]{22}$/);
    expect(a.primaries.docs).toEqual({ count: 1, deleted: 0 });
    expect(a.primaries.store.size_in_bytes).toBeGreaterThan(0);
    const seg = a.primaries.segments;
    expect(seg.count).toBe(1);
    expect(seg.memory_in_bytes).toBe(
      seg.terms_memory_in_bytes +
        seg.stored_fields_memory_in_bytes +
        seg.norms_memory_in_bytes +
        seg.points_memory_in_bytes +
        seg.doc_values_memory_in_bytes,
    );
    expect(seg.terms_memory_in_bytes).toBeGreaterThan(0);
    expect(seg.points_memory_in_bytes).toBeGreaterThan(0);
    expect(seg.doc_values_memory_in_bytes).toBeGreaterThan(0);
    expect(a.primaries.request_cache).toEqual({
      memory_size_in_bytes: 0,
      evictions: 0,
      hit_count: 0,
      miss_count: 0,
    });
    expect(a.primaries.merges.total_auto_throttle_in_bytes).toBe(-1);
  });

  it('counts nested documents as Lucene documents, live and deleted', async () => {
    await node.req('PUT', '/n', {
      settings: { number_of_shards: 1 },
      mappings: { doc: { properties: { c: { type: 'nested' } } } },
    });
    // one segment: a fully deleted segment would be dropped, as Lucene drops it
    await node.req('PUT', '/n/doc/1', { c: [{ x: 1 }, { x: 2 }] });
    await node.req('PUT', '/n/doc/2?refresh', { c: [] });
    expect((await node.req('GET', '/n/_stats/docs')).json._all.primaries.docs).toEqual({
      count: 4,
      deleted: 0,
    });
    await node.req('DELETE', '/n/doc/1?refresh');
    expect((await node.req('GET', '/n/_stats/docs')).json._all.primaries.docs).toEqual({
      count: 1,
      deleted: 3,
    });
  });

  it('renders levels cluster, indices and shards', async () => {
    await node.req('PUT', '/a', { settings: { number_of_shards: 2 } });
    await node.req('PUT', '/a/doc/1?refresh', { v: 1 });
    const cluster = await node.req('GET', '/a/_stats/docs?level=cluster');
    expect(cluster.json).not.toHaveProperty('indices');
    expect(cluster.json._all.primaries.docs.count).toBe(1);
    const shards = await node.req('GET', '/a/_stats/docs,indexing?level=shards');
    const list = shards.json.indices.a.shards;
    expect(Object.keys(list)).toEqual(['0', '1']);
    const copies = [list['0'][0], list['1'][0]];
    for (const c of copies) {
      expect(c.routing).toEqual({
        state: 'STARTED',
        primary: true,
        node: node.context.nodeId,
        relocating_node: null,
      });
      expect(c.shard_path.is_custom_data_path).toBe(false);
      expect(c.retention_leases).toEqual({ primary_term: 1, version: 0, leases: [] });
    }
    expect(copies.map((c) => c.docs.count).sort()).toEqual([0, 1]);
    const written = copies.find((c) => c.docs.count === 1);
    expect(written.seq_no).toEqual({ max_seq_no: 0, local_checkpoint: 0, global_checkpoint: 0 });
    expect(written.indexing.index_total).toBe(1);
    const bad = await node.req('GET', '/a/_stats?level=nodes');
    expect(bad.status).toBe(400);
    expect(bad.json.error.reason).toBe(
      'level parameter must be one of [cluster] or [indices] or [shards] but was [nodes]',
    );
  });

  it('filters fielddata fields and indexing types', async () => {
    await node.req('PUT', '/a', { mappings: { doc: { properties: { k: { type: 'keyword' } } } } });
    await node.req('PUT', '/a/doc/1?refresh', { k: 'x' });
    const fd = await node.req('GET', '/a/_stats/fielddata?fielddata_fields=k*');
    expect(fd.json.indices.a.total.fielddata).toEqual({
      memory_size_in_bytes: 0,
      evictions: 0,
      fields: {},
    });
    const noFields = await node.req('GET', '/a/_stats/fielddata');
    expect(noFields.json.indices.a.total.fielddata).not.toHaveProperty('fields');
    const types = await node.req('GET', '/a/_stats/indexing?types=d*');
    expect(types.json.indices.a.total.indexing.types.doc.index_total).toBe(1);
    const other = await node.req('GET', '/a/_stats/indexing?types=nope');
    expect(other.json.indices.a.total.indexing).not.toHaveProperty('types');
  });

  it('adds human-readable values with human=true', async () => {
    await node.req('PUT', '/a/doc/1?refresh', { v: 1 });
    await node.req('GET', '/a/doc/1');
    const r = await node.req('GET', '/a/_stats/store,get?human');
    const p = r.json.indices.a.primaries;
    expect(Object.keys(p.store)).toEqual(['size', 'size_in_bytes']);
    expect(p.store.size).toMatch(/^\d+(\.\d)?(b|kb|mb)$/);
    // ES GetStats names its human time field getTime
    expect(Object.keys(p.get).slice(0, 3)).toEqual(['total', 'getTime', 'time_in_millis']);
  });

  it('rejects unknown metrics and _all mixed with metrics', async () => {
    await node.req('PUT', '/a');
    const r = await node.req('GET', '/a/_stats/docs,indexin');
    expect(r.status).toBe(400);
    expect(r.json.error.reason).toBe(
      'request [/a/_stats/docs,indexin] contains unrecognized metric: [indexin] -> did you mean [indexing]?',
    );
    const mixed = await node.req('GET', '/_stats/_all,docs');
    expect(mixed.json.error.reason).toBe(
      'request [/_stats/_all,docs] contains _all and individual metrics [_all,docs]',
    );
    const missing = await node.req('GET', '/nope/_stats');
    expect(missing.status).toBe(404);
    expect(missing.json.error.type).toBe('index_not_found_exception');
  });

  it('keeps translog operations until a flush commits them and trims them when retention is off', async () => {
    await node.req('PUT', '/t', { settings: { number_of_shards: 1 } });
    const created = (await node.req('GET', '/t/_stats/translog')).json.indices.t.primaries.translog;
    await node.req('PUT', '/t/doc/1', { foo: 'bar' });
    const written = (await node.req('GET', '/t/_stats/translog')).json.indices.t.primaries.translog;
    expect(written).toMatchObject({ operations: 1, uncommitted_operations: 1 });
    expect(written.uncommitted_size_in_bytes).toBe(written.size_in_bytes);
    await node.req('POST', '/t/_flush');
    const flushed = (await node.req('GET', '/t/_stats/translog')).json.indices.t.primaries.translog;
    // the commit holds the operation; the default retention (512mb, 12h) still keeps it
    expect(flushed).toMatchObject({ operations: 1, uncommitted_operations: 0 });
    expect(flushed.size_in_bytes).toBe(written.size_in_bytes);
    expect(flushed.uncommitted_size_in_bytes).toBe(created.uncommitted_size_in_bytes);
    const put = await node.req('PUT', '/t/_settings', {
      'index.translog.retention.size': -1,
      'index.translog.retention.age': -1,
    });
    expect(put.status).toBe(200);
    await node.req('POST', '/t/_flush?force=true');
    const trimmed = (await node.req('GET', '/t/_stats/translog')).json.indices.t.primaries.translog;
    expect(trimmed).toMatchObject({ operations: 0, uncommitted_operations: 0 });
    expect(trimmed.size_in_bytes).toBe(created.size_in_bytes);
  });

  it('counts query phases per search stats group, listed with the groups parameter', async () => {
    await node.req('PUT', '/g', { settings: { number_of_shards: 2 } });
    await node.req('PUT', '/g/doc/1?refresh', { v: 1 });
    await node.req('POST', '/g/_search', { stats: ['bar', 'baz'] });
    await node.req('GET', '/g/_search?stats=bar');
    const blank = await node.req('GET', '/g/_stats/search');
    expect(blank.json._all.total.search).not.toHaveProperty('groups');
    const r = await node.req('GET', '/g/_stats/search?groups=ba*');
    const search = r.json._all.total.search;
    // one query phase per shard and search
    expect(search.groups.bar.query_total).toBe(4);
    expect(search.groups.baz.query_total).toBe(2);
    expect(search.groups.bar).not.toHaveProperty('open_contexts');
    expect(Object.keys(search.groups.bar)).toEqual(Object.keys(search).slice(1, 13));
    const one = await node.req('GET', '/g/_stats?groups=baz');
    expect(Object.keys(one.json._all.total.search.groups)).toEqual(['baz']);
    const none = await node.req('GET', '/g/_stats/search?groups=nope');
    expect(none.json._all.total.search).not.toHaveProperty('groups');
  });

  it('reports completion memory in total and per field asked for', async () => {
    await node.req('PUT', '/c', {
      settings: { number_of_shards: 1 },
      mappings: {
        doc: {
          properties: {
            bar: { type: 'text', fields: { completion: { type: 'completion' } } },
            baz: { type: 'text', fields: { completion: { type: 'completion' } } },
          },
        },
      },
    });
    const empty = await node.req('GET', '/c/_stats/completion?completion_fields=*');
    expect(empty.json._all.total.completion).toEqual({ size_in_bytes: 0, fields: {} });
    await node.req('PUT', '/c/doc/1?refresh', { bar: 'bar', baz: 'baz' });
    const blank = await node.req('GET', '/c/_stats/completion');
    const total = blank.json._all.total.completion;
    expect(total.size_in_bytes).toBeGreaterThan(0);
    expect(total).not.toHaveProperty('fields');
    const star = (await node.req('GET', '/c/_stats/completion?completion_fields=*')).json._all.total
      .completion;
    expect(Object.keys(star.fields).sort()).toEqual(['bar.completion', 'baz.completion']);
    expect(
      star.fields['bar.completion'].size_in_bytes + star.fields['baz.completion'].size_in_bytes,
    ).toBe(star.size_in_bytes);
    // `fields` selects completion fields too, completion_fields wins over it
    const viaFields = await node.req('GET', '/c/_stats/completion?fields=bar*');
    expect(Object.keys(viaFields.json._all.total.completion.fields)).toEqual(['bar.completion']);
    const both = await node.req('GET', '/c/_stats/completion?fields=bar*&completion_fields=baz*');
    expect(Object.keys(both.json._all.total.completion.fields)).toEqual(['baz.completion']);
  });

  it('shows a commit point for every shard copy at level shards, flushed or not', async () => {
    await node.req('PUT', '/k', { settings: { number_of_shards: 1 } });
    await node.req('PUT', '/k/doc/1?refresh', { v: 1 });
    const before = (await node.req('GET', '/k/_stats/docs?level=shards')).json.indices.k.shards;
    const initial = before['0'][0].commit;
    expect(initial.id).toEqual(expect.any(String));
    expect(initial).toMatchObject({
      generation: 0,
      user_data: { local_checkpoint: '-1', max_seq_no: '-1' },
      num_docs: 0,
    });
    await node.req('POST', '/k/_flush');
    const after = (await node.req('GET', '/k/_stats/docs?level=shards')).json.indices.k.shards;
    const commit = after['0'][0].commit;
    expect(commit.id).not.toBe(initial.id);
    expect(commit.user_data).toMatchObject({ local_checkpoint: '0', max_seq_no: '0' });
    expect(commit.num_docs).toBe(1);
  });
});
