/**
 * DATETIME_FORMAT, FORMAT (MS-SQL style patterns mapped to java.time, ES DateTimeFormatProcessor),
 * DATETIME_PARSE, DATE_PARSE and TIME_PARSE (ES DateTimeParseProcessor: parseBest with
 * ZonedDateTime/LocalDateTime, LocalDate, OffsetTime/LocalTime, then moved into the query zone),
 * with ES's error messages wrapping java.time's.
 */
import { EsError } from '../../common/errors.js';
import { sqlIllegalArgument } from '../errors.js';
import { javaOffsetTimeToString, javaToString } from '../java-text.js';
import { DateTimeValue, TimeValue } from '../values.js';
import { epochDay } from './calendar.js';
import { timeAtZone } from './extract.js';
import { viewOfDateTime, viewOfTime } from './fields.js';
import { formatTemporal } from './format-temporal.js';
import { parseFields } from './parse-temporal.js';
import { ofPattern } from './pattern.js';
import {
  localDateFrom,
  localDateTimeFrom,
  localTimeFrom,
  offsetTimeFrom,
  resolveParsed,
  zonedDateTimeFrom,
} from './resolver.js';
import { startOfDay } from './temporal-math.js';
import { localToEpochMillis, toZone, validOffsets, type Zone } from './zones.js';

const reasonOf = (e: unknown): string =>
  e instanceof EsError ? (e.reason ?? e.type) : e instanceof Error ? e.message : String(e);

// DateTimeFormatProcessor.JAVA_TIME_FORMAT_REPLACEMENTS (applied in order, all occurrences)
const FORMAT_REPLACEMENTS: ReadonlyArray<readonly [string, string]> = [
  ['tt', 'a'],
  ['t', 'a'],
  ['dddd', 'eeee'],
  ['ddd', 'eee'],
  ['K', 'V'],
  ['g', 'G'],
  ['f', 'S'],
  ['F', 'S'],
  ['z', 'X'],
];

/** FORMAT's pattern translation to java.time letters. */
export function msSqlToJavaPattern(pattern: string): string {
  let p = pattern;
  for (const [from, to] of FORMAT_REPLACEMENTS) p = p.split(from).join(to);
  return p;
}

function formatWith(
  timestamp: unknown,
  pattern: unknown,
  zone: Zone | string,
  msSql: boolean,
): string | null {
  if (timestamp == null || pattern == null) return null;
  if (typeof pattern !== 'string')
    throw sqlIllegalArgument('A string is required; received [{}]', [pattern]);
  if (pattern.length === 0) return null;
  if (!(timestamp instanceof DateTimeValue) && !(timestamp instanceof TimeValue)) {
    throw sqlIllegalArgument('A date/datetime/time is required; received [{}]', [timestamp]);
  }
  const z = toZone(zone);
  try {
    const pps = ofPattern(msSql ? msSqlToJavaPattern(pattern) : pattern);
    if (timestamp instanceof DateTimeValue) {
      const dt = timestamp.withZone(z);
      return formatTemporal(pps, viewOfDateTime(dt), () => javaToString(dt));
    }
    const t = timeAtZone(timestamp, z);
    return formatTemporal(pps, viewOfTime(t), () => javaOffsetTimeToString(t));
  } catch (e) {
    if (
      e instanceof EsError &&
      (e.type === 'illegal_argument_exception' || e.type === 'date_time_exception')
    ) {
      throw sqlIllegalArgument(
        'Invalid pattern [{}] is received for formatting date/time [{}]; {}',
        [pattern, timestamp, reasonOf(e)],
      );
    }
    throw e;
  }
}

/** DATETIME_FORMAT(datetime or time, java.time pattern). */
export const dateTimeFormat = (
  timestamp: unknown,
  pattern: unknown,
  zone: Zone | string,
): string | null => formatWith(timestamp, pattern, zone, false);

/** FORMAT(datetime or time, MS-SQL style pattern). */
export const format = (timestamp: unknown, pattern: unknown, zone: Zone | string): string | null =>
  formatWith(timestamp, pattern, zone, true);

// ---- parsing ---------------------------------------------------------------------------------

type ParseKind = 'datetime' | 'date' | 'time';

const NO_QUERY = 'Unable to convert parsed text using any of the specified queries';

/** ES DateUtils.atTimeZone(LocalDateTime): the first valid offset of the local time. */
function localDateTimeAtZone(localMillis: number, nanos: number, zone: Zone): DateTimeValue {
  const offs = validOffsets(zone, localMillis);
  const millis =
    offs.length > 0 ? localMillis - offs[0]! * 1000 : localToEpochMillis(zone, localMillis);
  return new DateTimeValue(millis, nanos, zone);
}

