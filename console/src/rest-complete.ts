/**
 * What the Dev Tools editor offers at the cursor: methods, URL paths and query parameters from the
 * REST API specs (a compact list bundled at build time), index names and field names from the
 * live mappings, and Query DSL keys by where the cursor is in the body. Pure: unit-tested in node.
 */
import { METHODS } from './requests.js';

/** `api → [methods, paths, params]`, as scripts/build-console.mjs derives it from the specs. */
export type ApiSpecs = Record<
  string,
  readonly [readonly string[], readonly string[], readonly string[]]
>;

export interface Option {
  readonly label: string;
  readonly type: 'keyword' | 'method' | 'path' | 'index' | 'property' | 'field' | 'param';
  readonly detail?: string;
}

export interface Completion {
  /** Offset in the text where the replaced word starts. */
  readonly from: number;
  readonly options: Option[];
}

export interface RestKnowledge {
  readonly specs: ApiSpecs;
  readonly indices: readonly string[];
  /** Field names per index (all indices' fields when the path names none). */
  readonly fields: ReadonlyMap<string, readonly string[]>;
}

const COMMON_PARAMS = ['pretty', 'human', 'error_trace', 'filter_path', 'format'];

export const SEARCH_KEYS = [
  'query',
  'aggs',
  'aggregations',
  'size',
  'from',
  'sort',
  '_source',
  'highlight',
  'post_filter',
  'track_total_hits',
  'timeout',
  'terminate_after',
  'min_score',
  'explain',
  'version',
  'stored_fields',
  'docvalue_fields',
  'script_fields',
  'search_after',
  'collapse',
  'rescore',
  'suggest',
  'profile',
  'indices_boost',
];
export const QUERY_TYPES = [
  'match_all',
  'match_none',
  'match',
  'match_phrase',
  'match_phrase_prefix',
  'multi_match',
  'query_string',
  'simple_query_string',
  'term',
  'terms',
  'terms_set',
  'range',
  'exists',
  'prefix',
  'wildcard',
  'regexp',
  'fuzzy',
  'ids',
  'bool',
  'boosting',
  'constant_score',
  'dis_max',
  'function_score',
  'script_score',
  'nested',
  'has_child',
  'has_parent',
  'geo_distance',
  'geo_bounding_box',
  'geo_shape',
  'more_like_this',
  'script',
  'percolate',
  'wrapper',
  'common',
  'intervals',
  'span_term',
  'span_near',
  'span_or',
  'span_first',
];
const BOOL_KEYS = ['must', 'should', 'filter', 'must_not', 'minimum_should_match', 'boost'];
/** Queries whose object is keyed by field name. */
const FIELD_QUERIES = new Set([
  'match',
  'match_phrase',
  'match_phrase_prefix',
  'term',
  'terms',
  'range',
  'prefix',
  'wildcard',
  'regexp',
  'fuzzy',
  'geo_distance',
  'geo_bounding_box',
  'geo_shape',
  'common',
  'span_term',
  'intervals',
]);
/** Keys whose value is one or more queries. */
const QUERY_HOLDERS = new Set([
  'query',
  'must',
  'should',
  'filter',
  'must_not',
  'post_filter',
  'positive',
  'negative',
  'queries',
  'no_match_query',
]);
export const AGG_TYPES = [
  'terms',
  'date_histogram',
  'histogram',
  'range',
  'date_range',
  'filter',
  'filters',
  'significant_terms',
  'composite',
  'nested',
  'reverse_nested',
  'missing',
  'global',
  'avg',
  'sum',
  'min',
  'max',
  'value_count',
  'cardinality',
  'stats',
  'extended_stats',
  'percentiles',
  'percentile_ranks',
  'top_hits',
  'geo_bounds',
  'geo_centroid',
  'scripted_metric',
  'bucket_sort',
  'bucket_selector',
  'bucket_script',
  'cumulative_sum',
  'derivative',
  'avg_bucket',
  'max_bucket',
  'min_bucket',
  'sum_bucket',
  'stats_bucket',
  'aggs',
  'meta',
];
const AGG_PARAMS = [
  'field',
  'size',
  'order',
  'min_doc_count',
  'interval',
  'calendar_interval',
  'fixed_interval',
  'format',
  'time_zone',
  'extended_bounds',
  'ranges',
  'keyed',
  'missing',
  'script',
  'include',
  'exclude',
  'shard_size',
  'percents',
  'precision_threshold',
  'offset',
  'buckets_path',
];
const AGG_TYPE_SET = new Set(AGG_TYPES.filter((a) => a !== 'aggs' && a !== 'meta'));
/** Keys whose value names a field (string, or array of strings). */
const FIELD_VALUED = new Set([
  'field',
  'fields',
  '_source',
  'sort',
  'docvalue_fields',
  'stored_fields',
  'default_field',
  'path',
  'includes',
  'excludes',
]);

