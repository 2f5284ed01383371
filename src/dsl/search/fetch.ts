/**
 * Fetch phase (ES FetchPhase and its sub phases): turns merged hits into Elasticsearch hit objects
 * — `_source` from the store (the client's bytes, or filtered), version/seq_no, `_routing` and
 * `_ignored`, docvalue_fields, stored fields, script_fields, highlights, sort values,
 * matched_queries and explanations (with rescoring).
 */
import { ByteArena } from '../../common/byte-arena.js';
import { illegalArgument } from '../../common/errors.js';
import { filterSource, isFilterEmpty, type SourceFilter } from '../../common/source-filter.js';
import { RawJson } from '../../common/json.js';
import { expandFieldPattern, lookupField } from '../../mapping/index.js';
import type { CollectedHit } from '../../search/collect/top-docs.js';
import type { SortKey } from '../../search/collect/sort.js';
import type { LiveSegment } from '../../search/index/live-segment.js';
import type { InvertedField } from '../../search/index/segment.js';
import { stringAt } from '../../search/index/string-block.js';
import type { SearchStats } from '../../search/query/stats.js';
import type { Explanation } from '../../search/query/explanation.js';
import { createWeight, type Weight } from '../../search/query/weights.js';
import { toSearchQuery, type IndexQueryContext, type QueryNode } from '../query/index.js';
import { JavaHashMap } from '../query/java-hash-map.js';
import type { IndexService } from '../../engine/index-service.js';
import type { HighlightSpec } from './request.js';
import type { DocvalueFieldSpec } from './request-values.js';
import type { ShardTarget } from './execute.js';
import { highlightHit } from './highlight.js';
import { extractInnerHits, innerHitsOf } from './inner-hits.js';
import { percolatorSlots } from './percolator-slots.js';
import { matchedQueries } from './matched-queries.js';
import { DEFAULT_DATE_FORMAT, dateFormatter } from '../../common/dates/index.js';
import type { FieldMapping } from '../../mapping/types.js';
import { fieldDocFormat } from '../aggs/support/doc-format.js';
import { geoPointsFromSource } from '../script/source-doc-values.js';
import { formatDocValues } from './docvalue-fields.js';
import {
  filterNestedObject,
  innerHitsFor,
  nestedChain,
  renderNestedIdentity,
  type NestedIdentity,
  type NestedInnerHits,
} from './nested-inner-hits.js';
import { explainRescore, type RescoreSpec } from './rescore.js';
import type { ScriptFieldRunner } from './script-fields.js';

export interface FetchOptions {
  /** The `_source` to return (null: none). */
  source: SourceFilter | null;
  /** Stored fields asked for (`_source` and `_none_` already resolved away). */
  storedFields: string[] | null;
  /** `stored_fields: _none_`: hits carry no `_id`, `_type` or metadata fields. */
  noStoredFields?: boolean;
  docvalueFields: DocvalueFieldSpec[];
  /** Compiled script_fields of an index. */
  scriptFields?: (idx: IndexService) => ScriptFieldRunner[];
  version: boolean;
  seqNoPrimaryTerm: boolean;
  explain: boolean;
  highlight: HighlightSpec | null;
  sortKeys: SortKey[] | null;
  nodeId: string;
  parsedQuery: QueryNode;
  /** The post_filter, whose `_name`d parts count for `matched_queries` too. */
  parsedPostFilter?: QueryNode | null;
  queryContext: (idx: IndexService) => IndexQueryContext;
  stats: (t: ShardTarget) => SearchStats;
  /** Explanation of the hit's score: the query's, then each rescorer's. */
  explainHit?: (h: FetchHit) => Explanation;
  /**
   * Render the inner_hits of the query's has_child / has_parent and the percolator's slots (the
   * top-level fetch); nested inner hits come through `innerHits`.
   */
  queryInnerHits?: boolean;
  /** Emit the "doc-value fields without a format" deprecation (the top-level fetch only). */
  docvalueFormatWarning?: boolean;
  /** The inner hits of the request's nested queries, added to each top-level hit. */
  innerHits?: readonly NestedInnerHits[];
  /** Nested inner hits: `source` patterns are root-level paths (ES filters the root source). */
  nestedSource?: { readonly path: string };
}

