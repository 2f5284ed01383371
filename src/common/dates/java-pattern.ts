/**
 * java.time DateTimeFormatter patterns (DateTimeFormatterBuilder.appendPattern) as used by ES SQL
 * (DATETIME_FORMAT, DATETIME_PARSE, ...) and ES 6.8's `8`-prefixed formats: strict,
 * case-sensitive parsing, SignStyle rules, adjacent value parsing ("yyyyMMdd"), reduced `yy`
 * years (base 2000), optional sections `[...]`, fractions, offsets (X/x/Z/O) and zones (VV/z).
 * Week-based fields use Locale.ROOT with the JDK COMPAT data ES runs with (weeks start on Sunday,
 * minimal days 1).
 */

import type { LocalFields } from './calendar.js';
import {
  breakDown,
  dayOfYear,
  daysFromCivil,
  floorMod,
  isoDayOfWeek,
  newLocalFields,
} from './calendar.js';
import type { LocaleSymbols } from './locale-symbols.js';
import type { TimeZone } from './time-zone.js';
import { timeZone } from './time-zone.js';

/** java.time ChronoField names (as they appear in java.time error messages). */
export type JField =
  | 'Era'
  | 'YearOfEra'
  | 'Year'
  | 'QuarterOfYear'
  | 'MonthOfYear'
  | 'DayOfMonth'
  | 'DayOfYear'
  | 'DayOfWeek'
  | 'LocalizedDayOfWeek'
  | 'AlignedWeekOfMonth'
  | 'WeekOfMonth'
  | 'WeekBasedYear'
  | 'WeekOfWeekBasedYear'
  | 'AmPmOfDay'
  | 'HourOfDay'
  | 'ClockHourOfDay'
  | 'HourOfAmPm'
  | 'ClockHourOfAmPm'
  | 'MinuteOfHour'
  | 'SecondOfMinute'
  | 'NanoOfSecond'
  | 'MilliOfDay'
  | 'NanoOfDay';

export class JavaParsed {
  fields = new Map<JField, number>();
  offsetSeconds: number | null = null;
  zone: TimeZone | null = null;
  constructor(public locale: LocaleSymbols) {}
  snapshot(): [Map<JField, number>, number | null, TimeZone | null] {
    return [new Map(this.fields), this.offsetSeconds, this.zone];
  }
  restore(s: [Map<JField, number>, number | null, TimeZone | null]): void {
    this.fields = new Map(s[0]);
    this.offsetSeconds = s[1];
    this.zone = s[2];
  }
}

export interface JavaPrintContext {
  utc: number;
  offset: number;
  zone: TimeZone;
  locale: LocaleSymbols;
  local: number;
  f: LocalFields;
}

export function javaPrintContext(
  utc: number,
  zone: TimeZone,
  locale: LocaleSymbols,
): JavaPrintContext {
  const offset = zone.offsetAt(utc);
  const local = utc + offset;
  return { utc, offset, zone, locale, local, f: breakDown(local, newLocalFields()) };
}

export interface JavaElement {
  print(ctx: JavaPrintContext): string;
  parse(p: JavaParsed, text: string, pos: number): number;
}

/** Thrown for invalid patterns and unprintable values; message is java.time's. */
export class JavaFormatError extends Error {}

// --- field values for printing -----------------------------------------------------------------

/** Sunday-start, minimal-days-1 week data (Locale.ROOT under the JDK COMPAT provider). */
function sundayWeekStart(year: number): number {
  const jan1 = daysFromCivil(year, 1, 1);
  return jan1 - (isoDayOfWeek(jan1) % 7); // Sunday on or before Jan 1
}
export function weekBasedYearWeek(epochDay: number, year: number): [number, number] {
  let wby = year;
  if (epochDay >= sundayWeekStart(year + 1)) wby = year + 1;
  return [wby, Math.floor((epochDay - sundayWeekStart(wby)) / 7) + 1];
}
/** Epoch day of the first day (Sunday) of the given week of a week-based year. */
export const weekStartDay = (wby: number, week: number): number =>
  sundayWeekStart(wby) + (week - 1) * 7;
const localizedDow = (epochDay: number) => (isoDayOfWeek(epochDay) % 7) + 1; // Sunday = 1

