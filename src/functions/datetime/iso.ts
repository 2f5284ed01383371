/**
 * The ISO formatters ES SQL uses for CAST and literals (ql/sql DateUtils): date with optional 'T'
 * or ' ' time and zone, time with optional zone, strict_date_optional_time for script strings,
 * and the printers ISO_DATE_WITH_MILLIS / ISO_TIME_WITH_MILLIS that `/_sql` output uses.
 */
import { epochDay, localDateTimeOf, MILLIS_PER_DAY } from './calendar.js';
import { parseFields } from './parse-temporal.js';
import type { PrinterParser } from './printer-parser.js';
import { resolveParsed, type Resolved } from './resolver.js';
import { localToEpochMillis, offsetAt, offsetId, UTC, type Zone } from './zones.js';
import { javaIllegalArgument } from '../errors.js';
import { isoLocalDate } from '../java-text.js';
import { DateTimeValue, TimeValue } from '../values.js';

const num = (
  field:
    | 'YEAR'
    | 'MONTH_OF_YEAR'
    | 'DAY_OF_MONTH'
    | 'HOUR_OF_DAY'
    | 'MINUTE_OF_HOUR'
    | 'SECOND_OF_MINUTE',
): PrinterParser => ({
  k: 'num',
  field,
  min: 2,
  max: 2,
  sign: 'NOT_NEGATIVE',
  subsequentWidth: -1,
});

// DateTimeFormatter.ISO_LOCAL_DATE: appendValue(YEAR, 4, 10, EXCEEDS_PAD) '-' MM '-' dd
const ISO_LOCAL_DATE: PrinterParser[] = [
  { k: 'num', field: 'YEAR', min: 4, max: 10, sign: 'EXCEEDS_PAD', subsequentWidth: 0 },
  { k: 'lit', text: '-' },
  num('MONTH_OF_YEAR'),
  { k: 'lit', text: '-' },
  num('DAY_OF_MONTH'),
];

// DateTimeFormatter.ISO_LOCAL_TIME: HH ':' mm [':' ss [fraction(0..9, '.')]]
const ISO_LOCAL_TIME: PrinterParser[] = [
  num('HOUR_OF_DAY'),
  { k: 'lit', text: ':' },
  num('MINUTE_OF_HOUR'),
  {
    k: 'opt',
    items: [
      { k: 'lit', text: ':' },
      num('SECOND_OF_MINUTE'),
      { k: 'opt', items: [{ k: 'frac', min: 0, max: 9, point: true, subsequentWidth: 0 }] },
    ],
  },
];

const ZONE_OR_OFFSET: PrinterParser = { k: 'opt', items: [{ k: 'zoneId' }] };

const dateOptionalTime = (sep: string): PrinterParser[] => [
  ...ISO_LOCAL_DATE,
  { k: 'opt', items: [{ k: 'lit', text: sep }, ...ISO_LOCAL_TIME, ZONE_OR_OFFSET] },
];

const DATE_OPTIONAL_TIME_T = dateOptionalTime('T');
const DATE_OPTIONAL_TIME_WS = dateOptionalTime(' ');
const LOCAL_TIME_OPTIONAL_TZ: PrinterParser[] = [...ISO_LOCAL_TIME, ZONE_OR_OFFSET];

/** ES DateUtils.timeSeparatorIdx: where the 'T' or ' ' would be after "yyyy-MM-dd". */
function timeSeparatorIdx(s: string): number {
  let idx = s.indexOf('-');
  if (idx === 0) idx = s.indexOf('-', 1);
  return s.indexOf('-', idx + 1) + 3;
}

function pickDateFormatter(s: string): PrinterParser[] {
  const idx = timeSeparatorIdx(s);
  return idx >= s.length || s[idx] === 'T' ? DATE_OPTIONAL_TIME_T : DATE_OPTIONAL_TIME_WS;
}

const parseResolved = (pps: readonly PrinterParser[], s: string): Resolved =>
  resolveParsed(parseFields(pps, s), s);

/** Instant of a resolved date(+time) in its parsed zone or UTC (ES DateFormatters.from). */
function instantOf(r: Resolved, dflt: Zone): { millis: number; nanos: number } {
  const zone = r.zone ?? dflt;
  const d = r.date!;
  const nod = r.nanoOfDay ?? 0;
  const local = epochDay(d.year, d.month, d.day) * MILLIS_PER_DAY + Math.floor(nod / 1e6);
  const millis = r.offset !== null ? local - r.offset * 1000 : localToEpochMillis(zone, local);
  return { millis, nanos: nod % 1e6 };
}

/** ql DateUtils.asDateTime(String): ISO date, optional 'T'/' ' time and zone; result in UTC. */
export function parseIsoDateTime(s: string): DateTimeValue {
  const r = parseResolved(pickDateFormatter(s), s);
  const { millis, nanos } = instantOf(r, UTC);
  return new DateTimeValue(millis, nanos, UTC);
}