export type FetchHit = CollectedHit & { target: ShardTarget; rescored?: boolean[] };

export function fetchHits(
  page: FetchHit[],
  o: FetchOptions,
  warnings: string[],
): Record<string, unknown>[] {
  if (o.docvalueFormatWarning !== false) docvalueWarnings(page, o, warnings);
  const perIndex = new Map<IndexService, IndexFetch>();
  const matched = matchedQueries(page, o);
  const innerDefs = o.queryInnerHits
    ? extractInnerHits(o.parsedQuery).filter((d) => d.kind !== 'nested')
    : [];
  const slotsOf = o.queryInnerHits ? percolatorSlots(o) : () => null;
  const plain = plainFetch(o);
  return page.map((h) => {
    const idx = h.target.idx;
    let f = perIndex.get(idx);
    if (!f) {
      f = {
        docvalueFields: expandDocvalueFields(idx, o.docvalueFields),
        storedFields: o.storedFields ? expandStoredFields(idx, o.storedFields) : null,
        scriptFields: o.scriptFields ? o.scriptFields(idx) : [],
      };
      perIndex.set(idx, f);
    }
    const hit =
      plain && f.docvalueFields.length === 0 && f.scriptFields.length === 0 && !isNested(h)
        ? fetchPlain(h, o, matched.get(h))
        : fetchOne(h, o, f, matched.get(h));
    const slots = slotsOf(h);
    if (slots) hit.fields = { ...(hit.fields as object | undefined), ...slots };
    const inner = innerHitsOf(h, innerDefs, o, warnings, fetchHits);
    // next to the nested inner hits fetchOne rendered
    if (inner) hit.inner_hits = { ...(hit.inner_hits as object | undefined), ...inner };
    return hit;
  });
}

/** The fetch options of one index, with field patterns expanded against its mapping. */
interface IndexFetch {
  docvalueFields: DocvalueFieldSpec[];
  /** requested name → mapped field path */
  storedFields: Array<[string, FieldMapping]> | null;
  scriptFields: ScriptFieldRunner[];
}

/** FetchPhase: stored field names and patterns; an object path is an error, unknown ones skipped. */
function expandStoredFields(
  idx: IndexService,
  names: readonly string[],
): Array<[string, FieldMapping]> {
  const out: Array<[string, FieldMapping]> = [];
  const m = idx.mapping;
  if (!m) return out;
  for (const pattern of names) {
    const fields = pattern.includes('*') ? expandFieldPattern(m, pattern) : [pattern];
    for (const name of fields) {
      const f = lookupField(m, name);
      if (!f) {
        if (m.objectsByPath.has(name)) throw illegalArgument(`field [${name}] isn't a leaf field`);
        continue;
      }
      if (f.store) out.push([name, f]);
    }
  }
  return out;
}

/** SearchService.parseSource: docvalue_fields patterns expanded against the index's mapping. */
export function expandDocvalueFields(
  idx: IndexService,
  specs: readonly DocvalueFieldSpec[],
): DocvalueFieldSpec[] {
  const out: DocvalueFieldSpec[] = [];
  for (const s of specs) {
    if (!s.field.includes('*') || !idx.mapping) out.push(s);
    else for (const f of expandFieldPattern(idx.mapping, s.field)) out.push({ ...s, field: f });
  }
  return out;
}

/** DocValueFieldsFetchSubPhase: one warning per shard that fetches hits, naming the fields. */
function docvalueWarnings(page: FetchHit[], o: FetchOptions, warnings: string[]): void {
  if (!o.docvalueFields.some((d) => d.format === null)) return;
  const seen = new Set<ShardTarget>();
  for (const h of page) {
    if (seen.has(h.target)) continue;
    seen.add(h.target);
    const names = expandDocvalueFields(h.target.idx, o.docvalueFields)
      .filter((d) => d.format === null)
      .map((d) => d.field);
    warnings.push(
      'There are doc-value fields which are not using a format. The output will change in 7.0 when doc value fields get formatted based on mappings by default. It is recommended to pass [format=use_field_mapping] with a doc value field in order to opt in for the future behaviour and ease the migration to 7.0: ' +
        `[${names.join(', ')}]`,
    );
  }
}