function fieldValue(field: JField, c: JavaPrintContext): number {
  const f = c.f;
  switch (field) {
    case 'Era':
      return f.year <= 0 ? 0 : 1;
    case 'YearOfEra':
      return f.year <= 0 ? 1 - f.year : f.year;
    case 'Year':
      return f.year;
    case 'QuarterOfYear':
      return Math.floor((f.month - 1) / 3) + 1;
    case 'MonthOfYear':
      return f.month;
    case 'DayOfMonth':
      return f.day;
    case 'DayOfYear':
      return dayOfYear(f.year, f.month, f.day);
    case 'DayOfWeek':
      return isoDayOfWeek(f.epochDay);
    case 'LocalizedDayOfWeek':
      return localizedDow(f.epochDay);
    case 'AlignedWeekOfMonth':
      return Math.floor((f.day - 1) / 7) + 1;
    case 'WeekOfMonth': {
      const first = f.epochDay - (f.day - 1);
      return Math.floor((f.day - 1 + (isoDayOfWeek(first) % 7)) / 7) + 1;
    }
    case 'WeekBasedYear':
      return weekBasedYearWeek(f.epochDay, f.year)[0];
    case 'WeekOfWeekBasedYear':
      return weekBasedYearWeek(f.epochDay, f.year)[1];
    case 'AmPmOfDay':
      return f.hour >= 12 ? 1 : 0;
    case 'HourOfDay':
      return f.hour;
    case 'ClockHourOfDay':
      return f.hour === 0 ? 24 : f.hour;
    case 'HourOfAmPm':
      return f.hour % 12;
    case 'ClockHourOfAmPm':
      return f.hour % 12 === 0 ? 12 : f.hour % 12;
    case 'MinuteOfHour':
      return f.minute;
    case 'SecondOfMinute':
      return f.second;
    case 'NanoOfSecond':
      return f.millis * 1_000_000;
    case 'MilliOfDay':
      return f.millisOfDay;
    case 'NanoOfDay':
      return f.millisOfDay * 1_000_000;
  }
}

// --- elements ----------------------------------------------------------------------------------

type SignStyle = 'NORMAL' | 'NOT_NEGATIVE' | 'EXCEEDS_PAD';
const isDigit = (c: number) => c >= 48 && c <= 57;

/** SignStyle.parse(positive, strict=true, fixedWidth). */
const signAllowed = (style: SignStyle, positive: boolean) =>
  style === 'NORMAL' ? !positive : style === 'EXCEEDS_PAD';

export class NumberElement implements JavaElement {
  /** -1 = fixed width (adjacent value parsing), >0 = digits reserved for following values. */
  subsequentWidth = 0;
  constructor(
    readonly field: JField,
    readonly minWidth: number,
    readonly maxWidth: number,
    readonly sign: SignStyle,
  ) {}

  private fixedWidth(): boolean {
    return (
      this.subsequentWidth === -1 ||
      (this.subsequentWidth > 0 && this.minWidth === this.maxWidth && this.sign === 'NOT_NEGATIVE')
    );
  }

  print(c: JavaPrintContext): string {
    const value = fieldValue(this.field, c);
    const str = String(Math.abs(value));
    if (str.length > this.maxWidth) {
      throw new JavaFormatError(
        `Field ${this.field} cannot be printed as the value ${value} exceeds the maximum print width of ${this.maxWidth}`,
      );
    }
    let out = '';
    if (value >= 0) {
      if (this.sign === 'EXCEEDS_PAD' && this.minWidth < 19 && value >= 10 ** this.minWidth)
        out = '+';
    } else {
      if (this.sign === 'NOT_NEGATIVE') {
        throw new JavaFormatError(
          `Field ${this.field} cannot be printed as the value ${value} cannot be negative according to the SignStyle`,
        );
      }
      out = '-';
    }
    return out + '0'.repeat(Math.max(0, this.minWidth - str.length)) + str;
  }

