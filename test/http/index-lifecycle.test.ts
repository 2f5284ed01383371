/** Index maintenance and lifecycle APIs over HTTP: flush, synced flush, force merge, clear cache. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestNode, type TestNode } from '../helpers/node.js';

let node: TestNode;
beforeAll(async () => {
  node = await startTestNode();
  await node.req('PUT', '/lc', { settings: { number_of_shards: 1, number_of_replicas: 0 } });
});
afterAll(async () => {
  await node.destroy();
});

const segments = async (): Promise<number> =>
  (await node.req('GET', '/lc/_stats/segments')).json.indices.lc.primaries.segments.count;

describe('index maintenance', () => {
  it('counts flushes in the flush stats', async () => {
    const before = (await node.req('GET', '/lc/_stats/flush')).json.indices.lc.primaries.flush;
    expect((await node.req('POST', '/lc/_flush')).status).toBe(200);
    const after = (await node.req('GET', '/lc/_stats/flush')).json.indices.lc.primaries.flush;
    expect(after.total).toBe(before.total + 1);
    expect(after.periodic).toBe(0);
  });

  it('force merges segments into one and drops deleted documents', async () => {
    for (let i = 0; i < 3; i++) {
      await node.req('PUT', `/lc/doc/${i}?refresh=true`, { n: i });
    }
    await node.req('DELETE', '/lc/doc/0?refresh=true');
    expect(await segments()).toBeGreaterThan(1);
    const r = await node.req('POST', '/lc/_forcemerge?max_num_segments=1');
    expect(r.status).toBe(200);
    expect(r.json._shards).toEqual({ total: 1, successful: 1, failed: 0 });
    expect(await segments()).toBe(1);
    const docs = (await node.req('GET', '/lc/_stats/docs')).json.indices.lc.primaries.docs;
    expect(docs).toEqual({ count: 2, deleted: 0 });
  });

  it('marks the commit with a sync id until the next write', async () => {
    const r = await node.req('POST', '/lc/_flush/synced');
    expect(r.status).toBe(200);
    expect(r.json).toEqual({
      _shards: { total: 1, successful: 1, failed: 0 },
      lc: { total: 1, successful: 1, failed: 0 },
    });
    const commit = async () =>
      (await node.req('GET', '/lc/_stats?level=shards')).json.indices.lc.shards['0'][0].commit;
    expect(typeof (await commit()).user_data.sync_id).toBe('string');
    await node.req('PUT', '/lc/doc/9', { n: 9 });
    expect((await commit()).user_data.sync_id).toBeUndefined();
  });

  it('clears the request cache', async () => {
    await node.req('GET', '/lc/_search?request_cache=true&size=0');
    const held = async () =>
      (await node.req('GET', '/lc/_stats/request_cache')).json.indices.lc.primaries.request_cache
        .memory_size_in_bytes;
    expect(await held()).toBeGreaterThan(0);
    const r = await node.req('POST', '/lc/_cache/clear?request=true');
    expect(r.status).toBe(200);
    expect(await held()).toBe(0);
  });

  it('warns on the deprecated clear cache names', async () => {
    const r = await node.req('POST', '/_cache/clear?request_cache=false');
    expect(r.status).toBe(200);
    expect(r.headers.get('warning')).toContain('Deprecated field [request_cache] used');
  });
});

describe('shard reports', () => {
  it('lists the searched segments, committed after a flush', async () => {
    await node.req('POST', '/lc/_forcemerge?max_num_segments=1');
    const r = await node.req('GET', '/lc/_segments');
    expect(r.status).toBe(200);
    const copy = r.json.indices.lc.shards['0'][0];
    expect(copy.num_search_segments).toBe(1);
    expect(copy.num_committed_segments).toBe(1);
    const [seg] = Object.values(copy.segments) as any[];
    expect(seg.committed).toBe(true);
    expect(seg.num_docs).toBeGreaterThan(0);
  });

  it('reports a new index as recovered from an empty store', async () => {
    const r = await node.req('GET', '/lc/_recovery?human=true');
    expect(r.status).toBe(200);
    expect(r.json.lc.shards[0]).toMatchObject({ id: 0, type: 'EMPTY_STORE', stage: 'DONE' });
    expect((await node.req('GET', '/nope/_recovery')).status).toBe(404);
  });

  it('lists the primary store of green shards only when asked', async () => {
    expect((await node.req('GET', '/lc/_shard_stores')).json).toEqual({ indices: {} });
    const r = await node.req('GET', '/lc/_shard_stores?status=green');
    expect(r.json.indices.lc.shards['0'].stores[0].allocation).toBe('primary');
  });
});

describe('_validate/query', () => {
  it('rejects body keys other than query, printing the Java exception with explain', async () => {
    const r = await node.req('POST', '/lc/_validate/query?explain=true', { match_all: {} });
    expect(r.json).toEqual({
      valid: false,
      error: 'org.elasticsearch.common.ParsingException: request does not support [match_all]',
    });
    const quiet = await node.req('POST', '/lc/_validate/query', { query: { nope: {} } });
    expect(quiet.json).toEqual({ valid: false });
  });
});

describe('rollover', () => {
  it('rolls over when a condition holds and moves the alias to the new index', async () => {
    await node.req('PUT', '/roll-1', { aliases: { roll: {} } });
    await node.req('PUT', '/roll-1/doc/1?refresh=true', { a: 1 });
    const dry = await node.req('POST', '/roll/_rollover?dry_run=true', {
      conditions: { max_docs: 1 },
    });
    expect(dry.json).toMatchObject({ rolled_over: false, dry_run: true, new_index: 'roll-000002' });
    expect((await node.req('HEAD', '/roll-000002')).status).toBe(404);
    const r = await node.req('POST', '/roll/_rollover', { conditions: { max_docs: 1 } });
    expect(r.json).toMatchObject({
      old_index: 'roll-1',
      new_index: 'roll-000002',
      rolled_over: true,
      conditions: { '[max_docs: 1]': true },
    });
    const aliases = (await node.req('GET', '/_alias/roll')).json;
    expect(Object.keys(aliases)).toEqual(['roll-000002']);
    const again = await node.req('POST', '/roll/_rollover', { conditions: { max_docs: 1 } });
    expect(again.json).toMatchObject({ rolled_over: false, new_index: 'roll-000003' });
  });
});
