/**
 * Hits show the version of the document the searched view holds, as ES fetches `_source` from
 * the point-in-time segment: an update or delete not yet refreshed does not leak into a search,
 * and a scroll keeps fetching the versions of the view it was opened on.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestNode, type TestNode } from '../helpers/node.js';

let node: TestNode;
beforeAll(async () => {
  node = await startTestNode();
  await node.req('PUT', '/pit', {
    settings: { number_of_shards: 1, refresh_interval: -1 },
  });
});
afterAll(async () => {
  await node.destroy();
});

const hits = async (body: object = {}) =>
  (await node.req('POST', '/pit/_search', { version: true, sort: ['_id'], ...body })).json.hits
    .hits as Array<{ _id: string; _version: number; _source?: { v: number } }>;

describe('fetching the searched version', () => {
  // The hit showed the new _source with the old _version, and a deleted doc's hit had no _source.
  it('an unrefreshed update or delete leaves the hit as the view holds it', async () => {
    await node.req('PUT', '/pit/_doc/1', { v: 1 });
    await node.req('PUT', '/pit/_doc/2', { v: 1 });
    await node.req('POST', '/pit/_refresh');
    await node.req('PUT', '/pit/_doc/1', { v: 2 });
    await node.req('DELETE', '/pit/_doc/2');
    expect((await hits()).map((h) => [h._id, h._version, h._source])).toEqual([
      ['1', 1, { v: 1 }],
      ['2', 1, { v: 1 }],
    ]);
    // realtime GET sees the writes
    expect((await node.req('GET', '/pit/_doc/1')).json._source).toEqual({ v: 2 });
    expect((await node.req('GET', '/pit/_doc/2')).status).toBe(404);
    await node.req('POST', '/pit/_refresh');
    expect((await hits()).map((h) => [h._id, h._version, h._source])).toEqual([['1', 2, { v: 2 }]]);
  });

  it('completion suggestions show the version the view holds too', async () => {
    await node.req('PUT', '/pits', {
      settings: { number_of_shards: 1, refresh_interval: -1 },
      mappings: { _doc: { properties: { title: { type: 'completion' } } } },
    });
    await node.req('PUT', '/pits/_doc/1', { title: 'quarry', v: 1 });
    await node.req('POST', '/pits/_refresh');
    await node.req('PUT', '/pits/_doc/1', { title: 'quarry', v: 2 });
    const r = await node.req('POST', '/pits/_search', {
      suggest: { s: { prefix: 'qua', completion: { field: 'title' } } },
    });
    expect(r.json.suggest.s[0].options[0]._source).toEqual({ title: 'quarry', v: 1 });
  });

  it('a scroll keeps its view: later versions stay out of its pages until it is cleared', async () => {
    for (const id of ['3', '4', '5']) await node.req('PUT', `/pit/_doc/${id}`, { v: 1 });
    await node.req('POST', '/pit/_refresh');
    const first = await node.req('POST', '/pit/_search?scroll=1m', {
      size: 1,
      sort: ['_id'],
      query: { terms: { _id: ['3', '4', '5'] } },
    });
    expect(first.json.hits.hits[0]._source).toEqual({ v: 1 });
    await node.req('PUT', '/pit/_doc/4', { v: 2 });
    await node.req('DELETE', '/pit/_doc/5');
    await node.req('POST', '/pit/_refresh');
    await node.req('PUT', '/pit/_doc/4', { v: 3 }); // a write after the refresh evicts what it can
    const id = first.json._scroll_id;
    const page = async () =>
      (await node.req('POST', '/_search/scroll', { scroll: '1m', scroll_id: id })).json.hits.hits;
    expect((await page()).map((h: any) => [h._id, h._source])).toEqual([['4', { v: 1 }]]);
    expect((await page()).map((h: any) => [h._id, h._source])).toEqual([['5', { v: 1 }]]);
    await node.req('DELETE', '/_search/scroll', { scroll_id: [id] });
    await node.req('POST', '/pit/_refresh');
    expect((await hits({ query: { terms: { _id: ['4', '5'] } } })).map((h) => h._source)).toEqual([
      { v: 3 },
    ]);
  });
});
