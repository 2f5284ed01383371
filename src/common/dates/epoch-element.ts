/**
 * ES 6.8's epoch_millis / epoch_second elements (Joda.EpochTimeParser and EpochTimePrinter).
 */

import { breakDown, newLocalFields } from './calendar.js';
import * as F from './date-fields.js';
import type { Element } from './format-elements.js';
import { UTC } from './zone-base.js';

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
