/**
 * Shared pieces of the HTTP fuzz tests: a node with a small typed index, a request function with
 * a hang timeout, the check that an answer is a well-formed Elasticsearch response, and JSON
 * mutation arbitraries (replace, delete, rename, wrap) that turn valid bodies into near misses.
 */
import fc from 'fast-check';
import { startTestNode, type TestNode } from '../helpers/node.js';

/** Cases per property; FUZZ_RUNS=5000 npx vitest run test/robustness for a long run. */
export const RUNS = Number(process.env.FUZZ_RUNS ?? 80);
/**
 * CI replays a fixed seed so that it is deterministic; FUZZ_SEED=random (or a number) explores.
 * A failure prints its seed and path for fc.assert's replay options.
 */
const seedEnv = process.env.FUZZ_SEED;
if (seedEnv !== 'random') fc.configureGlobal({ seed: seedEnv ? Number(seedEnv) : 0x5eed });
/** A request that has not answered by then counts as a hang. */
const HANG_MS = 10_000;

export interface Answer {
  status: number;
  text: string;
  json: any;
  /** The response's Content-Type, where known. */
  type?: string;
}

export async function send(
  node: TestNode,
  method: string,
  path: string,
  body?: string | Buffer,
  contentType: string | null = 'application/json',
  timeoutMs = HANG_MS,
): Promise<Answer> {
  const res = await fetch(node.url + path, {
    method,
    // fetch labels a string body text/plain unless told otherwise: bytes go without a type
    ...(body !== undefined ? { body: contentType === null ? Buffer.from(body) : body } : {}),
    ...(body !== undefined && contentType !== null ? { headers: { 'content-type': contentType } } : {}), // prettier-ignore
    signal: AbortSignal.timeout(timeoutMs),
  });
  const text = await res.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.status, text, json, type: res.headers.get('content-type') ?? undefined };
}

/**
 * Null when `a` is a well-formed ES answer, else why not: a 2xx or 4xx status, or 500 with an ES
 * exception type, a JSON body, and for errors the ES error object with
 * root_cause, type, reason and the status repeated.
 */
export function malformed(a: Answer): string | null {
  if (a.status >= 500) {
    const why = unfaithful5xx(a);
    if (why) return why;
  }
  if (a.status < 200) return `status ${a.status}`;
  if (a.json === undefined || a.json === null || typeof a.json !== 'object')
    return `body is not a JSON object: ${a.text.slice(0, 200)}`;
  if (a.status < 400) return null;
  const e = a.json.error;
  if (a.json.status !== a.status) return `status field ${a.json.status} != ${a.status}`;
  if (typeof e !== 'object' || e === null) return `error is not an object: ${a.text.slice(0, 300)}`;
  if (typeof e.type !== 'string' || !e.type) return `error.type missing: ${a.text.slice(0, 300)}`;
  if (e.reason !== null && typeof e.reason !== 'string') return `error.reason not a string`;
  if (!Array.isArray(e.root_cause) || e.root_cause.length === 0)
    return `error.root_cause missing: ${a.text.slice(0, 300)}`;
  for (const rc of e.root_cause)
    if (typeof rc?.type !== 'string' || (rc.reason !== null && typeof rc.reason !== 'string'))
      return `malformed root_cause: ${JSON.stringify(rc).slice(0, 300)}`;
  // the marker stands where a location goes (`... at \u0001`, `[\u0001]`); a reason may quote
  // a U+0001 of the input itself (Jackson's "Unrecognized token")
  if (/ at \\u0001|\[\\u0001\]/.test(a.text))
    return `unresolved location marker: ${a.text.slice(0, 300)}`;
  // a JavaScript error inside a shard failure surfaces as a root cause of type `exception`
  if (e.root_cause.some((rc: any) => rc.type === 'exception'))
    return `exception root cause: ${a.text.slice(0, 300)}`;
  if (
    /TypeError|ReferenceError|RangeError|is not a function|Cannot read propert|Maximum call stack size exceeded|Invalid (array|string) length/.test(
      a.text,
    )
  )
    // prettier-ignore
    return `JavaScript error leaked: ${a.text.slice(0, 300)}`;
  return null;
}

/**
 * The exceptions Elasticsearch itself answers with a 5xx, by status: Java runtime exceptions and
 * ElasticsearchExceptions without a status of their own are 500 (ExceptionsHelper.status,
 * ElasticsearchException.status); the others override status(). Any other 5xx is ours, not ES's.
 */
