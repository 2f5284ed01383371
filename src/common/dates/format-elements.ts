/**
 * The building blocks of date formatters, each a printer and/or parser with the behaviour of the
 * matching Joda DateTimeFormatterBuilder element (number widths and signs, two-digit years, text,
 * fractions, offsets, zone ids/names, epoch values, sequences and alternatives). Parsers return
 * the new position, or the bitwise complement of the failure position.
 */

import type { LocalFields } from './calendar.js';
import {
  MILLIS_PER_HOUR,
  MILLIS_PER_MINUTE,
  breakDown,
  floorMod,
  newLocalFields,
} from './calendar.js';
import type { DateField } from './date-fields.js';
import * as F from './date-fields.js';
import type { LocaleSymbols } from './locale-symbols.js';
import type { ParseBucket } from './parse-bucket.js';
import type { TimeZone } from './time-zone.js';
import { UTC, timeZone } from './time-zone.js';

/** What printers read: the instant, its local fields in the display zone, and the locale. */
export interface PrintContext {
  utc: number;
  offset: number;
  zone: TimeZone;
  locale: LocaleSymbols;
  local: number;
  f: LocalFields;
}

export function printContext(utc: number, zone: TimeZone, locale: LocaleSymbols): PrintContext {
  const offset = zone.offsetAt(utc);
  const local = utc + offset;
  return { utc, offset, zone, locale, local, f: breakDown(local, newLocalFields()) };
}

export interface Element {
  print?(ctx: PrintContext): string;
  parse?(b: ParseBucket, text: string, pos: number): number;
  /** Parsing reads the whole text regardless of position (epoch parsers). */
  readonly wholeText?: boolean;
}

const isDigit = (c: number) => c >= 48 && c <= 57;

/** Joda FormatUtils.appendPaddedInteger. */
export function padded(value: number, minDigits: number): string {
  if (value < 0) return '-' + padded(-value, minDigits);
  const s = String(value);
  return s.length >= minDigits ? s : '0'.repeat(minDigits - s.length) + s;
}

function valueOf(field: DateField, ctx: PrintContext): number {
  const f = ctx.f;
  switch (field) {
    case F.year:
      return f.year;
    case F.monthOfYear:
      return f.month;
    case F.dayOfMonth:
      return f.day;
    case F.hourOfDay:
      return f.hour;
    case F.minuteOfHour:
      return f.minute;
    case F.secondOfMinute:
      return f.second;
    case F.millisOfSecond:
      return f.millis;
    default:
      return field.get(ctx.local);
  }
}

// --- literals ----------------------------------------------------------------------------------

const eqIgnoreCase = (a: string, b: string) =>
  a === b || a.toUpperCase() === b.toUpperCase() || a.toLowerCase() === b.toLowerCase();

/** Joda CharacterLiteral / StringLiteral: printed as is, parsed case-insensitively. */
export function literal(value: string): Element {
  return {
    print: () => value,
    parse(_b, text, pos) {
      if (text.length - pos < value.length) return ~pos;
      for (let i = 0; i < value.length; i++) {
        if (!eqIgnoreCase(text[pos + i]!, value[i]!)) return ~pos;
      }
      return pos + value.length;
    },
  };
}

/** A case-sensitive literal (java.time parses case-sensitively by default). */
export function exactLiteral(value: string): Element {
  return {
    print: () => value,
    parse: (_b, text, pos) => (text.startsWith(value, pos) ? pos + value.length : ~pos),
  };
}

// --- numbers -----------------------------------------------------------------------------------

/** Joda NumberFormatter.parseInto: up to maxParsed digits, optional sign when `signed`. */
function parseNumber(
  b: ParseBucket,
  text: string,
  pos: number,
  field: DateField,
  maxParsed: number,
  signed: boolean,
): number {
  let limit = Math.min(maxParsed, text.length - pos);
  let negative = false;
  let positive = false;
  let length = 0;
  while (length < limit) {
    const c = text.charCodeAt(pos + length);
    if (length === 0 && (c === 45 || c === 43) && signed) {
      negative = c === 45;
      positive = c === 43;
      if (length + 1 >= limit || !isDigit(text.charCodeAt(pos + length + 1))) break;
      length++;
      limit = Math.min(limit + 1, text.length - pos);
      continue;
    }
    if (!isDigit(c)) break;
    length++;
  }
  if (length === 0) return ~pos;
  const start = negative || positive ? pos + 1 : pos;
  if (start >= pos + length) return ~pos;
  let value = 0;
  for (let i = start; i < pos + length; i++) value = value * 10 + (text.charCodeAt(i) - 48);
  // Joda parses 9+ digits with Integer.parseInt, which rejects values past int range
  if (value > 2147483647 + (negative ? 1 : 0)) {
    throw new NumberFormatError(
      `For input string: "${text.slice(positive ? pos + 1 : pos, pos + length)}"`,
    );
  }
  b.save(field, negative ? -value : value);
  return pos + length;
}

