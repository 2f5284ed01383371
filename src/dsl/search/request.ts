/**
 * The search request body (ES SearchSourceBuilder.parseXContent) and URI parameters, parsed into
 * one typed SearchRequest. Queries and aggregations stay as JSON here; they are parsed by their
 * own modules so errors keep Elasticsearch's wording.
 */
import { EsError, illegalArgument, parsingException } from '../../common/errors.js';
import type { SourceFilter } from '../../common/source-filter.js';
import { parseCollapse, type CollapseSpec } from './collapse.js';
import { parseRescore, type RescoreSpec } from './rescore.js';
import { parseSlice, type SliceSpec } from './slice.js';
import { searchTimeoutMs } from './search-timeout.js';
import {
  boolValue,
  intValue,
  sourceIntValue,
  parseDocvalueFields,
  parseSort,
  parseSourceSpec,
  parseStoredFields,
  tokenName,
  unknownKey,
  type DocvalueFieldSpec,
  type SortSpec,
} from './request-values.js';

export {
  parseSort,
  parseSortParam,
  parseSourceSpec,
  type DocvalueFieldSpec,
  type SortSpec,
} from './request-values.js';

export interface HighlightSpec {
  fields: Array<{ name: string; opts: Record<string, unknown> }>;
  global: Record<string, unknown>;
}

export interface ScriptFieldSpec {
  name: string;
  script: unknown;
  ignoreFailure: boolean;
}

export interface SearchRequest {
  query: unknown | null;
  postFilter: unknown | null;
  from: number;
  size: number;
  sort: SortSpec[] | null;
  source: SourceFilter | null; // null = no _source
  /** `_source` was given (body or URI): it then decides alone whether the source is fetched. */
  sourceGiven: boolean;
  storedFields: string[] | null;
  docvalueFields: DocvalueFieldSpec[];
  scriptFields: ScriptFieldSpec[];
  aggs: unknown | null;
  highlight: HighlightSpec | null;
  minScore: number | null;
  trackScores: boolean;
  trackTotalHits: boolean;
  terminateAfter: number;
  /** The request's `timeout` in ms (null: not given, the default applies; -1: none). */
  timeoutMs: number | null;
  version: boolean;
  seqNoPrimaryTerm: boolean;
  explain: boolean;
  searchAfter: unknown[] | null;
  indicesBoost: Array<{ index: string; boost: number }>;
  rescore: RescoreSpec[];
  collapse: CollapseSpec | null;
  slice: SliceSpec | null;
  suggest: unknown | null;
  profile: boolean;
  stats: string[];
  /** Deprecation warnings raised while parsing (ES DeprecationLogger). */
  deprecations: string[];
}

export const emptyRequest = (): SearchRequest => ({
  query: null,
  postFilter: null,
  from: -1,
  size: -1,
  sort: null,
  source: { includes: [], excludes: [] },
  sourceGiven: false,
  storedFields: null,
  docvalueFields: [],
  scriptFields: [],
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
  rescore: [],
  collapse: null,
  slice: null,
  suggest: null,
  profile: false,
  stats: [],
  deprecations: [],
});

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
        r.from = sourceIntValue(k, v);
        break;
      case 'size':
        r.size = sourceIntValue(k, v);
        break;
      case 'timeout':
        // SearchSourceBuilder: TimeValue.parseTimeValue(parser.text()), numbers included
        if (v === null || typeof v === 'object') throw unknownKey(k, v);
        r.timeoutMs = searchTimeoutMs(String(v), 'timeout');
        break;
      case 'terminate_after':
        r.terminateAfter = sourceIntValue(k, v);
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
        r.sourceGiven = true;
        break;
      case 'stored_fields':
        r.storedFields = parseStoredFields(v);
        break;
      case 'docvalue_fields':
        r.docvalueFields = parseDocvalueFields(v);
        break;
      case 'script_fields':
        r.scriptFields = parseScriptFields(v);
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
        parseIndicesBoost(v, r);
        break;
      case 'rescore':
        r.rescore = parseRescore(v);
        break;
      case 'collapse':
        r.collapse = parseCollapse(v);
        break;
      case 'slice':
        r.slice = parseSlice(v);
        break;
      case 'suggest':
        if (!v || typeof v !== 'object' || Array.isArray(v)) throw unknownKey(k, v);
        r.suggest = v;
        break;
      case 'stats':
        r.stats = Array.isArray(v) ? v.map(String) : [];
        break;
      case 'ext':
        break;
      default:
        throw unknownKey(k, v);
    }
  }
  return r;
}

