/**
 * Expression nodes. Each keeps `sourceText`, the input text it spans exactly as written
 * (ES `Source.text()`), because ES names result columns after it (`COUNT(*)`, `languages + 1`),
 * and `loc`, where it starts. Comments name the ES class the analyzer should build.
 */
import type { DataTypeName, LiteralValue, Loc } from './nodes.js';
import type { Query } from './query-nodes.js';
import type { LikePattern } from './command-nodes.js';

export type Expression =
  | Literal
  | Column
  | Star
  | FunctionCall
  | Cast
  | Arithmetic
  | Negate
  | Comparison
  | And
  | Or
  | Not
  | Between
  | In
  | Like
  | RLike
  | IsNull
  | Case
  | MatchQuery
  | MultiMatchQuery
  | StringQuery
  | Exists
  | ScalarSubquery;

interface ExpressionBase {
  readonly sourceText: string;
  readonly loc: Loc;
}

/**
 * ES `Literal`. Numbers carry their sign when ES folds a unary minus into them (`-5`,
 * `- (2.5)`); `?` parameters arrive here already converted to their declared type.
 */
export interface Literal extends ExpressionBase {
  readonly kind: 'Literal';
  readonly dataType: DataTypeName;
  readonly value: LiteralValue;
  /** 0-based index of the REST parameter this literal replaced, or null. */
  readonly paramIndex: number | null;
}

/** ES `UnresolvedAttribute`: a (possibly qualified) column reference. */
export interface Column extends ExpressionBase {
  readonly kind: 'Column';
  /** The identifiers unquoted, joined by `.` (ES `visitQualifiedName`). */
  readonly name: string;
  readonly parts: readonly string[];
}

/** ES `UnresolvedStar`: `*` or `qualifier.*`. */
export interface Star extends ExpressionBase {
  readonly kind: 'Star';
  readonly qualifier: Column | null;
}

/**
 * ES `UnresolvedFunction`. `resolution` is ES's `ResolutionType`: `DISTINCT` for
 * `F(DISTINCT x)`, `EXTRACT` for `EXTRACT(field FROM x)` (then `name` is the field),
 * `STANDARD` otherwise (also for `F(ALL x)` and CURRENT_DATE/TIME/TIMESTAMP without parentheses).
 */
export interface FunctionCall extends ExpressionBase {
  readonly kind: 'FunctionCall';
  /** As written (case kept); functions resolve case-insensitively. */
  readonly name: string;
  readonly resolution: 'STANDARD' | 'DISTINCT' | 'EXTRACT';
  readonly args: readonly Expression[];
  /** Quarry extension (issue 16): `OVER (PARTITION BY ... ORDER BY ...)`. */
  readonly over?: WindowSpec;
}

/** A window: the partitioning expressions and the order inside each partition. */
export interface WindowSpec {
  readonly partitionBy: readonly Expression[];
  readonly orderBy: readonly import('./query-nodes.js').OrderBy[];
}

/** ES `Cast`: `CAST(x AS t)`, `CONVERT(x, t)` or `x::t`. */
export interface Cast extends ExpressionBase {
  readonly kind: 'Cast';
  readonly expression: Expression;
  /** The type name as written (`SQL_DOUBLE`, `long`, `"LonG"` unquoted). */
  readonly typeName: string;
  /** The resolved ES type (`SqlDataTypes.fromSqlOrEsType` / `fromOdbcType`). */
  readonly dataType: DataTypeName;
  readonly syntax: 'CAST' | 'CONVERT' | '::';
}

/** ES `Add`, `Sub`, `Mul`, `Div`, `Mod`. */
export interface Arithmetic extends ExpressionBase {
  readonly kind: 'Arithmetic';
  readonly operator: '+' | '-' | '*' | '/' | '%';
  readonly left: Expression;
  readonly right: Expression;
}

/** ES `Neg` (a unary minus ES did not fold into a literal). */
export interface Negate extends ExpressionBase {
  readonly kind: 'Negate';
  readonly operand: Expression;
}

/** ES `Equals`, `NullEquals` (`<=>`), `NotEquals` (`<>`, `!=`), `LessThan`, ... */
export interface Comparison extends ExpressionBase {
  readonly kind: 'Comparison';
  readonly operator: '=' | '<=>' | '!=' | '<' | '<=' | '>' | '>=';
  readonly left: Expression;
  readonly right: Expression;
}

