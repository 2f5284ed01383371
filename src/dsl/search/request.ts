/**
 * The search request body (ES SearchSourceBuilder.parseXContent) and URI parameters, parsed into
 * one typed SearchRequest. Queries and aggregations stay as JSON here; they are parsed by their
 * own modules so errors keep Elasticsearch's wording.
 */
import { EsError, illegalArgument, parsingException } from '../../common/errors.js';
import type { SourceFilter } from '../../common/source-filter.js';

export interface SortSpec {
  field: string; // '_score', '_doc' or a field path
  order: 'asc' | 'desc' | null;
  missing: string | number | null;
  mode: 'min' | 'max' | 'sum' | 'avg' | 'median' | null;
  unmappedType: string | null;
  nestedPath: string | null;
  numericType: string | null;
}

export interface HighlightSpec {
  fields: Array<{ name: string; opts: Record<string, unknown> }>;
  global: Record<string, unknown>;
}

export interface SearchRequest {
  query: unknown | null;
  postFilter: unknown | null;
  from: number;
  size: number;
  sort: SortSpec[] | null;
  source: SourceFilter | null; // null = no _source
  storedFields: string[] | null;
  docvalueFields: Array<{ field: string; format: string | null }>;
  scriptFields: Record<string, unknown>;
  aggs: unknown | null;
  highlight: HighlightSpec | null;
  minScore: number | null;
  trackScores: boolean;
  trackTotalHits: boolean;
  terminateAfter: number;
  timeoutMs: number | null;
  version: boolean;
  seqNoPrimaryTerm: boolean;
  explain: boolean;
  searchAfter: unknown[] | null;
  indicesBoost: Array<{ index: string; boost: number }>;
  collapse: unknown | null;
  suggest: unknown | null;
  profile: boolean;
  stats: string[];
}

export const emptyRequest = (): SearchRequest => ({
  query: null,
  postFilter: null,
  from: -1,
  size: -1,
  sort: null,
  source: { includes: [], excludes: [] },
  storedFields: null,
  docvalueFields: [],
  scriptFields: {},
  aggs: null,
  highlight: null,
  minScore: null,
  trackScores: false,
  trackTotalHits: true,
  terminateAfter: 0,
  timeoutMs: null,
  version: false,
  seqNoPrimaryTerm: false,
  explain: false,
  searchAfter: null,
  indicesBoost: [],
  collapse: null,
  suggest: null,
  profile: false,
  stats: [],
});

function tokenName(v: unknown): string {
  if (v === null) return 'VALUE_NULL';
  if (Array.isArray(v)) return 'START_ARRAY';
  switch (typeof v) {
    case 'object':
      return 'START_OBJECT';
    case 'string':
      return 'VALUE_STRING';
    case 'number':
      return 'VALUE_NUMBER';
    case 'boolean':
      return 'VALUE_BOOLEAN';
  }
  return 'VALUE_EMBEDDED_OBJECT';
}

const unknownKey = (key: string, v: unknown) =>
  parsingException(`Unknown key for a ${tokenName(v)} in [${key}].`);

function intValue(key: string, v: unknown): number {
  const n = typeof v === 'string' ? Number(v.trim()) : (v as number);
  if (typeof n !== 'number' || !Number.isFinite(n)) {
    throw new EsError('x_content_parse_exception', `[${key}] failed to parse field [${key}]`, 400);
  }
  return Math.trunc(n);
}

function boolValue(key: string, v: unknown): boolean {
  if (v === true || v === 'true') return true;
  if (v === false || v === 'false') return false;
  throw new EsError(
    'x_content_parse_exception',
    `Failed to parse value [${String(v)}] as only [true] or [false] are allowed.`,
    400,
  );
}

