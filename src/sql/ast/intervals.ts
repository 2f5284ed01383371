/**
 * INTERVAL literals, as ES 7.10's `Intervals` and `ExpressionBuilder.visitInterval` read them:
 * the qualifier checks, the data type of a qualifier, numeric values (`INTERVAL 1 DAY`) and the
 * per-type string formats (`INTERVAL '1-2' YEAR TO MONTH`, `'1 2:03:04.5' DAY TO SECOND`),
 * with ES's error messages. Values are java.time Period / Duration equivalents (IntervalValue).
 */
import { EsError } from '../../common/errors.js';
import { parsingError } from './errors.js';
import type { IntervalTypeName, IntervalUnit, IntervalValue, Loc } from './nodes.js';

type TimeUnit = IntervalUnit | 'MILLISECOND';
const ORDER: readonly TimeUnit[] = [
  'YEAR',
  'MONTH',
  'DAY',
  'HOUR',
  'MINUTE',
  'SECOND',
  'MILLISECOND',
];

const LONG_MAX = 9223372036854775807n;
const LONG_MIN = -9223372036854775808n;
const INT_MAX = 2147483647n;
const INT_MIN = -2147483648n;

/**
 * ES `visitInterval` qualifier checks: `YEAR TO x` needs x = MONTH; otherwise the trailing unit
 * must be smaller than the leading one.
 */
export function checkQualifier(
  leading: IntervalUnit,
  trailing: IntervalUnit,
  trailingLoc: Loc,
): void {
  if (leading === 'YEAR' && trailing !== 'MONTH') {
    throw parsingError(
      trailingLoc,
      `Invalid interval declaration; YEAR trailing unit required to be MONTH, received ${trailing}`,
    );
  }
  const li = ORDER.indexOf(leading);
  if (ORDER.indexOf(trailing) <= li) {
    // EnumSet.range(leading, SECOND) without leading
    const expected = ORDER.slice(li + 1, ORDER.indexOf('SECOND') + 1);
    throw parsingError(
      trailingLoc,
      `Invalid interval declaration; trailing unit [${trailing}] needs to be smaller than leading ` +
        `unit[${leading}], expected one of [${expected.join(', ')}]`,
    );
  }
}

/** ES `Intervals.intervalType`. */
export function intervalType(
  loc: Loc,
  leading: IntervalUnit,
  trailing: IntervalUnit | null,
): IntervalTypeName {
  if (trailing === null) return `interval_${leading.toLowerCase()}` as IntervalTypeName;
  const combined = `${leading}_TO_${trailing}`;
  if (VALID_COMBINATIONS.has(combined))
    return `interval_${combined.toLowerCase()}` as IntervalTypeName;
  throw parsingError(loc, `Cannot determine datatype for combination [${leading}] [${trailing}]`);
}

const VALID_COMBINATIONS = new Set([
  'YEAR_TO_MONTH',
  'DAY_TO_HOUR',
  'DAY_TO_MINUTE',
  'DAY_TO_SECOND',
  'HOUR_TO_MINUTE',
  'HOUR_TO_SECOND',
  'MINUTE_TO_SECOND',
]);

/**
 * ES `Intervals.of(source, long, unit)`: Period.plusYears/plusMonths (int range) or
 * Duration.plusDays/... (seconds must fit a long).
 */
export function intervalOf(loc: Loc, amount: bigint, unit: TimeUnit): IntervalValue {
  const tooLarge = () =>
    parsingError(
      loc,
      `Value [${amount}] cannot be used as it is too large to convert into [${unit}]s`,
    );
  if (unit === 'YEAR' || unit === 'MONTH') {
    if (amount > INT_MAX || amount < INT_MIN) throw tooLarge();
    const n = Number(amount);
    return unit === 'YEAR'
      ? { kind: 'YearMonth', years: n, months: 0 }
      : { kind: 'YearMonth', years: 0, months: n };
  }
  if (unit === 'MILLISECOND') return { kind: 'DayTime', millis: Number(amount) };
  const seconds = amount * SECONDS_PER[unit];
  if (seconds > LONG_MAX || seconds < LONG_MIN) throw tooLarge();
  return { kind: 'DayTime', millis: Number(seconds) * 1000 };
}

const SECONDS_PER: Record<'DAY' | 'HOUR' | 'MINUTE' | 'SECOND', bigint> = {
  DAY: 86400n,
  HOUR: 3600n,
  MINUTE: 60n,
  SECOND: 1n,
};

export function negateInterval(value: IntervalValue): IntervalValue {
  return value.kind === 'YearMonth'
    ? { kind: 'YearMonth', years: -value.years || 0, months: -value.months || 0 }
    : { kind: 'DayTime', millis: -value.millis || 0 };
}

// ---------------------------------------------------------------------------------------------
// String formats (ES Intervals.PARSERS): numbers, separators, optional tail after `.`.

interface FormatToken {
  readonly ch: string | null; // a separator, or null for a number
  readonly maxValue: number;
  readonly optional: boolean;
}

