/**
 * What the function registry knows about each ES SQL function: names, SHOW FUNCTIONS type, arity
 * (with the ES FunctionRegistry builder's "expects ..." message), argument type checks, result type,
 * foldability, aggregate lowering, and for scalars an evaluator over runtime values.
 */
import type { DataTypeName } from '../../functions/data-types.js';
import type { Now } from '../../functions/datetime/format-parse.js';
import type { Zone } from '../../functions/datetime/zones.js';
import type { ArgInfo, Resolution } from './type-resolutions.js';

/** The `type` column of SHOW FUNCTIONS (SqlFunctionTypeRegistry). */
export type FunctionType = 'AGGREGATE' | 'GROUPING' | 'CONDITIONAL' | 'SCALAR' | 'SCORE';

/** FunctionRegistry builder shapes; each fixes the accepted argument counts and message. */
export type ArityKind =
  | 'none' // def(Class, Function<Source,T>)
  | 'zeroOrOne' // UnaryConfigurationAwareFunctionBuilder (CURRENT_TIME[(p)])
  | 'one' // unary
  | 'oneDistinct' // COUNT
  | 'oneOrTwo' // binary with OptionalArgument
  | 'two' // binary
  | 'twoOrThree' // three with OptionalArgument
  | 'three'
  | 'threeZoned' // DatetimeThreeArgsFunctionBuilder (DATE_ADD, DATE_DIFF)
  | 'four'
  | 'variadic'; // MultiFunctionBuilder: no count check

export interface Arity {
  readonly kind: ArityKind;
  readonly min: number;
  readonly max: number;
  /** ES's QlIllegalArgumentException text, wrapped as "error building [NAME]: <message>". */
  readonly message: string;
}

export const ARITY: Readonly<Record<ArityKind, Arity>> = Object.freeze({
  none: { kind: 'none', min: 0, max: 0, message: 'expects no arguments' },
  zeroOrOne: { kind: 'zeroOrOne', min: 0, max: 1, message: 'expects exactly one argument' },
  one: { kind: 'one', min: 1, max: 1, message: 'expects exactly one argument' },
  oneDistinct: { kind: 'oneDistinct', min: 1, max: 1, message: 'expects exactly one argument' },
  oneOrTwo: { kind: 'oneOrTwo', min: 1, max: 2, message: 'expects one or two arguments' },
  two: { kind: 'two', min: 2, max: 2, message: 'expects exactly two arguments' },
  twoOrThree: { kind: 'twoOrThree', min: 2, max: 3, message: 'expects two or three arguments' },
  three: { kind: 'three', min: 3, max: 3, message: 'expects exactly three arguments' },
  threeZoned: { kind: 'threeZoned', min: 3, max: 3, message: 'expects three arguments' },
  four: { kind: 'four', min: 4, max: 4, message: 'expects exactly four arguments' },
  variadic: { kind: 'variadic', min: 0, max: Infinity, message: '' },
});

/** The session state scalar functions may read (ES Configuration). */
export interface EvalContext {
  /** The request's `time_zone` (a ZoneId string or a parsed Zone). */
  readonly zone: Zone | string;
  /** The request's start time (CURRENT_TIMESTAMP and friends are constant per request). */
  readonly now: Now;
  /** DATABASE(): the cluster name. */
  readonly clusterName: string;
  /** USER(): the authenticated user, or null. */
  readonly username: string | null;
  /** Static types of the arguments, when known (integral/rational decisions, number text). */
  readonly argTypes?: readonly DataTypeName[];
  /** Static result type of the call. */
  readonly resultType?: DataTypeName;
}

/** How an aggregate lowers to an Elasticsearch aggregation (ES querydsl/agg + innerName). */
export interface AggregateInfo {
  /** The ES aggregation used on its own. */
  readonly esAgg:
    | 'avg'
    | 'value_count'
    | 'cardinality'
    | 'top_hits'
    | 'max'
    | 'min'
    | 'sum'
    | 'matrix_stats'
    | 'median_absolute_deviation'
    | 'percentiles'
    | 'percentile_ranks'
    | 'extended_stats';
  /** The compound aggregation this one can be served from, with the value's name inside it. */
  readonly enclosedIn?: 'stats' | 'extended_stats' | 'matrix_stats';
  readonly innerName?: string;
}

/**
 * How ES scripts the function (its asScript): `{prefix}.{method}(args...)` with InternalSqlScriptUtils
 * (`sql`) or InternalQlScriptUtils (`ql`); `zone` appends the session zone id, `chrono` the
 * ChronoField name (dateTimeChrono), `list` wraps the arguments in a list (coalesce/greatest/least),
 * `extra` appends constant arguments (STARTS_WITH's case sensitivity). Absent for functions that
 * cannot be scripted (aggregates, SCORE) or that fold to constants (CURRENT_*, DATABASE, USER);
 * CASE/IIF script as Painless `?:` chains and E()/PI() as Math.E / Math.PI (see `inline`).
 */
export interface ScriptInfo {
  readonly prefix: 'sql' | 'ql';
  readonly method: string;
  readonly zone?: boolean;
  readonly chrono?: string;
  readonly list?: boolean;
  readonly extra?: readonly unknown[];
  /** A literal Painless expression used instead of a method call (Math.E, Math.PI). */
  readonly inline?: string;
}

export interface FunctionDefinition {
  /** Primary name (upper case). */
  readonly name: string;
  readonly aliases: readonly string[];
  readonly type: FunctionType;
  readonly arity: Arity;
  /** Whether DISTINCT is accepted (only COUNT). */
  readonly distinct: boolean;
  /** EXTRACT(<name> FROM x) may name this function (FunctionDefinition.extractViable). */
  readonly extractViable: boolean;
  /** Reads the session zone / clock / cluster name / user. */
  readonly configurationAware: boolean;
  /**
   * Argument checks with ES's messages; `sourceText` is the call's text (ES sourceText()),
   * e.g. "LEFT(first_name, 3)". Returns null when the arguments are acceptable.
   */
  resolveType(args: readonly ArgInfo[], sourceText: string): Resolution;
  /** Result type given the (resolved) arguments. */
  dataType(args: readonly ArgInfo[]): DataTypeName;
  /** Whether the call folds to a constant given its arguments (ES Expression.foldable()). */
  foldable(args: readonly ArgInfo[]): boolean;
  /** Aggregates only. */
  readonly aggregate?: AggregateInfo;
  /** Scalars: the script call ES generates for the function. */
  readonly script?: ScriptInfo;
  /**
   * Scalars: evaluate on runtime values. With `lazy`, arguments are thunks (CASE/IIF/COALESCE
   * evaluate only what they need, as ES's processors do).
   */
  readonly lazy?: boolean;
  evaluate?(args: readonly unknown[], ctx: EvalContext): unknown;
}

/** A registry entry as SHOW FUNCTIONS lists it: every name and alias, with its definition. */
export interface FunctionListing {
  readonly name: string;
  readonly type: FunctionType;
  readonly definition: FunctionDefinition;
}
