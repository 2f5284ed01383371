/**
 * Time zones as java.time.ZoneId does them: `ZoneId.of` parsing (offsets "Z", "+01:00", prefixed
 * "UTC+1", regions "Europe/Berlin"), the offset in force at an instant, and local date-time to
 * instant resolution with ZonedDateTime.ofLocal's gap/overlap rules. Region rules come from Intl
 * (the ICU tz database); fixed offsets never touch Intl.
 */
import { EsError } from '../../common/errors.js';
import { javaOffsetSeconds } from '../../common/dates/time-zone.js';

export interface Zone {
  /** Normalised id as Java's ZoneId.getId() prints it ("Z", "+01:00", "UTC", "Europe/Berlin"). */
  readonly id: string;
  /** Fixed offset in seconds, or null for a region with rules. */
  readonly fixedOffset: number | null;
}

export const UTC: Zone = Object.freeze({ id: 'Z', fixedOffset: 0 });

/** java.time.DateTimeException surfaces as a 500 `date_time_exception` in ES responses. */
export const dateTimeException = (msg: string) => new EsError('date_time_exception', msg, 500);

const zoneCache = new Map<string, Zone>();

/** ZoneOffset.getId(): "Z" or "+hh:mm" or "+hh:mm:ss". */
export function offsetId(totalSeconds: number): string {
  if (totalSeconds === 0) return 'Z';
  const abs = Math.abs(totalSeconds);
  const h = Math.floor(abs / 3600);
  const m = Math.floor(abs / 60) % 60;
  const s = abs % 60;
  const p2 = (n: number) => (n < 10 ? '0' + n : String(n));
  return (totalSeconds < 0 ? '-' : '+') + p2(h) + ':' + p2(m) + (s ? ':' + p2(s) : '');
}

/** ES: ZoneOffset.of(String). Returns the offset in seconds. */
export function parseOffset(id: string): number {
  return id === 'Z' ? 0 : javaOffsetSeconds(id, dateTimeException);
}

function isKnownRegion(id: string): boolean {
  try {
    const resolved = new Intl.DateTimeFormat('en-US', { timeZone: id }).resolvedOptions().timeZone;
    // Intl is case-insensitive, java.time region ids are not
    return resolved === id || resolved.toLowerCase() !== id.toLowerCase();
  } catch {
    return false;
  }
}

/** ES: java.time.ZoneId.of(String) with Java's error messages. Results are cached. */
export function zoneOf(id: string): Zone {
  const cached = zoneCache.get(id);
  if (cached) return cached;
  let zone: Zone;
  if (id.length <= 1 || id.startsWith('+') || id.startsWith('-')) {
    const off = parseOffset(id);
    zone = { id: offsetId(off), fixedOffset: off };
  } else if (id === 'UTC' || id === 'GMT' || id === 'UT') {
    zone = { id, fixedOffset: 0 };
  } else if (/^(UTC|GMT|UT)[+-]/.test(id)) {
    const prefix = id.startsWith('UT') && !id.startsWith('UTC') ? 'UT' : id.slice(0, 3);
    const off = parseOffset(id.slice(prefix.length));
    zone = { id: off === 0 ? prefix : prefix + offsetId(off), fixedOffset: off };
  } else {
    if (!/^[A-Za-z][A-Za-z0-9~/._+-]+$/.test(id)) {
      throw dateTimeException('Invalid ID for region-based ZoneId, invalid format: ' + id);
    }
    if (!isKnownRegion(id)) {
      throw new EsError('zone_rules_exception', 'Unknown time-zone ID: ' + id, 500);
    }
    zone = { id, fixedOffset: null };
  }
  Object.freeze(zone);
  zoneCache.set(id, zone);
  return zone;
}

/** Accepts a Zone or a zone id. */
export const toZone = (z: Zone | string): Zone => (typeof z === 'string' ? zoneOf(z) : z);

// ---- region offsets via Intl --------------------------------------------------------------

const fmtCache = new Map<string, Intl.DateTimeFormat>();
function formatterFor(id: string): Intl.DateTimeFormat {
  let f = fmtCache.get(id);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: id,
      hourCycle: 'h23',
      era: 'short',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    fmtCache.set(id, f);
  }
  return f;
}