/** Offset of `zone` for the local time on 1970-01-01 (DateUtils.atTimeZone for times). */
function epochDateOffset(zone: Zone, nanoOfDay: number): number {
  const local = Math.floor(nanoOfDay / 1e6);
  const offs = validOffsets(zone, local);
  return offs.length > 0 ? offs[0]! : 0;
}

function parseWith(
  kind: ParseKind,
  text: unknown,
  pattern: unknown,
  zone: Zone | string,
): DateTimeValue | TimeValue | null {
  if (text == null || pattern == null) return null;
  if (typeof text !== 'string')
    throw sqlIllegalArgument('A string is required; received [{}]', [text]);
  if (typeof pattern !== 'string')
    throw sqlIllegalArgument('A string is required; received [{}]', [pattern]);
  if (text.length === 0 || pattern.length === 0) return null;
  const z = toZone(zone);
  try {
    const r = resolveParsed(parseFields(ofPattern(pattern), text), text);
    if (kind === 'datetime') {
      const zdt = zonedDateTimeFrom(r);
      if (zdt) return new DateTimeValue(zdt.millis, zdt.nanos, zdt.zone).withZone(z);
      const ldt = localDateTimeFrom(r);
      if (ldt) return localDateTimeAtZone(ldt.localMillis, ldt.nanos, z);
    } else if (kind === 'date') {
      const day = localDateFrom(r);
      if (day !== null) return startOfDay(day, z);
    } else {
      const ot = offsetTimeFrom(r);
      if (ot) {
        const off = epochDateOffset(z, ot.nanoOfDay);
        const shifted = ot.nanoOfDay + (off - ot.offset) * 1e9;
        return new TimeValue(((shifted % 86_400e9) + 86_400e9) % 86_400e9, off);
      }
      const lt = localTimeFrom(r);
      if (lt !== null) return new TimeValue(lt, epochDateOffset(z, lt));
    }
    throw new EsError('date_time_exception', NO_QUERY, 500);
  } catch (e) {
    if (
      e instanceof EsError &&
      (e.type === 'illegal_argument_exception' || e.type === 'date_time_exception')
    ) {
      let msg = reasonOf(e);
      if (msg.includes(NO_QUERY)) msg = `Unable to convert parsed text into [${kind}]`;
      throw sqlIllegalArgument('Invalid {} string [{}] or pattern [{}] is received; {}', [
        kind,
        text,
        pattern,
        msg,
      ]);
    }
    throw e;
  }
}

export const dateTimeParse = (
  text: unknown,
  pattern: unknown,
  zone: Zone | string,
): DateTimeValue | null => parseWith('datetime', text, pattern, zone) as DateTimeValue | null;

export const dateParse = (
  text: unknown,
  pattern: unknown,
  zone: Zone | string,
): DateTimeValue | null => parseWith('date', text, pattern, zone) as DateTimeValue | null;

export const timeParse = (text: unknown, pattern: unknown, zone: Zone | string): TimeValue | null =>
  parseWith('time', text, pattern, zone) as TimeValue | null;

// ---- CURRENT_* -------------------------------------------------------------------------------

/** The request's "now": epoch millis plus nanos below the millisecond. */
export interface Now {
  readonly millis: number;
  readonly nanos?: number;
}

/** ES DateUtils.getNanoPrecision: keeps `precision` (0-9, default 3) fractional digits. */
export function truncateNanos(nanoOfSecond: number, precision = 3): number {
  return nanoOfSecond - (nanoOfSecond % 10 ** (9 - precision));
}

/** CURRENT_TIMESTAMP / NOW(): the request time in the request zone. */
export function currentTimestamp(now: Now, zone: Zone | string, precision = 3): DateTimeValue {
  const z = toZone(zone);
  const msOfSec = ((now.millis % 1000) + 1000) % 1000;
  const nos = truncateNanos(msOfSec * 1e6 + (now.nanos ?? 0), precision);
  const base = now.millis - msOfSec;
  return new DateTimeValue(base + Math.floor(nos / 1e6), nos % 1e6, z);
}

/** CURRENT_DATE / CURDATE / TODAY: start of the current day in the request zone. */
export function currentDate(now: Now, zone: Zone | string): DateTimeValue {
  const z = toZone(zone);
  const d = viewOfDateTime(new DateTimeValue(now.millis, 0, z)).date!;
  return startOfDay(epochDay(d.year, d.month, d.day), z);
}

/** CURRENT_TIME / CURTIME: the current local time with the zone's offset. */
export function currentTime(now: Now, zone: Zone | string, precision = 3): TimeValue {
  const dt = currentTimestamp(now, zone, precision);
  const v = viewOfDateTime(dt);
  return new TimeValue(v.nanoOfDay!, v.offsetSeconds!);
}
