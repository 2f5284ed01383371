/**
 * Time zones with Joda DateTimeZone semantics (what ES 6.8 uses for `time_zone`), plus java.time
 * ZoneId parsing rules for ES SQL. Offset rules of region zones come from ICU (`Intl`): a per-zone
 * transition table is discovered lazily by sampling offsets and bisecting to the second, then all
 * Joda algorithms (getOffsetFromLocal, convertLocalToUTC, next/previousTransition) run on it.
 */

import { EsError, illegalArgument } from '../errors.js';
import {
  MILLIS_PER_DAY,
  MILLIS_PER_HOUR,
  MILLIS_PER_MINUTE,
  breakDown,
  daysFromCivil,
  newLocalFields,
  yearOf,
} from './calendar.js';
import { zoneShortName, zoneLongName } from './zone-names.js';

export interface TimeZone {
  /** Joda/java id: "UTC", "+01:00", "Europe/Paris" (java offsets use "Z" for zero). */
  readonly id: string;
  /** True when the offset never changes (Joda DateTimeZone.isFixed). */
  readonly fixed: boolean;
  /** Offset in millis at an instant. */
  offsetAt(utcMillis: number): number;
  /** Joda nextTransition: first instant > utc where the offset changes, or `utc` when none. */
  nextTransition(utcMillis: number): number;
  /** Joda previousTransition: (last transition <= utc) - 1, or `utc` when none. */
  previousTransition(utcMillis: number): number;
  /** Joda getOffsetFromLocal: gaps resolve after the gap, overlaps to the earlier instant. */
  offsetFromLocal(localMillis: number): number;
  /**
   * Joda convertLocalToUTC(local, strict[, originalUtc]): with `originalUtc`, keeps that instant's
   * offset when it is valid for `local`; `strict` throws in a DST gap.
   */
  localToUtc(localMillis: number, strict?: boolean, originalUtc?: number): number;
  /** Zone display names (Joda `z` / `zzzz`). */
  shortName(utcMillis: number): string;
  longName(utcMillis: number): string;
}

abstract class BaseZone implements TimeZone {
  abstract readonly id: string;
  abstract readonly fixed: boolean;
  abstract offsetAt(utc: number): number;
  abstract nextTransition(utc: number): number;
  abstract previousTransition(utc: number): number;

  offsetFromLocal(local: number): number {
    // Joda DateTimeZone.getOffsetFromLocal
    const offsetLocal = this.offsetAt(local);
    const adjusted = local - offsetLocal;
    const offsetAdjusted = this.offsetAt(adjusted);
    if (offsetLocal !== offsetAdjusted) {
      if (offsetLocal - offsetAdjusted < 0) {
        let nextLocal = this.nextTransition(adjusted);
        if (nextLocal === local - offsetLocal) nextLocal = Infinity;
        let nextAdjusted = this.nextTransition(local - offsetAdjusted);
        if (nextAdjusted === local - offsetAdjusted) nextAdjusted = Infinity;
        if (nextLocal !== nextAdjusted) return offsetLocal;
      }
    } else if (offsetLocal >= 0) {
      const prev = this.previousTransition(adjusted);
      if (prev < adjusted) {
        const offsetPrev = this.offsetAt(prev);
        if (adjusted - prev <= offsetPrev - offsetLocal) return offsetPrev;
      }
    }
    return offsetAdjusted;
  }

  localToUtc(local: number, strict = false, originalUtc?: number): number {
    if (originalUtc !== undefined) {
      const offsetOriginal = this.offsetAt(originalUtc);
      const utc = local - offsetOriginal;
      if (this.offsetAt(utc) === offsetOriginal) return utc;
    }
    // Joda DateTimeZone.convertLocalToUTC(long, boolean)
    const offsetLocal = this.offsetAt(local);
    let offset = this.offsetAt(local - offsetLocal);
    if (offsetLocal !== offset && (strict || offsetLocal < 0)) {
      let nextLocal = this.nextTransition(local - offsetLocal);
      if (nextLocal === local - offsetLocal) nextLocal = Infinity;
      let nextAdjusted = this.nextTransition(local - offset);
      if (nextAdjusted === local - offset) nextAdjusted = Infinity;
      if (nextLocal !== nextAdjusted) {
        if (strict) throw illegalInstant(local, this.id);
        offset = offsetLocal;
      }
    }
    return local - offset;
  }

