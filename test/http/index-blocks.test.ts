/**
 * Index blocks (`index.blocks.write|read_only|read_only_allow_delete`, and `_freeze`, which sets
 * the write block): writes answer ES's 403 cluster_block_exception, searches still run, and the
 * settings updates ES lets through a metadata-write block can unblock an index.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestNode, type TestNode } from '../helpers/node.js';

let node: TestNode;
beforeAll(async () => {
  node = await startTestNode();
  await node.req('PUT', '/b', { settings: { number_of_shards: 1 } });
  await node.req('PUT', '/b/_doc/1?refresh=true', { n: 1 });
});
afterAll(() => node.destroy());

const WRITE = 'blocked by: [FORBIDDEN/8/index write (api)];';
const READ_ONLY = 'blocked by: [FORBIDDEN/5/index read-only (api)];';

function expectBlocked(r: { status: number; json: any }, reason: string) {
  expect(r.status).toBe(403);
  expect(r.json).toEqual({
    error: {
      root_cause: [{ type: 'cluster_block_exception', reason }],
      type: 'cluster_block_exception',
      reason,
    },
    status: 403,
  });
}

describe('index blocks', () => {
  it('index.blocks.write refuses index, update, delete and bulk items; reads still run', async () => {
    expect((await node.req('PUT', '/b/_settings', { 'index.blocks.write': true })).status).toBe(
      200,
    );
    expectBlocked(await node.req('PUT', '/b/_doc/2', { n: 2 }), WRITE);
    expectBlocked(await node.req('POST', '/b/_doc/1/_update', { doc: { n: 5 } }), WRITE);
    expectBlocked(await node.req('DELETE', '/b/_doc/1'), WRITE);
    const bulk = await node.req('POST', '/_bulk', '{"index":{"_index":"b","_type":"_doc","_id":"3"}}\n{"n":3}\n', {
      'content-type': 'application/x-ndjson',
    }); // prettier-ignore
    expect(bulk.status).toBe(200);
    expect(bulk.json.errors).toBe(true);
    expect(bulk.json.items[0].index.status).toBe(403);
    expect(bulk.json.items[0].index.error).toEqual({
      type: 'cluster_block_exception',
      reason: WRITE,
    });
    // the write block is not a metadata block: mappings may still change
    expect((await node.req('PUT', '/b/_mapping/_doc', { properties: { k: { type: 'keyword' } } })).status).toBe(200); // prettier-ignore
    const s = await node.req('GET', '/b/_search');
    expect(s.json.hits.total).toBe(1);
    expect((await node.req('GET', '/b/_doc/1')).json._source).toEqual({ n: 1 });
    expect((await node.req('PUT', '/b/_settings', { 'index.blocks.write': false })).status).toBe(
      200,
    );
    expect((await node.req('PUT', '/b/_doc/2', { n: 2 })).status).toBe(201);
  });

  it('index.blocks.read_only also refuses mapping and settings changes, but not its own reset', async () => {
    expect((await node.req('PUT', '/b/_settings', { 'index.blocks.read_only': true })).status).toBe(200); // prettier-ignore
    expectBlocked(await node.req('PUT', '/b/_doc/4', { n: 4 }), READ_ONLY);
    expectBlocked(await node.req('PUT', '/b/_mapping/_doc', { properties: { m: { type: 'long' } } }), READ_ONLY); // prettier-ignore
    expectBlocked(await node.req('PUT', '/b/_settings', { 'index.refresh_interval': '2s' }), READ_ONLY); // prettier-ignore
    expect((await node.req('HEAD', '/b')).status).toBe(200);
    expect((await node.req('PUT', '/b/_settings', { 'index.blocks.read_only': false })).status).toBe(200); // prettier-ignore
    expect((await node.req('PUT', '/b/_doc/4', { n: 4 })).status).toBe(201);
  });

  // Any single index.blocks.* change used to pass; ES's checkBlock is narrower and wider at once.
  it("a blocked index takes ES's unblocking requests: metadata alone, or any naming read_only", async () => {
    const put = (body: object) => node.req('PUT', '/b/_settings', body);
    expect((await put({ 'index.blocks.read_only': true, 'index.blocks.metadata': true })).status).toBe(200); // prettier-ignore
    // a single block setting other than metadata is refused by the read_only block
    expect((await put({ 'index.blocks.write': false })).status).toBe(403);
    // several settings at once pass when read_only is among them
    const both = await put({ 'index.blocks.read_only': null, 'index.blocks.metadata': null });
    expect(both.status).toBe(200);
    expect((await node.req('PUT', '/b/_doc/4', { n: 4 })).status).toBe(200);
    expect((await put({ 'index.blocks.metadata': true })).status).toBe(200);
    expect((await put({ 'index.blocks.metadata': null })).status).toBe(200);
  });

  it('several blocks are all named, in id order', async () => {
    await node.req('PUT', '/b/_settings', { 'index.blocks.write': true });
    await node.req('PUT', '/b/_settings', { 'index.blocks.read_only_allow_delete': true });
    expectBlocked(
      await node.req('PUT', '/b/_doc/5', { n: 5 }),
      'blocked by: [FORBIDDEN/8/index write (api)];[FORBIDDEN/12/index read-only / allow delete (api)];',
    );
    await node.req('PUT', '/b/_settings', { 'index.blocks.read_only_allow_delete': null });
    await node.req('PUT', '/b/_settings', { 'index.blocks.write': null });
    expect((await node.req('PUT', '/b/_doc/5', { n: 5 })).status).toBe(201);
  });

  it('a frozen index refuses writes until it is unfrozen', async () => {
    await node.req('PUT', '/cold/_doc/1?refresh=true', { n: 1 });
    expect((await node.req('POST', '/cold/_freeze')).status).toBe(200);
    expectBlocked(await node.req('PUT', '/cold/_doc/2', { n: 2 }), WRITE);
    expect((await node.req('POST', '/cold/_unfreeze')).status).toBe(200);
    expect((await node.req('PUT', '/cold/_doc/2', { n: 2 })).status).toBe(201);
  });
});