export const ES_5XX: Record<number, ReadonlySet<string>> = {
  500: new Set([
    // java.lang runtime exceptions (ExceptionsHelper.status: not IllegalArgumentException)
    'illegal_state_exception',
    'null_pointer_exception',
    'class_cast_exception',
    'arithmetic_exception',
    'array_index_out_of_bounds_exception',
    'string_index_out_of_bounds_exception',
    'index_out_of_bounds_exception',
    'unsupported_operation_exception',
    'date_time_exception',
    'zone_rules_exception',
    // ElasticsearchExceptions without a status() override
    'script_exception',
    'aggregation_execution_exception',
    'invalid_aggregation_path_exception',
    'query_phase_execution_exception',
    'search_context_exception',
    'failed_node_exception',
    'settings_exception', // SettingsException: only value lists in serialized settings
    // ES SQL: QlServerException subclasses
    'ql_illegal_argument_exception',
    'sql_illegal_argument_exception',
  ]),
  503: new Set([
    'too_many_buckets_exception', // MultiBucketConsumerService.TooManyBucketsException
    'no_shard_available_action_exception',
    'unavailable_shards_exception',
  ]),
};

/** Wrappers whose status is their shard failures' (SearchPhaseExecutionException.status). */
const WRAPPERS = new Set(['search_phase_execution_exception']);

/** Null when a 5xx answer is one ES gives for the same exception, else why not. */
function unfaithful5xx(a: Answer): string | null {
  const e = a.json?.error;
  const allowed = ES_5XX[a.status];
  const bad = `status ${a.status} that ES does not answer: ${a.text.slice(0, 400)}`;
  if (!allowed || typeof e !== 'object' || e === null) return bad;
  if (!WRAPPERS.has(e.type)) return allowed.has(e.type) ? null : bad;
  const causes = (Array.isArray(e.root_cause) ? e.root_cause : [])
    .map((c: unknown) => (c as { type?: string })?.type ?? '')
    .filter((t: string) => !WRAPPERS.has(t));
  // no shard failure at all: ES answers 503 (all shards unavailable)
  if (causes.length === 0) return a.status === 503 ? null : bad;
  return causes.some((t: string) => allowed.has(t)) ? null : bad;
}

/** The fields of the fuzz index, for keys and values the mutations draw from. */
export const FIELDS = [
  'title',
  'tag',
  'n',
  'price',
  'when',
  'ok',
  'loc',
  'ip',
  'kids',
  'kids.name',
];

export const MAPPING = {
  properties: {
    title: { type: 'text', fields: { raw: { type: 'keyword' } } },
    tag: { type: 'keyword' },
    n: { type: 'long' },
    price: { type: 'double' },
    when: { type: 'date' },
    ok: { type: 'boolean' },
    loc: { type: 'geo_point' },
    ip: { type: 'ip' },
    kids: { type: 'nested', properties: { name: { type: 'keyword' }, age: { type: 'integer' } } },
  },
};

export function seedDoc(i: number): Record<string, unknown> {
  return {
    title: `the ${['quick', 'lazy', 'brown', 'red'][i % 4]} fox number ${i}`,
    tag: `t${i % 5}`,
    n: i,
    price: i * 1.5,
    when: `2020-01-${String((i % 28) + 1).padStart(2, '0')}T10:00:00Z`,
    ok: i % 2 === 0,
    loc: { lat: 40 + i / 100, lon: -70 - i / 100 },
    ip: `10.0.0.${i % 250}`,
    kids: [{ name: `k${i % 3}`, age: i % 17 }],
  };
}

/** A node with index `fz` (2 shards, MAPPING) holding `docs` seed documents, refreshed. */
export async function fuzzNode(docs = 40): Promise<TestNode> {
  const node = await startTestNode();
  const created = await node.req('PUT', '/fz', {
    settings: { number_of_shards: 2 },
    mappings: { _doc: MAPPING },
  });
  if (created.status !== 200) throw new Error(created.text);
  let bulk = '';
  for (let i = 0; i < docs; i++)
    bulk += `{"index":{"_id":"${i}"}}\n${JSON.stringify(seedDoc(i))}\n`;
  const r = await node.req('POST', '/fz/_doc/_bulk?refresh=true', bulk, {
    'content-type': 'application/x-ndjson',
  });
  if (r.status !== 200 || r.json.errors) throw new Error(r.text.slice(0, 500));
  return node;
}

/** Everything a rejected request must leave alone: mapping, settings and every document. */
export async function snapshot(node: TestNode, index = 'fz'): Promise<string> {
  await send(node, 'POST', `/${index}/_refresh`);
  const [m, s, d] = await Promise.all([
    send(node, 'GET', `/${index}/_mapping`),
    send(node, 'GET', `/${index}/_settings`),
    send(
      node,
      'POST',
      `/${index}/_search?size=1000&version=true`,
      JSON.stringify({ sort: ['_id'], seq_no_primary_term: true }),
    ),
  ]);
  const hits = (d.json?.hits?.hits ?? []).map((h: any) => [
    h._id,
    h._version,
    h._seq_no,
    h._source,
  ]);
  return JSON.stringify([m.json, s.json, d.json?.hits?.total, hits]);
}

