/**
 * geo_point values in searches on an in-process node: segments keep no geo_point doc values, so
 * docvalue_fields, query-phase scripts, script sorts and aggregation scripts read the points from
 * the document's source, quantized as Lucene's LatLonDocValuesField stores them.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openNode } from '../../../../src/node.js';
import { createDispatcher } from '../../../../src/http/dispatcher.js';

type Call = (
  method: string,
  path: string,
  body?: unknown,
) => Promise<{ status: number; body: any }>;
let call: Call;
let close: () => Promise<void>;

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'quarry-geo-values-'));
  const node = await openNode({ dataPath: dir });
  const d = createDispatcher(node.context);
  call = async (m, p, b) => {
    const r = await d(m as 'GET', p, b as object);
    return { status: r.status, body: r.body };
  };
  expect(
    (
      await call('PUT', '/g', {
        mappings: { _doc: { properties: { loc: { type: 'geo_point' } } } },
      })
    ).status,
  ).toBe(200);
  const docs = [
    { loc: '52.347557,4.850312' },
    { loc: [-87.637874, 41.888783] },
    { loc: { lat: -33.863385, lon: 151.208629 } },
  ];
  const lines = docs.flatMap((doc, i) => [
    JSON.stringify({ index: { _index: 'g', _type: '_doc', _id: String(i + 1) } }),
    JSON.stringify(doc),
  ]);
  expect((await call('POST', '/_bulk?refresh=true', lines.join('\n') + '\n')).status).toBe(200);
  close = async () => {
    await node.close();
    rmSync(dir, { recursive: true, force: true });
  };
}, 60_000);

afterAll(async () => {
  await close();
});

describe('geo_point doc values read from the source', () => {
  it('docvalue_fields gives the quantized point', async () => {
    const r = await call('POST', '/g/_search', {
      query: { ids: { values: ['1'] } },
      docvalue_fields: ['loc'],
      _source: false,
    });
    expect(JSON.parse(JSON.stringify(r.body.hits.hits[0].fields))).toEqual({
      loc: [{ lat: 52.347556999884546, lon: 4.850311987102032 }],
    });
  });
  it('script queries read points in the query phase', async () => {
    const r = await call('POST', '/g/_search', {
      query: { script: { script: "doc['loc'].value.lat > 40" } },
      _source: false,
    });
    expect(r.body.hits.hits.map((h: { _id: string }) => h._id).sort()).toEqual(['1', '2']);
  });
  it('script sorts and aggregation scripts read them too', async () => {
    const r = await call('POST', '/g/_search', {
      sort: [{ _script: { type: 'number', script: "doc['loc'].value.lon", order: 'asc' } }],
      _source: false,
      aggs: { west: { terms: { script: "doc['loc'].value.lon < 0 ? 'w' : 'e'" } } },
    });
    expect(r.body.hits.hits.map((h: { _id: string }) => h._id)).toEqual(['2', '1', '3']);
    expect(
      r.body.aggregations.west.buckets.map((b: { key: string; doc_count: number }) => [
        b.key,
        b.doc_count,
      ]),
    ).toEqual([
      ['e', 2],
      ['w', 1],
    ]);
  });
});
