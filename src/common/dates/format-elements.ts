/**
 * The building blocks of date formatters, each a printer and/or parser with the behaviour of the
 * matching Joda DateTimeFormatterBuilder element. This module holds the contract, literals and
 * composition (sequences, alternatives); numbers, text, zones and epochs have their own modules.
 * Parsers return the new position, or the bitwise complement of the failure position.
 */

import type { LocalFields } from './calendar.js';
import { breakDown, newLocalFields } from './calendar.js';
import type { LocaleSymbols } from './locale-symbols.js';
import type { ParseBucket } from './parse-bucket.js';
import type { TimeZone } from './zone-base.js';

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

/** Joda FormatUtils.appendPaddedInteger. */
export function padded(value: number, minDigits: number): string {
  if (value < 0) return '-' + padded(-value, minDigits);
  const s = String(value);
  return s.length >= minDigits ? s : '0'.repeat(minDigits - s.length) + s;
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
