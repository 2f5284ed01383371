/**
 * The query container (ES querydsl.container.QueryContainer): everything folding learns about the
 * one search request — query, composite keys, metric/pipeline aggregations, sorts, limit — and the
 * column extractors (ES `*Ref`) that turn hits or buckets back into rows. Built mutably during one
 * fold, then frozen.
 */
import type { DataTypeName } from '../../functions/data-types.js';
import type { Expr } from '../expression/nodes.js';
import type { GroupKey, LeafAgg } from './aggs.js';
import type { AggFilter } from './query.js';
import type { Query } from './query-dsl.js';
import type { ScriptTemplate } from './script.js';

/** How one column is read from a search response (ES FieldExtraction implementations). */
export type ColumnRef =
  /** SearchHitFieldRef: `_source` or docvalue_fields. */
  | {
      readonly kind: 'hit';
      readonly name: string;
      readonly dataType: DataTypeName;
      readonly docValue: boolean;
      /** A field of `nested` documents: the nested path, whose inner hits give one row each. */
      readonly hitName?: string;
    }
  /** ScorePipe. */
  | { readonly kind: 'score' }
  /** ConstantInput. */
  | { readonly kind: 'constant'; readonly value: unknown }
  /** ComputedRef: an expression over other refs (`leaves` by canonical expression key). */
  | {
      readonly kind: 'computed';
      readonly expr: Expr;
      readonly leaves: ReadonlyMap<string, ColumnRef>;
    }
  /** GroupByRef: a composite key (or its bucket's doc count); `year` extracts YEAR from a yearly histogram key. */
  | {
      readonly kind: 'group';
      readonly groupId: string;
      readonly count: boolean;
      readonly dateTime: boolean;
      readonly year: boolean;
      readonly dataType: DataTypeName;
    }
  /** MetricAggRef: a metric value, a compound's inner value, or a filter bucket's doc count (`_count`). */
  | {
      readonly kind: 'metric';
      readonly aggId: string;
      readonly property: string | null;
      readonly innerKey: number | null;
      readonly dateTime: boolean;
      readonly dataType: DataTypeName;
    }
  /** TopHitsAggRef. */
  | { readonly kind: 'topHits'; readonly aggId: string; readonly dataType: DataTypeName }
  /** GlobalCountRef: hits.total. */
  | { readonly kind: 'globalCount' }
  /** PivotColumnRef: the aggregate's value in the bucket whose pivot key equals `value`. */
  | {
      readonly kind: 'pivot';
      readonly pivot: ColumnRef;
      readonly agg: ColumnRef;
      readonly value: unknown;
    };

export type SortSpec =
  | {
      readonly kind: 'field';
      readonly field: string;
      readonly esType: string;
      readonly direction: 'ASC' | 'DESC';
      readonly missing: 'FIRST' | 'LAST';
      /** The nested path of a field inside nested documents. */
      readonly nested?: string;
    }
  | {
      readonly kind: 'script';
      readonly script: ScriptTemplate;
      readonly direction: 'ASC' | 'DESC';
    }
  | { readonly kind: 'score'; readonly direction: 'ASC' | 'DESC' }
  | {
      readonly kind: 'aggregate';
      readonly direction: 'ASC' | 'DESC';
      readonly missing: 'FIRST' | 'LAST';
    }
  | { readonly kind: 'grouping'; readonly direction: 'ASC' | 'DESC' };

export interface Column {
  readonly ref: ColumnRef;
  /** The expression id (ES Expressions.id): how output columns and sorts find their extractor. */
  readonly id: string;
}

export interface QueryContainer {
  readonly indices: readonly string[];
  /**
   * The FROM pattern as written (ES EsQueryExec.index().name()): the Querier searches it, so the
   * filters of the aliases it names apply.
   */
  readonly pattern: string;
  readonly query: Query | null;
  readonly groups: readonly GroupKey[];
  readonly aggs: readonly LeafAgg[];
  /** Canonical aggregate-function key -> the id of the aggregation serving it. */
  readonly aggIdByKey: ReadonlyMap<string, string>;
  readonly pipelines: readonly AggFilter[];
  readonly fields: readonly Column[];
  /** Sorts by expression id, in ORDER BY order. */
  readonly sort: ReadonlyArray<readonly [string, SortSpec]>;
  readonly limit: number;
  /** EXTENSION: OFFSET, rows skipped before `limit` counts (absent: 0); see offset.ts. */
  readonly offset?: number;
  readonly trackHits: boolean;
  readonly includeFrozen: boolean;
  readonly minPageSize: number;
  /** Indices (into `fields`) of the visible columns, in output order (ES columnMask). */
  readonly mask: readonly number[];
  /** Visible column names and types. */
  readonly columns: ReadonlyArray<{ readonly name: string; readonly dataType: DataTypeName }>;
}

/** Refs that need an aggregation response (ES FieldExtraction.supportedByAggsOnlyQuery). */
export function isAggRef(r: ColumnRef): boolean {
  switch (r.kind) {
    case 'group':
    case 'metric':
    case 'topHits':
    case 'globalCount':
    case 'pivot':
      return true;
    case 'computed':
      return [...r.leaves.values()].some(isAggRef);
    default:
      return false;
  }
}

/** ES QueryContainer.isAggsOnly. */
export const isAggsOnly = (c: Pick<QueryContainer, 'fields'>): boolean =>
  c.fields.some((f) => isAggRef(f.ref));

/**
 * ES QueryContainer.sortingColumns: when an ORDER BY uses an aggregate, the rows are sorted in
 * memory; each entry is a field index and whether it needs sorting here (`direction`) or keeps
 * ES's order (null).
 */
export function sortingColumns(
  c: Pick<QueryContainer, 'sort' | 'fields'>,
): Array<{ index: number; direction: 'ASC' | 'DESC' | null; missing: 'FIRST' | 'LAST' }> {
  if (!c.sort.some(([, s]) => s.kind === 'aggregate')) return [];
  return c.sort.map(([id, s]) => {
    const index = c.fields.findIndex((f) => f.id === id);
    return {
      index,
      direction: s.kind === 'aggregate' ? s.direction : null,
      missing: s.kind === 'aggregate' ? s.missing : 'LAST',
    };
  });
}

/** Script sorts ES emits as `type: number` (nullSafeSortNumeric) rather than `string`. */
export function isNumericScriptSort(outputType: DataTypeName): boolean {
  return [
    'BYTE',
    'SHORT',
    'INTEGER',
    'LONG',
    'DOUBLE',
    'FLOAT',
    'HALF_FLOAT',
    'SCALED_FLOAT',
  ].includes(outputType);
}
