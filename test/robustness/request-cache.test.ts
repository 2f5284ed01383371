/**
 * The shard request cache under churn: composite / terms + top_hits searches (sort, explain,
 * highlight, docvalue_fields, _source filtering, nested top_hits, version, seq_no_primary_term)
 * sent twice with `request_cache=true` between writes, deletes, refreshes, close/open, merges
 * and index re-creation, over index lists that place the same shard at different
 * positions. Each cached answer must equal the same request with `request_cache=false`.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestNode, type TestNode } from '../helpers/node.js';
import { judge, MAPPING, mutated, RUNS, seedDoc, send, type Answer } from './fuzz-support.js';

const TOP_HITS: readonly unknown[] = [
  { size: 2, sort: [{ n: 'desc' }], _source: ['n', 'tag'] },
  { size: 1, sort: ['_score'], explain: true, version: true, seq_no_primary_term: true },
  {
    size: 2,
    sort: [{ price: { order: 'asc' } }],
    docvalue_fields: [{ field: 'n', format: 'use_field_mapping' }, 'tag'],
    _source: false,
  },
  { size: 1, highlight: { fields: { title: {} } }, _source: { excludes: ['kids', 'loc'] } },
  { from: 1, size: 2, sort: [{ when: 'desc' }, '_doc'], stored_fields: ['_source'] },
];

/** top_hits inside nested documents (hits with `_nested`). */
const NESTED_TOP_HITS: readonly unknown[] = [
  { size: 2, sort: [{ 'kids.age': 'desc' }], _source: ['kids.name'], version: true },
  { size: 1, explain: true, docvalue_fields: ['kids.age'] },
];

/** Where the top_hits sits: under composite, terms, nested + terms, or at the top level. */
function aggsWith(bucket: string, th: unknown): Record<string, unknown> {
  const top = { top_hits: th };
  switch (bucket) {
    case 'composite': {
      const sources = [{ t: { terms: { field: 'tag' } } }, { o: { terms: { field: 'ok' } } }];
      return { c: { composite: { size: 3, sources }, aggs: { top } } };
    }
    case 'terms':
      return { t: { terms: { field: 'tag', size: 3 }, aggs: { top } } };
    case 'nested':
      return {
        k: {
          nested: { path: 'kids' },
          aggs: { names: { terms: { field: 'kids.name' }, aggs: { top } } },
        },
      };
    default:
      return { top };
  }
}

/** Valid request bodies: every placement of every top_hits, with or without hits and a query. */
const BODIES: readonly unknown[] = [
  ...TOP_HITS.flatMap((th) => ['composite', 'terms', 'none'].map((b) => aggsWith(b, th))),
  ...NESTED_TOP_HITS.map((th) => aggsWith('nested', th)),
].flatMap((aggs) =>
  [0, 2].flatMap((size) =>
    [null, { match: { title: 'fox' } }, { range: { n: { gte: 3 } } }].map((query) => ({
      size,
      ...(query ? { query } : {}),
      aggs,
    })),
  ),
);

/** Metric and bucket aggregations whose rendering depends on the field's format. */
const FORMATTED: readonly unknown[] = [
  { m: { max: { field: 'n' } }, a: { avg: { field: 'price' } }, w: { min: { field: 'when' } } },
  { s: { stats: { field: 'n' } }, p: { percentiles: { field: 'price', percents: [50] } } },
  { h: { date_histogram: { field: 'when', interval: 'week' }, aggs: { x: { max: { field: 'n' } } } } }, // prettier-ignore
  { i: { terms: { field: 'ip' } }, b: { terms: { field: 'ok' } }, r: { range: { field: 'n', ranges: [{ to: 5 }] } } }, // prettier-ignore
].map((aggs) => ({ size: 0, aggs }));

/** Mostly valid bodies, some near misses (mutated by the fuzz generators). */
const body = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom(...BODIES, ...FORMATTED) },
  { weight: 1, arbitrary: mutated(BODIES) },
);

/** Index lists that put the shards of `w` at different positions of the request's shard list. */
const PATHS = [
  '/w/_search',
  '/a,w/_search',
  '/w,z/_search',
  '/_all/_search',
  '/w/_search?routing=r1',
  '/w/_search?preference=_local',
  '/a,w,z/_search?routing=r2',
];

type Op =
  | { op: 'index'; id: number; doc: number; routing: boolean }
  | { op: 'delete'; id: number }
  | { op: 'refresh' | 'close' | 'open' | 'merge' }
  | { op: 'recreate'; index: 'w' | 'a'; shards: number }
  | { op: 'search'; path: string; body: number };

const ops: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      op: fc.constant('index' as const),
      id: fc.nat(11),
      doc: fc.nat(40),
      routing: fc.boolean(),
    }),
  },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('delete' as const), id: fc.nat(11) }) },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      { op: 'refresh' as const },
      { op: 'refresh' as const },
      { op: 'close' as const },
      { op: 'open' as const },
      { op: 'merge' as const },
    ),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      op: fc.constant('recreate' as const),
      index: fc.constantFrom('w' as const, 'a' as const),
      shards: fc.integer({ min: 1, max: 3 }),
    }),
  },
  {
    weight: 6,
    arbitrary: fc.record({
      op: fc.constant('search' as const),
      path: fc.constantFrom(...PATHS),
      body: fc.nat(),
    }),
  },
);

let node: TestNode;
/** Request cache hits of the properties' searches. */
let hits = 0;

async function cacheHits(): Promise<number> {
  const r = await node.req('GET', '/_stats/request_cache');
  return r.json._all.total.request_cache.hit_count;
}