interface Format {
  readonly units: readonly TimeUnit[];
  readonly tokens: readonly FormatToken[];
}

function format(spec: string): Format {
  // spec: `Y`, `D H:M:S[.F]` style with units as letters and `[` starting the optional part
  const units: TimeUnit[] = [];
  const tokens: FormatToken[] = [];
  let optional = false;
  for (const c of spec) {
    if (c === '[') optional = true;
    else if (c in UNIT_LETTERS) {
      const [unit, max] = UNIT_LETTERS[c]!;
      // the leading unit has no upper bound
      units.push(unit);
      tokens.push({ ch: null, maxValue: units.length === 1 ? 0 : max, optional });
    } else tokens.push({ ch: c, maxValue: 0, optional });
  }
  return { units, tokens };
}

const UNIT_LETTERS: Record<string, [TimeUnit, number]> = {
  Y: ['YEAR', 0],
  m: ['MONTH', 11],
  D: ['DAY', 0],
  H: ['HOUR', 23],
  M: ['MINUTE', 59],
  S: ['SECOND', 59],
  F: ['MILLISECOND', 999],
};

const FORMATS: Record<IntervalTypeName, Format> = {
  interval_year: format('Y'),
  interval_month: format('m'),
  interval_day: format('D'),
  interval_hour: format('H'),
  interval_minute: format('M'),
  interval_second: format('S[.F'),
  interval_year_to_month: format('Y-m'),
  interval_day_to_hour: format('D H'),
  interval_day_to_minute: format('D H:M'),
  interval_day_to_second: format('D H:M:S[.F'),
  interval_hour_to_minute: format('H:M'),
  interval_hour_to_second: format('H:M:S[.F'),
  interval_minute_to_second: format('M:S[.F'),
};

const isDigit = (c: string | undefined) => c !== undefined && c >= '0' && c <= '9';

/**
 * ES `Intervals.parseInterval` (the Parser of the type): optional sign, then the tokens of the
 * format, each number bounded by its unit. `value` null is a null parameter (NPE in ES).
 */
export function parseIntervalString(
  loc: Loc,
  value: string | null,
  type: IntervalTypeName,
): IntervalValue {
  if (value === null) throw new EsError('null_pointer_exception', null, 500);
  if (value.length === 0) {
    throw new EsError('string_index_out_of_bounds_exception', 'String index out of range: 0', 500);
  }
  const { units, tokens } = FORMATS[type];
  const name = type.replace(/_/g, ' ').toUpperCase();
  const invalid = `Invalid [${name}] value [${value}]`;
  const values: bigint[] = units.map(() => 0n);
  let unitIndex = 0;
  let start = 0;
  let end = 0;
  let negate = false;
  if (value[0] === '+') start = 1;
  else if (value[0] === '-') [start, negate] = [1, true];

  for (const token of tokens) {
    end = start;
    if (start >= value.length) {
      if (token.optional) break;
      const expecting = tokens.map((t) => t.ch ?? '[numeric]').join('');
      throw parsingError(loc, `${invalid}: incorrect format, expecting ${expecting}`);
    }
    if (token.ch !== null) {
      const found = value[start];
      if (found !== token.ch) {
        throw parsingError(
          loc,
          `${invalid}: expected [${token.ch}] (at [${start}]) but found [${found}]`,
        );
      }
      start++;
      continue;
    }
    while (end < value.length && isDigit(value[end])) end++;
    if (end === start) {
      throw parsingError(loc, `${invalid}: expected digit (at [${end}]) but found [${value[end]}]`);
    }
    const digits = value.substring(start, end);
    let v = BigInt(digits);
    if (v > LONG_MAX) throw parsingError(loc, invalid);
    const unit = units[unitIndex]!;
    if (token.maxValue > 0 && v > BigInt(token.maxValue)) {
      throw parsingError(
        loc,
        `${invalid}: [${unit}] unit has illegal value [${v}], expected a positive number up to [${token.maxValue}]`,
      );
    }
    // normalise the digits after the dot to milliseconds
    if (unit === 'MILLISECOND' && digits.length < 3) v *= digits.length < 2 ? 100n : 10n;
    values[unitIndex++] = v;
    start = end;
  }
  if (end <= value.length - 1) {
    throw parsingError(
      loc,
      `${invalid}: unexpected trailing characters found [${value.substring(end)}]`,
    );
  }

  let result: IntervalValue =
    units[0] === 'YEAR' || units[0] === 'MONTH'
      ? { kind: 'YearMonth', years: 0, months: 0 }
      : { kind: 'DayTime', millis: 0 };
  values.forEach((v, i) => {
    const part = intervalOf(loc, v, units[i]!);
    result =
      part.kind === 'YearMonth' && result.kind === 'YearMonth'
        ? {
            kind: 'YearMonth',
            years: result.years + part.years,
            months: result.months + part.months,
          }
        : {
            kind: 'DayTime',
            millis: (result as { millis: number }).millis + (part as { millis: number }).millis,
          };
  });
  return negate ? negateInterval(result) : result;
}