// ---- JSON mutation ---------------------------------------------------------------------------

const DSL_KEYS = [
  'query',
  'bool',
  'must',
  'filter',
  'should',
  'must_not',
  'match',
  'term',
  'terms',
  'range',
  'gte',
  'lt',
  'lte',
  'gt',
  'field',
  'fields',
  'size',
  'from',
  'sort',
  'aggs',
  'aggregations',
  'script',
  'source',
  'params',
  'boost',
  'minimum_should_match',
  'nested',
  'path',
  'score_mode',
  'function_score',
  'functions',
  '_source',
  'highlight',
  'post_filter',
  'collapse',
  'slice',
  'rescore',
  'search_after',
  'track_total_hits',
  'format',
  'time_zone',
  'interval',
  'date_histogram',
  'histogram',
  'order',
  'missing',
  'value',
  'values',
  'analyzer',
  'fuzziness',
  'operator',
  'type',
  'query_string',
  'default_field',
  'match_phrase',
  'prefix',
  'wildcard',
  'regexp',
  'exists',
  'ids',
  'geo_distance',
  'distance',
  'top_hits',
  'percentiles',
  'cardinality',
  'filters',
  'composite',
  'sources',
  'after',
  'min_doc_count',
  'shard_size',
  'include',
  'exclude',
  'docvalue_fields',
  'stored_fields',
  'script_fields',
  'inner_hits',
  'multi_match',
  'dis_max',
  'constant_score',
  'keyed',
  'ranges',
  'extended_bounds',
  'offset',
  'precision_threshold',
  'percents',
  'geo_bounding_box',
  'top_left',
  'bottom_right',
  'lang',
  'match_all',
  'match_none',
  'simple_query_string',
  'explain',
  'version',
  'timeout',
  'terminate_after',
  'min_score',
  'indices_boost',
  'suggest',
  'text',
  'completion',
  'phrase',
  ...FIELDS,
];

const nastyValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(
    null,
    true,
    false,
    0,
    -1,
    -0,
    1,
    0.5,
    1e308,
    -1e308,
    2 ** 31,
    2 ** 53 + 2,
    -(2 ** 63),
    '',
    ' ',
    '*',
    '?',
    '\u0000',
    '\ud800',
    'now',
    'now-1d/d',
    '2020-01-01',
    '1e400',
    'NaN',
    '-Infinity',
    'abc',
    '10.0.0.1/33',
    '[',
    '{',
    'true',
    '_id',
    '_score',
    '_doc',
    'kids',
    'kids.name',
    'title.raw',
    'doc',
    'desc',
    'asc',
    'avg',
    'max',
    '1ms',
    '-5d',
    '0x10',
    [],
    {},
    [[]],
    [null],
    { '': null },
    'x'.repeat(40000),
  ),
  fc.jsonValue({ maxDepth: 2 }),
  fc.string({ unit: 'grapheme', maxLength: 12 }),
  fc.integer(),
  fc.double(),
  fc.constantFrom(...DSL_KEYS),
);

type Mutation =
  | { op: 'replace'; at: number; value: unknown }
  | { op: 'delete'; at: number }
  | { op: 'rename'; at: number; key: string }
  | { op: 'add'; at: number; key: string; value: unknown }
  | { op: 'wrapArray'; at: number }
  | { op: 'wrapObject'; at: number; key: string };

const key = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...DSL_KEYS) },
  { weight: 1, arbitrary: fc.string({ maxLength: 6 }) },
);
const at = fc.nat();
const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ op: fc.constant('replace' as const), at, value: nastyValue }),
  fc.record({ op: fc.constant('delete' as const), at }),
  fc.record({ op: fc.constant('rename' as const), at, key }),
  fc.record({ op: fc.constant('add' as const), at, key, value: nastyValue }),
  fc.record({ op: fc.constant('wrapArray' as const), at }),
  fc.record({ op: fc.constant('wrapObject' as const), at, key }),
);

type Slot = { parent: any; key: string | number } | null;

/** Every position in `root` (null = the root itself), in a stable order. */
function slots(root: unknown): Slot[] {
  const out: Slot[] = [null];
  const walk = (v: unknown) => {
    if (Array.isArray(v)) v.forEach((c, i) => (out.push({ parent: v, key: i }), walk(c)));
    else if (v && typeof v === 'object')
      for (const [k, c] of Object.entries(v)) (out.push({ parent: v, key: k }), walk(c));
  };
  walk(root);
  return out;
}

