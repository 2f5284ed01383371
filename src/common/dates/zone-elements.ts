/**
 * Zone format elements: Joda TimeZoneOffset (`Z`, `ZZ`, ISO offsets), TimeZoneId (`ZZZ`) and
 * TimeZoneName (`z`, `zzzz`), with Joda's parsing rules for each.
 */

import { MILLIS_PER_HOUR, MILLIS_PER_MINUTE } from './calendar.js';
import type { Element } from './format-elements.js';
import { padded } from './format-elements.js';
import { timeZone } from './time-zone.js';

const isDigit = (c: number) => c >= 48 && c <= 57;
const eqIgnoreCase = (a: string, b: string) =>
  a === b || a.toUpperCase() === b.toUpperCase() || a.toLowerCase() === b.toLowerCase();

// --- offsets and zones -------------------------------------------------------------------------

function countDigits(text: string, pos: number, max: number): number {
  let n = 0;
  while (n < max && pos + n < text.length && isDigit(text.charCodeAt(pos + n))) n++;
  return n;
}

/**
 * Joda TimeZoneOffset (appendTimeZoneOffset): prints "+hh[:mm[:ss[.SSS]]]" between min and max
 * fields (zeroPrint for UTC when given); parses "Z"-like zero text or sign + hh[[:]mm[[:]ss[.SSS]]].
 */
export function offset(
  zeroPrint: string | null,
  zeroParse: string | null,
  separators: boolean,
  minFields: number,
  maxFields: number,
): Element {
  if (minFields > 4) {
    minFields = 4;
    maxFields = 4;
  }
  return {
    print(ctx) {
      let o = ctx.offset;
      if (o === 0 && zeroPrint !== null) return zeroPrint;
      let s = o >= 0 ? '+' : '-';
      o = Math.abs(o);
      const h = Math.floor(o / MILLIS_PER_HOUR);
      s += padded(h, 2);
      if (maxFields === 1) return s;
      o -= h * MILLIS_PER_HOUR;
      if (o === 0 && minFields <= 1) return s;
      const m = Math.floor(o / MILLIS_PER_MINUTE);
      s += (separators ? ':' : '') + padded(m, 2);
      if (maxFields === 2) return s;
      o -= m * MILLIS_PER_MINUTE;
      if (o === 0 && minFields <= 2) return s;
      const sec = Math.floor(o / 1000);
      s += (separators ? ':' : '') + padded(sec, 2);
      if (maxFields === 3) return s;
      o -= sec * 1000;
      if (o === 0 && minFields <= 3) return s;
      return s + (separators ? '.' : '') + padded(o, 3);
    },
    parse(b, text, pos) {
      let limit = text.length - pos;
      if (zeroParse !== null) {
        if (zeroParse.length === 0) {
          const c = text[pos];
          if (!(limit > 0 && (c === '-' || c === '+'))) {
            b.offset = 0;
            return pos;
          }
        } else if (
          limit >= zeroParse.length &&
          eqIgnoreCase(text.slice(pos, pos + zeroParse.length), zeroParse)
        ) {
          b.offset = 0;
          return pos + zeroParse.length;
        }
      }
      if (limit <= 1) return ~pos;
      const sign = text[pos];
      if (sign !== '-' && sign !== '+') return ~pos;
      const negative = sign === '-';
      limit--;
      pos++;
      if (countDigits(text, pos, 2) < 2) return ~pos;
      const hours = +text.slice(pos, pos + 2);
      if (hours > 23) return ~pos;
      let off = hours * MILLIS_PER_HOUR;
      limit -= 2;
      pos += 2;
      parse: if (limit > 0) {
        const c = text.charCodeAt(pos);
        let expectSep: boolean;
        if (c === 58) {
          expectSep = true;
          limit--;
          pos++;
        } else if (isDigit(c)) expectSep = false;
        else break parse;
        let count = countDigits(text, pos, 2);
        if (count === 0 && !expectSep) break parse;
        if (count < 2) return ~pos;
        const minutes = +text.slice(pos, pos + 2);
        if (minutes > 59) return ~pos;
        off += minutes * MILLIS_PER_MINUTE;
        limit -= 2;
        pos += 2;
        if (limit <= 0) break parse;
        if (expectSep) {
          if (text[pos] !== ':') break parse;
          limit--;
          pos++;
        }
        count = countDigits(text, pos, 2);
        if (count === 0 && !expectSep) break parse;
        if (count < 2) return ~pos;
        const seconds = +text.slice(pos, pos + 2);
        if (seconds > 59) return ~pos;
        off += seconds * 1000;
        limit -= 2;
        pos += 2;
        if (limit <= 0) break parse;
        if (expectSep) {
          if (text[pos] !== '.' && text[pos] !== ',') break parse;
          limit--;
          pos++;
        }
        count = countDigits(text, pos, 3);
        if (count === 0 && !expectSep) break parse;
        if (count < 1) return ~pos;
        off += (text.charCodeAt(pos++) - 48) * 100;
        if (count > 1) off += (text.charCodeAt(pos++) - 48) * 10;
        if (count > 2) off += text.charCodeAt(pos++) - 48;
      }
      b.offset = negative ? -off : off;
      return pos;
    },
  };
}

/** Joda TimeZoneId (`ZZZ`): prints the zone id, parses the longest known region id. */
export function zoneId(dialect: 'joda' | 'java' = 'joda'): Element {
  return {
    print: (ctx) => ctx.zone.id,
    parse(b, text, pos) {
      const m = /^[A-Za-z][A-Za-z0-9_/+-]*/.exec(text.slice(pos, pos + 64));
      if (!m) return ~pos;
      for (let len = m[0].length; len > 0; len--) {
        const cand = m[0].slice(0, len);
        // offsets are not zone ids here, only tzdb names
        if (/[+-]\d/.test(cand) && !cand.startsWith('Etc/')) continue;
        try {
          b.zone = timeZone(cand, dialect);
          b.offset = null;
          return pos + len;
        } catch {
          // not a zone: try a shorter prefix
        }
      }
      return ~pos;
    },
  };
}

/** Joda's default short zone names used to parse `z`. */
const DEFAULT_ZONE_NAMES: Record<string, string> = {
  UT: 'UTC',
  UTC: 'UTC',
  GMT: 'UTC',
  EST: 'America/New_York',
  EDT: 'America/New_York',
  CST: 'America/Chicago',
  CDT: 'America/Chicago',
  MST: 'America/Denver',
  MDT: 'America/Denver',
  PST: 'America/Los_Angeles',
  PDT: 'America/Los_Angeles',
};

/** Joda TimeZoneName: `z` prints the short name and parses Joda's default names; `zzzz` prints only. */
export function zoneName(long: boolean): Element {
  const el: Element = {
    print: (ctx) => (long ? ctx.zone.longName(ctx.utc) : ctx.zone.shortName(ctx.utc)),
  };
  if (!long) {
    el.parse = (b, text, pos) => {
      let best: string | null = null;
      for (const name of Object.keys(DEFAULT_ZONE_NAMES)) {
        if (text.startsWith(name, pos) && (best === null || name.length > best.length)) best = name;
      }
      if (best === null) return ~pos;
      b.zone = timeZone(DEFAULT_ZONE_NAMES[best]!);
      return pos + best.length;
    };
  }
  return el;
}
