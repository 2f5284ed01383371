/**
 * QueryContainer -> `_search` body (ES SourceGenerator + QlSourceBuilder): the query (ANDed with
 * the REST `filter`), `_source` includes / `docvalue_fields` for the extracted columns, the
 * `groupby` root aggregation (composite over the keys, or a match_all `filters` for an implicit
 * grouping) with metric and `bucket_selector` sub-aggregations, sorts, size and hit tracking.
 * This is what `_sql/translate` returns, with ES 7.10's key order.
 */
import { offsetPlan } from './offset.js';
import { bindScript } from './script.js';
import { groupKeyJson, leafAggJson } from './aggs.js';
import type { ColumnRef, QueryContainer } from './container.js';
import { isAggsOnly, isNumericScriptSort, sortingColumns } from './container.js';
import { nestedSortFilter, queryJson, scriptJson, type Json } from './query-dsl.js';
import { sqlIllegalArgument } from '../../functions/errors.js';
import type { Agg, InnerAgg } from '../expression/nodes.js';
import { exprKey } from '../expression/props.js';

export const ROOT_GROUP_NAME = 'groupby';
const TRACK_TOTAL_HITS_ACCURATE = 2147483647;

interface SourceFields {
  source: string[];
  docvalue: Array<{ field: string; format: string | null }>;
  trackScores: boolean;
}

const dateFormat = (t: string) =>
  t === 'DATE' || t === 'TIME' || t === 'DATETIME' ? 'epoch_millis' : null;

function collect(ref: ColumnRef, out: SourceFields): void {
  switch (ref.kind) {
    case 'hit':
      if (ref.docValue) {
        if (!out.docvalue.some((d) => d.field === ref.name)) {
          out.docvalue.push({ field: ref.name, format: dateFormat(ref.dataType) });
        }
      } else if (!out.source.includes(ref.name)) out.source.push(ref.name);
      return;
    case 'score':
      out.trackScores = true;
      return;
    case 'computed':
      for (const leaf of ref.leaves.values()) collect(leaf, out);
      return;
    default:
      return;
  }
}

/** Bucket path of an aggregate inside the groupby bucket (ES script Agg.aggProperty). */
export function aggPathOf(
  c: QueryContainer,
  aggIdByKey: ReadonlyMap<string, string>,
): (a: Agg | InnerAgg) => string {
  return (a) => {
    if (a.kind === 'InnerAgg') {
      const id = aggIdByKey.get(exprKey(a.inner));
      if (id === undefined)
        throw sqlIllegalArgument('Cannot find aggregation for [{}]', [a.src.text]);
      return `${id}.${a.innerName}`;
    }
    if (a.def.name === 'COUNT' && a.args[0]!.kind === 'Literal') return '_count';
    const id = aggIdByKey.get(exprKey(a));
    if (id === undefined)
      throw sqlIllegalArgument('Cannot find aggregation for [{}]', [a.src.text]);
    if (a.def.name === 'COUNT' && !a.distinct) return `${id}._count`;
    void c;
    return id;
  };
}

function aggregations(
  c: QueryContainer,
  sz: number | null,
  size: number | null,
): { [k: string]: Json } | null {
  // HAVING over COUNT(*) alone still needs the implicit group's bucket to filter (else dropped)
  if (c.groups.length === 0 && c.aggs.length === 0 && c.pipelines.length === 0) return null;
  const subs: { [k: string]: Json } = {};
  for (const a of c.aggs) subs[a.id] = leafAggJson(a);
  const aggIdByKey = c.aggIdByKey;
  for (const p of c.pipelines) {
    const bound = bindScript(p.script, aggPathOf(c, aggIdByKey));
    subs[p.name] = {
      bucket_selector: {
        buckets_path: bound.bucketsPath,
        script: scriptJson(bound),
        gap_policy: 'skip',
      },
    };
  }
  let root: { [k: string]: Json };
  if (c.groups.length > 0) {
    const composite: { [k: string]: Json } = {};
    if (sz !== null) composite.size = sortingColumns(c).length === 0 ? sz : (size ?? sz);
    composite.sources = c.groups.map(groupKeyJson);
    root = { composite };
  } else {
    root = {
      filters: {
        filters: [{ match_all: { boost: 1.0 } }],
        other_bucket: false,
        other_bucket_key: '_other_',
      },
    };
  }
  if (Object.keys(subs).length > 0) root.aggregations = subs;
  return { [ROOT_GROUP_NAME]: root };
}