/** Java's NumberFormatException from Integer.parseInt on 9+ digit numbers (escapes the parse). */
export class NumberFormatError extends Error {}

/** Joda appendDecimal/appendSignedDecimal (Unpadded/PaddedNumber). */
export function number(
  field: DateField,
  minPrinted: number,
  maxParsed: number,
  signed: boolean,
): Element {
  if (maxParsed < minPrinted) maxParsed = minPrinted;
  return {
    print: (ctx) => padded(valueOf(field, ctx), minPrinted),
    parse: (b, text, pos) => parseNumber(b, text, pos, field, maxParsed, signed),
  };
}

/** Joda appendFixedDecimal / appendFixedSignedDecimal: exactly `digits` digits. */
export function fixedNumber(field: DateField, digits: number, signed: boolean): Element {
  return {
    print: (ctx) => padded(valueOf(field, ctx), digits),
    parse(b, text, pos) {
      const newPos = parseNumber(b, text, pos, field, digits, signed);
      if (newPos < 0) return newPos;
      let expected = pos + digits;
      if (newPos !== expected) {
        if (signed) {
          const c = text[pos];
          if (c === '-' || c === '+') expected++;
        }
        if (newPos > expected) return ~(expected + 1);
        if (newPos < expected) return ~newPos;
      }
      return newPos;
    },
  };
}

/** Joda TwoDigitYear: prints |year| % 100; parses 2 digits around a pivot (lenient: any). */
export function twoDigitYear(field: DateField, pivot: number, lenient: boolean): Element {
  return {
    print(ctx) {
      const y = Math.abs(valueOf(field, ctx)) % 100;
      return padded(y, 2);
    },
    parse(b, text, pos) {
      let limit = text.length - pos;
      if (!lenient) {
        if (limit < 2) return ~pos;
      } else {
        let hasSign = false;
        let negative = false;
        let length = 0;
        while (length < limit) {
          const c = text.charCodeAt(pos + length);
          if (length === 0 && (c === 45 || c === 43)) {
            hasSign = true;
            negative = c === 45;
            if (negative) length++;
            else {
              pos++;
              limit--;
            }
            continue;
          }
          if (!isDigit(c)) break;
          length++;
        }
        if (length === 0) return ~pos;
        if (hasSign || length !== 2) {
          const start = negative ? pos + 1 : pos;
          if (start >= pos + length) return ~pos;
          let value = 0;
          for (let i = start; i < pos + length; i++) value = value * 10 + (text.charCodeAt(i) - 48);
          b.save(field, negative ? -value : value);
          return pos + length;
        }
      }
      const c0 = text.charCodeAt(pos);
      const c1 = text.charCodeAt(pos + 1);
      if (!isDigit(c0) || !isDigit(c1)) return ~pos;
      let yy = (c0 - 48) * 10 + (c1 - 48);
      const low = pivot - 50;
      const t = low >= 0 ? low % 100 : 99 + ((low + 1) % 100);
      yy += low + (yy < t ? 100 : 0) - t;
      b.save(field, yy);
      return pos + 2;
    },
  };
}

// --- text --------------------------------------------------------------------------------------

type TextKind = 'month' | 'weekday' | 'halfday' | 'era';

function names(l: LocaleSymbols, kind: TextKind, short: boolean): readonly string[] {
  switch (kind) {
    case 'month':
      return short ? l.shortMonths : l.months;
    case 'weekday':
      return short ? l.shortWeekdays : l.weekdays;
    case 'halfday':
      return l.ampm;
    case 'era':
      return l.eras;
  }
}

const textField = (kind: TextKind): DateField =>
  kind === 'month'
    ? F.monthOfYear
    : kind === 'weekday'
      ? F.dayOfWeek
      : kind === 'halfday'
        ? F.halfdayOfDay
        : F.era;

interface TextTable {
  values: Map<string, number>;
  maxLength: number;
}
const textTables = new Map<string, TextTable>();

