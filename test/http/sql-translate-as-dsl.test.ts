/**
 * ES SQL's translation is a Query DSL request a user may send to `_search` as it is: the
 * `InternalQlScriptUtils` scripts in it must read doc values as they do for `_sql`
 * (`docValue` gives the first value or null), so both give the same groups.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestNode, type TestNode } from '../helpers/node.js';

let node: TestNode;

beforeAll(async () => {
  node = await startTestNode();
  await node.req('PUT', '/acc', {
    mappings: { _doc: { properties: { balance: { type: 'long' }, age: { type: 'integer' } } } },
  });
  const lines: string[] = [];
  for (let i = 0; i < 60; i++) {
    lines.push(JSON.stringify({ index: { _index: 'acc', _type: '_doc', _id: String(i) } }));
    // one document without a balance: the CASE's ELSE branch (SQL null < n is not true)
    lines.push(JSON.stringify(i === 59 ? { age: 30 } : { balance: i * 1000, age: 20 + (i % 20) }));
  }
  const r = await node.req('POST', '/_bulk?refresh=true', lines.join('\n') + '\n', {
    'content-type': 'application/x-ndjson',
  });
  expect(r.json.errors).toBe(false);
});

afterAll(async () => {
  await node?.destroy();
});

describe('a translated SQL statement run through _search', () => {
  it('groups by a CASE script exactly as _sql does', async () => {
    const query =
      "SELECT CASE WHEN balance < 10000 THEN 'low' WHEN balance < 30000 THEN 'mid' ELSE 'high' END AS b, COUNT(*) FROM acc GROUP BY b";
    const sql = await node.req('POST', '/_sql?format=json', { query });
    expect(sql.status).toBe(200);
    const expected = Object.fromEntries(sql.json.rows as Array<[string, number]>);
    expect(expected).toEqual({ low: 10, mid: 20, high: 30 });
    const tr = await node.req('POST', '/_sql/translate', { query });
    const res = await node.req('POST', '/acc/_search', tr.json);
    expect(res.status).toBe(200);
    const buckets = res.json.aggregations.groupby.buckets as Array<{
      key: Record<string, string>;
      doc_count: number;
    }>;
    expect(Object.fromEntries(buckets.map((b) => [b.key['0'], b.doc_count]))).toEqual(expected);
  });

  it('filters with a script query exactly as _sql does', async () => {
    const query = 'SELECT COUNT(*) FROM acc WHERE balance % 7000 < 3000';
    const sql = await node.req('POST', '/_sql?format=json', { query });
    expect(sql.status).toBe(200);
    const tr = await node.req('POST', '/_sql/translate', { query });
    const res = await node.req('POST', '/acc/_search', { ...tr.json, track_total_hits: true });
    expect(res.status).toBe(200);
    expect(res.json.hits.total).toBe(sql.json.rows[0][0]);
  });
});
