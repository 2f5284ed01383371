/**
 * Time and byte-size values as Elasticsearch 6.8 parses and prints them (TimeValue,
 * ByteSizeValue, SizeValue): setting strings like "30s", "512mb", and the `_cat` renderings
 * ("1.5m", "3.2kb") including the `time=` / `bytes=` / `size=` resolution parameters.
 */

import { EsError, illegalArgument } from './errors.js';

// --- Java number helpers -----------------------------------------------------------------------

const LONG_MAX = 9223372036854775807n;
const LONG_MIN = -9223372036854775808n;

/** Java Long.parseLong (radix 10); null when it would throw NumberFormatException. */
export function parseJavaLong(s: string): bigint | null {
  if (!/^[+-]?\d+$/.test(s)) return null;
  const v = BigInt(s);
  return v > LONG_MAX || v < LONG_MIN ? null : v;
}

/** Java Double.parseDouble syntax (after Java's whitespace trim); null when it would throw. */
export function parseJavaDouble(s: string): number | null {
  // eslint-disable-next-line no-control-regex
  const t = s.replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, '');
  const dec = /^([+-]?)(NaN|Infinity|(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)[fFdD]?$/.exec(t);
  if (dec) {
    if ((dec[2] === 'NaN' || dec[2] === 'Infinity') && /[fFdD]$/.test(t)) return null;
    return Number(dec[1] + dec[2]);
  }
  const hex = /^([+-]?)0[xX]([0-9a-fA-F]*)\.?([0-9a-fA-F]*)[pP]([+-]?\d+)[fFdD]?$/.exec(t);
  if (hex && (hex[2]!.length > 0 || hex[3]!.length > 0)) {
    const mant = parseInt((hex[2] || '0') + (hex[3] || ''), 16) / 16 ** hex[3]!.length;
    return (hex[1] === '-' ? -1 : 1) * mant * 2 ** Number(hex[4]);
  }
  return null;
}

/** Java's `(long) d` cast: truncation, saturating at the long range, NaN -> 0. */
const javaLongCast = (d: number): number => (Number.isNaN(d) ? 0 : Math.trunc(d) + 0);

/** Java Double.toString(d): plain notation in [1e-3, 1e7), computerized scientific otherwise. */
export function javaDoubleToString(d: number): string {
  if (Number.isNaN(d)) return 'NaN';
  if (d === Infinity) return 'Infinity';
  if (d === -Infinity) return '-Infinity';
  if (d === 0) return Object.is(d, -0) ? '-0.0' : '0.0';
  const abs = Math.abs(d);
  const sign = d < 0 ? '-' : '';
  const [mant, expStr] = abs.toExponential().split('e') as [string, string];
  const digits = mant.replace('.', '');
  const exp = Number(expStr);
  if (abs >= 1e-3 && abs < 1e7) {
    if (exp >= 0) {
      const intPart = digits.slice(0, exp + 1).padEnd(exp + 1, '0');
      const frac = digits.slice(exp + 1) || '0';
      return sign + intPart + '.' + frac;
    }
    return sign + '0.' + '0'.repeat(-exp - 1) + digits;
  }
  return sign + digits[0] + '.' + (digits.slice(1) || '0') + 'E' + exp;
}

/** ES Strings.format1Decimals / TimeValue.formatDecimal: at most one fraction digit, truncated. */
export function format1Decimals(value: number, suffix: string): string {
  const p = javaDoubleToString(value);
  const ix = p.indexOf('.') + 1;
  const ex = p.indexOf('E');
  const fraction = p[ix]!;
  if (fraction === '0') {
    return ex !== -1 ? p.slice(0, ix - 1) + p.slice(ex) + suffix : p.slice(0, ix - 1) + suffix;
  }
  return ex !== -1
    ? p.slice(0, ix) + fraction + p.slice(ex) + suffix
    : p.slice(0, ix) + fraction + suffix;
}

// --- time values -------------------------------------------------------------------------------

export type TimeUnitName = 'nanos' | 'micros' | 'ms' | 's' | 'm' | 'h' | 'd';

/** Nanoseconds per unit. */
const NANOS: Record<TimeUnitName, number> = {
  nanos: 1,
  micros: 1e3,
  ms: 1e6,
  s: 1e9,
  m: 60e9,
  h: 3600e9,
  d: 86400e9,
};
const MILLIS: Record<TimeUnitName, number> = {
  nanos: 1e-6,
  micros: 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
};

export interface TimeValue {
  readonly duration: number;
  readonly unit: TimeUnitName;
}

