/**
 * Date math as ES 6.8's JodaDateMathParser: `now` or `<date>||` followed by `+N<unit>`, `-N<unit>`
 * and `/<unit>` operations in the given time zone (default UTC). With `roundUp` (the upper bound
 * of `lte`/`gt` and friends) a plain date fills missing fields from 23:59:59.999 and `/unit`
 * goes to the last millisecond of the unit.
 */

import { EsError } from '../errors.js';
import { javaDoubleToString } from '../units.js';
import type { DateFormatter } from './formatter.js';
import { DEFAULT_DATE_FORMAT, DateParseError, dateFormatter } from './formatter.js';
import type { TimeZone } from './time-zone.js';
import { UTC } from './time-zone.js';
import type { CalendarUnit } from './zoned-units.js';
import { zonedDurationAdd, zonedFieldAdd, zonedFloor } from './zoned-units.js';

const parseError = (reason: string, cause?: EsError) =>
  new EsError('parse_exception', reason, 400, cause ? { causedBy: cause } : {});

const UNIT_OF: Record<string, CalendarUnit> = {
  y: 'year',
  M: 'month',
  w: 'week',
  d: 'day',
  h: 'hour',
  H: 'hour',
  m: 'minute',
  s: 'second',
};

/** Java Character.isDigit for the ASCII range (the only digits Integer.parseInt accepts here). */
const isDigit = (c: string | undefined) => c !== undefined && c >= '0' && c <= '9';

/**
 * Parses a date math expression to epoch millis. `now` is only called when the expression uses
 * it. Errors are ES's `parse_exception`s ("failed to parse date field [..] with format [..]"
 * caused by the format's reason, "operator not supported for date math [..]", ...).
 */
export function parseDateMath(
  expr: string,
  now: () => number,
  roundUp: boolean,
  zone?: TimeZone,
  formatter: DateFormatter = dateFormatter(DEFAULT_DATE_FORMAT),
): number {
  let time: number;
  let math: string;
  if (expr.startsWith('now')) {
    try {
      time = now();
    } catch (e) {
      throw parseError(
        'could not read the current timestamp',
        e instanceof EsError ? e : undefined,
      );
    }
    math = expr.slice(3);
  } else {
    const idx = expr.indexOf('||');
    if (idx === -1) return parseDateTime(expr, zone, roundUp, formatter);
    time = parseDateTime(expr.slice(0, idx), zone, false, formatter);
    math = expr.slice(idx + 2);
  }
  return applyMath(math, time, roundUp, zone ?? UTC);
}

function parseDateTime(
  value: string,
  zone: TimeZone | undefined,
  roundUp: boolean,
  formatter: DateFormatter,
): number {
  try {
    return formatter.parseInto(value, zone, roundUp);
  } catch (e) {
    if (e instanceof DateParseError) {
      // ES JavaDateMathParser appends the cause's message, JodaDateMathParser does not
      const detail = formatter.dialect === 'java' ? `: [${e.reason}]` : '';
      throw parseError(
        `failed to parse date field [${value}] with format [${formatter.pattern}]${detail}`,
        e,
      );
    }
    throw e;
  }
}

function applyMath(math: string, time: number, roundUp: boolean, zone: TimeZone): number {
  let t = time;
  for (let i = 0; i < math.length;) {
    const c = math[i++]!;
    let round = false;
    let sign = 1;
    if (c === '/') round = true;
    else if (c === '-') sign = -1;
    else if (c !== '+') throw parseError(`operator not supported for date math [${math}]`);
    if (i >= math.length) throw parseError(`truncated date math [${math}]`);
    let num = 1;
    if (isDigit(math[i])) {
      const from = i;
      while (i < math.length && isDigit(math[i])) i++;
      if (i >= math.length) throw parseError(`truncated date math [${math}]`);
      num = parseJavaInt(math.slice(from, i));
    }
    if (round && num !== 1) {
      throw parseError(`rounding \`/\` can only be used on single unit types [${math}]`);
    }
    const unitChar = math[i++]!;
    const unit = UNIT_OF[unitChar];
    if (!unit) throw parseError(`unit [${unitChar}] not supported for date math [${math}]`);
    if (round) {
      if (roundUp) {
        // the next whole unit, minus one millisecond: the largest inclusive value
        t = zonedFloor(unit, zone, zonedFieldAdd(unit, zone, t, 1)) - 1;
      } else {
        t = zonedFloor(unit, zone, t);
      }
    } else {
      t = zonedDurationAdd(unit, zone, t, sign * num);
    }
  }
  return t;
}

/** Integer.parseInt: values past int range fail with NumberFormatException. */
function parseJavaInt(s: string): number {
  const v = Number(s);
  if (v > 2147483647) {
    throw new EsError('number_format_exception', `For input string: "${s}"`, 400);
  }
  return v;
}

/** How ES stringifies a JSON range bound before date parsing (Java toString of Long/Double). */
export function dateBoundText(value: string | number): string {
  if (typeof value === 'string') return value;
  return Number.isInteger(value) && Math.abs(value) < 2 ** 63
    ? String(value)
    : javaDoubleToString(value);
}

/**
 * ES 6.8 DateFieldType.rangeQuery bounds as inclusive millis: an exclusive lower bound rounds up
 * and adds 1ms, an inclusive upper bound rounds up (`lte: 2014-11-18` -> 23:59:59.999), an
 * exclusive one subtracts 1ms. Null bounds are open (-/+Infinity).
 */
export function dateRangeBounds(
  from: string | number | null,
  to: string | number | null,
  includeLower: boolean,
  includeUpper: boolean,
  now: () => number,
  zone?: TimeZone,
  formatter?: DateFormatter,
): [number, number] {
  let lo = -Infinity;
  let hi = Infinity;
  if (from !== null) {
    lo = parseDateMath(dateBoundText(from), now, !includeLower, zone, formatter);
    if (!includeLower) lo++;
  }
  if (to !== null) {
    hi = parseDateMath(dateBoundText(to), now, includeUpper, zone, formatter);
    if (!includeUpper) hi--;
  }
  return [lo, hi];
}