function apply(root: unknown, m: Mutation): unknown {
  const all = slots(root);
  const s = all[m.at % all.length]!;
  const get = () => (s ? s.parent[s.key] : root);
  const set = (v: unknown) => {
    if (!s) return v;
    s.parent[s.key] = v;
    return root;
  };
  switch (m.op) {
    case 'replace':
      return set(structuredClone(m.value));
    case 'delete':
      if (!s) return {};
      if (Array.isArray(s.parent)) s.parent.splice(s.key as number, 1);
      else delete s.parent[s.key];
      return root;
    case 'rename': {
      if (!s || Array.isArray(s.parent)) return root;
      const v = s.parent[s.key];
      delete s.parent[s.key];
      s.parent[m.key] = v;
      return root;
    }
    case 'add': {
      const target = get();
      if (Array.isArray(target)) target.push(structuredClone(m.value));
      else if (target && typeof target === 'object')
        (target as Record<string, unknown>)[m.key] = structuredClone(m.value);
      return root;
    }
    case 'wrapArray':
      return set([get()]);
    case 'wrapObject':
      return set({ [m.key]: get() });
  }
}

/** A seed body with one to three mutations applied. */
export function mutated(seeds: readonly unknown[]): fc.Arbitrary<unknown> {
  return fc
    .tuple(fc.constantFrom(...seeds), fc.array(mutation, { minLength: 1, maxLength: 3 }))
    .map(([seed, ms]) => ms.reduce((v, m) => apply(v, m), structuredClone(seed)));
}

/** Raw bytes around JSON: truncations, junk, duplicated keys, deep nesting. */
export function brokenText(seeds: readonly unknown[], maxDepth = 3000): fc.Arbitrary<string> {
  const text = fc.constantFrom(...seeds.map((s) => JSON.stringify(s)));
  return fc.oneof(
    fc.tuple(text, fc.nat()).map(([t, n]) => t.slice(0, n % (t.length + 1))),
    fc.tuple(text, fc.nat(), fc.string({ maxLength: 3 })).map(([t, n, j]) => {
      const i = n % (t.length + 1);
      return t.slice(0, i) + j + t.slice(i);
    }),
    fc.string({ maxLength: 40 }),
    fc.constantFrom('', '[]', 'null', '1', '"q"', '{}{}', '{"query":{}}', '{"a":1,"a":2}'),
    fc.integer({ min: 1, max: maxDepth }).map((d) => '{"query":'.repeat(d) + '{}' + '}'.repeat(d)),
    fc.integer({ min: 1, max: maxDepth }).map((d) => '['.repeat(d) + ']'.repeat(d)),
  );
}

/**
 * Null when an answer of any route is acceptable: HEAD answers carry no body, and successful
 * non-JSON answers (`_cat` text, `format=yaml|txt|csv`) are not JSON; JSON answers and every
 * JSON error must pass malformed().
 */
export function judge(method: string, a: Answer, contentType: string | undefined): string | null {
  if (method === 'HEAD') return a.status >= 500 ? `HEAD status ${a.status}` : null;
  const json = contentType === undefined || contentType.includes('json');
  if (!json) {
    if (a.status >= 500) return `status ${a.status}: ${a.text.slice(0, 300)}`;
    if (a.status < 400) return null;
    // errors are rendered in the requested format (ES channel.newErrorBuilder)
    return /yaml|smile|cbor/.test(contentType!) ? null : `non-JSON error: ${a.text.slice(0, 300)}`;
  }
  // ES RestController's own answers for unrouted requests carry a bare error string
  const e = a.json?.error;
  if (a.status === 400 && typeof e === 'string' && e.startsWith('no handler found for uri ['))
    return null;
  if (a.status === 405 && a.json.status === 405 && /^Incorrect HTTP method for uri \[/.test(e))
    return null;
  // ES RestController refuses a body it has no parser for: `{"error":"Content-Type ...","status":406}`
  if (a.status === 406 && a.json.status === 406 && /^Content-Type (header|\[)/.test(e)) return null;
  // ES RestGetAliasesAction: `{"error":"alias [x] missing","status":404}`
  if (a.status === 404 && typeof e === 'string' && /^alias(es)? \[.*\] missing$/.test(e))
    return null;
  // a missing document, template or alias is a 404 with a plain body (`found: false`, `{}`)
  if (a.status === 404 && a.json && typeof a.json === 'object' && !('error' in a.json)) return null;
  return malformed(a);
}

/** The first part of two snapshots that differs, for the failure message. */
export function difference(a: string, b: string): string {
  const x = JSON.parse(a) as unknown[];
  const y = JSON.parse(b) as unknown[];
  const names = ['mapping', 'settings', 'total', 'documents'];
  for (let i = 0; i < x.length; i++) {
    const p = JSON.stringify(x[i]);
    const q = JSON.stringify(y[i]);
    if (p === q) continue;
    let k = 0;
    while (p[k] === q[k]) k++;
    return `${names[i]}: …${p.slice(Math.max(0, k - 80), k + 200)} → …${q.slice(Math.max(0, k - 80), k + 200)}`;
  }
  return 'none';
}
