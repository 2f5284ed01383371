/**
 * CST -> AST for literals and names (ES `ExpressionBuilder` literal visitors and
 * `IdentifierBuilder`): identifiers, qualified names, strings, numbers (with ES's folding of a
 * unary minus), constants, intervals, ODBC date/time/timestamp/guid escapes, parameters.
 */
import type { IToken } from 'chevrotain';
import type {
  ConstantCstNode,
  IdentifierCstNode,
  IntervalCstNode,
  IntervalFieldCstNode,
  NumberCstNode,
  QualifiedNameCstNode,
  StringCstNode,
} from '../../../grammar/sql/sql-cst.js';
import { EsError } from '../../common/errors.js';
import * as t from '../../../grammar/sql/tokens.js';
import { locOf, one, spanOf, textOf } from './build-context.js';
import type { BuildContext, Span } from './build-context.js';
import {
  DateTimeParseError,
  parseDateOnly,
  parseEscapedTimestamp,
  parseTimeOnly,
} from './datetime-literals.js';
import { parsingError } from './errors.js';
import {
  checkQualifier,
  intervalOf,
  intervalType,
  negateInterval,
  parseIntervalString,
} from './intervals.js';
import { javaValueToString } from './java-format.js';
import { column, literal } from './nodes.js';
import type { Column, IntervalUnit, IntervalValue, Literal } from './nodes.js';
import { paramLiteral } from './params.js';

/**
 * ES folds a unary minus into the number it directly applies to (through parentheses):
 * `-5` and `- (2.5)` are literals. `number` is the span of that minus expression (the literal's
 * source), or null; `interval` says whether an interval literal sits right under a minus.
 */
export interface Negation {
  readonly number: Span | null;
  readonly interval: boolean;
}

export const NO_NEGATION: Negation = { number: null, interval: false };

// ---------------------------------------------------------------------------------------------
// Identifiers

/**
 * An identifier token's text as ES's `getText()` sees it after its parse listener stripped the
 * double quotes (`""` stays doubled).
 */
export function identifierTokenRawText(token: IToken): string {
  return token.tokenType === t.QuotedIdentifier ? token.image.slice(1, -1) : token.image;
}

/** ES `visitIdentifier` on one identifier token: unquoted (`"a""b"` is `a"b`). */
export function identifierTokenText(token: IToken): string {
  return identifierTokenRawText(token).replace(/""/g, '"');
}

/** The `identifier` rule's text as ES's `getText()` sees it (quotes stripped, `""` kept). */
export function identifierRawText(node: IdentifierCstNode): string {
  return identifierTokenRawText(one(node.children.IdentifierToken));
}

/** ES `visitIdentifier`: the identifier unquoted. */
export function identifierText(node: IdentifierCstNode): string {
  return identifierTokenText(one(node.children.IdentifierToken));
}

/** ES `visitQualifiedName`: the identifiers (joined with `.` by callers). */
export function qualifiedNameParts(node: QualifiedNameCstNode): string[] {
  return node.children.IdentifierToken.map(identifierTokenText);
}

/** A qualified name as a column reference (ES `UnresolvedAttribute`). */
export function buildColumn(ctx: BuildContext, node: QualifiedNameCstNode): Column {
  const parts = qualifiedNameParts(node);
  return column({
    name: parts.join('.'),
    parts,
    sourceText: textOf(ctx, node),
    loc: locOf(ctx, node),
  });
}

// ---------------------------------------------------------------------------------------------
// Strings and parameters

/** ES `unquoteString`: strip the quotes, `''` is `'`. */
export function unquoteString(image: string): string {
  return image.substring(1, image.length - 1).replace(/''/g, "'");
}

/**
 * ES `string(ctx)`: a quoted string, or a `?` parameter's value as Java's toString prints it
 * (null for a null parameter).
 */