/** SearchSourceBuilder `indices_boost`: the deprecated object form or an array of one-key objects. */
function parseIndicesBoost(v: unknown, r: SearchRequest): void {
  const boostOf = (x: unknown) => {
    const n = typeof x === 'string' ? Number(x) : x;
    if (typeof n !== 'number' || Number.isNaN(n))
      throw parsingException(
        `Expected [VALUE_NUMBER] in [indices_boost] but found [${tokenName(x)}]`,
      );
    return Math.fround(n);
  };
  if (Array.isArray(v)) {
    for (const e of v) {
      if (!e || typeof e !== 'object' || Array.isArray(e))
        throw parsingException(`Unknown key for a ${tokenName(e)} in [indices_boost].`);
      const entries = Object.entries(e as Record<string, unknown>);
      if (entries.length === 0)
        throw parsingException('Expected [FIELD_NAME] in [indices_boost] but found [END_OBJECT]');
      const [index, b] = entries[0]!;
      if (typeof b !== 'number')
        throw parsingException(
          `Expected [VALUE_NUMBER] in [indices_boost] but found [${tokenName(b)}]`,
        );
      if (entries.length > 1)
        throw parsingException('Expected [END_OBJECT] in [indices_boost] but found [FIELD_NAME]');
      r.indicesBoost.push({ index, boost: Math.fround(b) });
    }
    return;
  }
  if (v && typeof v === 'object') {
    r.deprecations.push(
      'Object format in indices_boost is deprecated, please use array format instead',
    );
    for (const [index, b] of Object.entries(v)) {
      if (b !== null && typeof b === 'object')
        throw parsingException(`Unknown key for a ${tokenName(b)} in [${index}].`);
      r.indicesBoost.push({ index, boost: boostOf(b) });
    }
    return;
  }
  throw unknownKey('indices_boost', v);
}

/** SearchSourceBuilder.ScriptField: `{name: {script, ignore_failure}}`. */
export function parseScriptFields(v: unknown): ScriptFieldSpec[] {
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw unknownKey('script_fields', v);
  const out: ScriptFieldSpec[] = [];
  for (const [name, def] of Object.entries(v)) {
    if (!def || typeof def !== 'object' || Array.isArray(def))
      throw parsingException(`Expected [START_OBJECT] in [${name}] but found [${tokenName(def)}]`);
    let script: unknown = undefined;
    let ignoreFailure = false;
    for (const [k, x] of Object.entries(def as Record<string, unknown>)) {
      if (k === 'script') script = x;
      else if (k === 'ignore_failure') ignoreFailure = boolValue(k, x);
      else throw parsingException(`Unknown key for a ${tokenName(x)} in [${k}].`);
    }
    if (script === undefined) throw parsingException(`Expected [script] field in [${name}]`);
    out.push({ name, script, ignoreFailure });
  }
  return out;
}

function parseHighlight(v: unknown): HighlightSpec {
  if (!v || typeof v !== 'object' || Array.isArray(v))
    throw parsingException('[highlight] unknown field');
  const o = v as Record<string, unknown>;
  const fields: HighlightSpec['fields'] = [];
  const f = o.fields;
  if (Array.isArray(f)) {
    for (const e of f) {
      // ES ObjectParser.declareNamedObjects: each array entry is an object with one field
      if (!e || typeof e !== 'object' || Array.isArray(e) || Object.keys(e).length !== 1) {
        const cause = new EsError(
          'x_content_parse_exception',
          '[fields] can be a single object with any number of fields or an array where each entry is an object with a single field',
          400,
        );
        throw new EsError(
          'x_content_parse_exception',
          '[highlight] failed to parse field [fields]',
          400,
          { causedBy: cause },
        );
      }
      for (const [name, opts] of Object.entries(e as Record<string, unknown>))
        fields.push({ name, opts: (opts ?? {}) as Record<string, unknown> });
    }
  } else if (f && typeof f === 'object') {
    for (const [name, opts] of Object.entries(f))
      fields.push({ name, opts: (opts ?? {}) as Record<string, unknown> });
  }
  const global: Record<string, unknown> = { ...o };
  delete global.fields;
  return { fields, global };
}

export { parseHighlight };

/**
 * SearchRequest.validate: the checks made before any index is resolved, as one
 * `action_request_validation_exception`, and the deprecations it logs.
 */
export function validateSearchRequest(
  r: SearchRequest,
  scroll: boolean,
  requestCache: string | undefined,
  warnings: string[],
): void {
  const errors: string[] = [];
  if (scroll && !r.trackTotalHits)
    errors.push('disabling [track_total_hits] is not allowed in a scroll context');
  if (scroll && r.from > 0) errors.push('using [from] is not allowed in a scroll context');
  if (scroll && (requestCache === 'true' || requestCache === ''))
    warnings.push(
      'Explicitly set [request_cache] for a scroll query is deprecated and will return a 400 error in future versions',
    );
  if (scroll && r.size === 0) errors.push('[size] cannot be [0] in a scroll context');
  if (scroll && r.rescore.length > 0)
    warnings.push(
      'Using [rescore] for a scroll query is deprecated and will be ignored. From 7.0 on will return a 400 error',
    );
  if (errors.length > 0)
    throw new EsError(
      'action_request_validation_exception',
      `Validation Failed: ${errors.map((e, i) => `${i + 1}: ${e};`).join('')}`,
      400,
    );
}