function sorting(c: QueryContainer): Json[] {
  if (c.sort.length === 0) return [{ _doc: { order: 'asc' } }];
  const out: Json[] = [];
  for (const [, s] of c.sort) {
    switch (s.kind) {
      case 'field': {
        const body: { [k: string]: Json } = {
          order: s.direction.toLowerCase(),
          missing: s.missing === 'FIRST' ? '_first' : '_last',
          unmapped_type: s.esType,
        };
        if (s.nested !== undefined) {
          // ES SourceGenerator: the nested sort filters by the query's nested condition on the path
          const filter = nestedSortFilter(c.query, s.nested);
          body.nested = filter ? { path: s.nested, filter: queryJson(filter) } : { path: s.nested };
        }
        out.push({ [s.field]: body });
        break;
      }
      case 'script': {
        const numeric = isNumericScriptSort(s.script.outputType);
        const method = numeric ? 'nullSafeSortNumeric' : 'nullSafeSortString';
        const wrapped = bindScript({
          template: `InternalQlScriptUtils.${method}(${s.script.template})`,
          params: s.script.params,
          outputType: s.script.outputType,
        });
        out.push({
          _script: {
            script: scriptJson(wrapped),
            type: numeric ? 'number' : 'string',
            order: s.direction.toLowerCase(),
          },
        });
        break;
      }
      case 'score':
        out.push({ _score: { order: s.direction.toLowerCase() } });
        break;
      default:
        break;
    }
  }
  return out;
}

/**
 * ES SourceGenerator.sourceBuilder(container, filter, size). `size` is the page size (fetch_size);
 * null leaves sizes out.
 */
export function toSearchSource(
  container: QueryContainer,
  filter: Json | null,
  size: number | null,
  maxResultWindow?: number,
): { [k: string]: Json } {
  // EXTENSION: OFFSET as `from`, or as more rows to skip after the search
  const { container: c, from } = offsetPlan(container, size, maxResultWindow);
  const aggsOnly = isAggsOnly(c);
  const body: { [k: string]: Json } = aggsOnly ? { size: 0 } : {};
  let query: Json | null = c.query ? queryJson(c.query) : null;
  if (filter !== null && filter !== undefined) {
    query =
      query !== null
        ? { bool: { must: [query], filter: [filter], adjust_pure_negative: true, boost: 1.0 } }
        : { bool: { filter: [filter], adjust_pure_negative: true, boost: 1.0 } };
  }
  const fields: SourceFields = { source: [], docvalue: [], trackScores: false };
  for (const f of c.fields) collect(f.ref, fields);
  let sz: number | null = null;
  if (size !== null) {
    sz = c.limit > 0 ? Math.min(c.limit, size) : size;
    const minSize = c.minPageSize;
    if (minSize > 0) sz = Math.max(Math.floor(sz / minSize), 1) * minSize;
    if (!aggsOnly) body.size = sz;
  }
  if (query !== null) body.query = query;
  const noSource = fields.source.length === 0;
  if (aggsOnly || noSource) {
    body._source = false;
    body.stored_fields = '_none_';
  } else body._source = { includes: fields.source, excludes: [] };
  if (fields.docvalue.length > 0) {
    body.docvalue_fields = fields.docvalue.map((d): Json =>
      d.format !== null ? { field: d.field, format: d.format } : { field: d.field },
    );
  }
  const aggs = aggregations(c, sz, size);
  if (aggs === null) body.sort = sorting(c);
  if (fields.trackScores && !aggsOnly) body.track_scores = true;
  if (c.trackHits) body.track_total_hits = TRACK_TOTAL_HITS_ACCURATE;
  if (aggs !== null) body.aggregations = aggs;
  // ES SearchSourceBuilder writes `from` first
  return from > 0 ? { from, ...body } : body;
}
