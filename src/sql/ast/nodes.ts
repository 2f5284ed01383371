/**
 * The Elasticsearch SQL AST: discriminated unions of plain readonly objects (`kind` in
 * PascalCase), one factory per kind. This module holds the shared vocabulary (locations, data
 * type names, literal values) and the unions; the node types live in expression-nodes.ts,
 * query-nodes.ts and command-nodes.ts, all re-exported from here.
 */
import type { Expression, When } from './expression-nodes.js';
import type {
  FromClause,
  GroupBy,
  Limit,
  NamedQuery,
  NamedValue,
  OrderBy,
  Pivot,
  Query,
  QueryNoWith,
  QuerySpecification,
  Relation,
  SelectItem,
  TableIdentifier,
  Top,
} from './query-nodes.js';
import type { Command, LikePattern } from './command-nodes.js';

export * from './expression-nodes.js';
export * from './query-nodes.js';
export * from './command-nodes.js';

/**
 * Where a node starts, as ES reports it: 1-based line (only `\n` starts a line) and
 * column = character position in the line + 1 (ES `Location.getColumnNumber()`). Verifier
 * messages print these as `line L:C`; a post-parse `parsing_exception` prints column + 1
 * (ES `ParsingException.getColumnNumber()` adds one more), see errors.ts.
 */
export interface Loc {
  readonly line: number;
  readonly column: number;
}

/** ES data type names (`DataType.typeName()`), as the REST API prints them. */
export type DataTypeName =
  | 'unsupported'
  | 'null'
  | 'boolean'
  | 'byte'
  | 'short'
  | 'integer'
  | 'long'
  | 'double'
  | 'float'
  | 'half_float'
  | 'scaled_float'
  | 'keyword'
  | 'text'
  | 'constant_keyword'
  | 'datetime'
  | 'ip'
  | 'binary'
  | 'object'
  | 'nested'
  | 'date'
  | 'time'
  | IntervalTypeName
  | 'geo_shape'
  | 'geo_point'
  | 'shape';

export type IntervalTypeName =
  | 'interval_year'
  | 'interval_month'
  | 'interval_day'
  | 'interval_hour'
  | 'interval_minute'
  | 'interval_second'
  | 'interval_year_to_month'
  | 'interval_day_to_hour'
  | 'interval_day_to_minute'
  | 'interval_day_to_second'
  | 'interval_hour_to_minute'
  | 'interval_hour_to_second'
  | 'interval_minute_to_second';

/** Interval units as written (ES `Intervals.TimeUnit`). */
export type IntervalUnit = 'YEAR' | 'MONTH' | 'DAY' | 'HOUR' | 'MINUTE' | 'SECOND';

/**
 * An interval value. Year-month intervals are a java.time.Period (years and months kept apart,
 * not normalised: `INTERVAL 14 MONTHS` is 0 years 14 months); day-time intervals a
 * java.time.Duration, in milliseconds (the finest unit ES SQL accepts).
 */
export type IntervalValue =
  | { readonly kind: 'YearMonth'; readonly years: number; readonly months: number }
  | { readonly kind: 'DayTime'; readonly millis: number };

/**
 * A literal's value, by data type:
 * - `null`: null; `boolean`: boolean; `byte`/`short`/`integer`/`float`/`double`: number;
 * - `long`: bigint (ES keeps 64-bit longs exact);
 * - `keyword`/`text`/`constant_keyword`/`ip`: string;
 * - `datetime`: ISO-8601 with milliseconds (more digits when given) and the parsed offset,
 *   `2020-01-02T03:04:05.000Z`; `date`: `2020-01-02`; `time`: `03:04:05.000Z`;
 * - `interval_*`: IntervalValue.
 */
export type LiteralValue = null | boolean | number | bigint | string | IntervalValue;

/** Every statement the parser produces. */
export type Statement = Query | Command;

/** Every AST node kind. */
export type Node =
  | Statement
  | Expression
  | When
  | NamedQuery
  | QueryNoWith
  | QuerySpecification
  | SelectItem
  | Top
  | OrderBy
  | Limit
  | GroupBy
  | FromClause
  | Relation
  | TableIdentifier
  | Pivot
  | NamedValue
  | LikePattern;

export type NodeKind = Node['kind'];