  shortName(utc: number): string {
    return zoneShortName(this, utc);
  }
  longName(utc: number): string {
    return zoneLongName(this, utc);
  }
}

/** Joda IllegalInstantException wording (local time printed as yyyy-MM-dd'T'HH:mm:ss.SSS). */
export function illegalInstant(local: number, zoneId: string): EsError {
  const f = breakDown(local, newLocalFields());
  const p = (n: number, w: number) => String(n).padStart(w, '0');
  const iso = `${p(f.year, 4)}-${p(f.month, 2)}-${p(f.day, 2)}T${p(f.hour, 2)}:${p(f.minute, 2)}:${p(f.second, 2)}.${p(f.millis, 3)}`;
  return illegalArgument(
    `Illegal instant due to time zone offset transition (daylight savings time 'gap'): ${iso} (${zoneId})`,
  );
}

class FixedZone extends BaseZone {
  readonly fixed = true;
  constructor(
    readonly id: string,
    readonly offset: number,
  ) {
    super();
  }
  offsetAt(): number {
    return this.offset;
  }
  nextTransition(utc: number): number {
    return utc;
  }
  previousTransition(utc: number): number {
    return utc;
  }
  override offsetFromLocal(): number {
    return this.offset;
  }
  override localToUtc(local: number): number {
    return local - this.offset;
  }
}

// --- ICU-backed region zones ---------------------------------------------------------------

const LO_YEAR = 1800;
const HI_YEAR = 2400;
const T_LO = daysFromCivil(LO_YEAR, 1, 1) * MILLIS_PER_DAY;
const T_HI = daysFromCivil(HI_YEAR, 1, 1) * MILLIS_PER_DAY;
/** The Gregorian calendar (and so every recurring DST rule) repeats every 400 years. */
const CYCLE = 146097 * MILLIS_PER_DAY;
const SAMPLE_STEP = 4 * MILLIS_PER_DAY;
const yearStart = (y: number) => daysFromCivil(y, 1, 1) * MILLIS_PER_DAY;

class RegionZone extends BaseZone {
  readonly fixed = false;
  private readonly fmt: Intl.DateTimeFormat;
  /** Transition instants (first millisecond of the new offset) and the offset from then on. */
  private times: number[] = [];
  private offs: number[] = [];
  /** Covered UTC years [lo, hi); startOffset is the offset at the start of year `lo`. */
  private lo = 0;
  private hi = 0;
  private startOffset = 0;
  // one-interval cache: [cStart, cEnd) has offset cOff
  private cStart = 1;
  private cEnd = 0;
  private cOff = 0;

  constructor(
    readonly id: string,
    icuId: string,
  ) {
    super();
    this.fmt = new Intl.DateTimeFormat('en-US', { timeZone: icuId, timeZoneName: 'longOffset' });
  }

  /** ICU offset at an instant, from the "GMT+hh:mm[:ss]" long offset name. */
  private sample(t: number): number {
    const s = this.fmt.format(t);
    const i = s.lastIndexOf('GMT');
    if (i < 0 || i + 3 >= s.length) return 0;
    const sign = s.charCodeAt(i + 3) === 45 || s.charCodeAt(i + 3) === 0x2212 ? -1 : 1;
    const h = +s.slice(i + 4, i + 6);
    const m = +s.slice(i + 7, i + 9);
    const sec = s.length > i + 10 ? +s.slice(i + 10, i + 12) : 0;
    return sign * (h * MILLIS_PER_HOUR + m * MILLIS_PER_MINUTE + sec * 1000);
  }

