/**
 * SQL INTERVAL values (ES sql.expression.literal.interval.Intervals): literal text parsing per
 * interval type ("1-2" YEAR TO MONTH, "1 02:03:04.5" DAY TO SECOND) with ES's parsing errors,
 * single-unit construction (`INTERVAL 3 DAYS`), type compatibility, interval arithmetic and the
 * ISO-8601 forms used in scripts (java.time Period.parse / Duration.parse).
 */
import { parsingException } from '../common/errors.js';
import type { DataTypeName } from './data-types.js';
import { isDayTimeInterval, isYearMonthInterval } from './data-types.js';
import { arithmeticException, qlIllegalArgument } from './errors.js';
import { IntervalDayTime, IntervalYearMonth } from './values.js';
import { dateTimeException } from './datetime/zones.js';

export type IntervalUnit = 'YEAR' | 'MONTH' | 'DAY' | 'HOUR' | 'MINUTE' | 'SECOND' | 'MILLISECOND';

const UNIT_SECONDS: Record<string, number> = { DAY: 86400, HOUR: 3600, MINUTE: 60, SECOND: 1 };

/** Intervals.intervalType: the type of `INTERVAL ... <leading> [TO <trailing>]`. */
export function intervalType(leading: IntervalUnit, trailing?: IntervalUnit | null): DataTypeName {
  if (!trailing) {
    if (leading === 'MILLISECOND')
      throw parsingException(`Cannot determine datatype for [${leading}]`);
    return ('INTERVAL_' + leading) as DataTypeName;
  }
  const combos: Record<string, DataTypeName> = {
    YEAR_MONTH: 'INTERVAL_YEAR_TO_MONTH',
    DAY_HOUR: 'INTERVAL_DAY_TO_HOUR',
    DAY_MINUTE: 'INTERVAL_DAY_TO_MINUTE',
    DAY_SECOND: 'INTERVAL_DAY_TO_SECOND',
    HOUR_MINUTE: 'INTERVAL_HOUR_TO_MINUTE',
    HOUR_SECOND: 'INTERVAL_HOUR_TO_SECOND',
    MINUTE_SECOND: 'INTERVAL_MINUTE_TO_SECOND',
  };
  const t = combos[leading + '_' + trailing];
  if (!t)
    throw parsingException(`Cannot determine datatype for combination [${leading}] [${trailing}]`);
  return t;
}

/**
 * Intervals.of(duration, unit) wrapped in the interval value of `type`: `INTERVAL 3 DAYS`.
 * Magnitudes are plain numbers (no Java long overflow checks beyond 2^53).
 */
export function intervalOf(
  amount: number,
  unit: IntervalUnit,
  type: DataTypeName,
): IntervalYearMonth | IntervalDayTime {
  switch (unit) {
    case 'YEAR':
      return new IntervalYearMonth(amount, 0, type);
    case 'MONTH':
      return new IntervalYearMonth(0, amount, type);
    case 'MILLISECOND':
      return IntervalDayTime.ofMillis(amount, type);
    default:
      return new IntervalDayTime(amount * UNIT_SECONDS[unit]!, 0, type);
  }
}

// ---- literal text parsers (Intervals.PARSERS) ----------------------------------------------

interface Tok {
  readonly ch: string; // '' for a number
  readonly max: number;
  readonly optional: boolean;
}

interface ParserSpec {
  readonly units: IntervalUnit[];
  readonly tokens: Tok[];
}

function spec(...parts: Array<IntervalUnit | [IntervalUnit, number] | string | 'OPT'>): ParserSpec {
  const units: IntervalUnit[] = [];
  const tokens: Tok[] = [];
  let optional = false;
  for (const p of parts) {
    if (p === 'OPT') optional = true;
    else if (Array.isArray(p)) {
      units.push(p[0]);
      tokens.push({ ch: '', max: p[1], optional });
    } else if (p.length === 1) tokens.push({ ch: p, max: 0, optional });
    else {
      units.push(p as IntervalUnit);
      tokens.push({ ch: '', max: 0, optional });
    }
  }
  return { units, tokens };
}

const PARSERS: Partial<Record<DataTypeName, ParserSpec>> = {
  INTERVAL_YEAR: spec('YEAR'),
  INTERVAL_MONTH: spec('MONTH'),
  INTERVAL_DAY: spec('DAY'),
  INTERVAL_HOUR: spec('HOUR'),
  INTERVAL_MINUTE: spec('MINUTE'),
  INTERVAL_SECOND: spec('SECOND', 'OPT', '.', ['MILLISECOND', 999]),
  INTERVAL_YEAR_TO_MONTH: spec('YEAR', '-', ['MONTH', 11]),
  INTERVAL_DAY_TO_HOUR: spec('DAY', ' ', ['HOUR', 23]),
  INTERVAL_DAY_TO_MINUTE: spec('DAY', ' ', ['HOUR', 23], ':', ['MINUTE', 59]),
  INTERVAL_DAY_TO_SECOND: spec(
    'DAY',
    ' ',
    ['HOUR', 23],
    ':',
    ['MINUTE', 59],
    ':',
    ['SECOND', 59],
    'OPT',
    '.',
    ['MILLISECOND', 999],
  ),
  INTERVAL_HOUR_TO_MINUTE: spec('HOUR', ':', ['MINUTE', 59]),
  INTERVAL_HOUR_TO_SECOND: spec('HOUR', ':', ['MINUTE', 59], ':', ['SECOND', 59], 'OPT', '.', [
    'MILLISECOND',
    999,
  ]),
  INTERVAL_MINUTE_TO_SECOND: spec('MINUTE', ':', ['SECOND', 59], 'OPT', '.', ['MILLISECOND', 999]),
};