/** Field names of `GET /_mapping`'s answer, per index: objects' paths dotted, multi-fields too. */
export function fieldsOfMappings(body: unknown): Map<string, string[]> {
  const out = new Map<string, string[]>();
  if (!body || typeof body !== 'object') return out;
  for (const [index, def] of Object.entries(body as Record<string, any>)) {
    const names = new Set<string>();
    const walk = (props: Record<string, any> | undefined, prefix: string) => {
      for (const [name, f] of Object.entries(props ?? {})) {
        const full = prefix + name;
        names.add(full);
        if (f && typeof f === 'object') {
          walk(f.properties, full + '.');
          for (const sub of Object.keys(f.fields ?? {})) names.add(full + '.' + sub);
        }
      }
    };
    const mappings = def?.mappings ?? {};
    // 6.8 nests properties under the type name; typeless (7.x style) answers have them at the top
    if (mappings.properties) walk(mappings.properties, '');
    for (const t of Object.values(mappings) as any[]) if (t && t.properties) walk(t.properties, '');
    out.set(index, [...names].sort());
  }
  return out;
}

const splitSegments = (p: string) => p.split('/').filter((s, i) => i > 0 || s !== '');

/** Whether a typed segment can stand where a spec path has `seg`. */
function segmentMatches(spec: string, typed: string): boolean {
  if (spec.startsWith('{')) return typed !== '' && (!typed.startsWith('_') || spec === '{id}');
  return spec === typed;
}

/** Spec paths matching the typed segments so far (all but the one being typed). */
function specPathsFor(specs: ApiSpecs, typed: string[]): Array<{ api: string; segs: string[] }> {
  const out: Array<{ api: string; segs: string[] }> = [];
  for (const [api, [, paths]] of Object.entries(specs)) {
    for (const p of paths) {
      const segs = splitSegments(p);
      if (segs.length < typed.length) continue;
      if (typed.every((t, i) => segmentMatches(segs[i]!, t))) out.push({ api, segs });
    }
  }
  return out;
}

/** Indices named by the path's first segment (`bank`, `bank,logs`), or all of them. */
function fieldsFor(k: RestKnowledge, path: string): string[] {
  const first = splitSegments(path.split('?')[0]!)[0] ?? '';
  const named = first.startsWith('_') ? [] : first.split(',').filter(Boolean);
  const out = new Set<string>();
  for (const [index, fields] of k.fields) {
    if (named.length === 0 || named.some((n) => globMatch(n, index)))
      fields.forEach((f) => out.add(f));
  }
  return [...out].sort();
}

function globMatch(pattern: string, name: string): boolean {
  if (!pattern.includes('*')) return pattern === name;
  const re = new RegExp('^' + pattern.split('*').map(escapeRe).join('.*') + '$');
  return re.test(name);
}
const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Completion on a method line: the method word, a path segment, or a query parameter. */
function lineCompletion(k: RestKnowledge, lineStart: number, before: string): Completion | null {
  const m = /^(\s*)(\S*)$/.exec(before);
  if (m) {
    const from = lineStart + m[1]!.length;
    return { from, options: METHODS.map((x) => ({ label: x, type: 'method' as const })) };
  }
  const pm = /^(\s*)(GET|POST|PUT|DELETE|HEAD)\s+(\S*)$/i.exec(before);
  if (!pm) return null;
  const typed = pm[3]!;
  const pathStart = before.length - typed.length;
  const q = typed.indexOf('?');
  if (q >= 0) {
    const path = typed.slice(0, q);
    const tail = typed.slice(q + 1);
    const cut = tail.lastIndexOf('&') + 1;
    const word = tail.slice(cut);
    if (word.includes('=')) return null;
    const segs = splitSegments(path);
    const params = new Set(COMMON_PARAMS);
    for (const p of specPathsFor(k.specs, segs))
      if (p.segs.length === segs.length) k.specs[p.api]![2].forEach((x) => params.add(x));
    return {
      from: lineStart + pathStart + q + 1 + cut,
      options: [...params].sort().map((label) => ({ label, type: 'param' as const })),
    };
  }
  const path = typed.startsWith('/') ? typed : '/' + typed;
  const segs = splitSegments(path);
  const lastSlash = typed.lastIndexOf('/');
  const done = path.endsWith('/') ? segs : segs.slice(0, -1);
  const prefix = path.endsWith('/') ? '' : (segs[segs.length - 1] ?? '');
  const seen = new Map<string, Option>();
  for (const p of specPathsFor(k.specs, done)) {
    const next = p.segs[done.length];
    if (next === undefined) continue;
    if (next === '{index}') {
      for (const i of k.indices) if (!seen.has(i)) seen.set(i, { label: i, type: 'index' });
    } else if (!next.startsWith('{') && !seen.has(next)) {
      seen.set(next, { label: next, type: 'path', detail: p.api });
    }
  }
  const options = [...seen.values()].filter((o) => o.label.startsWith(prefix.replace(/^.*,/, '')));
  // a comma list of indices completes its last name
  const comma = prefix.lastIndexOf(',') + 1;
  return { from: lineStart + pathStart + lastSlash + 1 + comma, options };
}

interface Frame {
  readonly kind: 'obj' | 'arr';
  /** The key this container is the value of (or its parent's, for arrays). */
  readonly key: string | null;
}