async function ok(method: string, path: string, b?: unknown): Promise<void> {
  const r = await node.req(method, path, b);
  if (r.status >= 300) throw new Error(`${method} ${path}: ${r.text.slice(0, 300)}`);
}

/** An index of MAPPING without scheduled refreshes (searches see exactly the explicit ones). */
async function createIndex(name: string, shards: number, docs: number): Promise<void> {
  await node.req('DELETE', `/${name}`);
  await ok('PUT', `/${name}`, {
    settings: { number_of_shards: shards, refresh_interval: -1 },
    mappings: { _doc: MAPPING },
  });
  for (let i = 0; i < docs; i++) await ok('PUT', `/${name}/_doc/${name}${i}`, seedDoc(i * 7));
  await ok('POST', `/${name}/_refresh`);
}

/** The answer without what may differ between two runs of one request. */
function comparable(a: Answer): unknown {
  if (!a.json || typeof a.json !== 'object') return a.text;
  const { took: _took, ...rest } = a.json;
  return { status: a.status, ...rest };
}

async function run(o: Op, pool: readonly unknown[]): Promise<void> {
  switch (o.op) {
    // writes and refreshes fail while `w` is closed
    case 'index':
      await node.req('PUT', `/w/_doc/d${o.id}${o.routing ? '?routing=r1' : ''}`, seedDoc(o.doc));
      return;
    case 'delete':
      await node.req('DELETE', `/w/_doc/d${o.id}`);
      return;
    case 'refresh':
      await node.req('POST', '/w/_refresh');
      return;
    case 'close':
    case 'open':
      return ok('POST', `/w/_${o.op}`);
    case 'merge':
      // no force merge API: a dozen one-doc refreshes make the merge policy merge segments
      for (let i = 0; i < 12; i++) {
        await node.req('PUT', `/w/_doc/m${i}`, seedDoc(i * 3));
        await node.req('POST', '/w/_refresh');
      }
      return;
    case 'recreate':
      return createIndex(o.index, o.shards, 4);
    case 'search': {
      const text = JSON.stringify(pool[o.body % pool.length]);
      const sep = o.path.includes('?') ? '&' : '?';
      const before = await cacheHits();
      const first = await send(node, 'POST', `${o.path}${sep}request_cache=true`, text);
      const second = await send(node, 'POST', `${o.path}${sep}request_cache=true`, text);
      hits += (await cacheHits()) - before;
      const plain = await send(node, 'POST', `${o.path}${sep}request_cache=false`, text);
      for (const a of [first, second, plain]) {
        const why = judge('POST', a, 'application/json');
        if (why) throw new Error(`POST ${o.path} ${text}\n→ ${why}`);
      }
      const want = JSON.stringify(comparable(plain));
      for (const [name, a] of [
        ['first', first],
        ['second', second],
      ] as const) {
        const got = JSON.stringify(comparable(a));
        if (got !== want)
          throw new Error(
            `POST ${o.path} ${text}: ${name} cached answer differs\n cached: ${got.slice(0, 1500)}\n  plain: ${want.slice(0, 1500)}`,
          );
      }
    }
  }
}

beforeAll(async () => {
  node = await startTestNode();
}, 60_000);
afterAll(() => node.destroy());

describe('shard request cache with top_hits under churn', () => {
  it('a cached top_hits result serves a request that lists its shard at another position', async () => {
    // w's shards are the 2nd and 3rd of `/_all` (after a), the 1st and 2nd of `/w`: a cached hit
    // once carried the position it was collected at, so `/w` fetched it from shard [2] (none, a
    // TypeError) and `/_all` from the wrong shard (a hit without `_source`)
    await createIndex('a', 1, 3);
    await createIndex('z', 2, 3);
    const body = JSON.stringify({
      size: 0,
      aggs: {
        c: {
          composite: { sources: [{ t: { terms: { field: 'tag' } } }] },
          aggs: { top: { top_hits: { size: 2, sort: [{ n: 'desc' }], _source: ['n'] } } },
        },
      },
    });
    const stats = async () =>
      (await node.req('GET', '/w/_stats/request_cache')).json._all.total.request_cache;
    for (const [first, then, wShards] of [
      ['/_all/_search', '/w/_search', 2],
      ['/w/_search?routing=r1', '/_all/_search', 1],
    ] as const) {
      await createIndex('w', 2, 6);
      const a = await send(node, 'POST', first, body);
      expect(a.status, a.text).toBe(200);
      // size 0: cached by default (index.requests.cache.enable)
      expect(await stats()).toMatchObject({ hit_count: 0, miss_count: wShards });
      const b = await send(node, 'POST', then, body);
      expect(b.status, b.text).toBe(200);
      expect((await stats()).hit_count).toBe(wShards);
      expect(JSON.stringify(b.json.aggregations)).toContain('"_source":{"n":');
      const plain = await send(node, 'POST', `${then}?request_cache=false`, body);
      expect(comparable(b)).toEqual(comparable(plain));
    }
  });

  it('cached answers equal uncached ones', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(body, { minLength: 1, maxLength: 3 }),
        fc.array(ops, { minLength: 4, maxLength: 30, size: 'medium' }),
        async (pool, seq) => {
          await createIndex('w', 2, 6);
          await createIndex('a', 1, 3);
          await createIndex('z', 2, 3);
          for (const o of seq) await run(o, pool);
        },
      ),
      { numRuns: Math.ceil(RUNS / 4) },
    );
    // the searches did run on cached shard results
    expect(hits).toBeGreaterThan(Math.ceil(RUNS / 4));
  }, 120_000);
});
