/**
 * Fuzzing the read side of the HTTP API: mutated query DSL and aggregations, random JSON and
 * broken bytes sent to _search, _count, _validate/query, _explain and _msearch. Every answer must
 * be a well-formed ES response (see malformed()), no request may hang, and the data is unchanged.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestNode } from '../helpers/node.js';
import { brokenText, fuzzNode, malformed, mutated, RUNS, send, snapshot } from './fuzz-support.js';

const QUERIES: unknown[] = [
  { query: { match_all: {} } },
  { query: { match: { title: { query: 'quick fox', operator: 'and' } } }, size: 3 },
  { query: { term: { tag: 't1' } }, sort: [{ n: 'desc' }] },
  { query: { terms: { n: [1, 2, 3] } }, from: 2, size: 2 },
  { query: { range: { when: { gte: 'now-10y/y', lt: '2020-01-10', format: 'yyyy-MM-dd' } } } },
  { query: { range: { price: { gt: 3, lte: 30 } } }, _source: ['n', 'tag'] },
  {
    query: {
      bool: {
        must: [{ match: { title: 'fox' } }],
        filter: [{ term: { ok: true } }],
        should: [{ prefix: { tag: 't' } }],
        must_not: [{ exists: { field: 'missing' } }],
        minimum_should_match: 1,
      },
    },
  },
  { query: { nested: { path: 'kids', query: { term: { 'kids.name': 'k1' } }, inner_hits: {} } } },
  { query: { query_string: { query: 'title:(quick OR lazy) AND n:[1 TO 10]' } } },
  { query: { simple_query_string: { query: 'fox -lazy', fields: ['title^2'] } } },
  { query: { multi_match: { query: 'brown', fields: ['title', 'tag'], type: 'best_fields' } } },
  { query: { wildcard: { tag: 't*' } }, highlight: { fields: { title: {} } } },
  { query: { regexp: { tag: 't[0-3]' } }, track_total_hits: true },
  { query: { fuzzy: { title: { value: 'quik', fuzziness: 'AUTO' } } } },
  { query: { ids: { values: ['1', '2'] } }, version: true, explain: true },
  { query: { term: { ip: '10.0.0.0/24' } }, sort: ['_doc'] },
  {
    query: {
      function_score: {
        query: { match_all: {} },
        functions: [{ field_value_factor: { field: 'n', missing: 1 } }, { weight: 2 }],
        score_mode: 'sum',
      },
    },
  },
  {
    query: { script: { script: { source: "doc['n'].value > params.x", params: { x: 3 } } } },
  },
  { query: { match_all: {} }, sort: [{ n: 'asc' }], search_after: [5], size: 2 },
  { query: { match_all: {} }, collapse: { field: 'tag' }, post_filter: { term: { ok: false } } },
  {
    size: 0,
    aggs: {
      tags: {
        terms: { field: 'tag', size: 3, order: { avg_n: 'desc' } },
        aggs: { avg_n: { avg: { field: 'n' } } },
      },
    },
  },
  {
    size: 0,
    aggs: {
      h: {
        histogram: {
          field: 'price',
          interval: 5,
          min_doc_count: 0,
          extended_bounds: { min: 0, max: 100 },
        },
      },
      d: { date_histogram: { field: 'when', interval: 'week', time_zone: '+01:00' } },
    },
  },
  {
    size: 0,
    aggs: {
      r: { range: { field: 'n', ranges: [{ to: 5 }, { from: 5, to: 20 }, { from: 20 }] } },
      p: { percentiles: { field: 'price', percents: [50, 99] } },
      c: { cardinality: { field: 'tag', precision_threshold: 10 } },
      s: { stats: { field: 'n' } },
    },
  },
  {
    size: 0,
    aggs: {
      k: { nested: { path: 'kids' }, aggs: { names: { terms: { field: 'kids.name' } } } },
      f: { filters: { filters: { a: { term: { tag: 't1' } }, b: { match: { title: 'fox' } } } } },
    },
  },
  {
    size: 0,
    aggs: {
      comp: {
        composite: {
          size: 2,
          sources: [
            { t: { terms: { field: 'tag' } } },
            { h: { histogram: { field: 'n', interval: 10 } } },
          ],
        },
      },
      top: { top_hits: { size: 1, sort: [{ n: 'desc' }], _source: ['n'] } },
    },
  },
  {
    size: 0,
    aggs: {
      h: {
        date_histogram: { field: 'when', interval: 'day' },
        aggs: { s: { sum: { field: 'n' } }, cs: { cumulative_sum: { buckets_path: 's' } } },
      },
      mb: { max_bucket: { buckets_path: 'h>s' } },
    },
  },
  { suggest: { s: { text: 'quikc', term: { field: 'title' } } } },
  {
    query: { match: { title: 'fox' } },
    rescore: { window_size: 5, query: { rescore_query: { match: { title: 'quick' } } } },
  },
  {
    query: { match_all: {} },
    docvalue_fields: ['n', 'when'],
    script_fields: { d: { script: "doc['n'].value * 2" } },
  },
];

let node: TestNode;
let before: string;
beforeAll(async () => {
  node = await fuzzNode();
  before = await snapshot(node);
}, 60_000);
afterAll(async () => {
  // Reads never change anything, whatever they were.
  expect(await snapshot(node)).toBe(before);
  await node.destroy();
});

/** Sends one case; fails the property with the request and answer when malformed. */
async function check(method: string, path: string, body: string): Promise<void> {
  const a = await send(node, method, path, body);
  const why = malformed(a);
  if (why) throw new Error(`${method} ${path} ${body.slice(0, 600)}\n→ ${why}`);
}

