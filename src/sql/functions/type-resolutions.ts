/**
 * Argument type checks with ES's verification wording (ql TypeResolutions, sql SqlTypeResolutions):
 * "first argument of [LEFT(a, 1)] must be [string], found value [a] type [integer]". A check returns
 * null when the argument is fine, else the message; the analyzer adds the `line L:C:` prefix.
 */
import {
  isDateBased,
  isDateOrIntervalBased,
  isDateOrTimeBased,
  isGeo,
  isInteger,
  isNumeric,
  isString,
  type DataTypeName,
} from '../../functions/data-types.js';

/** What the registry needs to know about one (resolved) argument expression. */
export interface ArgInfo {
  readonly type: DataTypeName;
  /** Expressions.name: the alias of a named expression, else its source text. */
  readonly name: string;
  /** The argument's own source text. */
  readonly sourceText?: string;
  readonly foldable: boolean;
  /** The folded value when `foldable` (used for unit names, percentiles, precisions). */
  readonly value?: unknown;
  /**
   * For text fields: whether an exact (keyword) variant exists, and ES's message when not
   * ("No keyword/multi-field defined exact matches for [x]; define one or avoid using it").
   */
  readonly exact?: { readonly hasExact: boolean; readonly errorMsg?: string };
}

/** null: resolved; a string: the verification message. */
export type Resolution = string | null;

export type Ordinal = 'DEFAULT' | 'FIRST' | 'SECOND' | 'THIRD' | 'FOURTH' | 'FIFTH';

export const ORDINALS: readonly Ordinal[] = ['FIRST', 'SECOND', 'THIRD', 'FOURTH', 'FIFTH'];

const prefix = (o: Ordinal) => (o === 'DEFAULT' ? '' : o.toLowerCase() + ' ');

function acceptedText(accepted: readonly string[]): string {
  if (accepted.length === 1) return accepted[0]!;
  return accepted.slice(0, -1).join(', ') + ' or ' + accepted[accepted.length - 1];
}

/** TypeResolutions.isType (NULL always passes). */
export function isType(
  arg: ArgInfo,
  pred: (t: DataTypeName) => boolean,
  operationName: string,
  ordinal: Ordinal,
  ...accepted: string[]
): Resolution {
  if (pred(arg.type) || arg.type === 'NULL') return null;
  return `${prefix(ordinal)}argument of [${operationName}] must be [${acceptedText(accepted)}], found value [${arg.name}] type [${arg.type.toLowerCase()}]`;
}

export const checkBoolean = (a: ArgInfo, op: string, o: Ordinal) =>
  isType(a, (t) => t === 'BOOLEAN', op, o, 'boolean');
export const checkInteger = (a: ArgInfo, op: string, o: Ordinal) =>
  isType(a, isInteger, op, o, 'integer');
export const checkNumeric = (a: ArgInfo, op: string, o: Ordinal) =>
  isType(a, isNumeric, op, o, 'numeric');
export const checkString = (a: ArgInfo, op: string, o: Ordinal) =>
  isType(a, isString, op, o, 'string');
export const checkIp = (a: ArgInfo, op: string, o: Ordinal) =>
  isType(a, (t) => t === 'IP', op, o, 'ip');
export const checkDate = (a: ArgInfo, op: string, o: Ordinal) =>
  isType(a, isDateBased, op, o, 'date', 'datetime');
export const checkDateOrTime = (a: ArgInfo, op: string, o: Ordinal) =>
  isType(a, isDateOrTimeBased, op, o, 'date', 'time', 'datetime');
export const checkDateOrInterval = (a: ArgInfo, op: string, o: Ordinal) =>
  isType(a, isDateOrIntervalBased, op, o, 'date', 'datetime', 'an interval data type');
export const checkNumericOrDate = (a: ArgInfo, op: string, o: Ordinal) =>
  isType(a, (t) => isNumeric(t) || isDateBased(t), op, o, 'date', 'datetime', 'numeric');
export const checkNumericOrDateOrTime = (a: ArgInfo, op: string, o: Ordinal) =>
  isType(
    a,
    (t) => isNumeric(t) || isDateOrTimeBased(t),
    op,
    o,
    'date',
    'time',
    'datetime',
    'numeric',
  );
export const checkGeo = (a: ArgInfo, op: string, o: Ordinal) =>
  isType(a, isGeo, op, o, 'geo_point', 'geo_shape');

/** TypeResolutions.isExact: text fields need an exact (keyword) sub-field. */
export function checkExact(a: ArgInfo, op: string, o: Ordinal): Resolution {
  if (a.exact && !a.exact.hasExact) {
    return `[${op}] cannot operate on ${o === 'DEFAULT' ? '' : o.toLowerCase() + ' argument '}field of data type [${a.type.toLowerCase()}]: ${a.exact.errorMsg ?? ''}`;
  }
  return null;
}

export const checkStringAndExact = (a: ArgInfo, op: string, o: Ordinal): Resolution =>
  checkString(a, op, o) ?? checkExact(a, op, o);

/** TypeResolutions.isFoldable. */
export function checkFoldable(a: ArgInfo, op: string, o: Ordinal): Resolution {
  return a.foldable
    ? null
    : `${prefix(o)}argument of [${op}] must be a constant, received [${a.name}]`;
}

/** TypeResolutions.isNotFoldable. */
export function checkNotFoldable(a: ArgInfo, op: string, o: Ordinal): Resolution {
  return a.foldable
    ? `${prefix(o)}argument of [${op}] must be a table column, found constant [${a.name}]`
    : null;
}

/** ql StringUtils.ordinal: 1st, 2nd, 3rd, 4th, 11th, 21st. */
export function ordinal(i: number): string {
  const mod100 = i % 100;
  if (mod100 >= 11 && mod100 <= 13) return i + 'th';
  return i + (['th', 'st', 'nd', 'rd', 'th', 'th', 'th', 'th', 'th', 'th'][i % 10] as string);
}

/** Expressions.isNull: NULL typed or folding to null. */
export const isNullArg = (a: ArgInfo): boolean =>
  a.type === 'NULL' || (a.foldable && a.value === null);

/** Runs checks in order and returns the first failure. */
export function firstFailure(...checks: Array<() => Resolution>): Resolution {
  for (const c of checks) {
    const r = c();
    if (r !== null) return r;
  }
  return null;
}