/** FetchSourceContext.fromXContent: true/false, "field", ["a","b"], {includes, excludes}. */
export function parseSourceSpec(v: unknown): SourceFilter | null {
  if (v === false) return null;
  if (v === true) return { includes: [], excludes: [] };
  if (typeof v === 'string') return { includes: v.split(',').map((s) => s.trim()), excludes: [] };
  if (Array.isArray(v)) return { includes: v.map(String), excludes: [] };
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    const list = (x: unknown, name: string) => {
      if (x === undefined || x === null) return [];
      if (typeof x === 'string') return [x];
      if (Array.isArray(x)) return x.map(String);
      throw parsingException(`Unknown key for a ${tokenName(x)} in [${name}].`);
    };
    for (const k of Object.keys(o)) {
      if (!['includes', 'include', 'excludes', 'exclude'].includes(k)) {
        throw parsingException(`Unknown key for a ${tokenName(o[k])} in [${k}].`);
      }
    }
    return {
      includes: list(o.includes ?? o.include, 'includes'),
      excludes: list(o.excludes ?? o.exclude, 'excludes'),
    };
  }
  throw parsingException(
    `Expected one of [VALUE_BOOLEAN, START_OBJECT] but found [${tokenName(v)}]`,
  );
}

/** SortBuilder.fromXContent: "f", {"f": "desc"}, {"f": {"order": …}}, arrays of those. */
export function parseSort(v: unknown): SortSpec[] {
  const items = Array.isArray(v) ? v : [v];
  const out: SortSpec[] = [];
  for (const it of items) {
    if (typeof it === 'string') {
      out.push(sortSpec(it, null));
      continue;
    }
    if (!it || typeof it !== 'object')
      throw parsingException(
        `malformed sort format, within the sort array, an object, or an actual string are allowed`,
      );
    for (const [field, spec] of Object.entries(it as Record<string, unknown>)) {
      if (field === '_geo_distance' || field === '_script') {
        throw illegalArgument(`sort type [${field}] is not supported`);
      }
      if (typeof spec === 'string') {
        out.push(sortSpec(field, orderOf(spec)));
        continue;
      }
      if (!spec || typeof spec !== 'object')
        throw parsingException(`[${field}] failed to parse field [order]`);
      const o = spec as Record<string, unknown>;
      const s = sortSpec(field, o.order === undefined ? null : orderOf(String(o.order)));
      for (const [k, x] of Object.entries(o)) {
        switch (k) {
          case 'order':
            break;
          case 'missing':
            s.missing = x as string | number;
            break;
          case 'mode':
            if (!['min', 'max', 'sum', 'avg', 'median'].includes(String(x))) {
              throw illegalArgument(`Unknown SortMode [${String(x)}]`);
            }
            s.mode = String(x) as SortSpec['mode'];
            break;
          case 'unmapped_type':
            s.unmappedType = String(x);
            break;
          case 'nested_path':
            s.nestedPath = String(x);
            break;
          case 'nested':
            s.nestedPath = String((x as Record<string, unknown>)?.path ?? '');
            break;
          case 'numeric_type':
            s.numericType = String(x);
            break;
          default:
            throw parsingException(`[field_sort] unknown field [${k}], parser not found`);
        }
      }
      out.push(s);
    }
  }
  return out;
}

function orderOf(s: string): 'asc' | 'desc' {
  const v = s.toLowerCase();
  if (v === 'asc' || v === 'desc') return v;
  throw illegalArgument(`Unknown SortOrder [${s}]`);
}

function sortSpec(field: string, order: 'asc' | 'desc' | null): SortSpec {
  return {
    field,
    order,
    missing: null,
    mode: null,
    unmappedType: null,
    nestedPath: null,
    numericType: null,
  };
}

/** URI `sort=field:desc,other` parameter. */
export function parseSortParam(s: string): SortSpec[] {
  return s
    .split(',')
    .map((x) => x.trim())
    .filter((x) => x)
    .map((x) => {
      const i = x.lastIndexOf(':');
      if (i > 0) return sortSpec(x.slice(0, i), orderOf(x.slice(i + 1)));
      return sortSpec(x, null);
    });
}