/** Joda TextField parse table: short and long names in given, lower and upper case. */
function textTable(l: LocaleSymbols, kind: TextKind): TextTable {
  const key = l.id + '|' + kind;
  let t = textTables.get(key);
  if (t) return t;
  const values = new Map<string, number>();
  const long = names(l, kind, false);
  const short = names(l, kind, true);
  const offset = kind === 'halfday' || kind === 'era' ? 0 : 1;
  let maxLength = 0;
  for (let i = offset; i < long.length; i++) {
    for (const s of [short[i]!, long[i]!]) {
      for (const v of [s, s.toLowerCase(), s.toUpperCase()]) if (!values.has(v)) values.set(v, i);
    }
    maxLength = Math.max(maxLength, long[i]!.length);
  }
  t = { values, maxLength };
  textTables.set(key, t);
  return t;
}

/** Joda TextField (appendText/appendShortText) for month, day of week, AM/PM and era. */
export function text(kind: TextKind, short: boolean): Element {
  const field = textField(kind);
  return {
    print: (ctx) => names(ctx.locale, kind, short)[field.get(ctx.local)]!,
    parse(b, txt, pos) {
      const table = textTable(b.locale, kind);
      const limit = Math.min(txt.length, pos + table.maxLength);
      for (let i = limit; i > pos; i--) {
        const v = table.values.get(txt.slice(pos, i));
        if (v !== undefined) {
          b.save(field, v);
          return i;
        }
      }
      return ~pos;
    },
  };
}

// --- fractions ---------------------------------------------------------------------------------

const POW10 = [1, 10, 100, 1000, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12];

/**
 * Joda Fraction: fraction of `unit` millis (second, minute, hour). Prints with minDigits..maxDigits
 * (trailing zeros trimmed down to minDigits); parses up to maxDigits, keeping millis precision.
 */
export function fraction(
  unit: number,
  rangeRank: number,
  minDigits: number,
  maxDigits: number,
): Element {
  const field = F.fractionField(unit, rangeRank);
  return {
    print(ctx) {
      const rem = floorMod(ctx.local, unit);
      if (rem === 0) return '0'.repeat(minDigits);
      const maxD = Math.min(maxDigits, 12);
      const scaled = Math.floor((rem * POW10[maxD]!) / unit);
      let str = String(scaled);
      let out = '';
      let length = str.length;
      let digits = maxD;
      let min = minDigits;
      while (length < digits) {
        out += '0';
        min--;
        digits--;
      }
      if (min < digits) {
        while (min < digits) {
          if (length <= 1 || str.charCodeAt(length - 1) !== 48) break;
          digits--;
          length--;
        }
        if (length < str.length) str = str.slice(0, length);
      }
      return out + str;
    },
    parse(b, text, pos) {
      const limit = Math.min(maxDigits, text.length - pos);
      let value = 0;
      let n = unit * 10;
      let length = 0;
      while (length < limit) {
        const c = text.charCodeAt(pos + length);
        if (!isDigit(c)) break;
        length++;
        const nn = Math.floor(n / 10);
        value += (c - 48) * nn;
        n = nn;
      }
      value = Math.floor(value / 10);
      if (length === 0) return ~pos;
      b.save(field, value);
      return pos + length;
    },
  };
}

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

let zoneIds: { set: Set<string>; max: number } | null = null;
const LEGACY_IDS = [
  'UTC',
  'GMT',
  'UT',
  'UCT',
  'Zulu',
  'Universal',
  'Greenwich',
  'EST',
  'MST',
  'HST',
  'CET',
  'EET',
  'WET',
  'MET',
  'EST5EDT',
  'CST6CDT',
  'MST7MDT',
  'PST8PDT',
  'Etc/UTC',
  'Etc/GMT',
];
function knownZoneIds(): { set: Set<string>; max: number } {
  if (!zoneIds) {
    const set = new Set<string>([...Intl.supportedValuesOf('timeZone'), ...LEGACY_IDS]);
    let max = 0;
    for (const id of set) max = Math.max(max, id.length);
    zoneIds = { set, max };
  }
  return zoneIds;
}