export interface And extends ExpressionBase {
  readonly kind: 'And';
  readonly left: Expression;
  readonly right: Expression;
}

export interface Or extends ExpressionBase {
  readonly kind: 'Or';
  readonly left: Expression;
  readonly right: Expression;
}

export interface Not extends ExpressionBase {
  readonly kind: 'Not';
  readonly operand: Expression;
}

/** ES `Range` (both bounds inclusive), wrapped in `Not` when negated. */
export interface Between extends ExpressionBase {
  readonly kind: 'Between';
  readonly value: Expression;
  readonly lower: Expression;
  readonly upper: Expression;
  readonly negated: boolean;
}

/** ES `In` (a value list; `IN (SELECT ...)` is rejected while parsing, as ES does). */
export interface In extends ExpressionBase {
  readonly kind: 'In';
  readonly value: Expression;
  readonly list: readonly Expression[];
  readonly negated: boolean;
}

/** ES `Like` with its `LikePattern` (escape char already validated). */
export interface Like extends ExpressionBase {
  readonly kind: 'Like';
  readonly value: Expression;
  readonly pattern: LikePattern;
  readonly negated: boolean;
}

/** ES `RLike` (a Java regular expression; null for a null parameter). */
export interface RLike extends ExpressionBase {
  readonly kind: 'RLike';
  readonly value: Expression;
  readonly pattern: string | null;
  readonly negated: boolean;
}

/** ES `IsNull` / `IsNotNull`. */
export interface IsNull extends ExpressionBase {
  readonly kind: 'IsNull';
  readonly value: Expression;
  readonly negated: boolean;
}

/**
 * ES `Case`. With an operand (`CASE x WHEN 1 THEN ...`) ES compares `operand = condition` for
 * every branch (`ExpressionBuilder.visitCase`); a missing ELSE means ELSE NULL.
 */
export interface Case extends ExpressionBase {
  readonly kind: 'Case';
  readonly operand: Expression | null;
  readonly whens: readonly When[];
  readonly elseResult: Expression | null;
}

/** One `WHEN condition THEN result` branch (ES `IfConditional`). */
export interface When {
  readonly kind: 'When';
  readonly condition: Expression;
  readonly result: Expression;
  readonly sourceText: string;
  readonly loc: Loc;
}

/**
 * ES `MatchQueryPredicate`: `MATCH(field, 'query', 'opt=v;opt=v', ...)`. `options` are the
 * option strings in order; ES joins them with `;` before parsing `name=value` pairs.
 */
export interface MatchQuery extends ExpressionBase {
  readonly kind: 'MatchQuery';
  readonly field: Column;
  /** Null only for a null parameter (ES fails later, when translating). */
  readonly query: string | null;
  readonly options: readonly string[];
}

/** ES `MultiMatchQueryPredicate`: `MATCH('f1,f2^2', 'query', options...)`. */
export interface MultiMatchQuery extends ExpressionBase {
  readonly kind: 'MultiMatchQuery';
  readonly fields: string | null;
  readonly query: string | null;
  readonly options: readonly string[];
}

/** ES `StringQueryPredicate`: `QUERY('query string', options...)`. */
export interface StringQuery extends ExpressionBase {
  readonly kind: 'StringQuery';
  readonly query: string | null;
  readonly options: readonly string[];
}

/** ES `Exists` (the verifier rejects sub-selects). */
export interface Exists extends ExpressionBase {
  readonly kind: 'Exists';
  readonly query: Query;
}

/** ES `ScalarSubquery`: `(SELECT ...)` used as a value (the verifier rejects it). */
export interface ScalarSubquery extends ExpressionBase {
  readonly kind: 'ScalarSubquery';
  readonly query: Query;
}

// ---------------------------------------------------------------------------------------------
// Factories: one per kind; they fix the key order so golden files read the same every time.

type Fields<T> = Omit<T, 'kind'>;

export const literal = (f: Fields<Literal>): Literal => ({
  kind: 'Literal',
  dataType: f.dataType,
  value: f.value,
  paramIndex: f.paramIndex,
  sourceText: f.sourceText,
  loc: f.loc,
});

export const column = (f: Fields<Column>): Column => ({
  kind: 'Column',
  name: f.name,
  parts: f.parts,
  sourceText: f.sourceText,
  loc: f.loc,
});

export const star = (f: Fields<Star>): Star => ({
  kind: 'Star',
  qualifier: f.qualifier,
  sourceText: f.sourceText,
  loc: f.loc,
});

