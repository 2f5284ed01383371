/**
 * Hand-written fast path for the ISO shapes of (strict_)date_optional_time: `yyyy[-MM[-dd]]`
 * optionally followed by `T[HH[:mm[:ss[.S{1,9}]]]][Z|±HH[:mm]|±HHmm]`. It returns NaN for anything
 * else (or anything invalid) so the generic Joda-equivalent parser produces the result or error;
 * for the inputs it accepts, results are identical to the generic path.
 */

import {
  MILLIS_PER_DAY,
  MILLIS_PER_HOUR,
  MILLIS_PER_MINUTE,
  civilFromDays,
  daysFromCivil,
  daysInMonth,
} from './calendar.js';
import type { TimeZone } from './time-zone.js';

/** Digit value of the char at i, or 99 when it is not a digit (or past the end: NaN). */
const dg = (text: string, i: number): number => {
  const c = text.charCodeAt(i) - 48;
  return c >= 0 && c <= 9 ? c : 99;
};

/** Two digits at i, or -1. */
function two(text: string, i: number): number {
  const a = dg(text, i);
  const b = dg(text, i + 1);
  return a < 10 && b < 10 ? a * 10 + b : -1;
}

/**
 * Parses with base local time `baseMillisOfDay` (0, or 23:59:59.999 for date-math round up) on
 * 1970-01-01 for missing fields. Returns epoch millis or NaN when not a simple ISO string.
 */
export function fastIsoParse(text: string, zone: TimeZone, baseMillisOfDay: number): number {
  const n = text.length;
  if (n < 4) return NaN;
  const y0 = dg(text, 0);
  const y1 = dg(text, 1);
  const y2 = dg(text, 2);
  const y3 = dg(text, 3);
  if (y0 > 9 || y1 > 9 || y2 > 9 || y3 > 9) return NaN;
  const year = y0 * 1000 + y1 * 100 + y2 * 10 + y3;
  let month = 1;
  let day = 1;
  let i = 4;
  if (i < n && text.charCodeAt(i) === 45) {
    month = two(text, i + 1);
    if (month < 1 || month > 12) return NaN;
    i += 3;
    if (i < n && text.charCodeAt(i) === 45) {
      day = two(text, i + 1);
      if (day < 1 || day > daysInMonth(year, month)) return NaN;
      i += 3;
    }
  }
  // time of day: fields missing from the text keep the base's values
  let h = 0;
  let m = 0;
  let sec = 0;
  let ms = 0;
  if (baseMillisOfDay !== 0) {
    h = Math.floor(baseMillisOfDay / MILLIS_PER_HOUR);
    m = Math.floor(baseMillisOfDay / MILLIS_PER_MINUTE) % 60;
    sec = Math.floor(baseMillisOfDay / 1000) % 60;
    ms = baseMillisOfDay % 1000;
  }
  let offset = NaN;
  if (i < n) {
    const t = text.charCodeAt(i);
    if (t !== 84 && t !== 116) return NaN; // 'T' (case-insensitive)
    i++;
    // strict ISO reads "T-05" as hour -5 (a signed fixed-width number): leave it to Joda rules
    if (i < n && (text.charCodeAt(i) === 45 || text.charCodeAt(i) === 43)) return NaN;
    if (i < n && dg(text, i) < 10) {
      h = two(text, i);
      if (h < 0 || h > 23) return NaN;
      i += 2;
      if (i < n && text.charCodeAt(i) === 58) {
        m = two(text, i + 1);
        if (m < 0 || m > 59) return NaN;
        i += 3;
        if (i < n && text.charCodeAt(i) === 58) {
          sec = two(text, i + 1);
          if (sec < 0 || sec > 59) return NaN;
          i += 3;
          if (i < n && text.charCodeAt(i) === 46) {
            i++;
            // up to 9 digits are read; Joda keeps millisecond precision (truncating)
            let k = 0;
            let f = 0;
            while (k < 9 && i < n) {
              const c = dg(text, i);
              if (c > 9) break;
              if (k < 3) f = f * 10 + c;
              k++;
              i++;
            }
            if (k === 0) return NaN;
            ms = k === 1 ? f * 100 : k === 2 ? f * 10 : f;
          }
        }
      }
    }
    if (i < n) {
      const c = text.charCodeAt(i);
      if (c === 90 || c === 122) {
        offset = 0;
        i++;
      } else if (c === 43 || c === 45) {
        const oh = two(text, i + 1);
        if (oh < 0 || oh > 23) return NaN;
        let om = 0;
        i += 3;
        if (i < n) {
          const sep = text.charCodeAt(i) === 58 ? 1 : 0;
          om = two(text, i + sep);
          if (om < 0 || om > 59) return NaN;
          i += 2 + sep;
        }
        offset = (oh * 60 + om) * MILLIS_PER_MINUTE * (c === 45 ? -1 : 1);
      } else return NaN;
    }
    if (i !== n) return NaN;
  }
  const local =
    daysFromCivil(year, month, day) * MILLIS_PER_DAY +
    h * MILLIS_PER_HOUR +
    m * MILLIS_PER_MINUTE +
    sec * 1000 +
    ms;
  if (offset === offset) return local - offset;
  if (zone.fixed) return local - zone.offsetAt(local);
  const off = zone.offsetFromLocal(local);
  const utc = local - off;
  return off === zone.offsetAt(utc) ? utc : NaN;
}