/** java.util.concurrent.TimeUnit.toMillis: truncating for sub-millisecond units. */
export const timeValueMillis = (tv: TimeValue): number =>
  MILLIS[tv.unit] >= 1
    ? tv.duration * MILLIS[tv.unit]
    : Math.trunc(tv.duration * MILLIS[tv.unit]) + 0;

function parseTimeNumber(
  initial: string,
  normalized: string,
  suffix: string,
  setting: string,
): number {
  const s = normalized.slice(0, normalized.length - suffix.length).trim();
  const v = parseJavaLong(s);
  if (v !== null) {
    if (v < -1n) {
      throw illegalArgument(
        `failed to parse setting [${setting}] with value [${initial}] as a time value: negative durations are not supported`,
      );
    }
    return Number(v);
  }
  // the cause is Long.parseLong's NumberFormatException
  const cause = new EsError('number_format_exception', `For input string: "${s}"`, 400);
  if (parseJavaDouble(s) !== null) {
    throw illegalArgument(
      `failed to parse [${initial}], fractional time values are not supported`,
      cause,
    );
  }
  throw illegalArgument(`failed to parse [${initial}]`, cause);
}

/** ES TimeValue.parseTimeValue, keeping the unit. */
export function parseTimeValueParts(value: string | number, settingName: string): TimeValue {
  const sValue = String(value);
  const normalized = sValue.toLowerCase().trim();
  const parse = (suffix: TimeUnitName) => ({
    duration: parseTimeNumber(sValue, normalized, suffix, settingName),
    unit: suffix,
  });
  if (normalized.endsWith('nanos')) return parse('nanos');
  if (normalized.endsWith('micros')) return parse('micros');
  if (normalized.endsWith('ms')) return parse('ms');
  if (normalized.endsWith('s')) return parse('s');
  // minutes are case-sensitive: 'M' means months
  if (sValue.endsWith('m')) return parse('m');
  if (normalized.endsWith('h')) return parse('h');
  if (normalized.endsWith('d')) return parse('d');
  if (/^-0*1$/.test(normalized)) return { duration: -1, unit: 'ms' };
  if (/^0+$/.test(normalized)) return { duration: 0, unit: 'ms' };
  throw illegalArgument(
    `failed to parse setting [${settingName}] with value [${sValue}] as a time value: unit is missing or unrecognized`,
  );
}

/** ES TimeValue.parseTimeValue(...).millis(): "1s" -> 1000, "-1" -> -1, "0" -> 0. */
export function parseTimeValue(value: string | number, settingName: string): number {
  return timeValueMillis(parseTimeValueParts(value, settingName));
}

/** ES TimeValue.toString for a duration in any unit: "1.5m", "100ms", "0s", "-1". */
export function formatTimeValueParts(tv: TimeValue): string {
  if (tv.duration < 0) return String(tv.duration);
  const nanos = tv.duration * NANOS[tv.unit];
  if (nanos === 0) return '0s';
  const units: TimeUnitName[] = ['d', 'h', 'm', 's', 'ms', 'micros'];
  for (const u of units) {
    if (nanos >= NANOS[u]) return format1Decimals(ratio(tv, u), u);
  }
  return format1Decimals(nanos, 'nanos');
}

/** duration in `tv.unit` expressed in `to`, computed without going through huge nano counts. */
const ratio = (tv: TimeValue, to: TimeUnitName): number =>
  NANOS[tv.unit] >= NANOS[to]
    ? tv.duration * (NANOS[tv.unit] / NANOS[to])
    : tv.duration / (NANOS[to] / NANOS[tv.unit]);

/** ES TimeValue.toString of a millisecond value: 1000 -> "1s", 90000 -> "1.5m". */
export const formatTimeValue = (ms: number): string =>
  formatTimeValueParts({ duration: ms, unit: 'ms' });

/** `_cat` `time=` rendering (RestTable): whole units, truncated; other values -> toString. */
export function formatTimeIn(ms: number, unit: string): string {
  switch (unit) {
    case 'nanos':
      return String(ms * 1e6);
    case 'micros':
      return String(ms * 1e3);
    case 'ms':
      return String(ms);
    case 's':
    case 'm':
    case 'h':
    case 'd':
      return String(Math.trunc(ms / MILLIS[unit]) + 0);
    default:
      return formatTimeValue(ms);
  }
}

// --- byte sizes --------------------------------------------------------------------------------

const KB = 1024;
const UNIT_BYTES = { b: 1, kb: KB, mb: KB ** 2, gb: KB ** 3, tb: KB ** 4, pb: KB ** 5 } as const;
type ByteUnit = keyof typeof UNIT_BYTES;

