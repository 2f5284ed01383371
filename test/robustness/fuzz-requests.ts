/**
 * The request corpora the fuzzers mutate (query DSL and aggregations, SQL statements and their
 * token vocabulary, documents, updates, mappings, settings), shared by the vitest properties and
 * the long run (fuzz-long.ts), so that both explore the same space.
 */
import fc from 'fast-check';
import { seedDoc } from './fuzz-support.js';

export const QUERIES: unknown[] = [
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

export const STATEMENTS = [
  'SELECT * FROM fz',
  'SELECT tag, COUNT(*) AS c FROM fz GROUP BY tag HAVING c > 1 ORDER BY c DESC LIMIT 3',
  'SELECT n, price * 2 AS p FROM fz WHERE n BETWEEN 3 AND 9 AND ok = true ORDER BY n',
  "SELECT title FROM fz WHERE MATCH(title, 'quick fox') AND tag IN ('t1', 't2')",
  'SELECT YEAR("when") y, MONTH("when") m, AVG(price) FROM fz GROUP BY y, m',
  'SELECT HISTOGRAM(n, 10) h, MAX(price), MIN(n) FROM fz GROUP BY h',
  "SELECT CASE WHEN n > 5 THEN 'big' ELSE 'small' END AS s, COUNT(1) FROM fz GROUP BY s",
  "SELECT CONCAT(tag, '-'), LENGTH(title), UCASE(tag) FROM fz WHERE title LIKE '%fox%' LIMIT 5",
  'SELECT CAST(n AS DOUBLE) / 3, ROUND(price, 1), ABS(-n) FROM fz WHERE "when" > \'2020-01-05\'::datetime',
  'SELECT tag, PERCENTILE(price, 50), STDDEV_POP(n) FROM fz GROUP BY tag',
  "SELECT COUNT(DISTINCT tag), SUM(n) FROM fz WHERE QUERY('title:fox OR tag:t1')",
  'SELECT n FROM fz WHERE n IS NOT NULL AND NOT (n < 2 OR n > 30) ORDER BY SCORE() DESC, n',
  'SELECT DATE_TRUNC(\'month\', "when") d, COUNT(*) FROM fz GROUP BY d',
  'SELECT ip, "kids.name" FROM fz',
  'SHOW TABLES',
  'SHOW COLUMNS FROM fz',
  "SHOW FUNCTIONS LIKE 'A%'",
  'DESCRIBE fz',
  'SELECT 1 + 2 * 3, PI(), NOW(), CURRENT_DATE',
  'SELECT n FROM fz WHERE n > ? AND tag = ?',
];

export const VOCAB = [
  'SELECT',
  'FROM',
  'WHERE',
  'GROUP',
  'BY',
  'HAVING',
  'ORDER',
  'LIMIT',
  'AS',
  'AND',
  'OR',
  'NOT',
  'IN',
  'LIKE',
  'RLIKE',
  'BETWEEN',
  'IS',
  'NULL',
  'TRUE',
  'FALSE',
  'CASE',
  'WHEN',
  'THEN',
  'ELSE',
  'END',
  'DISTINCT',
  'ALL',
  'ASC',
  'DESC',
  'NULLS',
  'FIRST',
  'LAST',
  'CAST',
  'CONVERT',
  'EXTRACT',
  'INTERVAL',
  'YEAR',
  'DAY',
  'HOUR',
  'TO',
  'PIVOT',
  'FOR',
  'JOIN',
  'UNION',
  'EXPLAIN',
  'SHOW',
  'COUNT',
  'SUM',
  'AVG',
  'MIN',
  'MAX',
  'PERCENTILE',
  'HISTOGRAM',
  'MATCH',
  'QUERY',
  'SCORE',
  'IIF',
  'COALESCE',
  'NULLIF',
  'GREATEST',
  'SUBSTRING',
  'LOCATE',
  'POSITION',
  'DATE_ADD',
  'DATE_PART',
  'TO_CHAR',
  'FORMAT',
  'TOP',
  'fz',
  'n',
  'tag',
  'title',
  'price',
  '"when"',
  'ok',
  'ip',
  'kids',
  '*',
  '(',
  ')',
  ',',
  '.',
  '::',
  '+',
  '-',
  '/',
  '%',
  '=',
  '<>',
  '!=',
  '<',
  '>=',
  '?',
  ';',
  "'x'",
  "''",
  "'%'",
  "'\\'",
  '0',
  '-1',
  '1e309',
  '9223372036854775808',
  '0.5',
  '{fn',
  '}',
  '{d',
  "'2020-01-01'",
  '"',
  '`',
  '--',
  '/*',
  '*/',
  "INTERVAL '1' DAY",
  'INTERVAL -2 YEARS',
];

/** Splits a statement into tokens: quoted strings and identifiers, words, numbers, symbols. */
function tokens(sql: string): string[] {
  return sql.match(/'(?:[^']|'')*'|"[^"]*"|::|<>|!=|<=|>=|[A-Za-z_][\w.]*|\d+(?:\.\d+)?|\S/g) ?? [];
}