  parse(p: JavaParsed, text: string, position: number): number {
    const length = text.length;
    if (position === length) return ~position;
    const signCh = text[position];
    let negative = false;
    let positive = false;
    if (signCh === '+') {
      if (!signAllowed(this.sign, true)) return ~position;
      positive = true;
      position++;
    } else if (signCh === '-') {
      if (!signAllowed(this.sign, false)) return ~position;
      negative = true;
      position++;
    }
    const effMin = this.minWidth;
    const minEnd = position + effMin;
    if (minEnd > length) return ~position;
    let effMax = this.maxWidth + Math.max(this.subsequentWidth, 0);
    let total = 0;
    let pos = position;
    for (let pass = 0; pass < 2; pass++) {
      const maxEnd = Math.min(pos + effMax, length);
      while (pos < maxEnd) {
        const ch = text.charCodeAt(pos++);
        if (!isDigit(ch)) {
          pos--;
          if (pos < minEnd) return ~position;
          break;
        }
        total = total * 10 + (ch - 48);
      }
      if (this.subsequentWidth > 0 && pass === 0) {
        const parseLen = pos - position;
        effMax = Math.max(effMin, parseLen - this.subsequentWidth);
        pos = position;
        total = 0;
      } else break;
    }
    if (negative) {
      if (total === 0) return ~(position - 1);
      total = -total;
    } else if (this.sign === 'EXCEEDS_PAD') {
      const parseLen = pos - position;
      if (positive) {
        if (parseLen <= this.minWidth) return ~(position - 1);
      } else if (parseLen > this.minWidth) return ~position;
    }
    return setField(p, this.field, total, position, pos);
  }
}

function setField(
  p: JavaParsed,
  field: JField,
  value: number,
  errorPos: number,
  successPos: number,
): number {
  const old = p.fields.get(field);
  if (old !== undefined && old !== value) return ~errorPos;
  p.fields.set(field, value);
  return successPos;
}

/** appendValueReduced(field, 2, 2, 2000): two digits meaning 2000..2099. */
export class ReducedElement implements JavaElement {
  constructor(readonly field: JField) {}
  print(c: JavaPrintContext): string {
    const v = floorMod(fieldValue(this.field, c), 100);
    return v < 10 ? '0' + v : String(v);
  }
  parse(p: JavaParsed, text: string, pos: number): number {
    if (pos + 2 > text.length) return ~pos;
    const a = text.charCodeAt(pos);
    const b = text.charCodeAt(pos + 1);
    if (!isDigit(a) || !isDigit(b)) return ~pos;
    return setField(p, this.field, 2000 + (a - 48) * 10 + (b - 48), pos, pos + 2);
  }
}

type TextStyle = 'SHORT' | 'FULL' | 'NARROW';

function textValues(l: LocaleSymbols, field: JField, style: TextStyle): [string, number][] {
  const out: [string, number][] = [];
  const add = (arr: readonly string[], from: number, map: (i: number) => number) => {
    for (let i = from; i < arr.length; i++) {
      const s = style === 'NARROW' ? arr[i]!.slice(0, 1) : arr[i]!;
      out.push([s, map(i)]);
    }
  };
  switch (field) {
    case 'MonthOfYear':
      add(style === 'FULL' ? l.months : l.shortMonths, 1, (i) => i);
      break;
    case 'DayOfWeek':
      add(style === 'FULL' ? l.weekdays : l.shortWeekdays, 1, (i) => i);
      break;
    case 'AmPmOfDay':
      add(l.ampm, 0, (i) => i);
      break;
    case 'Era':
      add(l.eras, 0, (i) => i);
      break;
    case 'QuarterOfYear':
      for (let q = 1; q <= 4; q++) {
        out.push([
          style === 'FULL' ? `${ordinal(q)} quarter` : style === 'SHORT' ? `Q${q}` : String(q),
          q,
        ]);
      }
      break;
    default:
      break;
  }
  // longest first, as java.time's text iterator
  return out.sort((a, b) => b[0].length - a[0].length);
}
const ordinal = (n: number) => ['', '1st', '2nd', '3rd', '4th'][n]!;

export class TextElement implements JavaElement {
  constructor(
    readonly field: JField,
    readonly style: TextStyle,
  ) {}
  print(c: JavaPrintContext): string {
    const v = fieldValue(this.field, c);
    for (const [s, n] of textValues(c.locale, this.field, this.style)) if (n === v) return s;
    return String(v);
  }
  parse(p: JavaParsed, text: string, pos: number): number {
    for (const [s, n] of textValues(p.locale, this.field, this.style)) {
      if (s.length > 0 && text.startsWith(s, pos))
        return setField(p, this.field, n, pos, pos + s.length);
    }
    return ~pos;
  }
}