/**
 * Intervals.parseInterval: `INTERVAL '<text>' <type>`. Errors are `parsing_exception`s without a
 * location; the SQL parser should re-throw them with the literal's line and column.
 */
export function parseInterval(
  text: string,
  type: DataTypeName,
): IntervalYearMonth | IntervalDayTime {
  const p = PARSERS[type];
  if (!p) throw parsingException(`Cannot parse interval of type [${type}]`);
  const name = type.replace(/_/g, ' ');
  const invalid = `Invalid [${name}] value [${text}]`;
  const values: number[] = [];
  let unitIndex = 0;
  let start = 0;
  let end = 0;
  let negate = false;
  if (text[0] === '+') start = 1;
  else if (text[0] === '-') {
    start = 1;
    negate = true;
  }
  for (const tok of p.tokens) {
    end = start;
    if (start >= text.length) {
      if (tok.optional) break;
      const expecting = p.tokens.map((t) => (t.ch ? t.ch : '[numeric]')).join('');
      throw parsingException(`${invalid}: incorrect format, expecting ${expecting}`);
    }
    if (tok.ch) {
      const found = text[start];
      if (found !== tok.ch) {
        throw parsingException(
          `${invalid}: expected [${tok.ch}] (at [${start}]) but found [${found}]`,
        );
      }
      start++;
    } else {
      while (end < text.length && /\d/.test(text[end]!)) end++;
      if (end === start) {
        throw parsingException(`${invalid}: expected digit (at [${end}]) but found [${text[end]}]`);
      }
      const digits = text.slice(start, end);
      let v = Number(digits);
      if (!Number.isSafeInteger(v) && BigInt(digits) > 9223372036854775807n) {
        throw parsingException(invalid);
      }
      const unit = p.units[unitIndex]!;
      if (tok.max > 0 && v > tok.max) {
        throw parsingException(
          `${invalid}: [${unit}] unit has illegal value [${v}], expected a positive number up to [${tok.max}]`,
        );
      }
      if (unit === 'MILLISECOND' && digits.length < 3) v *= digits.length < 2 ? 100 : 10;
      values[unitIndex++] = v;
      start = end;
    }
  }
  if (end <= text.length - 1) {
    throw parsingException(`${invalid}: unexpected trailing characters found [${text.slice(end)}]`);
  }
  let years = 0;
  let months = 0;
  let seconds = 0;
  let millis = 0;
  p.units.forEach((u, i) => {
    const v = values[i] ?? 0;
    if (u === 'YEAR') years += v;
    else if (u === 'MONTH') months += v;
    else if (u === 'MILLISECOND') millis += v;
    else seconds += v * UNIT_SECONDS[u]!;
  });
  if (isYearMonthInterval(type)) {
    return negate
      ? new IntervalYearMonth(-years, -months, type)
      : new IntervalYearMonth(years, months, type);
  }
  const d = new IntervalDayTime(
    seconds + Math.floor(millis / 1000),
    (millis % 1000) * 1_000_000,
    type,
  );
  return negate ? negateInterval(d) : d;
}

// ---- ISO-8601 forms (scripts: intervalYearMonth / intervalDayTime) --------------------------

/** java.time.Period.parse for the Y/M (and W/D) forms ES emits. */
export function parseIsoPeriod(text: string, type: DataTypeName): IntervalYearMonth {
  const m = /^([-+]?)P(?:([-+]?\d+)Y)?(?:([-+]?\d+)M)?(?:([-+]?\d+)W)?(?:([-+]?\d+)D)?$/i.exec(
    text,
  );
  if (
    !m ||
    (m[2] === undefined && m[3] === undefined && m[4] === undefined && m[5] === undefined)
  ) {
    throw dateTimeException(`Text cannot be parsed to a Period: ${text}`);
  }
  const s = m[1] === '-' ? -1 : 1;
  return new IntervalYearMonth(s * Number(m[2] ?? 0), s * Number(m[3] ?? 0), type);
}