type Op = { op: 'del' | 'dup' | 'swap' | 'put'; at: number; word: string };
const op: fc.Arbitrary<Op> = fc.record({
  op: fc.constantFrom('del', 'dup', 'swap', 'put'),
  at: fc.nat(),
  word: fc.oneof(
    { weight: 5, arbitrary: fc.constantFrom(...VOCAB) },
    { weight: 1, arbitrary: fc.string({ maxLength: 5 }) },
  ),
});

function mutate(sql: string, ops: Op[]): string {
  const t = tokens(sql);
  for (const o of ops) {
    if (t.length === 0) t.push(o.word);
    const i = o.at % t.length;
    if (o.op === 'del') t.splice(i, 1);
    else if (o.op === 'dup') t.splice(i, 0, t[i]!);
    else if (o.op === 'swap' && i + 1 < t.length) [t[i], t[i + 1]] = [t[i + 1]!, t[i]!];
    else t[i] = o.word;
  }
  return t.join(' ');
}

/** A seed statement mutated token by token, token soup, or a seed as is. */
export const statement = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .tuple(fc.constantFrom(...STATEMENTS), fc.array(op, { minLength: 1, maxLength: 4 }))
      .map(([s, ops]) => mutate(s, ops)),
  },
  {
    weight: 1,
    arbitrary: fc
      .array(fc.constantFrom(...VOCAB), { minLength: 1, maxLength: 12 })
      .map((w) => w.join(' ')),
  },
  { weight: 1, arbitrary: fc.constantFrom(...STATEMENTS) },
);

export const DOCS: unknown[] = [
  seedDoc(1),
  { title: 'x', n: '12', price: '1.5', when: 1577836800000, ok: 'true', ip: '::1' },
  { kids: [{ name: 'a', age: 3 }, { name: 'b' }], loc: '41.1,-71.2', tag: ['a', 'b'] },
  { loc: [-71, 41], when: '2020-02-02', title: null, extra: { deep: { er: 1 } } },
];
export const UPDATES: unknown[] = [
  { doc: { n: 7 } },
  { doc: { tag: 'u' }, doc_as_upsert: true },
  { script: { source: 'ctx._source.n += params.k', params: { k: 2 } } },
  { script: "ctx._source.tag = 'z'", upsert: seedDoc(3) },
  { script: { source: "ctx.op = 'none'" }, detect_noop: false },
];
export const MAPPINGS: unknown[] = [
  { properties: { extra_kw: { type: 'keyword', ignore_above: 10 } } },
  {
    properties: {
      extra_txt: { type: 'text', analyzer: 'standard', fields: { k: { type: 'keyword' } } },
    },
  },
  {
    dynamic: 'strict',
    properties: { extra_obj: { type: 'object', properties: { a: { type: 'long' } } } },
  },
  { properties: { extra_date: { type: 'date', format: 'yyyy-MM-dd||epoch_millis' } } },
  { properties: { n: { type: 'long' } } },
];
export const SETTINGS: unknown[] = [
  { index: { number_of_replicas: 0 } },
  { index: { refresh_interval: '2s' } },
  { index: { max_result_window: 20000 } },
  { 'index.blocks.write': false },
];