const f32 = (v: number) => Math.fround(v);

/**
 * Where fetched `_source` bytes are copied out of LMDB's reused read buffer: packed into blocks
 * shared by every request, as Node's pool packs small buffers (a block per request would cost a
 * page of small hits more than the copies it saves).
 */
const sourceCopies = new ByteArena();

/**
 * Whether the options ask for the common hit only: ids, score, the whole `_source`, sort values
 * and matched queries (no explanation, versions, stored, docvalue or script fields, highlights
 * or nested inner hits). Such hits take `fetchPlain`, which renders the same object as
 * `fetchOne` with a fraction of its code: a fresh node's first searches run it unoptimized.
 */
function plainFetch(o: FetchOptions): boolean {
  return (
    !o.explain &&
    !o.noStoredFields &&
    !o.version &&
    !o.seqNoPrimaryTerm &&
    o.source !== null &&
    isFilterEmpty(o.source) &&
    (o.storedFields === null || o.storedFields.length === 0) &&
    o.docvalueFields.length === 0 &&
    !o.scriptFields &&
    !o.highlight &&
    (!o.innerHits || o.innerHits.length === 0)
  );
}

function isNested(h: FetchHit): boolean {
  return (h as { nested?: NestedIdentity }).nested !== undefined;
}

/** `fetchOne` of a top-level hit under `plainFetch` options (same keys, same order). */
function fetchPlain(
  h: FetchHit,
  o: FetchOptions,
  matched: string[] | undefined,
): Record<string, unknown> {
  const { idx, shard } = h.target;
  const seg = h.segment.segment;
  const id = stringAt(seg.ids, h.doc);
  const hit: Record<string, unknown> = {
    _index: idx.name,
    _type: idx.typeName ?? '_doc',
    _id: id,
    _score: Number.isNaN(h.score) ? null : f32(h.score),
  };
  const routing = seg.routing.get(h.doc);
  if (routing !== undefined) hit._routing = routing;
  const ignored = ignoredFields(h.segment, h.doc);
  if (ignored) hit._ignored = ignored;
  if (idx.mapping?.source.enabled !== false) {
    const bytes = shard.sourceBytesAt(id, seg.seqNos[h.doc]!, sourceCopies);
    if (bytes !== null) hit._source = RawJson.ofUtf8(bytes);
  }
  if (o.sortKeys && h.sort) hit.sort = renderSort(o.sortKeys, h.sort);
  if (matched) hit.matched_queries = matched;
  return hit;
}