/** appendFraction(NANO_OF_SECOND, min, max, decimalPoint=false): truncated digits. */
export class FractionElement implements JavaElement {
  constructor(
    readonly minWidth: number,
    readonly maxWidth: number,
  ) {}
  print(c: JavaPrintContext): string {
    const nanos = String(c.f.millis * 1_000_000).padStart(9, '0');
    let digits = nanos.slice(0, this.maxWidth);
    while (digits.length > this.minWidth && digits.endsWith('0')) digits = digits.slice(0, -1);
    return digits;
  }
  parse(p: JavaParsed, text: string, pos: number): number {
    const minEnd = pos + this.minWidth;
    if (minEnd > text.length) return ~pos;
    const maxEnd = Math.min(pos + this.maxWidth, text.length);
    let end = pos;
    while (end < maxEnd && isDigit(text.charCodeAt(end))) end++;
    if (end < minEnd) return ~pos;
    const nanos = Number(text.slice(pos, end).padEnd(9, '0'));
    return setField(p, 'NanoOfSecond', nanos, pos, end);
  }
}

export class LiteralElement implements JavaElement {
  constructor(readonly value: string) {}
  print(): string {
    return this.value;
  }
  parse(_p: JavaParsed, text: string, pos: number): number {
    if (pos > text.length) return ~pos;
    return text.startsWith(this.value, pos) ? pos + this.value.length : ~pos;
  }
}

/** appendOffset(pattern, noOffsetText): "+HH", "+HHmm", "+HHMM", "+HH:MM", "+HHMMss", "+HH:MM:ss". */
export class OffsetElement implements JavaElement {
  private readonly colons: boolean;
  private readonly type: number; // 0=HH 1=HHmm 2=HHMM 3=HHMMss(opt secs) 4=HHMMSS
  constructor(
    readonly pattern: string,
    readonly noOffsetText: string,
  ) {
    this.colons = pattern.includes(':');
    const core = pattern.replace(/:/g, '');
    this.type = { '+HH': 0, '+HHmm': 1, '+HHMM': 2, '+HHMMss': 3, '+HHMMSS': 4 }[core] ?? 2;
  }
  print(c: JavaPrintContext): string {
    const total = Math.trunc(c.offset / 1000);
    if (total === 0) return this.noOffsetText;
    const abs = Math.abs(total);
    const h = Math.floor(abs / 3600);
    const m = Math.floor(abs / 60) % 60;
    const s = abs % 60;
    const two = (n: number) => (n < 10 ? '0' + n : String(n));
    const sep = this.colons ? ':' : '';
    let out = (total < 0 ? '-' : '+') + two(h);
    if (this.type >= 2 || (this.type === 1 && m + s > 0)) {
      out += sep + two(m);
      if (this.type === 4 || (this.type === 3 && s > 0)) out += sep + two(s);
    }
    return out;
  }
  parse(p: JavaParsed, text: string, pos: number): number {
    if (this.noOffsetText.length > 0 && text.startsWith(this.noOffsetText, pos)) {
      p.offsetSeconds = 0;
      return pos + this.noOffsetText.length;
    }
    const sign = text[pos];
    if (sign !== '+' && sign !== '-') {
      if (this.noOffsetText.length === 0) {
        p.offsetSeconds = 0;
        return pos;
      }
      return ~pos;
    }
    let i = pos + 1;
    const two = (): number => {
      if (i + 2 > text.length) return -1;
      const a = text.charCodeAt(i);
      const b = text.charCodeAt(i + 1);
      if (!isDigit(a) || !isDigit(b)) return -1;
      i += 2;
      return (a - 48) * 10 + (b - 48);
    };
    const h = two();
    if (h < 0 || h > 18) return ~pos;
    let m = 0;
    let s = 0;
    const wantMinutes = this.type >= 1;
    if (wantMinutes) {
      const save = i;
      if (this.colons && text[i] === ':') i++;
      else if (this.colons) i = -1;
      const v = i < 0 ? -1 : two();
      if (v < 0) {
        if (this.type !== 1) return ~pos;
        i = save;
      } else {
        m = v;
        if (this.type >= 3) {
          const save2 = i;
          if (this.colons && text[i] === ':') i++;
          const sv = two();
          if (sv < 0) {
            if (this.type === 4) return ~pos;
            i = save2;
          } else s = sv;
        }
      }
    }
    if (m > 59 || s > 59) return ~pos;
    p.offsetSeconds = (sign === '-' ? -1 : 1) * (h * 3600 + m * 60 + s);
    return i;
  }
}

