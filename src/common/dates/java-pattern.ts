/**
 * java.time DateTimeFormatter patterns (DateTimeFormatterBuilder.appendPattern) as used by ES SQL
 * (DATETIME_FORMAT, DATETIME_PARSE, ...) and ES 6.8's `8`-prefixed formats: strict,
 * case-sensitive parsing, SignStyle rules, adjacent value parsing ("yyyyMMdd"), reduced `yy`
 * years (base 2000), optional sections `[...]`, fractions, offsets (X/x/Z/O) and zones (VV/z).
 * Week-based fields use Locale.ROOT with the JDK COMPAT data ES runs with (weeks start on Sunday,
 * minimal days 1).
 */

import type { JField, JavaElement } from './java-fields.js';
import { JavaFormatError } from './java-fields.js';
import {
  FractionElement,
  LiteralElement,
  LocalizedOffsetElement,
  NumberElement,
  OffsetElement,
  OptionalElement,
  ReducedElement,
  TextElement,
  ZoneElement,
} from './java-elements.js';
import type { SignStyle } from './java-elements.js';

export type { JField, JavaElement } from './java-fields.js';
export { JavaFormatError, JavaParsed, javaPrintContext, weekStartDay } from './java-fields.js';

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