export const SQL_BODIES: unknown[] = [
  { query: 'SELECT n, tag FROM fz ORDER BY n', fetch_size: 3 },
  {
    query: 'SELECT n FROM fz WHERE n > ?',
    params: [{ type: 'integer', value: 3 }],
    mode: 'jdbc',
  },
  {
    query: 'SELECT "when" FROM fz',
    time_zone: 'Europe/Paris',
    field_multi_value_leniency: true,
  },
  { query: 'SELECT COUNT(*) FROM fz', filter: { term: { tag: 't1' } }, request_timeout: '5s' },
  { query: 'SELECT tag FROM fz', columnar: true, mode: 'plain', page_timeout: '1m' },
];

export const CREATE_BODIES: unknown[] = [
  {
    settings: { number_of_shards: 1 },
    mappings: { _doc: { properties: { a: { type: 'keyword' } } } },
  },
  {
    settings: {
      analysis: {
        analyzer: { my: { type: 'custom', tokenizer: 'standard', filter: ['lowercase'] } },
      },
    },
  },
  { aliases: { al: { filter: { term: { a: 'x' } } } }, mappings: { _doc: { dynamic: false } } },
];

/** Bulk action lines naming index `fz`; the long run retargets them. */
export const BULK_ACTIONS: unknown[] = [
  { index: { _id: 'b1' } },
  { create: { _index: 'fz', _type: '_doc', _id: 'b2' } },
  { update: { _id: '1', retry_on_conflict: 2 } },
  { delete: { _id: 'b1' } },
  { index: { _index: 'fz', _id: 'b3', routing: 'x', version: 5, version_type: 'external' } },
];

// ---- whole requests, for the router fuzzer and the long run ------------------------------------

export interface FuzzRequest {
  /** Which generator made it (for the long run's per-target counts). */
  target: string;
  method: string;
  path: string;
  /** Bytes for bodies that are not UTF-8 (fuzz-bytes.ts). */
  body?: string | Buffer;
  /** Absent with a body: sent without a Content-Type. */
  contentType?: string;
  /** May change stored data when accepted (only ever aimed at scratch indices). */
  writes: boolean;
}

const READ_METHODS = ['GET', 'HEAD', 'OPTIONS'] as const;
const WRITE_METHODS = ['POST', 'PUT', 'DELETE', 'PATCH'] as const;

/** Path segments for index positions: the protected index only for reads. */
const READ_INDICES = ['fz', 'fz*', '_all', '*', 'fz,nope', 'nope', '-fz', 'FZ', '.hidden'];
const SCRATCH_INDICES = ['fzw', 'fzr', 'fzw,fzr', 'nope2', 'UPPER', 'a:b', 'x'.repeat(260)];

/** Endpoint words of the ES 6.8 REST API (and some it does not have). */
const ENDPOINTS = [
  '_search', '_count', '_mapping', '_mappings', '_settings', '_doc', 'doc', '_bulk', '_mget',
  '_msearch', '_cat', 'indices', 'health', 'count', 'nodes', 'shards', 'aliases', 'allocation',
  'thread_pool', 'segments', 'templates', 'master', 'plugins', '_cluster', 'state', 'settings',
  '_nodes', 'stats', '_stats', '_refresh', '_flush', 'synced', '_forcemerge', '_close', '_open',
  '_alias', '_aliases', '_template', '_sql', 'translate', 'close', '_xpack', 'sql', '_update',
  '_create', '_source', '_explain', '_validate', 'query', '_analyze', '_field_caps', '_tasks',
  '_scroll', '_freeze', '_unfreeze', '_cache', 'clear', '_segments', '_recovery', '_shrink',
  '_split', '_rollover', 'security', '_authenticate', '_license', '_ingest', 'pipeline',
  '_search_shards', '_termvectors', '_rank_eval', 'field', 'docvalue', '_upgrade', '_shard_stores',
  '_mtermvectors', '_scripts', 'metadata', 'routing_table', 'blocks', '1', '-1', '_id', '%', '%zz',
  '%00', '%C3%A9', '..', '', ' ', '{index}',
]; // prettier-ignore

