/**
 * `inner_hits` of nested queries and field sorts with a `nested` path and filter, through the
 * search API of an in-process node.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openNode } from '../../../../src/node.js';
import { createDispatcher } from '../../../../src/http/dispatcher.js';

type Dispatch = ReturnType<typeof createDispatcher>;
let d: Dispatch;
let close: () => Promise<void>;

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'quarry-inner-hits-'));
  const node = await openNode({ dataPath: dir });
  d = createDispatcher(node.context);
  const r = await d('PUT', '/t?include_type_name=false', {
    settings: { number_of_shards: 1 },
    mappings: {
      properties: {
        n: { type: 'integer' },
        dep: {
          type: 'nested',
          properties: { id: { type: 'keyword' }, name: { type: 'text' }, from: { type: 'date' } },
        },
      },
    },
  } as object);
  expect(r.status).toBe(200);
  const docs = [
    {
      n: 1,
      dep: [
        { id: 'd1', name: 'Sales', from: '1990-01-01' },
        { id: 'd2', name: 'Research', from: '1980-01-01' },
      ],
    },
    { n: 2, dep: [{ id: 'd3', name: 'Sales', from: '1985-01-01' }] },
    { n: 3 },
  ];
  const lines = docs.flatMap((doc, i) => [
    JSON.stringify({ index: { _index: 't', _type: '_doc', _id: String(i + 1) } }),
    JSON.stringify(doc),
  ]);
  expect((await d('POST', '/_bulk?refresh=true', (lines.join('\n') + '\n') as never)).status).toBe(
    200,
  );
  close = async () => {
    await node.close();
    rmSync(dir, { recursive: true, force: true });
  };
}, 60_000);

afterAll(async () => {
  await close();
});

type Hit = Record<string, unknown> & {
  _id: string;
  inner_hits?: Record<string, { hits: { total: number; hits: Array<Record<string, unknown>> } }>;
};
const search = async (body: object): Promise<Hit[]> => {
  const r = await d('POST', '/t/_search', body);
  expect(r.status).toBe(200);
  return (r.body as { hits: { hits: Hit[] } }).hits.hits;
};

describe('nested inner_hits', () => {
  it('lists the matching nested documents of each hit with _nested, _source part and doc values', async () => {
    const hits = await search({
      query: {
        nested: {
          path: 'dep',
          query: { match: { 'dep.name': 'sales' } },
          inner_hits: {
            name: 'deps',
            _source: { includes: ['dep.name'] },
            docvalue_fields: [{ field: 'dep.id' }, { field: 'dep.from', format: 'epoch_millis' }],
          },
        },
      },
      sort: ['n'],
    });
    expect(hits.map((h) => h._id)).toEqual(['1', '2']);
    const first = hits[0]!.inner_hits!.deps!.hits;
    expect(first.total).toBe(1);
    expect(first.hits[0]).toMatchObject({
      _id: '1',
      _nested: { field: 'dep', offset: 0 },
      _source: { name: 'Sales' },
      fields: { 'dep.id': ['d1'], 'dep.from': ['631152000000'] },
    });
  });

  it('names the section after the path and counts every child with match_all', async () => {
    const hits = await search({
      query: { nested: { path: 'dep', query: { match_all: {} }, inner_hits: {} } },
      sort: ['n'],
    });
    const inner = hits[0]!.inner_hits!.dep!.hits;
    expect(inner.total).toBe(2);
    expect(inner.hits.map((h) => (h._nested as { offset: number }).offset)).toEqual([0, 1]);
    expect(inner.hits[1]!._source).toEqual({ id: 'd2', name: 'Research', from: '1980-01-01' });
  });
});

describe('nested field sort', () => {
  it('sorts on the smallest value of the children that match the filter', async () => {
    const hits = await search({
      query: { match_all: {} },
      sort: [
        {
          'dep.from': {
            order: 'asc',
            nested: { path: 'dep', filter: { term: { 'dep.id': 'd1' } } },
          },
        },
        'n',
      ],
    });
    // only doc 1 has a child d1; the others have no value and sort last
    expect(hits.map((h) => h._id)).toEqual(['1', '2', '3']);
    const all = await search({
      query: { match_all: {} },
      sort: [{ 'dep.from': { order: 'asc', nested: { path: 'dep' } } }],
    });
    expect(all.map((h) => h._id)).toEqual(['1', '2', '3']);
    expect(all[0]!.sort).toEqual([315532800000]);
    const desc = await search({
      query: { match_all: {} },
      sort: [{ 'dep.from': { order: 'desc', nested: { path: 'dep' } } }],
    });
    expect(desc.map((h) => h._id)).toEqual(['1', '2', '3']);
    expect(desc[0]!.sort).toEqual([631152000000]);
    const sales = await search({
      query: { match_all: {} },
      sort: [
        {
          'dep.from': {
            order: 'asc',
            nested: { path: 'dep', filter: { match: { 'dep.name': 'sales' } } },
          },
        },
      ],
    });
    expect(sales.map((h) => h._id)).toEqual(['2', '1', '3']);
  });
});