export function buildString(ctx: BuildContext, node: StringCstNode): string | null {
  const param = node.children.Param;
  if (param) {
    const value = ctx.params[paramIndex(ctx, param[0]!)]!.value;
    return value === null || value === undefined ? null : javaValueToString(value);
  }
  return unquoteString(one(node.children.StringLiteral).image);
}

export function paramIndex(ctx: BuildContext, token: IToken): number {
  return ctx.paramIndexByOffset.get(token.startOffset)!;
}

// ---------------------------------------------------------------------------------------------
// Numbers

const LONG_MIN = -9223372036854775808n;
const LONG_MAX = 9223372036854775807n;
const INT_MIN = -2147483648n;
const INT_MAX = 2147483647n;

/**
 * ES `visitDecimalLiteral` / `visitIntegerLiteral` with `withMinus`: integers become INTEGER
 * when they fit 32 bits, else LONG; decimals DOUBLE.
 */
export function buildNumber(ctx: BuildContext, node: NumberCstNode, minus: Span | null): Literal {
  const token = (node.children.DecimalValue ?? node.children.IntegerValue)![0]!;
  const span = minus ?? spanOf(node);
  const text = (minus ? '-' : '') + token.image;
  const loc = locOf(ctx, span);
  const sourceText = textOf(ctx, span);
  if (node.children.DecimalValue) {
    const value = Number(text);
    if (!Number.isFinite(value)) throw parsingError(loc, `Number [${text}] is too large`);
    return literal({ dataType: 'double', value, paramIndex: null, sourceText, loc });
  }
  const value = BigInt(text);
  if (value < LONG_MIN || value > LONG_MAX)
    throw parsingError(loc, `Number [${text}] is too large`);
  const fitsInt = value >= INT_MIN && value <= INT_MAX;
  return literal({
    dataType: fitsInt ? 'integer' : 'long',
    value: fitsInt ? Number(value) : value,
    paramIndex: null,
    sourceText,
    loc,
  });
}

// ---------------------------------------------------------------------------------------------
// Constants

/** ES's constant visitors (`#nullLiteral`, `#stringLiteral`, `#paramLiteral`, ...). */
export function buildConstant(ctx: BuildContext, node: ConstantCstNode, neg: Negation): Literal {
  const c = node.children;
  const sourceText = textOf(ctx, node);
  const loc = locOf(ctx, node);
  const make = (dataType: Literal['dataType'], value: Literal['value']) =>
    literal({ dataType, value, paramIndex: null, sourceText, loc });

  if (c.Null) return make('null', null);
  if (c.interval) return buildInterval(ctx, one(c.interval), neg.interval);
  if (c.number) return buildNumber(ctx, one(c.number), neg.number);
  if (c.booleanValue) return make('boolean', one(c.booleanValue).children.True !== undefined);
  if (c.StringLiteral)
    return make('keyword', c.StringLiteral.map((t) => unquoteString(t.image)).join(''));
  if (c.Param) {
    const index = paramIndex(ctx, c.Param[0]!);
    const { dataType, value } = paramLiteral(ctx.params[index]!, loc);
    return literal({ dataType, value, paramIndex: index, sourceText, loc });
  }
  const stringNode = one(c.string);
  const value = buildString(ctx, stringNode);
  if (c.GuidEsc) return make('keyword', checkGuid(ctx, value, stringNode));
  if (value === null) throw new EsError('null_pointer_exception', null, 500);
  try {
    if (c.DateEsc) return make('date', parseDateOnly(value));
    if (c.TimeEsc) return make('time', parseTimeOnly(value));
    return make('datetime', parseEscapedTimestamp(value));
  } catch (e) {
    if (!(e instanceof DateTimeParseError)) throw e;
    const what = c.DateEsc ? 'date' : c.TimeEsc ? 'time' : 'timestamp';
    throw parsingError(loc, `Invalid ${what} received; ${e.message}`);
  }
}

const HEX = '0123456789abcdef';
const GUID_SEPARATORS = [8, 13, 18, 23];

