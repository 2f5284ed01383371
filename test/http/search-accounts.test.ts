/**
 * The spec's search section (4.4) over HTTP on the 1000-account bank sample loaded through `_bulk`
 * into an index with the default five shards: match / match_phrase / bool with a range filter,
 * range, terms and avg aggregations, sorting, `_source` lists, from/size and size 0. Expected
 * figures are derived from the data file itself.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestNode, type TestNode } from '../helpers/node.js';

const bulkBody = readFileSync(resolve(__dirname, '../../../shared/conformance/data/accounts.json'));

interface Account {
  account_number: number;
  balance: number;
  age: number;
  state: string;
  address: string;
  [k: string]: unknown;
}

const accounts: Account[] = bulkBody
  .toString('utf8')
  .split('\n')
  .filter((l) => l.trim())
  .filter((_l, i) => i % 2 === 1)
  .map((l) => JSON.parse(l) as Account);

let node: TestNode;
const search = async (body: unknown) => {
  const r = await node.req('POST', '/bank/_search', body);
  expect(r.status).toBe(200);
  return r.json;
};

beforeAll(async () => {
  node = await startTestNode();
  const r = await node.req('POST', '/bank/account/_bulk?refresh=true', bulkBody.toString('utf8'), {
    'content-type': 'application/x-ndjson',
  });
  expect(r.status).toBe(200);
  expect(r.json.errors).toBe(false);
});
afterAll(async () => {
  await node.destroy();
});

describe('spec 4.4 search on the bank sample', () => {
  it('loads 1000 documents into five shards', async () => {
    const r = await search({ size: 0 });
    expect(r._shards).toEqual({ total: 5, successful: 5, skipped: 0, failed: 0 });
    expect(r.hits).toEqual({ total: 1000, max_score: 0, hits: [] });
  });

  it('match: any analyzed term of "mill lane", the address with both first', async () => {
    const r = await search({ query: { match: { address: 'mill lane' } } });
    const expected = accounts.filter((a) =>
      a.address
        .toLowerCase()
        .split(/\s+/)
        .some((w) => w === 'mill' || w === 'lane'),
    );
    expect(r.hits.total).toBe(expected.length);
    expect(r.hits.total).toBe(19);
    expect(r.hits.hits[0]._source.account_number).toBe(136);
    expect(r.hits.hits[0]._source.address).toBe('198 Mill Lane');
    expect(r.hits.max_score).toBe(r.hits.hits[0]._score);
  });

  it('match_phrase: only the address with the phrase', async () => {
    const r = await search({ query: { match_phrase: { address: 'mill lane' } } });
    expect(r.hits.total).toBe(1);
    expect(r.hits.hits.map((h: { _id: string }) => h._id)).toEqual(['136']);
  });

  it('bool: must / must_not / should', async () => {
    const r = await search({
      size: 0,
      query: {
        bool: { must: [{ match: { age: '40' } }], must_not: [{ match: { state: 'ID' } }] },
      },
    });
    expect(r.hits.total).toBe(accounts.filter((a) => a.age === 40 && a.state !== 'ID').length);
    const s = await search({
      size: 0,
      query: {
        bool: { should: [{ match: { address: 'mill' } }, { match: { address: 'lane' } }] },
      },
    });
    expect(s.hits.total).toBe(19);
  });

  it('bool filter: balance between 20000 and 30000 inclusive', async () => {
    const r = await search({
      query: {
        bool: {
          must: { match_all: {} },
          filter: { range: { balance: { gte: 20000, lte: 30000 } } },
        },
      },
    });
    const n = accounts.filter((a) => a.balance >= 20000 && a.balance <= 30000).length;
    expect(r.hits.total).toBe(n);
    expect(r.hits.total).toBe(217);
    for (const h of r.hits.hits) {
      expect(h._score).toBe(1);
      expect(h._source.balance).toBeGreaterThanOrEqual(20000);
      expect(h._source.balance).toBeLessThanOrEqual(30000);
    }
  });

  it('range aggregation on age: from inclusive, to exclusive', async () => {
    const r = await search({
      size: 0,
      aggs: {
        group_by_age: {
          range: {
            field: 'age',
            ranges: [
              { from: 20, to: 30 },
              { from: 30, to: 40 },
              { from: 40, to: 50 },
            ],
          },
        },
      },
    });
    expect(r.aggregations.group_by_age.buckets).toEqual([
      { key: '20.0-30.0', from: 20, to: 30, doc_count: 451 },
      { key: '30.0-40.0', from: 30, to: 40, doc_count: 504 },
      { key: '40.0-50.0', from: 40, to: 50, doc_count: 45 },
    ]);
    const count = (lo: number, hi: number) =>
      accounts.filter((a) => a.age >= lo && a.age < hi).length;
    expect([count(20, 30), count(30, 40), count(40, 50)]).toEqual([451, 504, 45]);
  });

  it('terms aggregation on state.keyword: per-shard top terms, as ES 6.8 returns them', async () => {
    // five shards each return their top 25 (shard_size = size * 1.5 + 10): the counts are the
    // approximations ES documents for this very query in its getting-started guide
    const r = await search({
      size: 0,
      aggs: { group_by_state: { terms: { field: 'state.keyword' } } },
    });
    expect(r.aggregations.group_by_state).toEqual({
      doc_count_error_upper_bound: 20,
      sum_other_doc_count: 770,
      buckets: [
        { key: 'ID', doc_count: 27 },
        { key: 'TX', doc_count: 27 },
        { key: 'AL', doc_count: 25 },
        { key: 'MD', doc_count: 25 },
        { key: 'TN', doc_count: 23 },
        { key: 'MA', doc_count: 21 },
        { key: 'NC', doc_count: 21 },
        { key: 'ND', doc_count: 21 },
        { key: 'ME', doc_count: 20 },
        { key: 'MO', doc_count: 20 },
      ],
    });
  });

  it('terms aggregation with every term from every shard: exact counts, TX 30 and MD 28 first', async () => {
    const r = await search({
      size: 0,
      aggs: { group_by_state: { terms: { field: 'state.keyword', size: 3, shard_size: 100 } } },
    });
    const counts = new Map<string, number>();
    for (const a of accounts) counts.set(a.state, (counts.get(a.state) ?? 0) + 1);
    const top = [...counts.entries()]
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .slice(0, 3)
      .map(([key, doc_count]) => ({ key, doc_count }));
    expect(r.aggregations.group_by_state.buckets).toEqual(top);
    expect(top.slice(0, 2)).toEqual([
      { key: 'TX', doc_count: 30 },
      { key: 'MD', doc_count: 28 },
    ]);
    expect(r.aggregations.group_by_state.doc_count_error_upper_bound).toBe(0);
  });

  it('avg balance per state bucket, buckets ordered by it', async () => {
    const r = await search({
      size: 0,
      aggs: {
        group_by_state: {
          terms: { field: 'state.keyword', size: 100, order: { average_balance: 'desc' } },
          aggs: { average_balance: { avg: { field: 'balance' } } },
        },
      },
    });
    const byState = new Map<string, number[]>();
    for (const a of accounts) byState.set(a.state, [...(byState.get(a.state) ?? []), a.balance]);
    const expected = [...byState.entries()]
      .map(([key, b]) => ({
        key,
        doc_count: b.length,
        avg: b.reduce((x, y) => x + y, 0) / b.length,
      }))
      .sort((a, b) => b.avg - a.avg || (a.key < b.key ? -1 : 1));
    const buckets = r.aggregations.group_by_state.buckets as Array<{
      key: string;
      doc_count: number;
      average_balance: { value: number };
    }>;
    expect(buckets.map((b) => b.key)).toEqual(expected.map((e) => e.key));
    buckets.forEach((b, i) => {
      expect(b.doc_count).toBe(expected[i]!.doc_count);
      expect(b.average_balance.value).toBeCloseTo(expected[i]!.avg, 6);
    });
  });

  it('sort by balance desc with sort values and null scores', async () => {
    const r = await search({ sort: { balance: { order: 'desc' } }, size: 5 });
    const top = [...accounts].sort((a, b) => b.balance - a.balance).slice(0, 5);
    expect(r.hits.hits.map((h: { _source: Account }) => h._source.balance)).toEqual(
      top.map((a) => a.balance),
    );
    for (const h of r.hits.hits) {
      expect(h._score).toBeNull();
      expect(h.sort).toEqual([h._source.balance]);
    }
    expect(r.hits.max_score).toBeNull();
  });

  it('_source lists return only the named fields', async () => {
    const r = await search({ query: { match_all: {} }, _source: ['account_number', 'balance'] });
    expect(r.hits.hits).toHaveLength(10);
    for (const h of r.hits.hits)
      expect(Object.keys(h._source).sort()).toEqual(['account_number', 'balance']);
  });

  it('from and size page through sorted hits', async () => {
    const r = await search({
      sort: [{ account_number: 'asc' }],
      from: 10,
      size: 10,
      _source: false,
    });
    const ids = [...accounts]
      .sort((a, b) => a.account_number - b.account_number)
      .slice(10, 20)
      .map((a) => String(a.account_number));
    expect(r.hits.hits.map((h: { _id: string }) => h._id)).toEqual(ids);
    expect(r.hits.hits[0]._source).toBeUndefined();
  });

  it('size 0 returns counts and aggregations without hits', async () => {
    const r = await search({
      size: 0,
      query: { match: { state: 'TX' } },
      aggs: { avg_age: { avg: { field: 'age' } } },
    });
    const tx = accounts.filter((a) => a.state === 'TX');
    expect(r.hits).toEqual({ total: tx.length, max_score: 0, hits: [] });
    expect(r.aggregations.avg_age.value).toBeCloseTo(
      tx.reduce((x, a) => x + a.age, 0) / tx.length,
      9,
    );
  });
});
