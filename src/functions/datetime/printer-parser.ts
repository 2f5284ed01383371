/**
 * The printer-parser model of java.time's DateTimeFormatterBuilder (numbers with sign styles and
 * adjacent-value widths, reduced years, fractions, text, offsets, zone ids, optional sections) and
 * the English text tables ES's Locale.ROOT/COMPAT setup prints. Formatting lives in
 * format-temporal.ts, parsing in parse-temporal.ts, pattern compilation in pattern.ts.
 */
import type { FieldName } from './fields.js';

export type SignStyle = 'NORMAL' | 'ALWAYS' | 'NEVER' | 'NOT_NEGATIVE' | 'EXCEEDS_PAD';
export type TextStyle = 'FULL' | 'SHORT' | 'NARROW';

/** OffsetIdPrinterParser patterns: minutes/seconds none, optional (lower case) or required. */
export interface OffsetPattern {
  readonly minutes: 'none' | 'optional' | 'required';
  readonly seconds: 'none' | 'optional' | 'required';
  readonly colon: boolean;
}

export type PrinterParser =
  | {
      readonly k: 'num';
      readonly field: FieldName;
      readonly min: number;
      readonly max: number;
      readonly sign: SignStyle;
      /** -1: fixed width (adjacent follower); >0: width reserved for adjacent followers. */
      subsequentWidth: number;
    }
  | {
      readonly k: 'reduced';
      readonly field: FieldName;
      readonly width: number;
      readonly base: number;
      subsequentWidth: number;
    }
  | {
      readonly k: 'frac';
      readonly min: number;
      readonly max: number;
      readonly point: boolean;
      subsequentWidth: number;
    }
  | { readonly k: 'text'; readonly field: FieldName; readonly style: TextStyle }
  | { readonly k: 'lit'; readonly text: string }
  | { readonly k: 'offset'; readonly pattern: OffsetPattern; readonly noOffset: string }
  | { readonly k: 'locOffset'; readonly style: TextStyle }
  | { readonly k: 'zoneId'; readonly offsetsOnly?: boolean }
  | { readonly k: 'zoneText'; readonly style: TextStyle }
  | { readonly k: 'pad'; readonly width: number; readonly pp: PrinterParser }
  | { readonly k: 'opt'; readonly items: PrinterParser[] };

export const EXCEED_POINTS = [
  0, 10, 100, 1000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000, 1_000_000_000,
  10_000_000_000,
];

// ---- text tables (Locale.ROOT, COMPAT provider) -------------------------------------------

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
const QUARTERS_FULL = ['1st quarter', '2nd quarter', '3rd quarter', '4th quarter'];

export function textOf(field: FieldName, style: TextStyle, value: number): string | null {
  switch (field) {
    case 'MONTH_OF_YEAR': {
      const m = MONTHS[value - 1];
      if (!m) return null;
      return style === 'FULL' ? m : style === 'SHORT' ? m.slice(0, 3) : m[0]!;
    }
    case 'DAY_OF_WEEK': {
      const d = DAYS[value - 1];
      if (!d) return null;
      return style === 'FULL' ? d : style === 'SHORT' ? d.slice(0, 3) : d[0]!;
    }
    case 'AMPM_OF_DAY':
      return value === 0 ? 'AM' : value === 1 ? 'PM' : null;
    case 'ERA':
      if (value !== 0 && value !== 1) return null;
      if (style === 'FULL') return value === 1 ? 'Anno Domini' : 'Before Christ';
      if (style === 'SHORT') return value === 1 ? 'AD' : 'BC';
      return value === 1 ? 'A' : 'B';
    case 'QUARTER_OF_YEAR':
      if (value < 1 || value > 4) return null;
      return style === 'FULL'
        ? QUARTERS_FULL[value - 1]!
        : style === 'SHORT'
          ? 'Q' + value
          : String(value);
  }
  return null;
}

export function textChoices(field: FieldName, style: TextStyle): Array<[string, number]> | null {
  const out: Array<[string, number]> = [];
  const range: Record<string, [number, number]> = {
    MONTH_OF_YEAR: [1, 12],
    DAY_OF_WEEK: [1, 7],
    AMPM_OF_DAY: [0, 1],
    ERA: [0, 1],
    QUARTER_OF_YEAR: [1, 4],
  };
  const r = range[field];
  if (!r) return null;
  for (let v = r[0]; v <= r[1]; v++) out.push([textOf(field, style, v)!, v]);
  // longest first so "May" does not shadow nothing and "Mon" vs "Monday" resolve greedily
  return out.sort((a, b) => b[0].length - a[0].length);
}