/** appendLocalizedOffset: "GMT", "GMT+8" (SHORT) / "GMT+08:00" (FULL). */
export class LocalizedOffsetElement implements JavaElement {
  constructor(readonly full: boolean) {}
  print(c: JavaPrintContext): string {
    const total = Math.trunc(c.offset / 1000);
    if (total === 0) return 'GMT';
    const abs = Math.abs(total);
    const h = Math.floor(abs / 3600);
    const m = Math.floor(abs / 60) % 60;
    const s = abs % 60;
    const two = (n: number) => (n < 10 ? '0' + n : String(n));
    let out = 'GMT' + (total < 0 ? '-' : '+');
    if (this.full) {
      out += two(h) + ':' + two(m);
      if (s > 0) out += ':' + two(s);
    } else {
      out += String(h);
      if (m > 0 || s > 0) out += ':' + two(m);
      if (s > 0) out += ':' + two(s);
    }
    return out;
  }
  parse(p: JavaParsed, text: string, pos: number): number {
    if (!text.startsWith('GMT', pos)) return ~pos;
    let i = pos + 3;
    const sign = text[i];
    if (sign !== '+' && sign !== '-') {
      p.offsetSeconds = 0;
      return i;
    }
    i++;
    const m = /^(\d{1,2})(?::(\d\d)(?::(\d\d))?)?/.exec(text.slice(i));
    if (!m) return ~pos;
    const secs = +m[1]! * 3600 + (m[2] ? +m[2] * 60 : 0) + (m[3] ? +m[3] : 0);
    p.offsetSeconds = sign === '-' ? -secs : secs;
    return i + m[0].length;
  }
}

/** appendZoneId (VV) / appendZoneText (z): region ids, "Z", offsets, GMT/UTC prefixed offsets. */
export class ZoneElement implements JavaElement {
  constructor(readonly text: boolean) {}
  print(c: JavaPrintContext): string {
    return this.text ? c.zone.shortName(c.utc) : c.zone.id;
  }
  parse(p: JavaParsed, text: string, pos: number): number {
    const c = text[pos];
    if (c === '+' || c === '-') {
      const off = new OffsetElement('+HH:MM:ss', 'Z');
      return off.parse(p, text, pos);
    }
    const m = /^[A-Za-z][A-Za-z0-9~/._+-]*/.exec(text.slice(pos));
    if (!m) return ~pos;
    for (let len = m[0].length; len > 0; len--) {
      const cand = m[0].slice(0, len);
      try {
        p.zone = timeZone(cand, 'java');
        p.offsetSeconds = null;
        return pos + len;
      } catch {
        // try a shorter id
      }
    }
    return ~pos;
  }
}

export class OptionalElement implements JavaElement {
  constructor(readonly inner: JavaElement[]) {}
  print(c: JavaPrintContext): string {
    let s = '';
    for (const e of this.inner) s += e.print(c);
    return s;
  }
  parse(p: JavaParsed, text: string, pos: number): number {
    const snap = p.snapshot();
    let i = pos;
    for (const e of this.inner) {
      i = e.parse(p, text, i);
      if (i < 0) {
        p.restore(snap);
        return pos;
      }
    }
    return i;
  }
}

// --- pattern compiler --------------------------------------------------------------------------

