/**
 * Field collapsing (ES CollapseBuilder, CollapseContext, ExpandSearchPhase): `collapse` parsing
 * with its inner_hits (InnerHitBuilder, including a second-level `collapse`), the per-shard checks
 * CollapseBuilder.build makes, the doc-value reader the collector groups by, and the group search
 * each hit's inner hits come from.
 */
import { EsError } from '../../common/errors.js';
import type { SourceFilter } from '../../common/source-filter.js';
import type { IndexService } from '../../engine/index-service.js';
import { lookupField } from '../../mapping/index.js';
import type { GroupReader, GroupValue } from '../../search/collect/collapse.js';
import {
  boolValue,
  intValue,
  parseDocvalueFields,
  parseSort,
  parseSourceSpec,
  parseStoredFields,
  tokenName,
  type DocvalueFieldSpec,
  type SortSpec,
} from './request-values.js';

export interface InnerHitSpec {
  name: string | null;
  from: number;
  size: number;
  sort: SortSpec[] | null;
  /** undefined: not given. */
  source: SourceFilter | null | undefined;
  storedFields: string[] | null;
  docvalueFields: DocvalueFieldSpec[] | null;
  scriptFields: unknown | null;
  highlight: unknown | null;
  explain: boolean;
  version: boolean;
  seqNoPrimaryTerm: boolean;
  trackScores: boolean;
  /** Second-level collapse (`{field}` only). */
  collapseField: string | null;
}

export interface CollapseSpec {
  field: string;
  maxConcurrentGroupSearches: number;
  innerHits: InnerHitSpec[];
}

/** ObjectParser's wrapping of a field parser's failure. */
const failedField = (parser: string, field: string, cause: unknown) =>
  new EsError('x_content_parse_exception', `[${parser}] failed to parse field [${field}]`, 400, {
    ...(cause instanceof EsError ? { causedBy: cause } : {}),
  });

const unknownField = (parser: string, field: string) =>
  new EsError(
    'x_content_parse_exception',
    `[${parser}] unknown field [${field}], parser not found`,
    400,
  );

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/** CollapseBuilder.fromXContent. */
export function parseCollapse(v: unknown): CollapseSpec {
  if (!isObject(v))
    throw new EsError('parsing_exception', `Unknown key for a ${tokenName(v)} in [collapse].`, 400);
  const spec: CollapseSpec = { field: '', maxConcurrentGroupSearches: 0, innerHits: [] };
  for (const [k, x] of Object.entries(v)) {
    try {
      switch (k) {
        case 'field':
          if (typeof x !== 'string') throw unknownType('collapse', k, x);
          if (x === '')
            throw new EsError('illegal_argument_exception', 'field name is null or empty', 400);
          spec.field = x;
          break;
        case 'max_concurrent_group_searches': {
          const n = intValue(k, x);
          if (n < 1)
            throw new EsError(
              'illegal_argument_exception',
              'maxConcurrentGroupRequests` must be positive',
              400,
            );
          spec.maxConcurrentGroupSearches = n;
          break;
        }
        case 'inner_hits':
          if (isObject(x)) spec.innerHits = [parseInnerHit(x)];
          else if (Array.isArray(x)) {
            spec.innerHits = x.map((e) => {
              if (!isObject(e))
                throw new EsError('parsing_exception', 'Invalid token in inner_hits array', 400);
              return parseInnerHit(e);
            });
          } else throw unknownType('collapse', k, x);
          break;
        default:
          throw unknownField('collapse', k);
      }
    } catch (e) {
      if (e instanceof EsError && e.reason?.startsWith('[collapse]')) throw e;
      throw failedField('collapse', k, e);
    }
  }
  if (spec.field === '')
    throw new EsError('illegal_argument_exception', 'field name is null or empty', 400);
  return spec;
}

const unknownType = (parser: string, field: string, v: unknown) =>
  new EsError(
    'x_content_parse_exception',
    `[${parser}] ${field} doesn't support values of type: ${tokenName(v)}`,
    400,
  );

/** InnerHitBuilder.fromXContent (the fields a collapse's inner_hits accept). */
export function parseInnerHit(o: Record<string, unknown>): InnerHitSpec {
  const h: InnerHitSpec = {
    name: null,
    from: 0,
    size: 3,
    sort: null,
    source: undefined,
    storedFields: null,
    docvalueFields: null,
    scriptFields: null,
    highlight: null,
    explain: false,
    version: false,
    seqNoPrimaryTerm: false,
    trackScores: false,
    collapseField: null,
  };
  for (const [k, x] of Object.entries(o)) {
    try {
      switch (k) {
        case 'name':
          h.name = String(x);
          break;
        case 'ignore_unmapped':
          boolValue(k, x);
          break;
        case 'from':
          h.from = intValue(k, x);
          break;
        case 'size':
          h.size = intValue(k, x);
          break;
        case 'explain':
          h.explain = boolValue(k, x);
          break;
        case 'version':
          h.version = boolValue(k, x);
          break;
        case 'seq_no_primary_term':
          h.seqNoPrimaryTerm = boolValue(k, x);
          break;
        case 'track_scores':
          h.trackScores = boolValue(k, x);
          break;
        case 'stored_fields':
          h.storedFields = parseStoredFields(x);
          break;
        case 'docvalue_fields':
          h.docvalueFields = parseDocvalueFields(x);
          break;
        case 'script_fields':
          h.scriptFields = x;
          break;
        case 'sort':
          h.sort = parseSort(x);
          break;
        case '_source':
          h.source = parseSourceSpec(x);
          break;
        case 'highlight':
          h.highlight = x;
          break;
        case 'collapse':
          h.collapseField = parseInnerCollapse(x);
          break;
        default:
          throw unknownField('inner_hits', k);
      }
    } catch (e) {
      if (e instanceof EsError && e.reason?.startsWith('[inner_hits]')) throw e;
      throw failedField('inner_hits', k, e);
    }
  }
  return h;
}

