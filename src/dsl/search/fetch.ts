/**
 * Fetch phase: turns merged hits into Elasticsearch hit objects — `_source` from the store (the
 * client's bytes, or filtered), version/seq_no, docvalue_fields and stored fields, highlights,
 * sort values and explanations.
 */
import { filterSource, isFilterEmpty, type SourceFilter } from '../../common/source-filter.js';
import { RawJson } from '../../common/json.js';
import { lookupField } from '../../mapping/index.js';
import type { CollectedHit } from '../../search/collect/top-docs.js';
import type { SortKey } from '../../search/collect/sort.js';
import { sortableToIp } from '../../search/index/field-values.js';
import type { SearchStats } from '../../search/query/stats.js';
import { createWeight } from '../../search/query/weights.js';
import { toSearchQuery, type IndexQueryContext, type QueryNode } from '../query/index.js';
import type { IndexService } from '../../engine/index-service.js';
import type { HighlightSpec } from './request.js';
import type { ShardTarget } from './execute.js';
import { highlightHit } from './highlight.js';

export interface FetchOptions {
  source: SourceFilter | null;
  storedFields: string[] | null;
  docvalueFields: Array<{ field: string; format: string | null }>;
  version: boolean;
  seqNoPrimaryTerm: boolean;
  explain: boolean;
  highlight: HighlightSpec | null;
  sortKeys: SortKey[] | null;
  nodeId: string;
  parsedQuery: QueryNode;
  queryContext: (idx: IndexService) => IndexQueryContext;
  stats: (t: ShardTarget) => SearchStats;
}

export function fetchHits(
  page: Array<CollectedHit & { target: ShardTarget }>,
  o: FetchOptions,
  warnings: string[],
): Record<string, unknown>[] {
  return page.map((h) => fetchOne(h, o, warnings));
}

const f32 = (v: number) => Math.fround(v);

function fetchOne(
  h: CollectedHit & { target: ShardTarget },
  o: FetchOptions,
  warnings: string[],
): Record<string, unknown> {
  const { idx, shard } = h.target;
  const seg = h.segment.segment;
  const id = seg.ids[h.doc]!;
  const hit: Record<string, unknown> = {};
  if (o.explain) {
    hit._shard = `[${idx.name}][${shard.id}]`;
    hit._node = o.nodeId;
  }
  hit._index = idx.name;
  hit._type = idx.typeName ?? '_doc';
  hit._id = id;
  if (o.version) hit._version = seg.versions[h.doc];
  if (o.seqNoPrimaryTerm) {
    hit._seq_no = seg.seqNos[h.doc];
    hit._primary_term = shard.primaryTerm;
  }
  hit._score = Number.isNaN(h.score) ? null : f32(h.score);
  const routing = seg.routing.get(h.doc);
  if (routing !== undefined) hit._routing = routing;
  const rec = o.source || o.storedFields || o.highlight ? shard.read(id) : null;
  let parsedSource: unknown;
  const source = () => (parsedSource ??= rec ? JSON.parse(rec.source.toString('utf8')) : {});
  const wantSource = o.source !== null && (o.storedFields === null || !isFilterEmptyOrDefault(o));
  const nested = (h as { nested?: { field: string; offset: number } }).nested;
  if (nested) {
    // A nested hit (top_hits under nested aggs): ES adds `_nested` and shows the inner object.
    hit._nested = { field: nested.field, offset: nested.offset };
    if (o.source && rec) {
      const inner = valueAtPath(source(), nested.field);
      const obj = Array.isArray(inner) ? inner[nested.offset] : inner;
      hit._source = isFilterEmpty(o.source) ? obj : filterSource(obj, o.source);
    }
  } else if (o.source && wantSource && rec && idx.mapping?.source.enabled !== false) {
    hit._source = isFilterEmpty(o.source)
      ? new RawJson(rec.source.toString('utf8'))
      : filterSource(source(), o.source);
  }
  const fields: Record<string, unknown[]> = {};
  if (o.storedFields && rec) {
    for (const name of o.storedFields) {
      if (name === '_source' || name === '_none_') continue;
      const f = idx.mapping ? lookupField(idx.mapping, name) : undefined;
      if (!f || !f.store) continue;
      const v = valueAtPath(source(), name);
      if (v !== undefined && v !== null) fields[name] = Array.isArray(v) ? v : [v];
    }
  }
  for (const dv of o.docvalueFields) {
    const vals = docValues(idx, h, dv.field, dv.format);
    if (vals.length) fields[dv.field] = vals;
  }
  if (o.docvalueFields.some((d) => d.format === null && isDateField(idx, d.field))) {
    warnings.push(
      'There are doc-value fields which are not using a format. The output will change in 7.0 when doc value fields get formatted based on mappings by default. It is recommended to pass [format=use_field_mapping] with a doc value field in order to opt in for the future behaviour and ease the migration to 7.0: ' +
        o.docvalueFields
          .filter((d) => d.format === null && isDateField(idx, d.field))
          .map((d) => `[${d.field}]`)
          .join(', '),
    );
  }
  if (Object.keys(fields).length) hit.fields = fields;
  if (o.highlight && rec) {
    const hl = highlightHit(o.highlight, idx, source(), o.parsedQuery, o.queryContext(idx));
    if (hl && Object.keys(hl).length) hit.highlight = hl;
  }
  if (o.sortKeys && h.sort) hit.sort = renderSort(o.sortKeys, h.sort);
  if (o.explain) {
    const q = toSearchQuery(o.parsedQuery, o.queryContext(idx));
    const w = createWeight(q, { stats: o.stats(h.target), needsScores: true });
    hit._explanation = w.explain(h.segment, h.doc);
  }
  return hit;
}

function isFilterEmptyOrDefault(o: FetchOptions): boolean {
  // With stored_fields given, _source is only returned when explicitly requested.
  return o.source !== null && !isFilterEmpty(o.source);
}

function isDateField(idx: IndexService, path: string): boolean {
  const f = idx.mapping ? lookupField(idx.mapping, path) : undefined;
  return f?.type === 'date';
}

export function renderSort(keys: SortKey[], vals: unknown[]): unknown[] {
  return vals.map((v, i) => {
    const k = keys[i]!;
    if (typeof v === 'number') {
      if (k.kind === 'score') return f32(v);
      if (k.valueType === 'double') return v;
      return v;
    }
    return v;
  });
}

function docValues(
  idx: IndexService,
  h: CollectedHit,
  path: string,
  format: string | null,
): unknown[] {
  const f = idx.mapping ? lookupField(idx.mapping, path) : undefined;
  const col = h.segment.segment.fields.get(f?.path ?? path)?.docValues;
  if (!col) return [];
  const d = h.doc;
  const out: unknown[] = [];
  if (col.kind === 'numeric') {
    const push = (v: number) => {
      if (f?.type === 'boolean') out.push(v === 1);
      else if (f?.type === 'date' && format) out.push(new Date(v).toISOString());
      else out.push(v);
    };
    if (col.single) {
      const v = col.single[d]!;
      if (!Number.isNaN(v)) push(v);
    } else for (let i = col.offsets![d]!; i < col.offsets![d + 1]!; i++) push(col.values![i]!);
  } else {
    const show = (t: string) => (f?.type === 'ip' ? sortableToIp(t) : t);
    if (col.single) {
      const o = col.single[d]!;
      if (o >= 0) out.push(show(col.dict[o]!));
    } else
      for (let i = col.offsets![d]!; i < col.offsets![d + 1]!; i++)
        out.push(show(col.dict[col.ords![i]!]!));
  }
  return out;
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