const FIELD_LETTERS: Record<string, JField> = {
  G: 'Era',
  y: 'YearOfEra',
  u: 'Year',
  Q: 'QuarterOfYear',
  q: 'QuarterOfYear',
  M: 'MonthOfYear',
  L: 'MonthOfYear',
  D: 'DayOfYear',
  d: 'DayOfMonth',
  F: 'AlignedWeekOfMonth',
  E: 'DayOfWeek',
  c: 'LocalizedDayOfWeek',
  e: 'LocalizedDayOfWeek',
  a: 'AmPmOfDay',
  H: 'HourOfDay',
  k: 'ClockHourOfDay',
  K: 'HourOfAmPm',
  h: 'ClockHourOfAmPm',
  m: 'MinuteOfHour',
  s: 'SecondOfMinute',
  S: 'NanoOfSecond',
  A: 'MilliOfDay',
  n: 'NanoOfSecond',
  N: 'NanoOfDay',
  Y: 'WeekBasedYear',
  w: 'WeekOfWeekBasedYear',
  W: 'WeekOfMonth',
};

class Builder {
  readonly stack: JavaElement[][] = [[]];
  private valueIndex = -1;
  get active(): JavaElement[] {
    return this.stack[this.stack.length - 1]!;
  }
  appendInternal(e: JavaElement): void {
    this.active.push(e);
    this.valueIndex = -1;
  }
  /** DateTimeFormatterBuilder.appendValue(NumberPrinterParser): adjacent value parsing. */
  appendValue(e: NumberElement | FractionElement): void {
    const active = this.active;
    if (this.valueIndex >= 0) {
      const base = active[this.valueIndex] as NumberElement;
      const fixed =
        e instanceof FractionElement || (e.minWidth === e.maxWidth && e.sign === 'NOT_NEGATIVE');
      if (fixed) {
        base.subsequentWidth += e.maxWidth;
        if (e instanceof NumberElement) e.subsequentWidth = -1;
        active.push(e);
      } else {
        base.subsequentWidth = -1;
        active.push(e);
        this.valueIndex = active.length - 1;
      }
    } else {
      active.push(e);
      this.valueIndex = e instanceof NumberElement ? active.length - 1 : -1;
    }
  }
  optionalStart(): void {
    this.valueIndex = -1;
    this.stack.push([]);
  }
  optionalEnd(): void {
    const inner = this.stack.pop()!;
    this.valueIndex = -1;
    this.active.push(new OptionalElement(inner));
  }
}

const tooMany = (c: string) => new JavaFormatError(`Too many pattern letters: ${c}`);

function parseField(b: Builder, cur: string, count: number): void {
  const field = FIELD_LETTERS[cur]!;
  const num = (min: number, max: number, sign: SignStyle) =>
    b.appendValue(new NumberElement(field, min, max, sign));
  switch (cur) {
    case 'u':
    case 'y':
    case 'Y':
      if (count === 2) b.appendInternal(new ReducedElement(field));
      else if (count < 4) num(count, 19, 'NORMAL');
      else num(count, 19, 'EXCEEDS_PAD');
      return;
    case 'M':
    case 'L':
    case 'Q':
    case 'q':
      if (count === 1) num(1, 19, 'NORMAL');
      else if (count === 2) num(2, 2, 'NOT_NEGATIVE');
      else if (count <= 5)
        b.appendInternal(
          new TextElement(field, count === 3 ? 'SHORT' : count === 4 ? 'FULL' : 'NARROW'),
        );
      else throw tooMany(cur);
      return;
    case 'a':
      if (count !== 1) throw tooMany(cur);
      b.appendInternal(new TextElement(field, 'SHORT'));
      return;
    case 'E':
    case 'G':
      if (count > 5) throw tooMany(cur);
      b.appendInternal(
        new TextElement(field, count <= 3 ? 'SHORT' : count === 4 ? 'FULL' : 'NARROW'),
      );
      return;
    case 'e':
    case 'c':
      if (count === 1) num(1, 19, 'NORMAL');
      else if (count === 2) num(2, 2, 'NOT_NEGATIVE');
      else if (count <= 5)
        b.appendInternal(
          new TextElement('DayOfWeek', count === 3 ? 'SHORT' : count === 4 ? 'FULL' : 'NARROW'),
        );
      else throw tooMany(cur);
      return;
    case 'S':
      b.appendValue(new FractionElement(count, count));
      return;
    case 'F':
    case 'W':
      if (count !== 1) throw tooMany(cur);
      num(1, 19, 'NORMAL');
      return;
    case 'd':
    case 'h':
    case 'H':
    case 'k':
    case 'K':
    case 'm':
    case 's':
    case 'w':
      if (count === 1) num(1, 19, 'NORMAL');
      else if (count === 2) num(2, 2, 'NOT_NEGATIVE');
      else throw tooMany(cur);
      return;
    case 'D':
      if (count === 1) num(1, 19, 'NORMAL');
      else if (count <= 3) num(count, 3, 'NOT_NEGATIVE');
      else throw tooMany(cur);
      return;
    default:
      // A, n, N
      if (count === 1) num(1, 19, 'NORMAL');
      else num(count, count, 'NOT_NEGATIVE');
  }
}