  /** Transitions in UTC years [y0, y1): sampled every few days, bisected to the second. */
  private scan(y0: number, y1: number): { times: number[]; offs: number[]; start: number } {
    const times: number[] = [];
    const offs: number[] = [];
    const end = yearStart(y1);
    let a = yearStart(y0);
    const start = this.sample(a);
    let oa = start;
    while (a < end) {
      const b = Math.min(a + SAMPLE_STEP, end);
      const ob = this.sample(b);
      while (oa !== ob) {
        // find the first second in (a, b] whose offset differs from oa
        let lo = a;
        let hi = b;
        while (hi - lo > 1000) {
          const mid = lo + Math.floor((hi - lo) / 2000) * 1000;
          if (this.sample(mid) === oa) lo = mid;
          else hi = mid;
        }
        const oh = this.sample(hi);
        times.push(hi);
        offs.push(oh);
        a = hi;
        oa = oh;
        if (hi >= b) break;
      }
      a = b;
      oa = ob;
    }
    return { times, offs, start };
  }

  private cover(year: number): void {
    if (year < LO_YEAR) year = LO_YEAR;
    if (year > HI_YEAR) year = HI_YEAR;
    if (this.lo === this.hi) {
      const r = this.scan(year, year + 1);
      this.times = r.times;
      this.offs = r.offs;
      this.startOffset = r.start;
      this.lo = year;
      this.hi = year + 1;
    } else if (year < this.lo) {
      const r = this.scan(year, this.lo);
      this.times = r.times.concat(this.times);
      this.offs = r.offs.concat(this.offs);
      this.startOffset = r.start;
      this.lo = year;
    } else if (year >= this.hi) {
      const r = this.scan(this.hi, year + 1);
      this.times = this.times.concat(r.times);
      this.offs = this.offs.concat(r.offs);
      this.hi = year + 1;
    }
  }

  /** Index of the last transition <= t (or -1), with the table covering t's year. */
  private indexAt(t: number): number {
    const y = yearOf(t);
    if (y < this.lo || y >= this.hi) this.cover(y);
    const times = this.times;
    let lo = 0;
    let hi = times.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (times[mid]! <= t) lo = mid + 1;
      else hi = mid;
    }
    return lo - 1;
  }

  offsetAt(t: number): number {
    if (t >= this.cStart && t < this.cEnd) return this.cOff;
    if (t < T_LO) return this.offsetAt(T_LO);
    if (t >= T_HI) return this.offsetAt(t - Math.ceil((t - T_HI + 1) / CYCLE) * CYCLE);
    const i = this.indexAt(t);
    const off = i < 0 ? this.startOffset : this.offs[i]!;
    this.cStart = i < 0 ? yearStart(this.lo) : this.times[i]!;
    this.cEnd = i + 1 < this.times.length ? this.times[i + 1]! : yearStart(this.hi);
    this.cOff = off;
    return off;
  }

  nextTransition(t: number): number {
    if (t >= T_HI) {
      const shift = Math.ceil((t - T_HI + 1) / CYCLE) * CYCLE;
      const n = this.nextTransition(t - shift);
      return n === t - shift ? t : n + shift;
    }
    const from = Math.max(t, T_LO - 1);
    const limitYear = Math.min(HI_YEAR, Math.max(yearOf(from) + 2, 2101));
    for (let y = yearOf(from); y <= limitYear; y++) {
      this.cover(y);
      const i = this.indexAt(from) + 1;
      if (i < this.times.length) return this.times[i]!;
    }
    return t;
  }

  previousTransition(t: number): number {
    if (t < T_LO) return t;
    if (t >= T_HI) {
      const shift = Math.ceil((t - T_HI + 1) / CYCLE) * CYCLE;
      const p = this.previousTransition(t - shift);
      if (p === t - shift) return t;
      return p + 1 >= T_HI - CYCLE ? p + shift : p;
    }
    for (;;) {
      const i = this.indexAt(t);
      if (i >= 0) return this.times[i]! - 1;
      if (this.lo <= LO_YEAR) return t;
      this.cover(this.lo - 1);
    }
  }
}

// --- parsing zone ids --------------------------------------------------------------------------

export const UTC: TimeZone = new FixedZone('UTC', 0);
const JAVA_UTC: TimeZone = new FixedZone('Z', 0);

