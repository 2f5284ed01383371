/**
 * Valid but costly requests ("bombs") for the fuzzers: scripts that never end, queries and
 * aggregations nested around and far beyond the nesting limits, SQL statements too large for a
 * recursive tree walk, regular expressions that explode when determinized, and extreme sizes.
 * Each must be answered (2xx, or an ES error) without hanging or crashing the node.
 */
import fc from 'fast-check';
import type { FuzzRequest } from './fuzz-requests.js';

/** Painless loops the loop counter must stop (or the compiler refuse). */
export const LOOP_SCRIPTS = [
  'while (true) {} return true',
  'int i = 0; while (i >= 0) { i++ } return true',
  'for (;;) { int x = 1; }',
  'int i = 0; do { i++ } while (i > 0); return true',
  'def x = 0; for (int i = 0; i < 2000; i++) { for (int j = 0; j < 2000; j++) { x = j } } return true',
  "doc['n'].value > 0 && (int) 1 == 1",
];

const WRAPPERS: Array<(q: string) => string> = [
  (q) => `{"bool":{"must":[${q}]}}`,
  (q) => `{"bool":{"should":[${q},{"term":{"tag":"t1"}}],"minimum_should_match":1}}`,
  (q) => `{"bool":{"filter":${q}}}`,
  (q) => `{"constant_score":{"filter":${q}}}`,
  (q) => `{"dis_max":{"queries":[${q}]}}`,
  (q) => `{"function_score":{"query":${q},"functions":[{"weight":2}]}}`,
  (q) => `{"boosting":{"positive":${q},"negative":{"term":{"tag":"zz"}},"negative_boost":0.5}}`,
  (q) => `{"nested":{"path":"kids","query":${q}}}`,
];

const LEAVES = ['{"match_all":{}}', '{"match":{"title":"fox"}}', '{"term":{"tag":"t1"}}'];

/** Around the nesting limits (1000 query objects, 100 aggregation levels) and far past them. */
const depthAround = (limit: number) =>
  fc.oneof(
    { weight: 4, arbitrary: fc.integer({ min: limit - 10, max: limit + 10 }) },
    { weight: 1, arbitrary: fc.constantFrom(limit * 5, 5000) },
  );

const nestedQuery = fc
  .tuple(
    depthAround(1000),
    fc.array(fc.nat(WRAPPERS.length - 1), { minLength: 1, maxLength: 4 }),
    fc.nat(2),
  )
  .map(([d, kinds, leaf]) => {
    let q = LEAVES[leaf]!;
    for (let i = 0; i < d; i++) q = WRAPPERS[kinds[i % kinds.length]!]!(q);
    return q;
  });

const AGG_KINDS = [
  '"terms":{"field":"tag"}',
  '"filter":{"match_all":{}}',
  '"histogram":{"field":"n","interval":5}',
  '"nested":{"path":"kids"}',
];

const nestedAggs = fc.tuple(depthAround(100), fc.nat(AGG_KINDS.length - 1)).map(([d, kind]) => {
  let a = '{"m":{"max":{"field":"n"}}}';
  for (let i = 0; i < d; i++) a = `{"a${i}":{${AGG_KINDS[kind]},"aggs":${a}}}`;
  return a;
});

const chain = (n: number, sep: string, term: (i: number) => string) =>
  Array.from({ length: n }, (_, i) => term(i)).join(sep);

const sqlBomb = fc.tuple(fc.constantFrom(50, 500, 5000, 20000), fc.nat(4)).map(([n, kind]) => {
  switch (kind) {
    case 0:
      return `SELECT 1 ${'+ 1 '.repeat(n)}`;
    case 1:
      return `SELECT n FROM fz WHERE ${chain(n, ' OR ', (i) => `n = ${i}`)}`;
    case 2:
      return `SELECT n FROM fz WHERE ${chain(n, ' AND ', (i) => `n > ${i - n}`)}`;
    case 3:
      return `SELECT ${'ABS('.repeat(Math.min(n, 5000))}n${')'.repeat(Math.min(n, 5000))} FROM fz`;
    default:
      return `SELECT ${'('.repeat(Math.min(n, 5000))}1${')'.repeat(Math.min(n, 5000))}`;
  }
});

