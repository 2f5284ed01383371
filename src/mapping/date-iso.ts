/**
 * ISO `date_optional_time` (strict and lenient, ES (Strict)ISODateTimeFormat) with an
 * allocation-free fast path for the common shapes, and `epoch_millis`/`epoch_second`
 * (ES Joda EpochTimeParser).
 */
import {
  daysFromCivil,
  daysInMonth,
  digits,
  finish,
  isDigit,
  newFields,
  parseOffset,
} from './date-fields.js';
import type { Fields } from './date-fields.js';

/**
 * Allocation-free parse of the common strict ISO shapes (`yyyy-MM-dd`, optionally
 * `THH:mm[:ss[.f…]]` and `Z`/`±HH[:mm]`), the hot path of log ingestion. NaN for anything else
 * (including out-of-range values), which then goes through the general parser and its messages.
 */
export function fastIso(t: string): number {
  const n = t.length;
  if (n < 10 || t.charCodeAt(4) !== 45 || t.charCodeAt(7) !== 45) return NaN;
  const year = d4(t, 0);
  const month = d2(t, 5);
  const day = d2(t, 8);
  if (year < 0 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return NaN;
  let h = 0;
  let m = 0;
  let sec = 0;
  let ms = 0;
  let off = 0;
  let pos = 10;
  if (pos < n) {
    if (t.charCodeAt(pos) !== 84 || pos + 3 > n) return NaN; // 'T' HH
    h = d2(t, pos + 1);
    pos += 3;
    if (pos < n && t.charCodeAt(pos) === 58) {
      m = d2(t, pos + 1);
      pos += 3;
      if (pos < n && t.charCodeAt(pos) === 58) {
        sec = d2(t, pos + 1);
        pos += 3;
        const c = t.charCodeAt(pos);
        if (pos < n && (c === 46 || c === 44)) {
          pos++;
          let digitsRead = 0;
          while (pos < n && isDigit(t.charCodeAt(pos))) {
            if (digitsRead < 3) ms = ms * 10 + (t.charCodeAt(pos) - 48);
            digitsRead++;
            pos++;
          }
          if (digitsRead === 0 || digitsRead > 9) return NaN;
          for (let i = digitsRead; i < 3; i++) ms *= 10;
        }
      }
    }
    if (h < 0 || h > 23 || m < 0 || m > 59 || sec < 0 || sec > 59) return NaN;
    if (pos < n) {
      const c = t.charCodeAt(pos);
      if (c === 90 && pos + 1 === n) pos++;
      else if (c === 43 || c === 45) {
        const oh = d2(t, pos + 1);
        if (oh < 0) return NaN;
        let om = 0;
        pos += 3;
        if (pos < n) {
          if (t.charCodeAt(pos) === 58) pos++;
          om = d2(t, pos);
          if (om < 0) return NaN;
          pos += 2;
        }
        off = (c === 45 ? -1 : 1) * (oh * 60 + om);
      }
      if (pos !== n) return NaN;
    }
  }
  return (
    daysFromCivil(year, month, day) * 86400000 +
    h * 3600000 +
    m * 60000 +
    sec * 1000 +
    ms -
    off * 60000
  );
}

function d2(t: string, i: number): number {
  const a = t.charCodeAt(i) - 48;
  const b = t.charCodeAt(i + 1) - 48;
  return a >= 0 && a <= 9 && b >= 0 && b <= 9 ? a * 10 + b : -1;
}

function d4(t: string, i: number): number {
  const a = d2(t, i);
  const b = d2(t, i + 2);
  return a < 0 || b < 0 ? -1 : a * 100 + b;
}

export function parseEpoch(
  text: string,
  factor: number,
  maxDigits: number,
): { ms: number } | { err: number } {
  const dot = text.indexOf('.');
  const positive = !text.startsWith('-');
  if (positive && (dot === -1 ? text.length : dot) > maxDigits) return { err: 0 };
  const m = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(text);
  if (!m || ((m[2] ?? '') === '' && (m[3] ?? '') === '')) return { err: 0 };
  // BigDecimal#longValue truncates toward zero
  const v = Math.trunc(Number(text));
  if (!Number.isFinite(v)) return { err: 0 };
  return { ms: v * factor };
}

/**
 * Joda/ES (Strict)ISODateTimeFormat.dateOptionalTimeParser: date element, then optionally `T`
 * followed by an optional time element and an optional offset. Optional sections that do not
 * match leave the position where they started (Joda MatchingParser), so errors point there.
 */
export function parseIsoOptionalTime(
  t: string,
  strict: boolean,
): { ms: number } | { err: number; msg?: string } {
  const f = newFields();
  let pos = 0;
  let end: number;
  let sign = 1;
  if (!strict && (t[0] === '-' || t[0] === '+')) {
    sign = t[0] === '-' ? -1 : 1;
    pos++;
  }
  end = digits(t, pos, strict ? 4 : 1, strict ? 4 : 9);
  if (end < 0) return { err: pos };
  f.year = sign * Number(t.slice(pos, end));
  pos = end;
  if (t[pos] === '-') {
    // ordinal date (yyyy-DDD) or month [-day]; the longer match wins
    const ord = digits(t, pos + 1, 3, 3);
    const mon = digits(t, pos + 1, strict ? 2 : 1, 2);
    if (ord > 0 && !isDigit(t.charCodeAt(ord))) {
      f.dayOfYear = Number(t.slice(pos + 1, ord));
      pos = ord;
    } else if (mon > 0) {
      f.month = Number(t.slice(pos + 1, mon));
      pos = mon;
      if (t[pos] === '-') {
        const day = digits(t, pos + 1, strict ? 2 : 1, 2);
        if (day > 0) {
          f.day = Number(t.slice(pos + 1, day));
          pos = day;
        }
      }
    }
  }
  if (t[pos] === 'T') {
    pos++;
    pos = parseTimeElement(t, pos, f, strict);
    if (pos < t.length) {
      const r = parseOffset(t, pos, f);
      if (r >= 0) pos = r;
    }
  }
  if (pos < t.length) return { err: pos };
  return finish(t, f);
}

/** HH[:mm[:ss[.fff]]] (fractions of the last unit); returns the position after what matched. */
function parseTimeElement(t: string, start: number, f: Fields, strict: boolean): number {
  const w = strict ? 2 : 1;
  const h = digits(t, start, w, 2);
  if (h < 0) return start;
  f.hour = Number(t.slice(start, h));
  let pos = h;
  if (t[pos] === ':') {
    const m = digits(t, pos + 1, w, 2);
    if (m > 0) {
      f.minute = Number(t.slice(pos + 1, m));
      pos = m;
      if (t[pos] === ':') {
        const sec = digits(t, pos + 1, w, 2);
        if (sec > 0) {
          f.second = Number(t.slice(pos + 1, sec));
          pos = sec;
        }
      }
    }
  }
  if (t[pos] === '.' || t[pos] === ',') {
    const e = digits(t, pos + 1, 1, 9);
    if (e > 0) {
      f.millis = Number(t.slice(pos + 1, Math.min(e, pos + 4)).padEnd(3, '0'));
      pos = e;
    }
  }
  return pos;
}
