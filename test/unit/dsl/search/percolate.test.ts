/**
 * The percolator field and the `percolate` query (module percolator) over a real node: stored
 * queries run against the given documents indexed in memory with the index's mapping, the
 * `_percolator_document_slot` of each hit, and ES's errors for a field that is no percolator.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestNode, type TestNode } from '../../../helpers/node.js';

let node: TestNode;

beforeAll(async () => {
  node = await startTestNode();
  const r = await node.req('PUT', '/alerts', {
    settings: { number_of_shards: 2, number_of_replicas: 0 },
    mappings: {
      _doc: {
        properties: {
          query: { type: 'percolator' },
          msg: { type: 'text' },
          level: { type: 'keyword' },
          n: { type: 'integer' },
        },
      },
    },
  });
  expect(r.status).toBe(200);
  const queries: Array<[string, unknown]> = [
    ['errors', { term: { level: 'error' } }],
    ['disk', { match: { msg: 'disk full' } }],
    ['big', { range: { n: { gte: 10 } } }],
    ['both', { bool: { must: [{ term: { level: 'error' } }, { match: { msg: 'disk' } }] } }],
  ];
  for (const [id, query] of queries) {
    const w = await node.req('PUT', `/alerts/_doc/${id}?refresh=true`, { query });
    expect(w.status).toBe(201);
  }
});
afterAll(async () => {
  await node.destroy();
});

const percolate = async (body: Record<string, unknown>) => {
  const r = await node.req('POST', '/alerts/_search', {
    query: { percolate: { field: 'query', ...body } },
    sort: ['_id'],
  });
  expect(r.status, JSON.stringify(r.json)).toBe(200);
  return r.json.hits.hits.map((h: any) => [h._id, h.fields?._percolator_document_slot]);
};

describe('percolate', () => {
  it('finds the stored queries that match one document', async () => {
    expect(
      await percolate({ document: { level: 'error', msg: 'the disk is full', n: 3 } }),
    ).toEqual([
      ['both', [0]],
      ['disk', [0]],
      ['errors', [0]],
    ]);
  });

  it('scores a stored query by its best score over the documents in memory', async () => {
    const r = await node.req('POST', '/alerts/_search', {
      query: { percolate: { field: 'query', documents: [{ level: 'error' }, { level: 'warn' }] } },
    });
    // one of two docs holds the term: BM25 idf log(1 + 1.5/1.5), tf part 1 (keyword: no norms)
    expect(r.json.hits.hits.map((h: any) => [h._id, h._score])).toEqual([
      ['errors', Math.fround(Math.log(2))],
    ]);
    const f = await node.req('POST', '/alerts/_search', {
      query: { constant_score: { filter: { percolate: { field: 'query', document: { n: 11 } } } } },
    });
    expect(f.json.hits.hits.map((h: any) => [h._id, h._score])).toEqual([['big', 1]]);
  });

  it('names the slots of the documents each stored query matches', async () => {
    const documents = [{ level: 'warn', n: 12 }, { msg: 'disk' }, { level: 'error', n: 10 }];
    expect(await percolate({ documents })).toEqual([
      ['big', [0, 2]],
      ['disk', [1]],
      ['errors', [2]],
    ]);
  });

  it('percolates an indexed document, and a missing one is not found', async () => {
    const w = await node.req('PUT', '/logs/_doc/7?refresh=true', { level: 'error', n: 50 });
    expect(w.status).toBe(201);
    expect(await percolate({ index: 'logs', type: '_doc', id: '7' })).toEqual([
      ['big', [0]],
      ['errors', [0]],
    ]);
    const r = await node.req('POST', '/alerts/_search', {
      query: { percolate: { field: 'query', index: 'logs', type: '_doc', id: 'nope' } },
    });
    expect(r.status, JSON.stringify(r.json)).toBe(404);
    expect(r.json.error.root_cause[0]).toMatchObject({
      type: 'resource_not_found_exception',
      reason: "indexed document [logs/_doc/nope] couldn't be found",
    });
  });

  it('refuses a field that is not a percolator', async () => {
    const r = await node.req('POST', '/alerts/_search', {
      query: { percolate: { field: 'level', document: { level: 'x' } } },
    });
    expect(r.status).toBe(400);
    expect(r.json.error.root_cause[0]).toMatchObject({
      type: 'query_shard_exception',
      reason: 'expected field [level] to be of type [percolator], but is of type [keyword]',
    });
    const missing = await node.req('POST', '/alerts/_search', {
      query: { percolate: { document: { level: 'x' } } },
    });
    expect(missing.status).toBe(400);
    expect(missing.json.error.reason).toBe('[field] is a required argument');
  });

  it('refuses to store a query that does not parse or that ES does not percolate', async () => {
    const put = (query: unknown) => node.req('PUT', '/alerts/_doc/bad', { query });
    const unknown = await put({ nope: {} });
    expect(unknown.status).toBe(400);
    expect(unknown.json.error.type).toBe('mapper_parsing_exception');
    expect(unknown.json.error.caused_by).toMatchObject({
      type: 'parsing_exception',
      reason: 'no [query] registered for [nope]',
    });
    const join = await put({ has_child: { type: 'c', query: { match_all: {} } } });
    expect(join.json.error.caused_by.reason).toBe(
      'the [has_child] query is unsupported inside a percolator query',
    );
    const now = await put({ range: { n: { gte: 'now-1d' } } });
    expect(now.json.error.caused_by.reason).toBe(
      'percolator queries containing time range queries based on the current time is unsupported',
    );
  });

  it('keeps the stored query in _source and renders the mapping', async () => {
    const m = await node.req('GET', '/alerts/_mapping');
    expect(m.json.alerts.mappings._doc.properties.query).toEqual({ type: 'percolator' });
    const g = await node.req('GET', '/alerts/_doc/big');
    expect(g.json._source).toEqual({ query: { range: { n: { gte: 10 } } } });
  });
});