/** Joda printOffset / java ZoneOffset id: "+hh:mm", "+hh:mm:ss", "+hh:mm:ss.SSS". */
export function printOffset(offset: number): string {
  let s = offset >= 0 ? '+' : '-';
  let o = Math.abs(offset);
  const h = Math.floor(o / MILLIS_PER_HOUR);
  o -= h * MILLIS_PER_HOUR;
  const m = Math.floor(o / MILLIS_PER_MINUTE);
  o -= m * MILLIS_PER_MINUTE;
  s += pad2(h) + ':' + pad2(m);
  if (o === 0) return s;
  const sec = Math.floor(o / 1000);
  o -= sec * 1000;
  s += ':' + pad2(sec);
  if (o === 0) return s;
  return s + '.' + String(o).padStart(3, '0');
}
const pad2 = (n: number) => (n < 10 ? '0' + n : String(n));

/** A fixed-offset zone as Joda's forOffsetMillis builds it (zero offset is UTC). */
export function fixedOffsetZone(offsetMillis: number): TimeZone {
  return offsetMillis === 0 ? UTC : new FixedZone(printOffset(offsetMillis), offsetMillis);
}

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

/** Joda FormatUtils.createErrorMessage (the reason of a failed DateTimeFormatter.parseMillis). */
export function jodaFormatError(text: string, errorPos: number): string {
  const sampleLen = errorPos + 32;
  const sample = text.length <= sampleLen + 3 ? text : text.slice(0, sampleLen) + '...';
  if (errorPos <= 0) return `Invalid format: "${sample}"`;
  if (errorPos >= text.length) return `Invalid format: "${sample}" is too short`;
  return `Invalid format: "${sample}" is malformed at "${sample.slice(errorPos)}"`;
}

/** An ICU region zone for `id`, or null when ICU does not know it (ids are case-sensitive). */
function regionZone(id: string): TimeZone | null {
  if (id.length === 0 || id.startsWith('+') || id.startsWith('-')) return null;
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
function parseJavaOffset(s: string, fullId: string): number {
  const bad = () =>
    javaError('date_time_exception', `Invalid ID for ZoneOffset, invalid format: ${s}`);
  const c0 = s[0];
  if (c0 !== '+' && c0 !== '-') throw bad();
  const body = s.slice(1);
  let h: number;
  let m = 0;
  let sec = 0;
  const num = (t: string) => {
    if (!/^\d\d$/.test(t)) throw bad();
    return +t;
  };
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
    throw javaError(
      'date_time_exception',
      `Zone offset hours not in valid range: value ${h} is not in the range -18 to 18`,
    );
  if (m > 59)
    throw javaError(
      'date_time_exception',
      `Zone offset minutes not in valid range: value ${m} is not in the range -59 to 59`,
    );
  if (sec > 59)
    throw javaError(
      'date_time_exception',
      `Zone offset seconds not in valid range: value ${sec} is not in the range -59 to 59`,
    );
  const total = h * 3600 + m * 60 + sec;
  if (total > 18 * 3600)
    throw javaError('date_time_exception', 'Zone offset not in valid range: -18:00 to +18:00');
  void fullId;
  return (c0 === '-' ? -total : total) * 1000;
}

function javaOffsetZone(offset: number, prefix = ''): TimeZone {
  if (prefix === '') return offset === 0 ? JAVA_UTC : new FixedZone(printOffset(offset), offset);
  return new FixedZone(offset === 0 ? prefix : prefix + printOffset(offset), offset);
}

function javaZone(id: string): TimeZone {
  if (id === 'Z') return JAVA_UTC;
  if (id.length <= 1 || id.startsWith('+') || id.startsWith('-')) {
    return javaOffsetZone(parseJavaOffset(id, id));
  }
  for (const prefix of ['UTC', 'GMT', 'UT']) {
    if (id === prefix) return new FixedZone(prefix, 0);
    if (id.startsWith(prefix) && (id[prefix.length] === '+' || id[prefix.length] === '-')) {
      return javaOffsetZone(parseJavaOffset(id.slice(prefix.length), id), prefix);
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