const parseErr = (reason: string, cause?: EsError) =>
  new EsError('parse_exception', reason, 400, cause ? { causedBy: cause } : {});
const numberFormat = (s: string) =>
  new EsError('number_format_exception', `For input string: "${s}"`, 400);

function parseSized(
  initial: string,
  normalized: string,
  suffix: string,
  unit: ByteUnit,
  setting: string,
): number {
  const s = normalized.slice(0, normalized.length - suffix.length).trim();
  const v = parseJavaLong(s);
  if (v !== null) {
    // ByteSizeValue(long, unit): larger than Long.MAX_VALUE bytes is refused
    if (v > LONG_MAX / BigInt(UNIT_BYTES[unit])) {
      throw parseErr(
        `failed to parse setting [${setting}] with value [${initial}] as a size in bytes`,
        illegalArgument(`Values greater than ${LONG_MAX} bytes are not supported: ${v}${unit}`),
      );
    }
    return Number(v * BigInt(UNIT_BYTES[unit]));
  }
  const d = parseJavaDouble(s);
  if (d === null) throw parseErr(`failed to parse [${initial}]`, numberFormat(s));
  // fractional values are deprecated but accepted: (long) (value * unitBytes)
  return javaLongCast(d * UNIT_BYTES[unit]);
}

/** ES ByteSizeValue.parseBytesSizeValue(...).getBytes(): "100mb", "1gb", "10b", "-1", "0". */
export function parseByteSize(value: string | number, settingName: string): number {
  const sValue = String(value);
  const lower = sValue.toLowerCase().trim();
  const suffixes: [string, ByteUnit][] = [
    ['k', 'kb'],
    ['kb', 'kb'],
    ['m', 'mb'],
    ['mb', 'mb'],
    ['g', 'gb'],
    ['gb', 'gb'],
    ['t', 'tb'],
    ['tb', 'tb'],
    ['p', 'pb'],
    ['pb', 'pb'],
  ];
  for (const [suffix, unit] of suffixes) {
    if (lower.endsWith(suffix)) return parseSized(sValue, lower, suffix, unit, settingName);
  }
  if (lower.endsWith('b')) {
    const s = lower.slice(0, -1).trim();
    const v = parseJavaLong(s);
    if (v === null) throw numberFormat(s);
    return Number(v);
  }
  if (lower === '-1') return -1;
  if (lower === '0') return 0;
  throw parseErr(
    `failed to parse setting [${settingName}] with value [${sValue}] as a size in bytes: unit is missing or unrecognized`,
  );
}

/** ES ByteSizeValue.toString: "230b", "3.2kb", "1.1mb", "2gb". */
export function formatByteSize(bytes: number): string {
  const units: ByteUnit[] = ['pb', 'tb', 'gb', 'mb', 'kb'];
  for (const u of units) {
    if (bytes >= UNIT_BYTES[u]) return format1Decimals(bytes / UNIT_BYTES[u], u);
  }
  return format1Decimals(bytes, 'b');
}

/** `_cat` `bytes=` rendering (RestTable): whole units by integer division; unknown -> toString. */
export function formatBytesIn(bytes: number, unit: string): string {
  const u: ByteUnit | undefined =
    unit === 'b'
      ? 'b'
      : unit === 'k' || unit === 'kb'
        ? 'kb'
        : unit === 'm' || unit === 'mb'
          ? 'mb'
          : unit === 'g' || unit === 'gb'
            ? 'gb'
            : unit === 't' || unit === 'tb'
              ? 'tb'
              : unit === 'p' || unit === 'pb'
                ? 'pb'
                : undefined;
  if (!u) return formatByteSize(bytes);
  return String(Math.trunc(bytes / UNIT_BYTES[u]) + 0);
}

// --- plain counts (SizeValue, `_cat` `size=`) -------------------------------------------------

const SIZE_UNITS = [
  ['p', 1e15],
  ['t', 1e12],
  ['g', 1e9],
  ['m', 1e6],
  ['k', 1e3],
] as const;

/** ES SizeValue.toString: 1500 -> "1.5k". */
export function formatSizeValue(count: number): string {
  for (const [suffix, n] of SIZE_UNITS) if (count >= n) return format1Decimals(count / n, suffix);
  return format1Decimals(count, '');
}

/** `_cat` `size=` rendering: "" -> singles, k/m/g/t/p -> whole units; otherwise toString. */
export function formatSizeIn(count: number, unit: string): string {
  if (unit === '') return String(count);
  const u = SIZE_UNITS.find(([s]) => s === unit);
  return u ? String(Math.trunc(count / u[1]) + 0) : formatSizeValue(count);
}