/** A second-level collapse: only `{field}`; it cannot carry inner_hits or another collapse. */
function parseInnerCollapse(v: unknown): string {
  if (isObject(v)) {
    const keys = Object.keys(v);
    if (keys.length === 1 && keys[0] === 'field' && typeof v.field === 'string') return v.field;
  }
  throw new EsError('parsing_exception', 'Invalid token in the inner collapse', 400);
}

/** Types whose field type is an ES NumberFieldType (scaled_float and date are not). */
const NUMBER_FIELD_TYPES = new Set([
  'long', 'integer', 'short', 'byte', 'double', 'float', 'half_float', 'token_count',
]); // prettier-ignore

const searchContextError = (reason: string) => new EsError('search_context_exception', reason, 500);

/**
 * CollapseBuilder.build on one shard: request combinations and the field's mapping are checked,
 * then a reader of the field's single doc value per document is returned.
 */
export function collapseReader(
  spec: CollapseSpec,
  idx: IndexService,
  ctx: { scroll: boolean; searchAfter: boolean; rescore: boolean },
): GroupReader {
  if (ctx.scroll) throw searchContextError('cannot use `collapse` in a scroll context');
  if (ctx.searchAfter)
    throw searchContextError('cannot use `collapse` in conjunction with `search_after`');
  if (ctx.rescore) throw searchContextError('cannot use `collapse` in conjunction with `rescore`');
  const f = idx.mapping ? lookupField(idx.mapping, spec.field) : undefined;
  if (!f)
    throw searchContextError(`no mapping found for \`${spec.field}\` in order to collapse on`);
  const numeric = NUMBER_FIELD_TYPES.has(f.type);
  if (f.type !== 'keyword' && !numeric)
    throw searchContextError(
      `unknown type for collapse field \`${spec.field}\`, only keywords and numbers are accepted`,
    );
  if (!f.docValues)
    throw searchContextError(`cannot collapse on field \`${spec.field}\` without \`doc_values\``);
  if (!f.index && spec.innerHits.length > 0)
    throw searchContextError(
      `cannot expand \`inner_hits\` for collapse field \`${spec.field}\`, only indexed field can retrieve \`inner_hits\``,
    );
  const path = f.path;
  const singleValued = (doc: number) =>
    new EsError(
      'illegal_state_exception',
      `failed to collapse ${doc}, the collapse field must be single valued`,
      500,
    );
  return (ls) => {
    const col = ls.segment.fields.get(path)?.docValues ?? null;
    if (!col) return () => null;
    if (col.kind === 'numeric') {
      if (col.single) {
        const single = col.single;
        return (doc) => {
          const v = single[doc]!;
          return Number.isNaN(v) ? null : v;
        };
      }
      return (doc): GroupValue => {
        const n = col.offsets![doc + 1]! - col.offsets![doc]!;
        if (n === 0) return null;
        if (n > 1) throw singleValued(doc);
        return col.values![col.offsets![doc]!]!;
      };
    }
    if (col.single) {
      const single = col.single;
      return (doc) => {
        const o = single[doc]!;
        return o < 0 ? null : col.dict[o]!;
      };
    }
    return (doc): GroupValue => {
      const n = col.offsets![doc + 1]! - col.offsets![doc]!;
      if (n === 0) return null;
      if (n > 1) throw singleValued(doc);
      return col.dict[col.ords![col.offsets![doc]!]!]!;
    };
  };
}

/**
 * ExpandSearchPhase: the body of the search that fills one inner_hits entry of a collapsed hit:
 * the original query restricted to the hit's group, with the inner hit's paging and fetch options.
 */
export function groupSearchBody(
  spec: CollapseSpec,
  inner: InnerHitSpec,
  value: unknown,
  origQuery: unknown | null,
  postFilter: unknown | null,
): Record<string, unknown> {
  const bool: Record<string, unknown> = {};
  if (value !== null && value !== undefined) bool.filter = [{ match: { [spec.field]: value } }];
  else bool.must_not = [{ exists: { field: spec.field } }];
  if (origQuery !== null) bool.must = [origQuery];
  const body: Record<string, unknown> = {
    query: { bool },
    from: inner.from,
    size: inner.size,
    explain: inner.explain,
    track_scores: inner.trackScores,
    version: inner.version,
    seq_no_primary_term: inner.seqNoPrimaryTerm,
  };
  if (postFilter !== null) body.post_filter = postFilter;
  if (inner.collapseField !== null) body.collapse = { field: inner.collapseField };
  if (inner.scriptFields !== null) body.script_fields = inner.scriptFields;
  if (inner.highlight !== null) body.highlight = inner.highlight;
  return body;
}
