/**
 * Resolves `time_zone` ids: `joda` follows DateTimeZone.forID (ES 6.8 REST parameters: "UTC",
 * "+01:00", "-0800", region ids, case-sensitive), `java` follows ZoneId.of (ES SQL: also "Z",
 * "+1", "GMT+2", "UTC+05:30"), each with its own error wording.
 */

import { EsError, illegalArgument } from '../errors.js';
import { MILLIS_PER_HOUR, MILLIS_PER_MINUTE } from './calendar.js';
import { jodaFormatError } from './joda-messages.js';
import { RegionZone } from './region-zone.js';
import type { TimeZone } from './zone-base.js';
import { FixedZone, UTC, fixedOffsetZone, printOffset } from './zone-base.js';

export type { TimeZone } from './zone-base.js';
export { UTC, fixedOffsetZone, printOffset } from './zone-base.js';

const JAVA_UTC: TimeZone = new FixedZone('Z', 0);

const cache = new Map<string, TimeZone>();

/**
 * Resolves a zone id. `joda` follows DateTimeZone.forID (ES 6.8 `time_zone` parameters);
 * `java` follows ZoneId.of (ES SQL `time_zone`, `8`-prefixed formats).
 */
export function timeZone(id: string, dialect: 'joda' | 'java' = 'joda'): TimeZone {
  const key = dialect + ':' + id;
  let z = cache.get(key);
  if (z === undefined) {
    z = dialect === 'joda' ? jodaZone(id) : javaZone(id);
    if (cache.size < 10_000) cache.set(key, z);
  }
  return z;
}

function jodaZone(id: string): TimeZone {
  if (id === 'UTC') return UTC;
  const region = regionZone(id);
  if (region) return region;
  if (id.startsWith('+') || id.startsWith('-')) {
    const offset = parseJodaOffset(id);
    return fixedOffsetZone(offset);
  }
  throw illegalArgument(`The datetime zone id '${id}' is not recognised`);
}

/** Joda's offset parser (appendTimeZoneOffset(null, true, 2, 4)), errors as parseMillis. */
function parseJodaOffset(id: string): number {
  let pos = 1;
  const n = id.length;
  const sign = id[0] === '-' ? -1 : 1;
  const fail = (p: number): never => {
    throw illegalArgument(jodaFormatError(id, p));
  };
  if (n <= 1) fail(0);
  const digits = (p: number, max: number) => {
    let c = 0;
    while (c < max && p + c < n && id.charCodeAt(p + c) >= 48 && id.charCodeAt(p + c) <= 57) c++;
    return c;
  };
  if (digits(pos, 2) < 2) fail(pos);
  const hours = +id.slice(pos, pos + 2);
  if (hours > 23) fail(pos);
  let offset = hours * MILLIS_PER_HOUR;
  pos += 2;
  parse: if (pos < n) {
    const sep = id[pos] === ':';
    if (sep) pos++;
    else if (digits(pos, 1) === 0) break parse;
    let c = digits(pos, 2);
    if (c === 0 && !sep) break parse;
    if (c < 2) fail(pos);
    const minutes = +id.slice(pos, pos + 2);
    if (minutes > 59) fail(pos);
    offset += minutes * MILLIS_PER_MINUTE;
    pos += 2;
    if (pos >= n) break parse;
    if (sep) {
      if (id[pos] !== ':') break parse;
      pos++;
    }
    c = digits(pos, 2);
    if (c === 0 && !sep) break parse;
    if (c < 2) fail(pos);
    const seconds = +id.slice(pos, pos + 2);
    if (seconds > 59) fail(pos);
    offset += seconds * 1000;
    pos += 2;
    if (pos >= n) break parse;
    if (sep) {
      if (id[pos] !== '.' && id[pos] !== ',') break parse;
      pos++;
    }
    c = digits(pos, 3);
    if (c === 0 && !sep) break parse;
    if (c < 1) fail(pos);
    offset += (id.charCodeAt(pos++) - 48) * 100;
    if (c > 1) offset += (id.charCodeAt(pos++) - 48) * 10;
    if (c > 2) offset += id.charCodeAt(pos++) - 48;
  }
  if (pos < n) fail(pos);
  return sign * offset;
}

/** An ICU region zone for `id`, or null when ICU does not know it (ids are case-sensitive). */
/** tzdb's fixed legacy zones, which newer ICU data turns into links to region zones. */
const FIXED_LEGACY: Record<string, number> = { EST: -5, MST: -7, HST: -10 };

