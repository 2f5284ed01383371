/**
 * SQL arithmetic at runtime (ql Arithmetics + sql SqlBinaryArithmeticOperation): + - * / % and
 * unary minus on numbers with Java's integral/rational split (integer division, "/ by zero",
 * overflow), interval +/- interval, interval * integer, and datetime/time +/- interval.
 * `type` is the static result type when known (see values.ts for the inference otherwise).
 */
import { isInteger, type DataTypeName } from './data-types.js';
import { arithmeticException, qlIllegalArgument } from './errors.js';
import {
  addDayTime,
  addYearMonth,
  mulDayTime,
  mulYearMonth,
  subDayTime,
  subYearMonth,
} from './intervals.js';
import { MILLIS_PER_DAY } from './datetime/calendar.js';
import { plusMonths, plusNanosInstant, timePlusNanos } from './datetime/temporal-math.js';
import {
  DateTimeValue,
  IntervalDayTime,
  IntervalYearMonth,
  isIntegralNumber,
  TimeValue,
} from './values.js';

const INT_MIN = -2147483648;
const INT_MAX = 2147483647;
const LONG_LIMIT = 9223372036854775807;

type NumKind = 'int' | 'long' | 'float' | 'double';

function kindOf(l: number, r: number, type?: DataTypeName | null): NumKind {
  if (type) {
    if (type === 'DOUBLE' || type === 'SCALED_FLOAT') return 'double';
    if (type === 'FLOAT' || type === 'HALF_FLOAT') return 'float';
    if (type === 'LONG') return 'long';
    if (isInteger(type)) return 'int';
  }
  return isIntegralNumber(l) && isIntegralNumber(r) ? 'long' : 'double';
}

function exact(v: number, kind: NumKind): number {
  if (kind === 'int' && (v < INT_MIN || v > INT_MAX)) throw arithmeticException('integer overflow');
  if (kind === 'long' && (v >= LONG_LIMIT || v < -LONG_LIMIT))
    throw arithmeticException('long overflow');
  if (kind === 'float') return Math.fround(v);
  return kind === 'double' ? v : v + 0; // integral results have no negative zero
}

/** Java's class name of a runtime value, as "Cannot compute" messages show it. */
function javaClassName(v: unknown): string {
  if (typeof v === 'number') return isIntegralNumber(v) ? 'Long' : 'Double';
  if (typeof v === 'string') return 'String';
  if (typeof v === 'boolean') return 'Boolean';
  if (v instanceof DateTimeValue) return 'ZonedDateTime';
  if (v instanceof TimeValue) return 'OffsetTime';
  if (v instanceof IntervalYearMonth) return 'IntervalYearMonth';
  if (v instanceof IntervalDayTime) return 'IntervalDayTime';
  return 'Object';
}

function requireNumbers(l: unknown, r: unknown): void {
  if (typeof l !== 'number') throw qlIllegalArgument('A number is required; received {}', [l]);
  if (typeof r !== 'number') throw qlIllegalArgument('A number is required; received {}', [r]);
}

const cannotCompute = (op: string, l: unknown, r: unknown) =>
  qlIllegalArgument('Cannot compute [{}] between [{}] [{}]', [
    op,
    javaClassName(l),
    javaClassName(r),
  ]);

// ---- temporal +/- interval (IntervalArithmetics) --------------------------------------------

function temporalPlus(
  t: DateTimeValue | TimeValue,
  i: IntervalYearMonth | IntervalDayTime,
  sign: 1 | -1,
): DateTimeValue | TimeValue {
  if (i instanceof IntervalYearMonth) {
    if (t instanceof TimeValue) return t; // a Period does not move a time of day
    // Period.addTo: total months when both parts are set, otherwise the set part
    return plusMonths(t, sign * i.totalMonths);
  }
  if (t instanceof TimeValue) {
    // Duration reduced to millis modulo a day (Java remainder keeps the sign)
    const ms = (i.millis % MILLIS_PER_DAY) * sign;
    return timePlusNanos(t, ms * 1e6);
  }
  return plusNanosInstant(t, sign * i.seconds, sign * i.nanos);
}

const isTemporal = (v: unknown): v is DateTimeValue | TimeValue =>
  v instanceof DateTimeValue || v instanceof TimeValue;

