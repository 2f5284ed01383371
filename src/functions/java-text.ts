/**
 * Text forms exactly as the JVM prints them, which is what ES SQL shows: Double.toString /
 * Float.toString ("1.0E7", "0.001", "NaN"), LocalDate/LocalTime/ZonedDateTime/OffsetTime.toString,
 * java.time.Period/Duration.toString (ISO-8601 "P1Y2M", "PT26H3M4S") and ES SQL's own interval
 * text ("+1-2", "+1 02:03:04.5": ES StringUtils.toString). `javaToString` is Objects.toString.
 */
import { dateOfEpochDay, localDateTimeOf, MILLIS_PER_DAY } from './datetime/calendar.js';
import { offsetAt, offsetId } from './datetime/zones.js';
import {
  DateTimeValue,
  IntervalDayTime,
  IntervalYearMonth,
  isIntegralNumber,
  TimeValue,
} from './values.js';

/** Formats shortest round-trip digits (d, exponent e: value = 0.d * 10^e) the way Java does. */
function javaFloating(digits: string, pointPos: number, negative: boolean, abs: number): string {
  // digits: significant digits without leading/trailing zeros; pointPos: decimal exponent such
  // that value = 0.digits * 10^pointPos
  let out: string;
  if (abs >= 1e-3 && abs < 1e7) {
    if (pointPos <= 0) {
      out = '0.' + '0'.repeat(-pointPos) + digits;
    } else if (pointPos >= digits.length) {
      out = digits + '0'.repeat(pointPos - digits.length) + '.0';
    } else {
      out = digits.slice(0, pointPos) + '.' + digits.slice(pointPos);
    }
  } else {
    const exp = pointPos - 1;
    out = digits[0] + '.' + (digits.length > 1 ? digits.slice(1) : '0') + 'E' + exp;
  }
  return negative ? '-' + out : out;
}

function shortestDigits(abs: number, precision?: number): { digits: string; pointPos: number } {
  const s = precision === undefined ? abs.toExponential() : abs.toExponential(precision - 1);
  const eIdx = s.indexOf('e');
  let mant = s.slice(0, eIdx).replace('.', '');
  const exp = Number(s.slice(eIdx + 1));
  mant = mant.replace(/0+$/, '');
  if (mant === '') mant = '0';
  return { digits: mant, pointPos: exp + 1 };
}

/** java.lang.Double.toString(double). */
export function javaDoubleToString(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (x === Infinity) return 'Infinity';
  if (x === -Infinity) return '-Infinity';
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  const abs = Math.abs(x);
  if (abs >= 1e-3 && abs < 1e7) {
    // plain notation: JS writes the same shortest digits without an exponent in this range
    const s = String(x);
    return s.includes('.') ? s : s + '.0';
  }
  const { digits, pointPos } = shortestDigits(abs);
  return javaFloating(digits, pointPos, x < 0, abs);
}

/** java.lang.Float.toString(float): shortest digits that round-trip through float32. */
export function javaFloatToString(x: number): string {
  const f = Math.fround(x);
  if (Number.isNaN(f)) return 'NaN';
  if (f === Infinity) return 'Infinity';
  if (f === -Infinity) return '-Infinity';
  if (f === 0) return Object.is(f, -0) ? '-0.0' : '0.0';
  const abs = Math.abs(f);
  for (let p = 1; p <= 9; p++) {
    const candidate = Number(abs.toExponential(p - 1));
    if (Math.fround(candidate) === abs) {
      const { digits, pointPos } = shortestDigits(abs, p);
      return javaFloating(digits, pointPos, f < 0, candidate);
    }
  }
  const { digits, pointPos } = shortestDigits(abs);
  return javaFloating(digits, pointPos, f < 0, abs);
}

/** Long.toString for integral numbers, Double.toString otherwise (unknown static type). */
export function javaNumberToString(x: number): string {
  if (isIntegralNumber(x)) return Object.is(x, -0) ? '0' : x.toFixed(0);
  return javaDoubleToString(x);
}

const pad = (n: number, w: number): string => {
  const s = String(Math.abs(n));
  return s.length >= w ? s : '0'.repeat(w - s.length) + s;
};

/** LocalDate.toString / ISO_LOCAL_DATE: "2020-01-02", "+10000-01-01", "-0001-01-01". */
export function isoLocalDate(year: number, month: number, day: number): string {
  let y: string;
  if (Math.abs(year) < 10000) y = (year < 0 ? '-' : '') + pad(year, 4);
  else y = (year < 0 ? '-' : '+') + String(Math.abs(year));
  return y + '-' + pad(month, 2) + '-' + pad(day, 2);
}

/** LocalTime.toString: "HH:mm", then ":ss" and ".SSS"/".SSSSSS"/".SSSSSSSSS" only when non-zero. */
export function javaLocalTimeToString(h: number, m: number, s: number, nano: number): string {
  let out = pad(h, 2) + ':' + pad(m, 2);
  if (s > 0 || nano > 0) {
    out += ':' + pad(s, 2);
    if (nano > 0) {
      if (nano % 1_000_000 === 0) out += '.' + pad(nano / 1_000_000, 3);
      else if (nano % 1000 === 0) out += '.' + pad(nano / 1000, 6);
      else out += '.' + pad(nano, 9);
    }
  }
  return out;
}

