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

const d = (text: string, i: number): number => {
  const c = text.charCodeAt(i) - 48;
  return c >= 0 && c <= 9 ? c : -1;
};

/** Two digits at i, or -1. */
function two(text: string, i: number): number {
  const a = d(text, i);
  const b = d(text, i + 1);
  return a < 0 || b < 0 ? -1 : a * 10 + b;
}

/**
 * Parses with base local time `baseMillisOfDay` (0, or 23:59:59.999 for date-math round up) on
 * 1970-01-01 for missing fields. Returns epoch millis or NaN when not a simple ISO string.
 */
export function fastIsoParse(text: string, zone: TimeZone, baseMillisOfDay: number): number {
  const n = text.length;
  if (n < 4) return NaN;
  const y0 = d(text, 0);
  const y1 = d(text, 1);
  const y2 = d(text, 2);
  const y3 = d(text, 3);
  if (y0 < 0 || y1 < 0 || y2 < 0 || y3 < 0) return NaN;
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
  // base time of day (missing fields keep the base's values)
  let bh = Math.floor(baseMillisOfDay / MILLIS_PER_HOUR);
  let rest = baseMillisOfDay - bh * MILLIS_PER_HOUR;
  let bm = Math.floor(rest / MILLIS_PER_MINUTE);
  rest -= bm * MILLIS_PER_MINUTE;
  let bs = Math.floor(rest / 1000);
  let bms = rest - bs * 1000;
  let offset = NaN;
  if (i < n) {
    if (text.charCodeAt(i) !== 84 && text.charCodeAt(i) !== 116) return NaN; // 'T' (case-insensitive)
    i++;
    if (i < n && d(text, i) >= 0) {
      const h = two(text, i);
      if (h < 0 || h > 23) return NaN;
      bh = h;
      i += 2;
      if (i < n && text.charCodeAt(i) === 58) {
        const m = two(text, i + 1);
        if (m < 0 || m > 59) return NaN;
        bm = m;
        i += 3;
        if (i < n && text.charCodeAt(i) === 58) {
          const s = two(text, i + 1);
          if (s < 0 || s > 59) return NaN;
          bs = s;
          i += 3;
          if (i < n && text.charCodeAt(i) === 46) {
            i++;
            // up to 9 digits are read; Joda keeps millisecond precision (truncating)
            let k = 0;
            let ms = 0;
            while (k < 9 && i < n) {
              const c = d(text, i);
              if (c < 0) break;
              if (k < 3) ms = ms * 10 + c;
              k++;
              i++;
            }
            if (k === 0) return NaN;
            bms = k === 1 ? ms * 100 : k === 2 ? ms * 10 : ms;
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
    bh * MILLIS_PER_HOUR +
    bm * MILLIS_PER_MINUTE +
    bs * 1000 +
    bms;
  if (offset === offset) return local - offset;
  if (zone.fixed) return local - zone.offsetAt(local);
  const off = zone.offsetFromLocal(local);
  const utc = local - off;
  return off === zone.offsetAt(utc) ? utc : NaN;
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