function fetchOne(
  h: FetchHit,
  o: FetchOptions,
  f: IndexFetch,
  matched: string[] | undefined,
): Record<string, unknown> {
  const { docvalueFields: dvFields, storedFields, scriptFields } = f;
  const { idx, shard } = h.target;
  const seg = h.segment.segment;
  const id = stringAt(seg.ids, h.doc);
  const hit: Record<string, unknown> = {};
  if (o.explain) {
    hit._shard = `[${idx.name}][${shard.id}]`;
    hit._node = o.nodeId;
  }
  if (!o.noStoredFields) {
    hit._index = idx.name;
    hit._type = idx.typeName ?? '_doc';
    hit._id = id;
  } else hit._index = idx.name;
  // SearchHit.toXContent: the nested identity right after the ids
  const nested = (h as { nested?: NestedIdentity }).nested;
  if (nested) hit._nested = renderNestedIdentity(nestedChain(nested));
  if (o.version) hit._version = seg.versions[h.doc];
  if (o.seqNoPrimaryTerm) {
    hit._seq_no = seg.seqNos[h.doc];
    hit._primary_term = shard.primaryTerm;
  }
  hit._score = Number.isNaN(h.score) ? null : f32(h.score);
  if (!o.noStoredFields) {
    const routing = seg.routing.get(h.doc);
    if (routing !== undefined) hit._routing = routing;
    const ignored = ignoredFields(h.segment, h.doc);
    if (ignored) hit._ignored = ignored;
  }
  const needsRecord =
    o.source ||
    (storedFields && storedFields.length) ||
    o.highlight ||
    scriptFields.length ||
    dvFields.some(
      (dv) => (idx.mapping ? lookupField(idx.mapping, dv.field) : undefined)?.type === 'geo_point',
    );
  // The whole `_source` and nothing else read from it (the common hit): its text alone, read
  // without copying the record.
  const textOnly =
    !!o.source &&
    isFilterEmpty(o.source) &&
    !nested &&
    !(storedFields && storedFields.length) &&
    !o.highlight &&
    !scriptFields.length &&
    !dvFields.length;
  // the version the searched view holds, as ES fetches from the point-in-time segment
  const rec = needsRecord && !textOnly ? shard.readAt(id, seg.seqNos[h.doc]!) : null;
  let parsedSource: unknown;
  const source = () => (parsedSource ??= rec ? JSON.parse(rec.source.toString('utf8')) : {});
  if (nested) {
    // A nested hit (inner hits, top_hits under nested aggs) shows the inner object, found
    // level by level from the root
    if (o.source && rec) {
      let obj: unknown = source();
      for (const l of nestedChain(nested)) {
        const inner = valueAtPath(obj, l.field);
        obj = Array.isArray(inner) ? inner[l.offset] : inner;
      }
      hit._source = isFilterEmpty(o.source)
        ? obj
        : o.nestedSource
          ? filterNestedObject(obj, nested.field, o.source)
          : filterSource(obj, o.source);
    }
  } else if (textOnly) {
    if (idx.mapping?.source.enabled !== false) {
      const bytes = shard.sourceBytesAt(id, seg.seqNos[h.doc]!, sourceCopies);
      if (bytes !== null) hit._source = RawJson.ofUtf8(bytes);
    }
  } else if (o.source && rec && idx.mapping?.source.enabled !== false) {
    hit._source = isFilterEmpty(o.source)
      ? RawJson.ofUtf8(rec.source)
      : filterSource(source(), o.source);
  }
  const fields: Record<string, unknown[]> = {};
  if (storedFields && rec) {
    for (const [name, fm] of storedFields) {
      const v = valueAtPath(source(), fm.path);
      if (v === undefined || v === null) continue;
      const vals = (Array.isArray(v) ? v : [v]).flatMap((x) => storedValue(fm, x));
      if (vals.length) fields[name] = vals;
    }
  }
  for (const sf of scriptFields) {
    const vals = sf.run(h.segment, h.doc, source);
    if (vals !== null) fields[sf.name] = vals;
  }
  for (const dv of dvFields) {
    // metadata fields with doc values (nested docs carry their root's)
    if (dv.field === '_seq_no' || dv.field === '_version') {
      fields[dv.field] = [dv.field === '_seq_no' ? seg.seqNos[h.doc] : seg.versions[h.doc]];
      continue;
    }
    const fm = idx.mapping ? lookupField(idx.mapping, dv.field) : undefined;
    if (!fm) continue;
    // segments keep no geo_point doc values: they come from the source, quantized as ES's
    const vals =
      fm.type === 'geo_point'
        ? rec
          ? geoPointsFromSource(source(), fm.path)
          : []
        : formatDocValues(fm, h.segment, h.doc, dv.format);
    if (vals.length) fields[dv.field] = vals;
  }
  if (Object.keys(fields).length) hit.fields = fields;
  if (o.highlight && rec) {
    const hl = highlightHit(o.highlight, idx, source(), o.parsedQuery, o.queryContext(idx), id);
    if (hl && Object.keys(hl).length) hit.highlight = hl;
  }
  if (o.sortKeys && h.sort) hit.sort = renderSort(o.sortKeys, h.sort);
  if (matched) hit.matched_queries = matched;
  if (o.explain) hit._explanation = o.explainHit ? o.explainHit(h) : queryExplanation(h, o);
  if (o.innerHits && o.innerHits.length > 0) {
    hit.inner_hits = innerHitsFor(h, o.innerHits, o, (ih, io) =>
      fetchOne(
        ih,
        io,
        {
          docvalueFields: expandDocvalueFields(idx, io.docvalueFields),
          storedFields: null,
          scriptFields: [],
        },
        undefined,
      ),
    );
  }
  return hit;
}

