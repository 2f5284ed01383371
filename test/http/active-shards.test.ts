/**
 * `wait_for_active_shards` on writes (ES ActiveShardCount): a lone node has one active copy of a
 * shard, so a write asking for more waits its `timeout` and fails with ES's
 * unavailable_shards_exception, writing nothing; `all` on an index without replicas, `1`, and the
 * index's `index.write.wait_for_active_shards` setting are honoured.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestNode, type TestNode } from '../helpers/node.js';

let node: TestNode;
beforeAll(async () => {
  node = await startTestNode();
  await node.req('PUT', '/r1', { settings: { number_of_shards: 1, number_of_replicas: 1 } });
  await node.req('PUT', '/r0', { settings: { number_of_shards: 1, number_of_replicas: 0 } });
});
afterAll(() => node.destroy());

describe('wait_for_active_shards', () => {
  it('fails a write asking for more active copies than exist, after the timeout', async () => {
    const t0 = Date.now();
    const r = await node.req('PUT', '/r1/_doc/1?wait_for_active_shards=2&timeout=200ms', { a: 1 });
    expect(Date.now() - t0).toBeGreaterThanOrEqual(190);
    expect(r.status).toBe(503);
    expect(r.json.error.type).toBe('unavailable_shards_exception');
    expect(r.json.error.reason).toMatch(
      /^\[r1\]\[0\] Not enough active copies to meet shard count of \[2\] \(have 1, needed 2\)\. Timeout: \[200ms\]/,
    );
    expect((await node.req('GET', '/r1/_doc/1')).status).toBe(404);
    const all = await node.req('PUT', '/r1/_doc/1?wait_for_active_shards=all&timeout=100ms', {});
    expect(all.json.error.reason).toContain('shard count of [ALL] (have 1, needed 2)');
  });

  it('runs writes the active copies satisfy', async () => {
    expect((await node.req('PUT', '/r1/_doc/1?wait_for_active_shards=1', { a: 1 })).status).toBe(
      201,
    );
    expect((await node.req('PUT', '/r0/_doc/1?wait_for_active_shards=all', { a: 1 })).status).toBe(
      201,
    );
  });

  it('fails only the bulk items of the index that cannot be satisfied', async () => {
    await node.req('PUT', '/r1/_settings', { 'index.write.wait_for_active_shards': 2 });
    const bulk = await node.req(
      'POST',
      '/_bulk?timeout=100ms',
      '{"index":{"_index":"r1","_type":"_doc","_id":"b"}}\n{"n":1}\n{"index":{"_index":"r0","_type":"_doc","_id":"b"}}\n{"n":1}\n',
      { 'content-type': 'application/x-ndjson' },
    );
    expect(bulk.json.errors).toBe(true);
    expect(bulk.json.items[0].index.status).toBe(503);
    expect(bulk.json.items[1].index.status).toBe(201);
  });
});