/** java.time.Duration.parse ("PT26H3M4.5S", "P1DT2H", "-PT1S"). */
export function parseIsoDuration(text: string, type: DataTypeName): IntervalDayTime {
  const m =
    /^([-+]?)P(?:([-+]?\d+)D)?(?:T(?:([-+]?\d+)H)?(?:([-+]?\d+)M)?(?:([-+]?)(\d+)(?:[.,](\d{0,9}))?S)?)?$/i.exec(
      text,
    );
  if (
    !m ||
    (m[2] === undefined && m[3] === undefined && m[4] === undefined && m[6] === undefined)
  ) {
    throw dateTimeException(`Text cannot be parsed to a Duration: ${text}`);
  }
  const days = Number(m[2] ?? 0);
  const hours = Number(m[3] ?? 0);
  const mins = Number(m[4] ?? 0);
  const secSign = m[5] === '-' ? -1 : 1;
  const secs = Number(m[6] ?? 0) * secSign;
  const frac = m[7] ? Number(m[7].padEnd(9, '0')) * secSign : 0;
  let d = IntervalDayTime.ofNanos(days * 86400 + hours * 3600 + mins * 60 + secs, frac, type);
  if (m[1] === '-') d = negateInterval(d);
  return d;
}

// ---- arithmetic ----------------------------------------------------------------------------

/** Intervals.compatibleInterval: the widened interval type of two intervals, or null. */
export function compatibleInterval(left: DataTypeName, right: DataTypeName): DataTypeName | null {
  if (left === right) return left;
  if (isYearMonthInterval(left) && isYearMonthInterval(right)) return 'INTERVAL_YEAR_TO_MONTH';
  if (isDayTimeInterval(left) && isDayTimeInterval(right)) {
    const lName = left.slice('INTERVAL_'.length);
    const rName = right.slice('INTERVAL_'.length);
    // D > H > M(inute) > S, which is also the alphabetical order of the initials
    const leading = lName[0]! < rName[0]! ? lName[0]! : rName[0]!;
    const lt = lName.length > 6 ? lName.slice(lName.indexOf('_TO_') + 4) : lName;
    const rt = rName.length > 6 ? rName.slice(rName.indexOf('_TO_') + 4) : rName;
    const trailing = lt[0]! > rt[0]! ? lt[0]! : rt[0]!;
    const unit = (c: string) => ({ D: 'DAY', H: 'HOUR', M: 'MINUTE', S: 'SECOND' })[c];
    return ('INTERVAL_' + unit(leading) + '_TO_' + unit(trailing)) as DataTypeName;
  }
  return null;
}

/** Period.normalized(): years and months with the same sign, |months| < 12. */
function normalizedPeriod(totalMonths: number, type: DataTypeName): IntervalYearMonth {
  const years = Math.trunc(totalMonths / 12);
  return new IntervalYearMonth(years, totalMonths - years * 12, type);
}

export function addYearMonth(l: IntervalYearMonth, r: IntervalYearMonth): IntervalYearMonth {
  return normalizedPeriod(l.totalMonths + r.totalMonths, compatibleInterval(l.type, r.type)!);
}

export function subYearMonth(l: IntervalYearMonth, r: IntervalYearMonth): IntervalYearMonth {
  return normalizedPeriod(l.totalMonths - r.totalMonths, compatibleInterval(l.type, r.type)!);
}

export function addDayTime(l: IntervalDayTime, r: IntervalDayTime): IntervalDayTime {
  return IntervalDayTime.ofNanos(
    l.seconds + r.seconds,
    l.nanos + r.nanos,
    compatibleInterval(l.type, r.type)!,
  );
}

export function subDayTime(l: IntervalDayTime, r: IntervalDayTime): IntervalDayTime {
  return IntervalDayTime.ofNanos(
    l.seconds - r.seconds,
    l.nanos - r.nanos,
    compatibleInterval(l.type, r.type)!,
  );
}

/** IntervalYearMonth.mul: Period.multipliedBy(safeToInt(n)), component-wise. */
export function mulYearMonth(p: IntervalYearMonth, n: number): IntervalYearMonth {
  const i = Math.trunc(n);
  if (i > 2147483647 || i < -2147483648)
    throw qlIllegalArgument('[' + i + '] out of [integer] range');
  return new IntervalYearMonth(p.years * i || 0, p.months * i || 0, p.type);
}

/** IntervalDayTime.mul: Duration.multipliedBy(long). */
export function mulDayTime(d: IntervalDayTime, n: number): IntervalDayTime {
  const l = Math.trunc(n);
  const totalNanos = BigInt(d.seconds) * 1_000_000_000n + BigInt(d.nanos);
  const prod = totalNanos * BigInt(l);
  if (
    prod > 9223372036854775807n * 1_000_000_000n ||
    prod < -9223372036854775808n * 1_000_000_000n
  ) {
    throw arithmeticException('long overflow');
  }
  const secs = prod / 1_000_000_000n;
  const rem = prod % 1_000_000_000n;
  return IntervalDayTime.ofNanos(Number(secs), Number(rem), d.type);
}

export function negateInterval<T extends IntervalYearMonth | IntervalDayTime>(v: T): T {
  if (v instanceof IntervalYearMonth) {
    return new IntervalYearMonth(-v.years || 0, -v.months || 0, v.type) as T;
  }
  const d = v as IntervalDayTime;
  return IntervalDayTime.ofNanos(-d.seconds, -d.nanos, d.type) as T;
}