/**
 * A stored field's value as MappedFieldType.valueForDisplay shows it (read back from `_source`):
 * dates in the mapping's format, numbers and booleans typed; malformed values were not stored.
 */
function storedValue(f: FieldMapping, v: unknown): unknown[] {
  try {
    switch (f.type) {
      case 'date': {
        const ms =
          typeof v === 'number'
            ? v
            : dateFormatter(f.format ?? DEFAULT_DATE_FORMAT, 'joda', f.locale).parse(String(v));
        return [fieldDocFormat(f, null, null).format(ms)];
      }
      case 'long':
      case 'integer':
      case 'short':
      case 'byte': {
        const n = Number(v);
        return Number.isNaN(n) ? [] : [Math.trunc(n)];
      }
      case 'double':
      case 'float':
      case 'half_float':
      case 'scaled_float': {
        const n = Number(v);
        return Number.isNaN(n) ? [] : [n];
      }
      case 'boolean':
        return [v === true || v === 'true'];
      default:
        return [v];
    }
  } catch {
    return [];
  }
}

/** The `_ignored` values of a doc, in the order ES stores them (a Java HashSet's order). */
function ignoredFields(ls: LiveSegment, doc: number): string[] | null {
  const inv = ls.segment.fields.get('_ignored')?.inverted;
  if (!inv) return null;
  const names = new JavaHashMap<true>();
  for (let t = 0; t < inv.terms.length; t++)
    if (hasDoc(inv, t, doc)) names.set(inv.terms[t]!, true);
  return names.size ? names.keys() : null;
}

function hasDoc(inv: InvertedField, t: number, doc: number): boolean {
  let lo = inv.termStart[t]!;
  let hi = inv.termStart[t + 1]! - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const d = inv.docs[mid]!;
    if (d < doc) lo = mid + 1;
    else if (d > doc) hi = mid - 1;
    else return true;
  }
  return false;
}

function queryExplanation(h: FetchHit, o: FetchOptions): Explanation {
  const q = toSearchQuery(o.parsedQuery, o.queryContext(h.target.idx));
  const w = createWeight(q, { stats: o.stats(h.target), needsScores: true, segments: h.target.snapshot.segments }); // prettier-ignore
  return w.explain(h.segment, h.doc);
}

/** ExplainFetchSubPhase with rescorers: the query's explanation wrapped by each rescorer's. */
export function explainWithRescore(
  h: FetchHit,
  base: Explanation,
  specs: readonly RescoreSpec[],
  weights: readonly Weight[],
): Explanation {
  let e = base;
  specs.forEach((spec, i) => {
    const wasRescored = h.rescored?.[i] ?? false;
    let second: { matched: boolean; explanation: Explanation } | null = null;
    if (wasRescored) {
      const w = weights[i]!;
      const s = w.scorer(h.segment);
      const matched = s !== null && (s.doc < h.doc ? s.advance(h.doc) : s.doc) === h.doc;
      second = { matched, explanation: w.explain(h.segment, h.doc) };
    }
    e = explainRescore(e, spec, wasRescored, second);
  });
  return e;
}

export function renderSort(keys: SortKey[], vals: unknown[]): unknown[] {
  return vals.map((v, i) => {
    const k = keys[i]!;
    if (typeof v === 'number' && k.kind === 'score') return f32(v);
    return v;
  });
}

export function valueAtPath(src: unknown, path: string): unknown {
  if (src === null || typeof src !== 'object') return undefined;
  const o = src as Record<string, unknown>;
  if (path in o) return o[path];
  const dot = path.indexOf('.');
  if (dot < 0) return undefined;
  // Try every split point: `a.b.c` may be stored as {a: {b.c}} or {a.b: {c}}.
  for (let i = dot; i >= 0; i = path.indexOf('.', i + 1)) {
    const head = path.slice(0, i);
    if (head in o) {
      const inner = o[head];
      const rest = path.slice(i + 1);
      if (Array.isArray(inner)) {
        const vals = inner
          .map((x) => valueAtPath(x, rest))
          .filter((x) => x !== undefined)
          .flat();
        return vals.length ? vals : undefined;
      }
      const v = valueAtPath(inner, rest);
      if (v !== undefined) return v;
    }
  }
  return undefined;
}