export function parseSearchBody(body: unknown): SearchRequest {
  const r = emptyRequest();
  if (body === undefined || body === null) return r;
  if (typeof body !== 'object' || Array.isArray(body)) {
    throw parsingException(`Expected [START_OBJECT] but found [${tokenName(body)}]`);
  }
  for (const [k, v] of Object.entries(body as Record<string, unknown>)) {
    switch (k) {
      case 'query':
        if (!v || typeof v !== 'object' || Array.isArray(v)) throw unknownKey(k, v);
        r.query = v;
        break;
      case 'post_filter':
        if (!v || typeof v !== 'object' || Array.isArray(v)) throw unknownKey(k, v);
        r.postFilter = v;
        break;
      case 'from':
        r.from = intValue(k, v);
        break;
      case 'size':
        r.size = intValue(k, v);
        break;
      case 'timeout':
        r.timeoutMs = 0;
        break;
      case 'terminate_after':
        r.terminateAfter = intValue(k, v);
        if (r.terminateAfter <= 0) throw illegalArgument('terminateAfter must be > 0');
        break;
      case 'min_score':
        r.minScore = Math.fround(Number(v));
        break;
      case 'version':
        r.version = boolValue(k, v);
        break;
      case 'seq_no_primary_term':
        r.seqNoPrimaryTerm = boolValue(k, v);
        break;
      case 'explain':
        r.explain = boolValue(k, v);
        break;
      case 'track_scores':
        r.trackScores = boolValue(k, v);
        break;
      case 'track_total_hits':
        r.trackTotalHits = boolValue(k, v);
        break;
      case 'profile':
        r.profile = boolValue(k, v);
        break;
      case '_source':
        r.source = parseSourceSpec(v);
        break;
      case 'stored_fields':
        r.storedFields = typeof v === 'string' ? [v] : Array.isArray(v) ? v.map(String) : [];
        break;
      case 'docvalue_fields':
        if (!Array.isArray(v)) throw unknownKey(k, v);
        r.docvalueFields = v.map((x) => {
          if (typeof x === 'string') return { field: x, format: null };
          const o = x as Record<string, unknown>;
          return {
            field: String(o.field),
            format: o.format === undefined ? null : String(o.format),
          };
        });
        break;
      case 'script_fields':
        r.scriptFields = (v ?? {}) as Record<string, unknown>;
        break;
      case 'sort':
        r.sort = parseSort(v);
        break;
      case 'aggs':
      case 'aggregations':
        if (!v || typeof v !== 'object' || Array.isArray(v)) throw unknownKey(k, v);
        r.aggs = v;
        break;
      case 'highlight':
        r.highlight = parseHighlight(v);
        break;
      case 'search_after':
        if (!Array.isArray(v)) throw unknownKey(k, v);
        r.searchAfter = v;
        break;
      case 'indices_boost':
        if (Array.isArray(v)) {
          for (const e of v)
            for (const [idx, b] of Object.entries(e as Record<string, unknown>))
              r.indicesBoost.push({ index: idx, boost: Number(b) });
        } else if (v && typeof v === 'object') {
          for (const [idx, b] of Object.entries(v))
            r.indicesBoost.push({ index: idx, boost: Number(b) });
        }
        break;
      case 'collapse':
        r.collapse = v;
        break;
      case 'suggest':
        r.suggest = v;
        break;
      case 'stats':
        r.stats = Array.isArray(v) ? v.map(String) : [];
        break;
      case 'rescore':
      case 'ext':
      case 'slice':
        break;
      default:
        throw unknownKey(k, v);
    }
  }
  return r;
}

function parseHighlight(v: unknown): HighlightSpec {
  if (!v || typeof v !== 'object' || Array.isArray(v))
    throw parsingException('[highlight] unknown field');
  const o = v as Record<string, unknown>;
  const fields: HighlightSpec['fields'] = [];
  const f = o.fields;
  if (Array.isArray(f)) {
    for (const e of f)
      for (const [name, opts] of Object.entries(e as Record<string, unknown>))
        fields.push({ name, opts: (opts ?? {}) as Record<string, unknown> });
  } else if (f && typeof f === 'object') {
    for (const [name, opts] of Object.entries(f))
      fields.push({ name, opts: (opts ?? {}) as Record<string, unknown> });
  }
  const global: Record<string, unknown> = { ...o };
  delete global.fields;
  return { fields, global };
}