const PARAMS = [
  'pretty', 'human', 'format', 'h', 'v', 's', 'help', 'bytes', 'filter_path', 'error_trace',
  'local', 'master_timeout', 'timeout', 'wait_for_status', 'level', 'refresh', 'routing',
  'wait_for_active_shards', 'size', 'from', 'q', 'include_type_name', 'ignore_unavailable',
  'expand_wildcards', 'allow_no_indices', 'flat_settings', 'include_defaults', 'scroll',
  'version', 'version_type', 'op_type', 'if_seq_no', 'if_primary_term', 'fields', 'metric',
  'detailed', 'actions', 'cursor', 'max_num_segments', 'only_expunge_deletes', 'fielddata',
  'preference', 'realtime', '_source_includes', 'stored_fields', 'pipeline', 'time',
]; // prettier-ignore

const paramValue = fc.oneof(
  fc.constantFrom('', 'true', 'false', '0', '-1', '1', '1s', 'json', 'yaml', 'txt', 'smile',
    'cbor', 'green', 'indices', '*', 'a,b', '_all', 'nope', '%', '9'.repeat(25), 'index,docs'), // prettier-ignore
  fc.string({ maxLength: 6 }),
);

const routerBody: fc.Arbitrary<string | undefined> = fc.oneof(
  { weight: 3, arbitrary: fc.constant(undefined) },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)) },
  { weight: 1, arbitrary: fc.string({ maxLength: 30 }) },
  { weight: 1, arbitrary: fc.constantFrom('', '{}', '[]', 'null', '{"query":{"match_all":{}}}') },
);

/**
 * Random method and path assembled from index names, endpoint words and junk, with random query
 * parameters and bodies. Methods that can change data only ever name scratch indices, and never
 * an index-less path, so a fuzzed `DELETE /_all` or `POST /_update_by_query` cannot touch `fz`.
 */
export const routerRequest: fc.Arbitrary<FuzzRequest> = fc
  .tuple(
    fc.boolean(),
    fc.nat(),
    fc.array(
      fc.oneof(
        { weight: 3, arbitrary: fc.constantFrom(...ENDPOINTS) },
        { weight: 1, arbitrary: fc.string({ maxLength: 5 }).map(encodeURIComponent) },
      ),
      { maxLength: 4 },
    ),
    fc.array(fc.tuple(fc.constantFrom(...PARAMS), paramValue), { maxLength: 3 }),
    routerBody,
    fc.constantFrom('application/json', 'application/x-ndjson', 'text/plain', 'application/yaml'),
  )
  .map(([write, pick, words, params, body, contentType]) => {
    const methods = write ? WRITE_METHODS : READ_METHODS;
    const method = methods[pick % methods.length]!;
    const indices = write ? SCRATCH_INDICES : READ_INDICES;
    const index = encodeURI(indices[pick % indices.length]!).replace(/%25/g, '%');
    // reads may go index-less (`/_cat/indices`); writes always start with a scratch index
    const segments = !write && pick % 3 === 0 ? words : [index, ...words];
    const qs = params.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&');
    // a dot segment (`..`, `%2e%2e`) is resolved away by URL parsers, so a write could escape
    // its scratch index (`DELETE /fzw/../*`): writes never carry one
    const dots = (w: string) => /^(\.|%2e){1,2}$/i.test(w);
    const path = '/' + (write ? segments.filter((w) => !dots(w)) : segments).join('/') + (qs ? `?${qs}` : ''); // prettier-ignore
    return {
      target: 'router',
      method,
      path,
      ...(body !== undefined && method !== 'GET' && method !== 'HEAD' ? { body, contentType } : {}),
      writes: write,
    };
  });
