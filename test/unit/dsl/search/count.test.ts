/**
 * `_count` (executeCount behind the REST route) over a real node: counts over several shards and
 * segments equal the documents' own filter, shard totals are reported, a query that fails on
 * every shard is a search_phase_execution_exception, and the direct lookup of a plain index name
 * answers as the full index-expression resolution does (aliases, wildcards, closed and frozen
 * indices, missing names).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestNode, type TestNode } from '../../../helpers/node.js';

let node: TestNode;
const docs = Array.from({ length: 120 }, (_, i) => ({
  tag: ['red', 'green', 'blue'][i % 3]!,
  n: (i * 37) % 50,
}));

beforeAll(async () => {
  node = await startTestNode();
  const mappings = { _doc: { properties: { tag: { type: 'keyword' }, n: { type: 'long' } } } };
  for (const name of ['items', 'shut', 'cold']) {
    const r = await node.req('PUT', `/${name}`, {
      settings: { number_of_shards: 3, number_of_replicas: 0 },
      mappings,
    });
    expect(r.status).toBe(200);
  }
  // several refreshes: several segments per shard
  for (let s = 0; s < docs.length; s += 40) {
    const lines = docs
      .slice(s, s + 40)
      .map((d, i) => `{"index":{"_id":"${s + i}"}}\n${JSON.stringify(d)}\n`)
      .join('');
    const r = await node.req('POST', '/items/_doc/_bulk?refresh=true', lines, {
      'content-type': 'application/x-ndjson',
    });
    expect(r.json.errors).toBe(false);
  }
  await node.req('PUT', '/cold/_doc/1?refresh=true', { tag: 'red', n: 1 });
  await node.req('PUT', '/shut/_doc/1?refresh=true', { tag: 'red', n: 1 });
  expect((await node.req('POST', '/shut/_close')).status).toBe(200);
  expect((await node.req('POST', '/cold/_freeze')).status).toBe(200);
  expect(
    (await node.req('POST', '/_aliases', { actions: [{ add: { index: 'items', alias: 'it' } }] }))
      .status,
  ).toBe(200);
});
afterAll(async () => {
  await node.destroy();
});

const count = async (path: string, body?: unknown) => node.req('POST', path, body);

describe('_count', () => {
  it('counts term, range and bool queries over three shards as the documents say', async () => {
    const cases: Array<[unknown, (d: (typeof docs)[number]) => boolean]> = [
      [{ match_all: {} }, () => true],
      [{ term: { tag: 'green' } }, (d) => d.tag === 'green'],
      [{ range: { n: { gte: 10, lt: 30 } } }, (d) => d.n >= 10 && d.n < 30],
      [
        { bool: { filter: [{ term: { tag: 'red' } }], must_not: [{ range: { n: { lte: 20 } } }] } },
        (d) => d.tag === 'red' && !(d.n <= 20),
      ],
    ];
    for (const [query, keep] of cases) {
      const r = await count('/items/_count', { query });
      expect(r.status).toBe(200);
      expect(r.json).toEqual({
        count: docs.filter(keep).length,
        _shards: { total: 3, successful: 3, skipped: 0, failed: 0 },
      });
    }
    const all = await node.req('GET', '/items/_count');
    expect(all.json.count).toBe(120);
  });

  it('reports a query that fails on every shard as all shards failed', async () => {
    const r = await count('/items/_count', {
      query: { regexp: { tag: { value: 'x'.repeat(1200) } } },
    });
    expect(r.status).toBe(400);
    expect(r.json.error.type).toBe('search_phase_execution_exception');
    expect(r.json.error.phase).toBe('query');
    expect(r.json.error.failed_shards.length).toBeGreaterThan(0);
    expect(JSON.stringify(r.json.error)).toMatch(/max_regex_length/);
  });

  it('resolves a plain index name as the full resolution does', async () => {
    // a no-op index option sends the request through the full index-expression resolution
    for (const target of ['items', 'it', 'ite*', 'shut', 'cold', 'nope', '_all', 'items,cold']) {
      const fast = await node.req('GET', `/${target}/_count`);
      const full = await node.req('GET', `/${target}/_count?ignore_throttled=true`);
      expect([target, fast.status, fast.json]).toEqual([target, full.status, full.json]);
    }
    expect((await node.req('GET', '/items/_count')).json.count).toBe(120);
    expect((await node.req('GET', '/shut/_count')).json.error.type).toBe('index_closed_exception');
    // frozen indices are skipped by searches unless ignore_throttled=false
    expect((await node.req('GET', '/cold/_count')).json.count).toBe(0);
    expect((await node.req('GET', '/nope/_count')).json.error.type).toBe(
      'index_not_found_exception',
    );
  });

  it("resolves date math against each request's time, however often the body repeats", async () => {
    const r0 = await node.req('PUT', '/times', {
      settings: { number_of_shards: 1, number_of_replicas: 0 },
      mappings: { _doc: { properties: { at: { type: 'date' } } } },
    });
    expect(r0.status).toBe(200);
    const soon = Date.now() + 1200;
    await node.req('PUT', '/times/_doc/1?refresh=true', { at: soon });
    const body = { query: { range: { at: { lte: 'now' } } } };
    expect((await count('/times/_count', body)).json.count).toBe(0);
    expect((await count('/times/_count', body)).json.count).toBe(0);
    await new Promise((r) => setTimeout(r, Math.max(0, soon - Date.now()) + 50));
    expect((await count('/times/_count', body)).json.count).toBe(1);
  });

  it('counts a repeated body with the query lowered again after a mapping change', async () => {
    const r0 = await node.req('PUT', '/grow', {
      settings: { number_of_shards: 1, number_of_replicas: 0 },
    });
    expect(r0.status).toBe(200);
    await node.req('PUT', '/grow/_doc/1?refresh=true', { a: 'x' });
    const body = { query: { term: { b: 7 } } };
    expect((await count('/grow/_count', body)).json.count).toBe(0);
    // b is mapped as a long by this document: the term is then a numeric one
    await node.req('PUT', '/grow/_doc/2?refresh=true', { b: 7 });
    expect((await count('/grow/_count', body)).json.count).toBe(1);
    expect((await count('/grow/_count', { query: { term: { b: '7' } } })).json.count).toBe(1);
  });

  it('lowers with the mapping and settings of the moment, not those of an earlier request', async () => {
    const r0 = await node.req('PUT', '/fam', {
      settings: { number_of_shards: 1, number_of_replicas: 0 },
      mappings: { _doc: { properties: { tag: { type: 'keyword' } } } },
    });
    expect(r0.status).toBe(200);
    const hasChild = { has_child: { type: 'answer', query: { match_all: {} } } };
    // no join field yet: the query cannot be lowered
    const before = await count('/fam/_count', { query: hasChild });
    expect(before.status).toBe(400);
    expect(JSON.stringify(before.json.error)).toMatch(/join field/);
    const m = await node.req('PUT', '/fam/_mapping/_doc', {
      properties: { rel: { type: 'join', relations: { question: 'answer' } } },
    });
    expect(m.status).toBe(200);
    await node.req('PUT', '/fam/_doc/q1', { tag: 'red', rel: 'question' });
    await node.req('PUT', '/fam/_doc/q2', { tag: 'blue', rel: 'question' });
    await node.req('PUT', '/fam/_doc/a1?routing=q1&refresh=true', {
      tag: 'red',
      rel: { name: 'answer', parent: 'q1' },
    });
    const after = await count('/fam/_count', { query: hasChild });
    expect(after.status).toBe(200);
    expect(after.json.count).toBe(1);
    // a dynamic setting changed in place is read again by the next request
    const long = { query: { regexp: { tag: { value: 'r'.repeat(20) } } } };
    expect((await count('/fam/_count', long)).status).toBe(200);
    const s = await node.req('PUT', '/fam/_settings', { index: { max_regex_length: 10 } });
    expect(s.status).toBe(200);
    const refused = await count('/fam/_count', long);
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.json.error)).toMatch(/max_regex_length/);
  });
});