export const functionCall = (f: Fields<FunctionCall>): FunctionCall => ({
  kind: 'FunctionCall',
  name: f.name,
  resolution: f.resolution,
  args: f.args,
  ...(f.over ? { over: f.over } : {}),
  sourceText: f.sourceText,
  loc: f.loc,
});

export const cast = (f: Fields<Cast>): Cast => ({
  kind: 'Cast',
  expression: f.expression,
  typeName: f.typeName,
  dataType: f.dataType,
  syntax: f.syntax,
  sourceText: f.sourceText,
  loc: f.loc,
});

export const arithmetic = (f: Fields<Arithmetic>): Arithmetic => ({
  kind: 'Arithmetic',
  operator: f.operator,
  left: f.left,
  right: f.right,
  sourceText: f.sourceText,
  loc: f.loc,
});

export const negate = (f: Fields<Negate>): Negate => ({
  kind: 'Negate',
  operand: f.operand,
  sourceText: f.sourceText,
  loc: f.loc,
});

export const comparison = (f: Fields<Comparison>): Comparison => ({
  kind: 'Comparison',
  operator: f.operator,
  left: f.left,
  right: f.right,
  sourceText: f.sourceText,
  loc: f.loc,
});

export const and = (f: Fields<And>): And => ({
  kind: 'And',
  left: f.left,
  right: f.right,
  sourceText: f.sourceText,
  loc: f.loc,
});

export const or = (f: Fields<Or>): Or => ({
  kind: 'Or',
  left: f.left,
  right: f.right,
  sourceText: f.sourceText,
  loc: f.loc,
});

export const not = (f: Fields<Not>): Not => ({
  kind: 'Not',
  operand: f.operand,
  sourceText: f.sourceText,
  loc: f.loc,
});

export const between = (f: Fields<Between>): Between => ({
  kind: 'Between',
  value: f.value,
  lower: f.lower,
  upper: f.upper,
  negated: f.negated,
  sourceText: f.sourceText,
  loc: f.loc,
});

export const inList = (f: Fields<In>): In => ({
  kind: 'In',
  value: f.value,
  list: f.list,
  negated: f.negated,
  sourceText: f.sourceText,
  loc: f.loc,
});

export const like = (f: Fields<Like>): Like => ({
  kind: 'Like',
  value: f.value,
  pattern: f.pattern,
  negated: f.negated,
  sourceText: f.sourceText,
  loc: f.loc,
});

export const rlike = (f: Fields<RLike>): RLike => ({
  kind: 'RLike',
  value: f.value,
  pattern: f.pattern,
  negated: f.negated,
  sourceText: f.sourceText,
  loc: f.loc,
});

export const isNull = (f: Fields<IsNull>): IsNull => ({
  kind: 'IsNull',
  value: f.value,
  negated: f.negated,
  sourceText: f.sourceText,
  loc: f.loc,
});

export const caseExpression = (f: Fields<Case>): Case => ({
  kind: 'Case',
  operand: f.operand,
  whens: f.whens,
  elseResult: f.elseResult,
  sourceText: f.sourceText,
  loc: f.loc,
});

export const when = (f: Fields<When>): When => ({
  kind: 'When',
  condition: f.condition,
  result: f.result,
  sourceText: f.sourceText,
  loc: f.loc,
});

export const matchQuery = (f: Fields<MatchQuery>): MatchQuery => ({
  kind: 'MatchQuery',
  field: f.field,
  query: f.query,
  options: f.options,
  sourceText: f.sourceText,
  loc: f.loc,
});

export const multiMatchQuery = (f: Fields<MultiMatchQuery>): MultiMatchQuery => ({
  kind: 'MultiMatchQuery',
  fields: f.fields,
  query: f.query,
  options: f.options,
  sourceText: f.sourceText,
  loc: f.loc,
});

export const stringQuery = (f: Fields<StringQuery>): StringQuery => ({
  kind: 'StringQuery',
  query: f.query,
  options: f.options,
  sourceText: f.sourceText,
  loc: f.loc,
});

export const exists = (f: Fields<Exists>): Exists => ({
  kind: 'Exists',
  query: f.query,
  sourceText: f.sourceText,
  loc: f.loc,
});

export const scalarSubquery = (f: Fields<ScalarSubquery>): ScalarSubquery => ({
  kind: 'ScalarSubquery',
  query: f.query,
  sourceText: f.sourceText,
  loc: f.loc,
});