/** sql DateUtils.asDateOnly(String): the local date of the text at start of day, UTC. */
export function parseIsoDateOnly(s: string): DateTimeValue {
  const r = parseResolved(pickDateFormatter(s), s);
  const d = r.date!;
  return new DateTimeValue(epochDay(d.year, d.month, d.day) * MILLIS_PER_DAY, 0, UTC);
}

/** sql DateUtils.asTimeOnly(String): ISO local time with an optional zone (default UTC). */
export function parseIsoTimeOnly(s: string): TimeValue {
  const r = parseResolved(LOCAL_TIME_OPTIONAL_TZ, s);
  const nod = r.nanoOfDay ?? 0;
  let offset: number;
  if (r.offset !== null) offset = r.offset;
  else if (r.zone) offset = offsetAt(r.zone, localToEpochMillis(r.zone, Math.floor(nod / 1e6)));
  else offset = 0;
  return new TimeValue(nod, offset);
}

// DateTimeFormatter.ISO_OFFSET_TIME: ISO_LOCAL_TIME then offset id "+HH:MM:ss" / "Z"
const ISO_OFFSET_TIME: PrinterParser[] = [
  ...ISO_LOCAL_TIME,
  {
    k: 'offset',
    pattern: { minutes: 'required', seconds: 'optional', colon: true },
    noOffset: 'Z',
  },
];

/** OffsetTime.parse (ISO_OFFSET_TIME), e.g. "10:20:30.123+01:00" or "10:20Z". */
export function parseIsoOffsetTime(s: string): TimeValue {
  const r = parseResolved(ISO_OFFSET_TIME, s);
  return new TimeValue(r.nanoOfDay ?? 0, r.offset ?? 0);
}

/**
 * ES `strict_date_optional_time` (sql DateUtils.asDateTime(String), used for script inputs):
 * yyyy[-MM[-dd]] then optional 'T'HH[:mm[:ss[.S{1,9}]]] and offset; result in UTC.
 */
export function parseStrictDateOptionalTime(s: string): DateTimeValue {
  const m =
    /^(\d{4})(?:-(\d{2})(?:-(\d{2})(?:T(\d{2})(?::(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?)?(Z|[+-]\d{2}(?::?\d{2})?)?)?)?)?$/.exec(
      s,
    );
  if (!m) {
    throw parseFailure(s);
  }
  const [, y, mo, d, h, mi, se, frac, off] = m;
  const nanos = frac ? Number(frac.padEnd(9, '0')) : 0;
  const local =
    epochDay(Number(y), Number(mo ?? 1), Number(d ?? 1)) * MILLIS_PER_DAY +
    ((Number(h ?? 0) * 60 + Number(mi ?? 0)) * 60 + Number(se ?? 0)) * 1000 +
    Math.floor(nanos / 1e6);
  let offset = 0;
  if (off && off !== 'Z') {
    const digits = off.replace(':', '');
    offset =
      (off[0] === '-' ? -1 : 1) *
      (Number(digits.slice(1, 3)) * 3600 + Number(digits.slice(3, 5) || 0) * 60);
  }
  return new DateTimeValue(local - offset * 1000, nanos % 1e6, UTC);
}

function parseFailure(s: string) {
  return javaIllegalArgument(
    `failed to parse date field [${s}] with format [strict_date_optional_time]`,
  );
}

// ---- printers -------------------------------------------------------------------------------

const p2 = (n: number) => (n < 10 ? '0' + n : String(n));
const p3 = (n: number) => (n < 10 ? '00' + n : n < 100 ? '0' + n : String(n));

/** ES StringUtils ISO_DATE_WITH_MILLIS: "2018-02-01T00:00:00.000Z" / "...+01:00". */
export function isoDateTimeWithMillis(v: DateTimeValue): string {
  const off = offsetAt(v.zone, v.millis);
  const l = localDateTimeOf(v.millis + off * 1000);
  return (
    isoLocalDate(l.year, l.month, l.day) +
    'T' +
    p2(l.hour) +
    ':' +
    p2(l.minute) +
    ':' +
    p2(l.second) +
    '.' +
    p3(Math.floor(l.nano / 1e6)) +
    offsetId(off)
  );
}

/** ES StringUtils ISO_TIME_WITH_MILLIS: "10:20:30.123Z". */
export function isoTimeWithMillis(t: TimeValue): string {
  const ms = Math.floor(t.nanoOfDay / 1e6);
  const s = Math.floor(ms / 1000);
  return (
    p2(Math.floor(s / 3600)) +
    ':' +
    p2(Math.floor(s / 60) % 60) +
    ':' +
    p2(s % 60) +
    '.' +
    p3(ms % 1000) +
    offsetId(t.offsetSeconds)
  );
}

/** ISO_LOCAL_DATE of a date value in its zone (DATE to string). */
export function isoDateOnly(v: DateTimeValue): string {
  const off = offsetAt(v.zone, v.millis);
  const l = localDateTimeOf(v.millis + off * 1000);
  return isoLocalDate(l.year, l.month, l.day);
}