function utcMillis(y: number, mo: number, d: number, h: number, mi: number, s: number): number {
  const dt = new Date(0);
  dt.setUTCFullYear(y, mo - 1, d);
  dt.setUTCHours(h, mi, s, 0);
  return dt.getTime();
}

function intlOffsetSeconds(id: string, epochMillis: number): number {
  const second = Math.floor(epochMillis / 1000) * 1000;
  const parts = formatterFor(id).formatToParts(second);
  let y = 0;
  let mo = 0;
  let d = 0;
  let h = 0;
  let mi = 0;
  let s = 0;
  let bc = false;
  for (const p of parts) {
    switch (p.type) {
      case 'year':
        y = Number(p.value);
        break;
      case 'month':
        mo = Number(p.value);
        break;
      case 'day':
        d = Number(p.value);
        break;
      case 'hour':
        h = Number(p.value);
        break;
      case 'minute':
        mi = Number(p.value);
        break;
      case 'second':
        s = Number(p.value);
        break;
      case 'era':
        bc = p.value.startsWith('B');
        break;
    }
  }
  if (bc) y = 1 - y;
  return Math.round((utcMillis(y, mo, d, h, mi, s) - second) / 1000);
}

// Per-zone cache by hour bucket: an hour whose start and end offsets agree has no transition.
const BUCKET = 3_600_000;
const bucketCache = new Map<string, Map<number, number>>();

function regionOffsetSeconds(id: string, epochMillis: number): number {
  let cache = bucketCache.get(id);
  if (!cache) {
    cache = new Map();
    bucketCache.set(id, cache);
  }
  const bucket = Math.floor(epochMillis / BUCKET);
  const hit = cache.get(bucket);
  if (hit !== undefined) return hit;
  const start = intlOffsetSeconds(id, bucket * BUCKET);
  const end = intlOffsetSeconds(id, bucket * BUCKET + BUCKET - 1);
  if (start === end) {
    if (cache.size > 50_000) cache.clear();
    cache.set(bucket, start);
    return start;
  }
  return intlOffsetSeconds(id, epochMillis);
}

/** Offset (seconds) in force at the instant. */
export function offsetAt(zone: Zone, epochMillis: number): number {
  return zone.fixedOffset !== null ? zone.fixedOffset : regionOffsetSeconds(zone.id, epochMillis);
}

/**
 * ES/java.time ZonedDateTime.ofLocal: instant of a local date-time in a zone. In an overlap the
 * preferred offset wins when valid, otherwise the earlier (pre-transition) offset; in a gap the
 * local time moves forward by the gap length.
 */
export function localToEpochMillis(
  zone: Zone,
  localMillis: number,
  preferredOffset?: number,
): number {
  if (zone.fixedOffset !== null) return localMillis - zone.fixedOffset * 1000;
  const before = offsetAt(zone, localMillis - 86_400_000);
  const after = offsetAt(zone, localMillis + 86_400_000);
  if (before === after) {
    const o = offsetAt(zone, localMillis - before * 1000);
    if (o === before) return localMillis - before * 1000;
    // a transition and back inside two days: fall back to direct resolution
    return localMillis - o * 1000;
  }
  const validBefore = offsetAt(zone, localMillis - before * 1000) === before;
  const validAfter = offsetAt(zone, localMillis - after * 1000) === after;
  if (validBefore && validAfter) {
    if (preferredOffset === after) return localMillis - after * 1000;
    return localMillis - before * 1000;
  }
  if (validBefore) return localMillis - before * 1000;
  if (validAfter) return localMillis - after * 1000;
  return localMillis - before * 1000; // gap
}

/** Valid offsets for a local date-time (ZoneRules.getValidOffsets): 0 in a gap, 2 in an overlap. */
export function validOffsets(zone: Zone, localMillis: number): number[] {
  if (zone.fixedOffset !== null) return [zone.fixedOffset];
  const cands = new Set([
    offsetAt(zone, localMillis - 86_400_000),
    offsetAt(zone, localMillis + 86_400_000),
    offsetAt(zone, localMillis),
  ]);
  const out: number[] = [];
  for (const o of [...cands].sort((a, b) => b - a)) {
    if (offsetAt(zone, localMillis - o * 1000) === o) out.push(o);
  }
  return out;
}
