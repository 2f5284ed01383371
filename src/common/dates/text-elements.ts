/**
 * Text format elements (Joda TextField): month and weekday names, AM/PM and eras in the
 * formatter's locale; parsing accepts short or long names in given, lower or upper case.
 */

import * as F from './date-fields.js';
import type { DateField } from './date-fields.js';
import type { Element } from './format-elements.js';
import type { LocaleSymbols } from './locale-symbols.js';

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