/**
 * Where the cursor is in a (possibly unfinished) JSON body: the chain of keys leading to it,
 * whether it stands where a key goes, and the key whose value it is in.
 */
export function jsonPosition(body: string): {
  keys: (string | null)[];
  atKey: boolean;
  valueOf: string | null;
} {
  const stack: Frame[] = [];
  let lastKey: string | null = null;
  let expectKey = false;
  let afterColon = false;
  let i = 0;
  while (i < body.length) {
    const c = body[i]!;
    if (c === '"') {
      let j = i + 1;
      while (j < body.length && body[j] !== '"') j += body[j] === '\\' ? 2 : 1;
      if (j >= body.length) break; // the cursor is inside this string
      const s = body.slice(i + 1, j);
      if (expectKey) {
        lastKey = s;
        expectKey = false;
      }
      afterColon = false;
      i = j + 1;
      continue;
    }
    if (c === '{') {
      stack.push({ kind: 'obj', key: lastKey });
      expectKey = true;
      afterColon = false;
    } else if (c === '[') {
      stack.push({ kind: 'arr', key: lastKey });
      afterColon = false;
    } else if (c === '}' || c === ']') {
      stack.pop();
      expectKey = false;
    } else if (c === ',') {
      expectKey = stack[stack.length - 1]?.kind === 'obj';
      afterColon = false;
      if (stack[stack.length - 1]?.kind === 'arr') lastKey = stack[stack.length - 1]!.key;
    } else if (c === ':') {
      afterColon = true;
    }
    i++;
  }
  const top = stack[stack.length - 1];
  const keys = stack.map((f) => f.key);
  if (top?.kind === 'arr') return { keys, atKey: false, valueOf: top.key };
  return { keys, atKey: expectKey, valueOf: afterColon || !expectKey ? lastKey : null };
}

/** Keys to offer inside the object whose key chain is `keys`. */
function bodyKeys(keys: (string | null)[], fields: string[]): Option[] {
  const kw = (l: string[]) => l.map((label) => ({ label, type: 'property' as const }));
  const fieldOpts = fields.map((label) => ({ label, type: 'field' as const }));
  const parent = keys[keys.length - 1] ?? null;
  const grand = keys[keys.length - 2] ?? null;
  if (keys.length <= 1) return kw(SEARCH_KEYS);
  if (grand === 'aggs' || grand === 'aggregations') return kw(AGG_TYPES);
  if (parent !== null && AGG_TYPE_SET.has(parent) && isAggBody(keys)) return kw(AGG_PARAMS);
  if (parent === 'bool') return kw(BOOL_KEYS);
  if (parent !== null && QUERY_HOLDERS.has(parent)) return kw(QUERY_TYPES);
  if (parent !== null && FIELD_QUERIES.has(parent)) return fieldOpts;
  if (parent === 'properties') return fieldOpts;
  return [...kw(SEARCH_KEYS), ...fieldOpts];
}

/** Whether the innermost object is an aggregation's body (`aggs.<name>.<type>`). */
function isAggBody(keys: (string | null)[]): boolean {
  const g = keys[keys.length - 3];
  return g === 'aggs' || g === 'aggregations';
}

/** What to offer at `pos` in the Dev Tools buffer, or null for nothing. */
export function restCompletion(text: string, pos: number, k: RestKnowledge): Completion | null {
  const lineStart = text.lastIndexOf('\n', pos - 1) + 1;
  const before = text.slice(lineStart, pos);
  // the request this body belongs to: the nearest method line above
  const lines = text.slice(0, lineStart).split('\n');
  let off = lineStart;
  let reqPath: string | null = null;
  let bodyStart = -1;
  for (let i = lines.length - 1; i >= 0; i--) {
    off -= lines[i]!.length + 1;
    const m = /^\s*(GET|POST|PUT|DELETE|HEAD)\s+(\S*)\s*$/i.exec(lines[i]!);
    if (m) {
      reqPath = m[2]!;
      bodyStart = off + lines[i]!.length + 1;
      break;
    }
  }
  if (reqPath === null) return lineCompletion(k, lineStart, before);
  if (/^\s*(GET|POST|PUT|DELETE|HEAD)\s/i.test(before)) return lineCompletion(k, lineStart, before);
  // a word at the start of a line after a complete body begins the next request
  if (
    /^[A-Za-z]*$/.test(before) &&
    jsonPosition(text.slice(bodyStart, lineStart)).keys.length === 0
  )
    return lineCompletion(k, lineStart, before);
  const body = text.slice(bodyStart, pos);
  const word = /"?([\w.@-]*)$/.exec(body)!;
  const from = pos - word[1]!.length;
  const posInfo = jsonPosition(body.slice(0, body.length - word[0].length));
  const fields = fieldsFor(k, reqPath);
  if (posInfo.atKey) return { from, options: bodyKeys(posInfo.keys, fields) };
  const valueOf = posInfo.valueOf;
  if (valueOf !== null && FIELD_VALUED.has(valueOf)) {
    return { from, options: fields.map((label) => ({ label, type: 'field' as const })) };
  }
  return null;
}