/** ES `visitGuidEscapedLiteral`: nnnnnnnn-nnnn-nnnn-nnnn-nnnnnnnnnnnn (case-insensitive). */
function checkGuid(ctx: BuildContext, value: string | null, node: StringCstNode): string {
  if (value === null) throw new EsError('null_pointer_exception', null, 500);
  const loc = locOf(ctx, node);
  const lower = value.toLowerCase();
  const prefix = 'Invalid GUID, ';
  if (lower.length !== 36) {
    throw parsingError(loc, `${prefix}too ${lower.length > 36 ? 'long' : 'short'}`);
  }
  for (const pos of GUID_SEPARATORS) {
    if (lower[pos] !== '-') {
      throw parsingError(
        loc,
        `${prefix}expected group separator at offset [${pos}], found [${value[pos]}]`,
      );
    }
  }
  for (let i = 0; i < lower.length; i++) {
    if (!GUID_SEPARATORS.includes(i) && !HEX.includes(lower[i]!)) {
      throw parsingError(loc, `${prefix}expected hexadecimal at offset[${i}], found [${value[i]}]`);
    }
  }
  return value;
}

// ---------------------------------------------------------------------------------------------
// Intervals

function intervalUnit(node: IntervalFieldCstNode): IntervalUnit {
  const name = Object.keys(node.children)[0]!.toUpperCase();
  return (name.endsWith('S') ? name.slice(0, -1) : name) as IntervalUnit;
}

// Math.rint: round half to even
function rint(d: number): number {
  const r = Math.round(d);
  return Math.abs(d % 1) === 0.5 && r % 2 !== 0 ? r - 1 : r;
}

// Number.longValue() of a Java Integer/Long/Double
function longValue(value: number | bigint): bigint {
  if (typeof value === 'bigint') return value;
  if (Number.isNaN(value)) return 0n;
  if (value >= 9223372036854775807) return LONG_MAX;
  if (value <= -9223372036854775808) return LONG_MIN;
  return BigInt(Math.trunc(value));
}

/**
 * ES `visitInterval`. A minus right in front of the literal (`outerMinus`) negates string
 * values only: ES reads `- INTERVAL 1 DAY` as +1 day (numeric values take just the inner sign).
 */
export function buildInterval(
  ctx: BuildContext,
  node: IntervalCstNode,
  outerMinus: boolean,
): Literal {
  const c = node.children;
  const fields = c.intervalField;
  const leading = intervalUnit(fields[0]!);
  const trailing = fields[1] ? intervalUnit(fields[1]) : null;
  if (trailing !== null) checkQualifier(leading, trailing, locOf(ctx, fields[1]!));
  const loc = locOf(ctx, node);
  const dataType = intervalType(loc, leading, trailing);
  const innerMinus = c.Minus !== undefined;

  let value: IntervalValue;
  if (c.number) {
    if (trailing !== null) {
      throw parsingError(
        locOf(ctx, fields[1]!),
        `Invalid interval declaration; trailing unit [${trailing}] specified but the value is with ` +
          'numeric (single unit), use the string notation instead',
      );
    }
    const numberNode = one(c.number);
    const number = buildNumber(ctx, numberNode, innerMinus ? spanOf(node) : null);
    const numeric = number.value as number | bigint;
    const asLong = longValue(numeric);
    if (rint(Number(numeric)) !== Number(asLong)) {
      throw parsingError(
        locOf(ctx, numberNode),
        'Fractional values are not supported for intervals',
      );
    }
    value = intervalOf(locOf(ctx, numberNode), asLong, leading);
  } else {
    const stringNode = one(c.string);
    value = parseIntervalString(locOf(ctx, stringNode), buildString(ctx, stringNode), dataType);
    if (outerMinus !== innerMinus) value = negateInterval(value);
  }
  return literal({ dataType, value, paramIndex: null, sourceText: textOf(ctx, node), loc });
}