/** Joda TimeZoneId (`ZZZ`): prints the zone id, parses the longest known id. */
export function zoneId(dialect: 'joda' | 'java' = 'joda'): Element {
  return {
    print: (ctx) => ctx.zone.id,
    parse(b, text, pos) {
      const { set, max } = knownZoneIds();
      for (let len = Math.min(max, text.length - pos); len > 0; len--) {
        const cand = text.slice(pos, pos + len);
        if (set.has(cand)) {
          b.zone = timeZone(cand, dialect);
          b.offset = null;
          return pos + len;
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

// --- epoch -------------------------------------------------------------------------------------

/** Java BigDecimal string syntax, the only input ES 6.8's epoch parsers accept. */
const BIG_DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** BigDecimal(text).longValue(): truncates toward zero (wraps past 64 bits, here: saturates). */
export function bigDecimalToLong(text: string): number | null {
  if (!BIG_DECIMAL.test(text)) return null;
  const v = Number(text);
  if (!Number.isFinite(v)) return null;
  return Math.trunc(v) + 0;
}

/**
 * ES 6.8 Joda.EpochTimeParser/Printer: epoch millis or seconds. The parser reads the whole
 * text, refuses positive values with more than 19 (millis) / 16 (seconds) integer digits and
 * requires the zone to be UTC; fractions are truncated (seconds are truncated *before* scaling).
 */
export function epoch(millis: boolean): Element {
  const name = millis ? 'epoch_millis' : 'epoch_second';
  return {
    wholeText: true,
    print(ctx) {
      return String(millis ? ctx.utc : Math.trunc(ctx.utc / 1000) + 0);
    },
    parse(b, text) {
      const dot = text.indexOf('.');
      const intLen = dot === -1 ? text.length : dot;
      if (b.defaultZone !== UTC && !(b.defaultZone.fixed && b.defaultZone.offsetAt(0) === 0)) {
        throw new EpochZoneError(`time_zone must be UTC for format [${name}]`);
      }
      if (!text.startsWith('-') && intLen > (millis ? 19 : 16)) return ~0;
      const v = bigDecimalToLong(text);
      if (v === null) return ~0;
      const utc = millis ? v : v * 1000;
      const f = breakDown(utc, newLocalFields());
      b.save(F.year, f.year);
      b.save(F.monthOfYear, f.month);
      b.save(F.dayOfMonth, f.day);
      b.save(F.hourOfDay, f.hour);
      b.save(F.minuteOfHour, f.minute);
      b.save(F.secondOfMinute, f.second);
      b.save(F.millisOfSecond, f.millis);
      b.zone = UTC;
      b.offset = null;
      return text.length;
    },
  };
}

/** The epoch parsers' IllegalArgumentException (escapes the parse, like in Joda). */
export class EpochZoneError extends Error {}

// --- composition -------------------------------------------------------------------------------

/** Joda Composite: prints/parses elements in sequence (printer/parser only when all can). */
export function sequence(elements: Element[]): Element {
  const flat = elements.flatMap((e) =>
    (e as SequenceElement).parts ? (e as SequenceElement).parts : [e],
  );
  const el: SequenceElement = { parts: flat };
  if (flat.every((e) => e.print)) {
    el.print = (ctx) => {
      let s = '';
      for (const e of flat) s += e.print!(ctx);
      return s;
    };
  }
  if (flat.every((e) => e.parse)) {
    el.parse = (b, text, pos) => {
      for (let i = 0; i < flat.length && pos >= 0; i++) pos = flat[i]!.parse!(b, text, pos);
      return pos;
    };
  }
  return el;
}
interface SequenceElement extends Element {
  parts: Element[];
}

/**
 * Joda MatchingParser: the first parser that consumes the whole text (or is the last) wins,
 * otherwise the longest valid parse; a null entry makes the whole thing optional.
 */
export function alternatives(printer: Element | null, parsers: (Element | null)[]): Element {
  const el: Element = {
    parse(b, text, position) {
      const original = b.saveState();
      let isOptional = false;
      let bestValidPos = position;
      let bestValidState = null;
      let bestInvalidPos = position;
      for (let i = 0; i < parsers.length; i++) {
        const p = parsers[i];
        if (!p) {
          if (bestValidPos <= position) return position;
          isOptional = true;
          break;
        }
        let parsePos = p.parse!(b, text, position);
        if (parsePos >= position) {
          if (parsePos > bestValidPos) {
            if (parsePos >= text.length || i + 1 >= parsers.length || !parsers[i + 1]) {
              return parsePos;
            }
            bestValidPos = parsePos;
            bestValidState = b.saveState();
          }
        } else if (parsePos < 0) {
          parsePos = ~parsePos;
          if (parsePos > bestInvalidPos) bestInvalidPos = parsePos;
        }
        b.restoreState(original);
      }
      if (bestValidPos > position || (bestValidPos === position && isOptional)) {
        if (bestValidState) b.restoreState(bestValidState);
        return bestValidPos;
      }
      return ~bestInvalidPos;
    },
  };
  if (printer?.print) el.print = printer.print;
  return el;
}

/** Joda appendOptional. */
export const optional = (parser: Element): Element => alternatives(null, [parser, null]);