describe('fuzzing the search API', () => {
  it('seeds are valid searches', async () => {
    for (const q of QUERIES) {
      const a = await send(node, 'POST', '/fz/_search', JSON.stringify(q));
      expect(a.status, `${JSON.stringify(q)} → ${a.text.slice(0, 300)}`).toBe(200);
    }
  });

  it('mutated query DSL and aggregations answer well-formed responses', async () => {
    await fc.assert(
      fc.asyncProperty(
        mutated(QUERIES),
        fc.constantFrom(
          '/fz/_search',
          '/fz/_doc/_search',
          '/_search',
          '/fz/_count',
          '/fz/_validate/query?explain=true',
          '/fz/_doc/3/_explain',
        ),
        async (body, path) => {
          if (path.endsWith('_count') || path.includes('_validate') || path.includes('_explain')) {
            const q =
              body && typeof body === 'object' && 'query' in body
                ? { query: (body as any).query }
                : body;
            return check('POST', path, JSON.stringify(q));
          }
          return check('POST', path, JSON.stringify(body));
        },
      ),
      { numRuns: RUNS * 4 },
    );
  }, 120_000);

  it('random JSON and broken bytes answer well-formed responses', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)),
          brokenText(QUERIES),
        ),
        fc.constantFrom('/fz/_search', '/fz/_count', '/fz/_search?scroll=1m', '/_search?size=3'),
        async (body, path) => check('POST', path, body),
      ),
      { numRuns: RUNS * 2 },
    );
  }, 120_000);

  it('mutated _msearch bodies answer well-formed responses', async () => {
    const header = [{}, { index: 'fz' }, { index: 'fz', search_type: 'dfs_query_then_fetch' }];
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(mutated(header), mutated(QUERIES)), { minLength: 1, maxLength: 3 }),
        fc.boolean(),
        async (pairs, trailingNewline) => {
          const body = pairs
            .map(([h, q]) => `${JSON.stringify(h)}\n${JSON.stringify(q)}`)
            .join('\n');
          const a = await send(
            node,
            'POST',
            '/fz/_msearch',
            body + (trailingNewline ? '\n' : ''),
            'application/x-ndjson',
          );
          const why = malformed(a);
          if (why) throw new Error(`_msearch ${body.slice(0, 600)}\n→ ${why}`);
          // Each item is a response or an ES-shaped error.
          for (const r of a.json.responses ?? []) {
            if (!r.error) continue;
            const inner = malformed({ status: r.status, text: JSON.stringify(r), json: r });
            if (inner) throw new Error(`_msearch item ${body.slice(0, 600)}\n→ ${inner}`);
          }
        },
      ),
      { numRuns: RUNS },
    );
  }, 120_000);

  it('mutated query parameters answer well-formed responses', async () => {
    const params = [
      'size',
      'from',
      'sort',
      'q',
      'df',
      'analyzer',
      'default_operator',
      '_source',
      'track_total_hits',
      'terminate_after',
      'timeout',
      'search_type',
      'preference',
      'routing',
      'scroll',
      'typed_keys',
      'request_cache',
      'allow_no_indices',
      'expand_wildcards',
      'ignore_unavailable',
      'stored_fields',
      'docvalue_fields',
      'version',
      'explain',
      'batched_reduce_size',
      'pre_filter_shard_size',
    ];
    const value = fc.oneof(
      fc.constantFrom(
        '',
        '-1',
        '0',
        '1',
        '99999999999',
        'true',
        'false',
        'n:desc',
        '_id',
        'title:fox',
        '*',
        'a,b',
        '1m',
        '-1s',
        'n',
        'xyz',
        '%00',
        '\u00e9',
      ),
      fc.string({ maxLength: 6 }),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.constantFrom(...params), value), { minLength: 1, maxLength: 4 }),
        fc.constantFrom('/fz/_search', '/fz/_count', '/fz,nope*/_search', '/f*/_search'),
        async (kv, path) => {
          const qs = kv.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&');
          const a = await send(node, 'GET', `${path}?${qs}`);
          const why = malformed(a);
          if (why) throw new Error(`GET ${path}?${qs}\n→ ${why}`);
        },
      ),
      { numRuns: RUNS * 2 },
    );
  }, 120_000);
});
