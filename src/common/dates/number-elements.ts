/**
 * Numeric format elements with Joda's parse rules: appendDecimal/appendSignedDecimal (up to N
 * digits), fixed-width numbers, two-digit years around a pivot, and second/minute/hour
 * fractions kept at millisecond precision.
 */

import * as F from './date-fields.js';
import type { DateField } from './date-fields.js';
import { floorMod } from './calendar.js';
import type { Element, PrintContext } from './format-elements.js';
import { padded } from './format-elements.js';
import type { ParseBucket } from './parse-bucket.js';

const isDigit = (c: number) => c >= 48 && c <= 57;

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
