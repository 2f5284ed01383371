/**
 * Fetch options per request (ES FetchPhase setup): what the top-level search returns (`_source`,
 * stored fields, docvalue_fields with the collapse field, script_fields, explanations with
 * rescoring) and what a `top_hits` aggregation returns.
 */
import { EsError } from '../../common/errors.js';
import type { IndexService } from '../../engine/index-service.js';
import type { SortKey } from '../../search/collect/sort.js';
import { shardStats, type SearchStats } from '../../search/query/stats.js';
import type { IndexQueryContext, QueryNode } from '../query/index.js';
import type { TopHitsOptions } from '../aggs/index.js';
import type { ExecuteOptions, ParsedSearch, ShardTarget } from './execute.js';
import { nestedInnerHitsOf } from './nested-inner-hits.js';
import { explainWithRescore, type FetchHit, type FetchOptions } from './fetch.js';
import type { ShardResult } from './query-phase.js';
import { parseScriptFields, parseSourceSpec, type SearchRequest } from './request.js';
import { parseDocvalueFields } from './request-values.js';
import { compileScriptFields } from './script-fields.js';

/** FetchPhase options of the top-level request: which of _source / stored fields to return. */
export function searchFetchOptions(
  req: SearchRequest,
  parsed: ParsedSearch,
  keys: SortKey[] | null,
  qctx: (idx: IndexService) => IndexQueryContext,
  globalStats: SearchStats | null,
  opts: ExecuteOptions,
  warnings: string[],
  results: ShardResult[],
): FetchOptions {
  const docvalueFields = [...req.docvalueFields];
  // DocValueFieldsFetchSubPhase: the collapse field is always returned (with the mapping format)
  if (req.collapse && !docvalueFields.some((d) => d.field === req.collapse!.field))
    docvalueFields.push({ field: req.collapse.field, format: 'use_field_mapping' });
  const base = fetchSelection(req);
  const o: FetchOptions = {
    source: base.source,
    storedFields: base.storedFields,
    docvalueFields,
    version: req.version,
    seqNoPrimaryTerm: req.seqNoPrimaryTerm,
    explain: req.explain,
    highlight: req.highlight,
    sortKeys: keys,
    nodeId: opts.nodeId,
    parsedQuery: parsed.query,
    parsedPostFilter: parsed.postFilter,
    queryContext: qctx,
    stats: (t) => globalStats ?? shardStats(t.snapshot),
    queryInnerHits: true,
  };
  if (base.noStoredFields) o.noStoredFields = true;
  const innerHits = nestedInnerHitsOf(parsed.query);
  if (innerHits.length > 0) o.innerHits = innerHits;
  if (req.scriptFields.length > 0)
    o.scriptFields = (idx) =>
      compileScriptFields(req.scriptFields, idx, opts.scriptMethods, warnings);
  const weights = new Map<ShardTarget, ShardResult>();
  for (const r of results) weights.set(r.target, r);
  const rescoring = req.rescore.length > 0 && !opts.scroll;
  o.explainHit = (h: FetchHit) => {
    const r = weights.get(h.target)!;
    const base = r.weight.explain(h.segment, h.doc);
    return rescoring ? explainWithRescore(h, base, req.rescore, r.rescoreWeights) : base;
  };
  return o;
}

/**
 * FetchPhase: with stored_fields unset the source is returned unless script_fields or an explicit
 * `_source` say otherwise; `_none_` disables stored fields; `_source` in the list asks for it.
 */
export function fetchSelection(
  req: Pick<SearchRequest, 'source' | 'sourceGiven' | 'storedFields' | 'scriptFields'>,
): Pick<FetchOptions, 'source' | 'storedFields' | 'noStoredFields'> {
  const all = { includes: [], excludes: [] };
  const sf = req.storedFields;
  if (sf === null) {
    const source = req.sourceGiven ? req.source : req.scriptFields.length === 0 ? all : null;
    return { source, storedFields: null };
  }
  if (sf.length === 1 && sf[0] === '_none_')
    return { source: null, storedFields: null, noStoredFields: true };
  if (sf.includes('_none_')) throw illegalArgumentNone();
  const wantsSource = sf.includes('_source');
  const source = wantsSource ? (req.source ?? all) : req.sourceGiven ? req.source : null;
  return { source, storedFields: sf.filter((f) => f !== '_source') };
}

const illegalArgumentNone = () =>
  new EsError('illegal_argument_exception', 'cannot combine _none_ with other fields', 400);

/** Fetch options of a `top_hits` aggregation (its own `_source`, docvalue_fields, version, ...). */
export function topHitsFetchOptions(
  o: TopHitsOptions,
  query: QueryNode,
  qctx: (idx: IndexService) => IndexQueryContext,
  stats: (t: ShardTarget) => SearchStats,
  opts: ExecuteOptions,
  warnings: string[] = [],
): FetchOptions {
  const r = o.request;
  const list = (v: unknown) =>
    v === undefined ? null : Array.isArray(v) ? v.map(String) : [String(v)];
  const dvf = r.docvalue_fields === undefined ? [] : parseDocvalueFields(r.docvalue_fields);
  const scriptFields = r.script_fields === undefined ? [] : parseScriptFields(r.script_fields);
  // FetchPhase: script_fields alone fetch no _source
  const source =
    r._source !== undefined
      ? parseSourceSpec(r._source)
      : scriptFields.length === 0
        ? { includes: [], excludes: [] }
        : null;
  const out: FetchOptions = {
    source,
    storedFields: list(r.stored_fields),
    docvalueFields: dvf,
    version: o.version,
    seqNoPrimaryTerm: o.seqNoPrimaryTerm,
    explain: o.explain,
    highlight: null,
    sortKeys: o.sort,
    nodeId: opts.nodeId,
    parsedQuery: query,
    queryContext: qctx,
    stats,
  };
  if (scriptFields.length > 0)
    out.scriptFields = (idx) =>
      compileScriptFields(scriptFields, idx, opts.scriptMethods, warnings);
  return out;
}
