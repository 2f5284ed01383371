/**
 * java.time DateTimeFormatterBuilder printer-parsers: numbers with SignStyle and adjacent value
 * parsing, reduced two-digit years, text, fractions, literals (case-sensitive), offsets,
 * localized offsets, zone ids/names and optional sections.
 */

import { floorMod } from './calendar.js';
import type { JField, JavaElement, JavaPrintContext } from './java-fields.js';
import { JavaFormatError, JavaParsed, fieldValue } from './java-fields.js';
import type { LocaleSymbols } from './locale-symbols.js';
import { timeZone } from './time-zone.js';
import { parseJavaDigits, type SignStyle as JavaSignStyle } from './java-digits.js';

export type SignStyle = Extract<JavaSignStyle, 'NORMAL' | 'NOT_NEGATIVE' | 'EXCEEDS_PAD'>;
const isDigit = (c: number) => c >= 48 && c <= 57;

export class NumberElement implements JavaElement {
  /** -1 = fixed width (adjacent value parsing), >0 = digits reserved for following values. */
  subsequentWidth = 0;
  constructor(
    readonly field: JField,
    readonly minWidth: number,
    readonly maxWidth: number,
    readonly sign: SignStyle,
  ) {}

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
    const end = parseJavaDigits(text, position, this, parsedDigits);
    if (end < 0) return end;
    return setField(p, this.field, parsedDigits.value, parsedDigits.start, end);
  }

  get min(): number {
    return this.minWidth;
  }

  get max(): number {
    return this.maxWidth;
  }
}

const parsedDigits = { value: 0, start: 0 };

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