/** Compiles a java.time pattern; throws JavaFormatError with java.time's message. */
export function compileJavaPattern(pattern: string): JavaElement[] {
  const b = new Builder();
  for (let pos = 0; pos < pattern.length; pos++) {
    let cur = pattern[pos]!;
    if (/[A-Za-z]/.test(cur)) {
      let start = pos++;
      while (pos < pattern.length && pattern[pos] === cur) pos++;
      let count = pos - start;
      if (cur === 'p') {
        // padding: skip (printing pads with spaces, parsing strips them)
        let pad = 0;
        if (pos < pattern.length) {
          cur = pattern[pos]!;
          if (/[A-Za-z]/.test(cur)) {
            pad = count;
            start = pos++;
            while (pos < pattern.length && pattern[pos] === cur) pos++;
            count = pos - start;
          }
        }
        if (pad === 0)
          throw new JavaFormatError(
            `Pad letter 'p' must be followed by valid pad pattern: ${pattern}`,
          );
      }
      pos--;
      if (cur === 'V') {
        if (count !== 2) throw new JavaFormatError(`Pattern letter count must be 2: ${cur}`);
        b.appendInternal(new ZoneElement(false));
      } else if (cur === 'z') {
        if (count > 4) throw tooMany(cur);
        b.appendInternal(new ZoneElement(true));
      } else if (cur === 'Z') {
        if (count < 4) b.appendInternal(new OffsetElement('+HHMM', '+0000'));
        else if (count === 4) b.appendInternal(new LocalizedOffsetElement(true));
        else if (count === 5) b.appendInternal(new OffsetElement('+HH:MM:ss', 'Z'));
        else throw tooMany(cur);
      } else if (cur === 'O') {
        if (count === 1) b.appendInternal(new LocalizedOffsetElement(false));
        else if (count === 4) b.appendInternal(new LocalizedOffsetElement(true));
        else throw new JavaFormatError(`Pattern letter count must be 1 or 4: ${cur}`);
      } else if (cur === 'X' || cur === 'x') {
        if (count > 5) throw tooMany(cur);
        const pat = ['+HHmm', '+HHMM', '+HH:MM', '+HHMMss', '+HH:MM:ss'][count - 1]!;
        const zero = cur === 'X' ? 'Z' : ['+00', '+0000', '+00:00', '+0000', '+00:00'][count - 1]!;
        b.appendInternal(new OffsetElement(pat, zero));
      } else if (FIELD_LETTERS[cur]) {
        parseField(b, cur, count);
      } else {
        throw new JavaFormatError(`Unknown pattern letter: ${cur}`);
      }
    } else if (cur === "'") {
      const start = pos++;
      for (; pos < pattern.length; pos++) {
        if (pattern[pos] === "'") {
          if (pos + 1 < pattern.length && pattern[pos + 1] === "'") pos++;
          else break;
        }
      }
      if (pos >= pattern.length) {
        throw new JavaFormatError(`Pattern ends with an incomplete string literal: ${pattern}`);
      }
      const str = pattern.slice(start + 1, pos);
      b.appendInternal(new LiteralElement(str.length === 0 ? "'" : str.replace(/''/g, "'")));
    } else if (cur === '[') {
      b.optionalStart();
    } else if (cur === ']') {
      if (b.stack.length === 1) {
        throw new JavaFormatError('Pattern invalid as it contains ] without previous [');
      }
      b.optionalEnd();
    } else if (cur === '{' || cur === '}' || cur === '#') {
      throw new JavaFormatError(`Pattern includes reserved character: '${cur}'`);
    } else {
      b.appendInternal(new LiteralElement(cur));
    }
  }
  while (b.stack.length > 1) b.optionalEnd();
  return b.stack[0]!;
}