// ---- operators -----------------------------------------------------------------------------

export function add(l: unknown, r: unknown, type?: DataTypeName | null): unknown {
  if (l == null || r == null) return null;
  if (typeof l === 'number') {
    requireNumbers(l, r);
    const k = kindOf(l, r as number, type);
    return exact(l + (r as number), k);
  }
  if (l instanceof IntervalYearMonth && r instanceof IntervalYearMonth) return addYearMonth(l, r);
  if (l instanceof IntervalDayTime && r instanceof IntervalDayTime) return addDayTime(l, r);
  if (isTemporal(l) && (r instanceof IntervalYearMonth || r instanceof IntervalDayTime))
    return temporalPlus(l, r, 1);
  if (isTemporal(r) && (l instanceof IntervalYearMonth || l instanceof IntervalDayTime))
    return temporalPlus(r, l, 1);
  throw cannotCompute('+', l, r);
}

export function sub(l: unknown, r: unknown, type?: DataTypeName | null): unknown {
  if (l == null || r == null) return null;
  if (typeof l === 'number') {
    requireNumbers(l, r);
    const k = kindOf(l, r as number, type);
    return exact(l - (r as number), k);
  }
  if (l instanceof IntervalYearMonth && r instanceof IntervalYearMonth) return subYearMonth(l, r);
  if (l instanceof IntervalDayTime && r instanceof IntervalDayTime) return subDayTime(l, r);
  if (isTemporal(l) && (r instanceof IntervalYearMonth || r instanceof IntervalDayTime))
    return temporalPlus(l, r, -1);
  if (isTemporal(r) && (l instanceof IntervalYearMonth || l instanceof IntervalDayTime)) {
    throw qlIllegalArgument('Cannot subtract a date from an interval; do you mean the reverse?');
  }
  throw cannotCompute('-', l, r);
}

export function mul(l: unknown, r: unknown, type?: DataTypeName | null): unknown {
  if (l == null || r == null) return null;
  if (typeof l === 'number' && typeof r === 'number') return exact(l * r, kindOf(l, r, type));
  if (typeof l === 'number' && r instanceof IntervalYearMonth) return mulYearMonth(r, l);
  if (typeof r === 'number' && l instanceof IntervalYearMonth) return mulYearMonth(l, r);
  if (typeof l === 'number' && r instanceof IntervalDayTime) return mulDayTime(r, l);
  if (typeof r === 'number' && l instanceof IntervalDayTime) return mulDayTime(l, r);
  throw cannotCompute('*', l, r);
}

/** Division: integral operands divide as Java longs/ints (truncating, "/ by zero"). */
export function div(l: unknown, r: unknown, type?: DataTypeName | null): number | null {
  if (l == null || r == null) return null;
  requireNumbers(l, r);
  const k = kindOf(l as number, r as number, type);
  if (k === 'int' || k === 'long') {
    if (r === 0) throw arithmeticException('/ by zero');
    return exact(Math.trunc((l as number) / (r as number)), k);
  }
  return exact((l as number) / (r as number), k);
}

/** Remainder with Java's sign rules (the dividend's sign). */
export function mod(l: unknown, r: unknown, type?: DataTypeName | null): number | null {
  if (l == null || r == null) return null;
  requireNumbers(l, r);
  const k = kindOf(l as number, r as number, type);
  if ((k === 'int' || k === 'long') && r === 0) throw arithmeticException('/ by zero');
  const v = (l as number) % (r as number);
  return k === 'float' ? Math.fround(v) : v;
}

/** Arithmetics.negate (with Java's Double.MIN_VALUE quirk). */
export function neg(v: unknown, type?: DataTypeName | null): number | null {
  if (v == null) return null;
  if (typeof v !== 'number') throw qlIllegalArgument('A number is required; received {}', [v]);
  const k = kindOf(v, 0, type);
  if (k === 'double' && v === 5e-324) throw arithmeticException('double overflow');
  if (k === 'float' && v === Math.fround(1.4e-45)) throw arithmeticException('float overflow');
  if (k === 'int' && v === INT_MIN) throw arithmeticException('integer overflow');
  if (k === 'long' && v <= -LONG_LIMIT) throw arithmeticException('long overflow');
  return exact(-v, k);
}
