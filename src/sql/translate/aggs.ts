/**
 * Aggregations of a SQL query (ES querydsl.agg): GROUP BY keys become `composite` sources (terms,
 * date_histogram, histogram; `missing_bucket: true`, `order`), aggregate functions leaf metric
 * aggregations (avg/sum/min/max/stats/extended_stats/percentiles/cardinality/value filters/
 * top_hits/MAD), HAVING a `bucket_selector`. Rendered as ES 7.10 prints each builder.
 */
import {
  DATA_TYPES,
  isInteger,
  isRational,
  isString,
  type DataTypeName,
} from '../../functions/data-types.js';
import { bindScript, nullSafeSort, type BoundScript, type ScriptTemplate } from './script.js';
import { scriptJson, type Json } from './query-dsl.js';

export type AggSource =
  | { readonly field: string; readonly script?: undefined }
  | { readonly field?: undefined; readonly script: ScriptTemplate };

/** ES GroupByKey (GroupByValue / GroupByDateHistogram / GroupByNumericHistogram). */
export interface GroupKey {
  readonly id: string;
  readonly type: 'terms' | 'date_histogram' | 'histogram';
  readonly source: AggSource;
  readonly direction: 'ASC' | 'DESC';
  readonly calendarInterval?: string;
  readonly fixedIntervalMs?: number;
  readonly zoneId?: string;
  readonly interval?: number;
  /** The grouping expression's canonical key. */
  readonly exprKey: string;
  /** The key is an epoch-millis date (date histograms, date fields). */
  readonly dateTime: boolean;
}

export type MetricType =
  | 'avg'
  | 'sum'
  | 'min'
  | 'max'
  | 'cardinality'
  | 'stats'
  | 'extended_stats'
  | 'median_absolute_deviation';

export type LeafAgg =
  | {
      readonly kind: 'metric';
      readonly type: MetricType;
      readonly id: string;
      readonly source: AggSource;
    }
  | {
      readonly kind: 'percentiles' | 'percentile_ranks';
      readonly id: string;
      readonly source: AggSource;
      readonly values: readonly number[];
    }
  | { readonly kind: 'filter_exists'; readonly id: string; readonly source: AggSource }
  | { readonly kind: 'matrix_stats'; readonly id: string; readonly fields: readonly string[] }
  | {
      readonly kind: 'top_hits';
      readonly id: string;
      readonly source: AggSource;
      readonly fieldType: DataTypeName;
      readonly sortSource: AggSource | null;
      readonly sortType: DataTypeName | null;
      readonly order: 'asc' | 'desc';
    };

/** GroupByKey.asValueSource: value_type hint of a scripted key. */
function valueType(t: DataTypeName): string | null {
  if (isInteger(t)) return 'long';
  if (isRational(t)) return 'double';
  if (isString(t)) return 'string';
  if (t === 'DATE' || t === 'TIME' || t === 'DATETIME') return 'long';
  if (t === 'BOOLEAN') return 'boolean';
  if (t === 'IP') return 'ip';
  return null;
}

const bound = (s: ScriptTemplate): BoundScript => bindScript(s);

/** One entry of the composite `sources` array. */
export function groupKeyJson(g: GroupKey): { [k: string]: Json } {
  const body: { [k: string]: Json } = {};
  if (g.source.script !== undefined) {
    body.script = scriptJson(bound(g.source.script));
  } else body.field = g.source.field;
  body.missing_bucket = true;
  if (g.source.script !== undefined) {
    const vt = valueType(g.source.script.outputType);
    if (vt !== null) body.value_type = vt;
  }
  body.order = g.direction.toLowerCase();
  if (g.type === 'date_histogram') {
    if (g.calendarInterval !== undefined) body.calendar_interval = g.calendarInterval;
    else body.fixed_interval = `${g.fixedIntervalMs}ms`;
    body.time_zone = g.zoneId ?? 'Z';
  } else if (g.type === 'histogram') {
    body.interval = g.interval ?? 1;
  }
  return { [g.id]: { [g.type]: body } };
}

function sourceJson(s: AggSource): { [k: string]: Json } {
  return s.script !== undefined ? { script: scriptJson(bound(s.script)) } : { field: s.field };
}

/** ES SqlDataTypes.format: dates come back from doc values as epoch millis. */
const docFormat = (t: DataTypeName): string | null =>
  t === 'DATE' || t === 'TIME' || t === 'DATETIME' ? 'epoch_millis' : null;

function sortEntry(s: AggSource, type: DataTypeName | null, order: string): Json {
  if (s.script !== undefined) {
    const numeric = isInteger(s.script.outputType) || isRational(s.script.outputType);
    return {
      _script: {
        script: scriptJson(bound(nullSafeSort(s.script))),
        type: numeric ? 'number' : 'string',
        order,
      },
    };
  }
  return {
    [s.field]: {
      order,
      missing: '_last',
      unmapped_type: type !== null ? (DATA_TYPES[type].esType ?? type.toLowerCase()) : 'keyword',
    },
  };
}

/** The aggregation body of a leaf agg (under its id). */
export function leafAggJson(a: LeafAgg): { [k: string]: Json } {
  switch (a.kind) {
    case 'metric': {
      const body = sourceJson(a.source);
      if (a.type === 'extended_stats') body.sigma = 2.0;
      if (a.type === 'median_absolute_deviation') body.compression = 1000.0;
      return { [a.type]: body };
    }
    case 'percentiles':
      return {
        percentiles: {
          ...sourceJson(a.source),
          percents: [...a.values],
          keyed: true,
          tdigest: { compression: 100.0 },
        },
      };
    case 'percentile_ranks':
      return {
        percentile_ranks: {
          ...sourceJson(a.source),
          values: [...a.values],
          keyed: true,
          tdigest: { compression: 100.0 },
        },
      };
    case 'filter_exists': {
      const filter: Json =
        a.source.script !== undefined
          ? {
              script: {
                script: scriptJson(
                  bound({
                    template: `InternalQlScriptUtils.isNotNull(${a.source.script.template})`,
                    params: a.source.script.params,
                    outputType: 'BOOLEAN',
                  }),
                ),
                boost: 1.0,
              },
            }
          : { exists: { field: a.source.field, boost: 1.0 } };
      return { filter };
    }
    case 'matrix_stats':
      return { matrix_stats: { fields: [...a.fields], mode: 'avg' } };
    case 'top_hits': {
      const sort: Json[] = [];
      if (a.sortSource !== null) sort.push(sortEntry(a.sortSource, a.sortType, a.order));
      sort.push(sortEntry(a.source, a.fieldType, a.order));
      const body: { [k: string]: Json } = {
        from: 0,
        size: 1,
        version: false,
        seq_no_primary_term: false,
        explain: false,
      };
      if (a.source.script === undefined) {
        const fmt = docFormat(a.fieldType);
        body.docvalue_fields = [
          fmt !== null ? { field: a.source.field, format: fmt } : { field: a.source.field },
        ];
      } else {
        body.script_fields = {
          [a.id]: { script: scriptJson(bound(a.source.script)), ignore_failure: false },
        };
      }
      body.sort = sort;
      return { top_hits: body };
    }
  }
}