const REGEX_BOMBS = [
  '(a|aa)*b',
  'a{1,1000}{1,1000}',
  `${'.*'.repeat(40)}x`,
  '[a-z]{1000}',
  '(((a*)*)*)*b',
  'a{1000000}',
];

const regexQuery = fc
  .tuple(fc.constantFrom(...REGEX_BOMBS), fc.nat(3))
  .map(([re, kind]) =>
    kind === 0
      ? { regexp: { tag: re } }
      : kind === 1
        ? { wildcard: { tag: re.replace(/[.]/g, '?') } }
        : kind === 2
          ? { query_string: { query: `/${re}/` } }
          : { regexp: { title: { value: re, max_determinized_states: 2147483647 } } },
  );

const SIZE_BOMBS: unknown[] = [
  { size: 0, aggs: { t: { terms: { field: 'tag', size: 2147483647, shard_size: 2147483647 } } } },
  { size: 0, aggs: { t: { terms: { field: 'n', size: 1000 }, aggs: { h: { top_hits: { size: 100 } } } } } }, // prettier-ignore
  { size: 0, aggs: { p: { percentiles: { field: 'n', percents: Array.from({ length: 20000 }, (_, i) => (i % 100) + 0.25) } } } }, // prettier-ignore
  { size: 0, aggs: { h: { histogram: { field: 'n', interval: 0.001, min_doc_count: 0, extended_bounds: { min: 0, max: 50 } } } } }, // prettier-ignore
  { from: 9990, size: 10 },
  { size: 10000, sort: [{ n: 'desc' }], track_scores: true },
  { query: { terms: { tag: Array.from({ length: 65536 }, (_, i) => `t${i}`) } } },
  { query: { match: { title: 'fox '.repeat(5000) } } },
];

const search = (target: string, path: string, body: string): FuzzRequest => ({
  target,
  method: 'POST',
  path,
  writes: false,
  body,
  contentType: 'application/json',
});

/** One bomb, aimed at the protected index `fz` (reads) or the scratch index `fzw` (updates). */
export const bombRequest: fc.Arbitrary<FuzzRequest> = fc.oneof(
  {
    weight: 1,
    arbitrary: fc.tuple(fc.constantFrom(...LOOP_SCRIPTS), fc.nat(2)).map(([src, kind]) =>
      kind === 2
        ? {
            target: 'bomb-script',
            method: 'POST',
            path: `/fzw/_doc/f${src.length % 10}/_update`,
            writes: true,
            body: JSON.stringify({ script: { source: src.replace(/doc\['n'\]\.value/g, 'ctx._source.n') } }), // prettier-ignore
            contentType: 'application/json',
          }
        : search(
            'bomb-script',
            kind === 0 ? '/fz/_search' : '/fz/_search?size=1',
            JSON.stringify(
              kind === 0
                ? { query: { script: { script: src } } }
                : { sort: { _script: { type: 'number', script: `${src.replace(/return true$/, '')}; return 1` } } }, // prettier-ignore
            ),
          ),
    ),
  },
  {
    weight: 3,
    arbitrary: fc
      .tuple(
        nestedQuery,
        fc.constantFrom(
          '/fz/_search',
          '/fz/_count',
          '/fz/_validate/query?explain=true',
          '/fz/_search?request_cache=true&size=0',
        ),
      ) // prettier-ignore
      .map(([q, p]) => search('bomb-depth', p, `{"query":${q}}`)),
  },
  {
    weight: 2,
    arbitrary: nestedAggs.map((a) => search('bomb-depth', '/fz/_search', `{"size":0,"aggs":${a}}`)), // prettier-ignore
  },
  {
    weight: 2,
    arbitrary: fc
      .tuple(sqlBomb, fc.constantFrom('/_sql', '/_sql/translate', '/_sql?format=txt'))
      .map(([query, p]) => search('bomb-sql', p, JSON.stringify({ query }))),
  },
  {
    weight: 2,
    arbitrary: regexQuery.map((q) => search('bomb-regex', '/fz/_search', JSON.stringify({ query: q }))), // prettier-ignore
  },
  {
    weight: 2,
    arbitrary: fc
      .constantFrom(...SIZE_BOMBS)
      .map((b) => search('bomb-size', '/fz/_search', JSON.stringify(b))),
  },
);