function regionZone(id: string): TimeZone | null {
  if (id.length === 0 || id.startsWith('+') || id.startsWith('-')) return null;
  const legacy = FIXED_LEGACY[id];
  if (legacy !== undefined) return new FixedZone(id, legacy * MILLIS_PER_HOUR);
  let resolved: string;
  try {
    resolved = new Intl.DateTimeFormat('en-US', { timeZone: id }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
  // ICU matches ids case-insensitively, tzdb (Joda, java.time) does not.
  if (resolved.toLowerCase() === id.toLowerCase() && resolved !== id) return null;
  if (resolved === 'UTC' || resolved === 'Etc/UTC' || resolved === 'Etc/GMT') {
    return new FixedZone(id, 0);
  }
  return new RegionZone(id, resolved);
}

// java.time ZoneId.of ---------------------------------------------------------------------------

function javaError(type: string, reason: string): EsError {
  return new EsError(type, reason, 400);
}

/** java.time ZoneOffset.of; returns millis. */
function parseJavaOffset(s: string): number {
  return javaOffsetSeconds(s, (reason) => javaError('date_time_exception', reason)) * 1000;
}

/**
 * java.time ZoneOffset.of for `+h`, `+hh`, `+hhmm`, `+hh:mm`, `+hhmmss`, `+hh:mm:ss` (and `-`):
 * the offset in seconds, or `fail` with Java's DateTimeException message (the caller picks the
 * error's type and status).
 */
export function javaOffsetSeconds(s: string, fail: (reason: string) => Error): number {
  const bad = () => fail(`Invalid ID for ZoneOffset, invalid format: ${s}`);
  const c0 = s[0];
  if (c0 !== '+' && c0 !== '-') throw bad();
  const body = s.slice(1);
  const num = (t: string) => {
    if (!/^\d\d$/.test(t)) throw bad();
    return +t;
  };
  let h: number;
  let m = 0;
  let sec = 0;
  switch (body.length) {
    case 1:
      if (!/^\d$/.test(body)) throw bad();
      h = +body;
      break;
    case 2:
      h = num(body);
      break;
    case 4:
      h = num(body.slice(0, 2));
      m = num(body.slice(2, 4));
      break;
    case 5:
      if (body[2] !== ':') throw bad();
      h = num(body.slice(0, 2));
      m = num(body.slice(3, 5));
      break;
    case 6:
      h = num(body.slice(0, 2));
      m = num(body.slice(2, 4));
      sec = num(body.slice(4, 6));
      break;
    case 8:
      if (body[2] !== ':' || body[5] !== ':') throw bad();
      h = num(body.slice(0, 2));
      m = num(body.slice(3, 5));
      sec = num(body.slice(6, 8));
      break;
    default:
      throw bad();
  }
  if (h > 18)
    throw fail(`Zone offset hours not in valid range: value ${h} is not in the range -18 to 18`);
  if (m > 59)
    throw fail(`Zone offset minutes not in valid range: value ${m} is not in the range -59 to 59`);
  if (sec > 59)
    throw fail(`Zone offset seconds not in valid range: value ${sec} is not in the range -59 to 59`); // prettier-ignore
  const total = h * 3600 + m * 60 + sec;
  if (total > 18 * 3600) throw fail('Zone offset not in valid range: -18:00 to +18:00');
  return c0 === '-' ? -total : total;
}

function javaOffsetZone(offset: number, prefix = ''): TimeZone {
  if (prefix === '') return offset === 0 ? JAVA_UTC : new FixedZone(printOffset(offset), offset);
  return new FixedZone(offset === 0 ? prefix : prefix + printOffset(offset), offset);
}

function javaZone(id: string): TimeZone {
  if (id === 'Z') return JAVA_UTC;
  if (id.length <= 1 || id.startsWith('+') || id.startsWith('-')) {
    return javaOffsetZone(parseJavaOffset(id));
  }
  for (const prefix of ['UTC', 'GMT', 'UT']) {
    if (id === prefix) return new FixedZone(prefix, 0);
    if (id.startsWith(prefix) && (id[prefix.length] === '+' || id[prefix.length] === '-')) {
      return javaOffsetZone(parseJavaOffset(id.slice(prefix.length)), prefix);
    }
  }
  if (!/^[A-Za-z][A-Za-z0-9~/._+-]+$/.test(id)) {
    throw javaError(
      'date_time_exception',
      `Invalid ID for region-based ZoneId, invalid format: ${id}`,
    );
  }
  const region = regionZone(id);
  if (!region) throw javaError('zone_rules_exception', `Unknown time-zone ID: ${id}`);
  return region;
}