/**
 * The `strict_date_optional_time||epoch_millis` case of a plain integer: 4 characters (or a sign
 * and 4 digits) are a year for the ISO parser, anything else up to 15 digits is epoch millis
 * (exact in a double). Returns NaN when the generic parser must decide.
 */
export function fastEpochMillis(text: string): number {
  const n = text.length;
  if (n === 0 || n > 16) return NaN;
  let i = 0;
  const c0 = text.charCodeAt(0);
  if (c0 === 45 || c0 === 43) i = 1;
  if (i === n) return NaN;
  for (let k = i; k < n; k++) if (dg(text, k) > 9) return NaN;
  // Joda's fixed signed 4-digit year takes "yyyy", "+yyy", "-yyy", "+yyyy" and "-yyyy"
  if (n === 4 || (i === 1 && n === 5) || n - i > 15) return NaN;
  const v = Number(text);
  return v === 0 ? 0 : v;
}

const P2 = Array.from({ length: 100 }, (_, i) => (i < 10 ? '0' + i : String(i)));
const P3 = Array.from({ length: 1000 }, (_, i) => String(i).padStart(3, '0'));
const ymd = { year: 0, month: 0, day: 0 };

function printYear(y: number): string {
  if (y >= 1000 && y <= 9999) return String(y);
  if (y < 0) return '-' + printYear(-y);
  const s = String(y);
  return s.length >= 4 ? s : '0'.repeat(4 - s.length) + s;
}

/** Joda ISODateTimeFormat.dateTime() printing: yyyy-MM-dd'T'HH:mm:ss.SSS + offset ("Z" if 0). */
export function fastIsoFormat(utc: number, zone: TimeZone): string {
  const offset = zone.offsetAt(utc);
  const local = utc + offset;
  const days = Math.floor(local / MILLIS_PER_DAY);
  let mod = local - days * MILLIS_PER_DAY;
  civilFromDays(days, ymd);
  const h = Math.floor(mod / MILLIS_PER_HOUR);
  mod -= h * MILLIS_PER_HOUR;
  const m = Math.floor(mod / MILLIS_PER_MINUTE);
  mod -= m * MILLIS_PER_MINUTE;
  const s = Math.floor(mod / 1000);
  const ms = mod - s * 1000;
  let out =
    printYear(ymd.year) +
    '-' +
    P2[ymd.month] +
    '-' +
    P2[ymd.day] +
    'T' +
    P2[h] +
    ':' +
    P2[m] +
    ':' +
    P2[s] +
    '.' +
    P3[ms];
  if (offset === 0) return out + 'Z';
  let o = Math.abs(offset);
  out += offset < 0 ? '-' : '+';
  const oh = Math.floor(o / MILLIS_PER_HOUR);
  o -= oh * MILLIS_PER_HOUR;
  const om = Math.floor(o / MILLIS_PER_MINUTE);
  o -= om * MILLIS_PER_MINUTE;
  out += P2[oh] + ':' + P2[om];
  if (o === 0) return out;
  const os = Math.floor(o / 1000);
  o -= os * 1000;
  out += ':' + P2[os];
  return o === 0 ? out : out + '.' + P3[o];
}