/** ZonedDateTime.toString: local date-time, offset id, then "[zone]" for region zones. */
export function javaZonedDateTimeToString(v: DateTimeValue): string {
  const off = offsetAt(v.zone, v.millis);
  const l = localDateTimeOf(v.millis + off * 1000, v.nanos);
  const oid = offsetId(off);
  return (
    isoLocalDate(l.year, l.month, l.day) +
    'T' +
    javaLocalTimeToString(l.hour, l.minute, l.second, l.nano) +
    oid +
    (v.zone.id !== oid ? '[' + v.zone.id + ']' : '')
  );
}

/** OffsetTime.toString. */
export function javaOffsetTimeToString(t: TimeValue): string {
  const n = t.nanoOfDay;
  const secs = Math.floor(n / 1e9);
  return (
    javaLocalTimeToString(Math.floor(secs / 3600), Math.floor(secs / 60) % 60, secs % 60, n % 1e9) +
    offsetId(t.offsetSeconds)
  );
}

/** ES StringUtils.toString(Period): "+1-2" (sign, years, '-', months; not normalised). */
export function intervalYearMonthToSql(p: IntervalYearMonth): string {
  const neg = p.isNegative;
  const y = neg ? -p.years : p.years;
  const m = neg ? -p.months : p.months;
  return (neg ? '-' : '+') + y + '-' + m;
}

/** ES StringUtils.toString(Duration): "+1 02:03:04.5" (millis with trailing zeros removed). */
export function intervalDayTimeToSql(d: IntervalDayTime): string {
  let seconds = d.seconds;
  let nanos = d.nanos;
  let sign = '+';
  if (seconds < 0) {
    sign = '-';
    // Duration.negated()
    if (nanos > 0) {
      seconds = -seconds - 1;
      nanos = 1_000_000_000 - nanos;
    } else {
      seconds = -seconds;
    }
  }
  const two = (n: number) => (n < 10 ? '0' + n : String(n));
  let out = sign + Math.floor(seconds / 86400) + ' ';
  let rest = seconds % 86400;
  out += two(Math.floor(rest / 3600)) + ':';
  rest %= 3600;
  out += two(Math.floor(rest / 60)) + ':' + two(rest % 60);
  let millis = Math.floor(nanos / 1_000_000);
  if (millis > 0) {
    while (millis % 10 === 0) millis /= 10;
    out += '.' + millis;
  }
  return out;
}

/** java.time.Period.toString: "P1Y2M", "P0D" for zero. */
export function javaPeriodToString(p: IntervalYearMonth): string {
  if (p.years === 0 && p.months === 0) return 'P0D';
  return 'P' + (p.years !== 0 ? p.years + 'Y' : '') + (p.months !== 0 ? p.months + 'M' : '');
}

/** java.time.Duration.toString: "PT26H3M4S", "PT0.5S", "PT-0.5S", "PT0S". */
export function javaDurationToString(d: IntervalDayTime): string {
  if (d.seconds === 0 && d.nanos === 0) return 'PT0S';
  let effectiveTotalSecs = d.seconds;
  if (effectiveTotalSecs < 0 && d.nanos > 0) effectiveTotalSecs++;
  const hours = Math.trunc(effectiveTotalSecs / 3600);
  const minutes = Math.trunc((effectiveTotalSecs % 3600) / 60);
  const secs = effectiveTotalSecs % 60;
  let out = 'PT';
  if (hours !== 0) out += hours + 'H';
  if (minutes !== 0) out += minutes + 'M';
  if (secs === 0 && d.nanos === 0 && out.length > 2) return out;
  if (d.seconds < 0 && d.nanos > 0) {
    out += secs === 0 ? '-0' : String(secs);
  } else {
    out += String(secs);
  }
  if (d.nanos > 0) {
    const n = d.seconds < 0 ? 2 * 1_000_000_000 - d.nanos : d.nanos + 1_000_000_000;
    let frac = String(n);
    frac = frac.replace(/0+$/, '');
    out += '.' + frac.slice(1);
  }
  return out + 'S';
}

/** Epoch-day to ISO date text. */
export const isoDateOfEpochDay = (days: number): string => {
  const d = dateOfEpochDay(days);
  return isoLocalDate(d.year, d.month, d.day);
};

/** ISO local date of a DateTimeValue in its own zone. */
export function localDateText(v: DateTimeValue): string {
  const off = offsetAt(v.zone, v.millis);
  return isoDateOfEpochDay(Math.floor((v.millis + off * 1000) / MILLIS_PER_DAY));
}

/**
 * Objects.toString(value) for runtime values, as ES messages and the CSV/TSV formats print them.
 * Numbers of unknown static type print as Long when integral (see values.ts).
 */
export function javaToString(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  switch (typeof v) {
    case 'string':
      return v;
    case 'number':
      return javaNumberToString(v);
    case 'boolean':
      return v ? 'true' : 'false';
  }
  if (v instanceof DateTimeValue) return javaZonedDateTimeToString(v);
  if (v instanceof TimeValue) return javaOffsetTimeToString(v);
  if (v instanceof IntervalYearMonth) return intervalYearMonthToSql(v);
  if (v instanceof IntervalDayTime) return intervalDayTimeToSql(v);
  if (Array.isArray(v)) return '[' + v.map(javaToString).join(', ') + ']';
  const s = (v as { toString?: () => string }).toString;
  return typeof s === 'function' ? String(v) : JSON.stringify(v);
}
