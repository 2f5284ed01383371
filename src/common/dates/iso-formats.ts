/**
 * ES 6.8's built-in named date formats (Joda.forPattern): the lenient ones follow Joda's
 * ISODateTimeFormat (variable-width numbers, years up to 9 digits), the `strict_*` ones ES's
 * StrictISODateTimeFormat (fixed-width, signed numbers). Each name has a snake_case and a
 * camelCase spelling (ES FormatNames).
 */

import { MILLIS_PER_HOUR, MILLIS_PER_MINUTE } from './calendar.js';
import * as F from './date-fields.js';
import { epoch } from './epoch-element.js';
import type { Element } from './format-elements.js';
import { alternatives, literal, optional, sequence } from './format-elements.js';
import { fixedNumber, fraction, number } from './number-elements.js';
import { offset } from './zone-elements.js';

export interface NamedFormat {
  parser: Element;
  printer: Element;
}

const seq = (...e: Element[]) => sequence(e);
const lit = literal;
const R = F.FRACTION_RANKS;

/** The element vocabulary of one flavour (lenient ISODateTimeFormat or strict). */
function vocabulary(strict: boolean) {
  const num = (field: F.DateField, digits: number, maxLenient = digits, signedLenient = false) =>
    strict ? fixedNumber(field, digits, true) : number(field, digits, maxLenient, signedLenient);
  const ye = num(F.year, 4, 9, true);
  const we = num(F.weekyear, 4, 9, true);
  const mye = seq(lit('-'), num(F.monthOfYear, 2));
  const dme = seq(lit('-'), num(F.dayOfMonth, 2));
  const wwe = seq(lit('-W'), num(F.weekOfWeekyear, 2));
  const dwe = seq(lit('-'), number(F.dayOfWeek, 1, 1, false));
  const dye = seq(lit('-'), num(F.dayOfYear, 3));
  const hde = num(F.hourOfDay, 2);
  const mhe = seq(lit(':'), num(F.minuteOfHour, 2));
  const sme = seq(lit(':'), num(F.secondOfMinute, 2));
  const fse = seq(lit('.'), fraction(1000, R.second, 3, 9));
  const ze = offset('Z', 'Z', true, 2, 4);
  const T = lit('T');

  const ymd = seq(ye, mye, dme);
  const hms = seq(hde, mhe, sme);
  const hmsf = seq(hms, fse);
  const t = seq(hmsf, ze);
  const tx = seq(hms, ze);
  const tt = seq(T, t);
  const ttx = seq(T, tx);
  const od = seq(ye, dye);
  const wwd = seq(we, wwe, dwe);

  // basic (no separators) formats
  const bd = seq(
    number(F.year, 4, 4, true),
    fixedNumber(F.monthOfYear, 2, false),
    fixedNumber(F.dayOfMonth, 2, false),
  );
  const bhms = seq(
    fixedNumber(F.hourOfDay, 2, false),
    fixedNumber(F.minuteOfHour, 2, false),
    fixedNumber(F.secondOfMinute, 2, false),
  );
  const bze = offset('Z', 'Z', false, 2, 2);
  const bt = seq(bhms, lit('.'), fraction(1000, R.second, 3, 9), bze);
  const btx = seq(bhms, bze);
  const bod = seq(number(F.year, 4, 4, true), fixedNumber(F.dayOfYear, 3, false));
  const bwd = seq(
    strict ? fixedNumber(F.weekyear, 4, true) : number(F.weekyear, 4, 4, true),
    lit('W'),
    fixedNumber(F.weekOfWeekyear, 2, false),
    fixedNumber(F.dayOfWeek, 1, false),
  );

  // parsers of date_optional_time (ISODateTimeFormat.dateOptionalTimeParser)
  const decimalPoint = alternatives(null, [lit('.'), lit(',')]);
  const dateElement = alternatives(null, [
    seq(ye, optional(seq(mye, optional(dme)))),
    seq(we, wwe, optional(dwe)),
    seq(ye, dye),
  ]);
  const timeElement = seq(
    hde,
    alternatives(null, [
      seq(
        mhe,
        alternatives(null, [
          seq(sme, optional(seq(decimalPoint, fraction(1000, R.second, 1, 9)))),
          seq(decimalPoint, fraction(MILLIS_PER_MINUTE, R.minute, 1, 9)),
          null,
        ]),
      ),
      seq(decimalPoint, fraction(MILLIS_PER_HOUR, R.hour, 1, 9)),
      null,
    ]),
  );
  const dateOptionalTime = seq(dateElement, optional(seq(T, optional(timeElement), optional(ze))));
  const dateTime = seq(ymd, tt);

  const same = (e: Element): NamedFormat => ({ parser: e, printer: e });
  return {
    basic_date: same(bd),
    basic_date_time: same(seq(bd, T, bt)),
    basic_date_time_no_millis: same(seq(bd, T, btx)),
    basic_ordinal_date: same(bod),
    basic_ordinal_date_time: same(seq(bod, T, bt)),
    basic_ordinal_date_time_no_millis: same(seq(bod, T, btx)),
    basic_time: same(bt),
    basic_time_no_millis: same(btx),
    basic_t_time: same(seq(T, bt)),
    basic_t_time_no_millis: same(seq(T, btx)),
    basic_week_date: same(bwd),
    basic_week_date_time: same(seq(bwd, T, bt)),
    basic_week_date_time_no_millis: same(seq(bwd, T, btx)),
    date: same(ymd),
    date_hour: same(seq(ymd, T, hde)),
    date_hour_minute: same(seq(ymd, T, hde, mhe)),
    date_hour_minute_second: same(seq(ymd, T, hms)),
    date_hour_minute_second_fraction: same(seq(ymd, T, hmsf)),
    date_hour_minute_second_millis: same(
      seq(ymd, T, hms, lit('.'), fraction(1000, R.second, 3, 3)),
    ),
    date_optional_time: { parser: dateOptionalTime, printer: dateTime },
    date_time: same(dateTime),
    date_time_no_millis: same(seq(ymd, ttx)),
    hour: same(hde),
    hour_minute: same(seq(hde, mhe)),
    hour_minute_second: same(hms),
    hour_minute_second_fraction: same(hmsf),
    hour_minute_second_millis: same(seq(hms, lit('.'), fraction(1000, R.second, 3, 3))),
    ordinal_date: same(od),
    ordinal_date_time: same(seq(od, tt)),
    ordinal_date_time_no_millis: same(seq(od, ttx)),
    time: same(t),
    time_no_millis: same(tx),
    t_time: same(tt),
    t_time_no_millis: same(ttx),
    week_date: same(wwd),
    week_date_time: same(seq(wwd, tt)),
    week_date_time_no_millis: same(seq(wwd, ttx)),
    weekyear: same(we),
    weekyear_week: same(seq(we, wwe)),
    weekyear_week_day: same(wwd),
    year: same(ye),
    year_month: same(seq(ye, mye)),
    year_month_day: same(ymd),
  } satisfies Record<string, NamedFormat>;
}

type Vocab = ReturnType<typeof vocabulary>;
type IsoName = keyof Vocab;

/** ES FormatNames: snake_case name -> camelCase alias, for the formats Joda.forPattern knows. */
const LENIENT_NAMES: Record<string, IsoName> = {};
const STRICT_NAMES: Record<string, IsoName> = {};
const camel = (s: string) => s.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

let lenient: Vocab | null = null;
let strict: Vocab | null = null;

function register(): void {
  if (lenient) return;
  lenient = vocabulary(false);
  strict = vocabulary(true);
  for (const name of Object.keys(lenient) as IsoName[]) {
    // ES spells weekyear formats week_year/weekyear_week/weekyear_week_day; camel weekyear*
    const snake = name === 'weekyear' ? 'week_year' : name;
    LENIENT_NAMES[snake] = name;
    LENIENT_NAMES[name === 'weekyear' ? 'weekyear' : camel(name)] = name;
    const sSnake = 'strict_' + name;
    STRICT_NAMES[sSnake] = name;
    STRICT_NAMES[camel(sSnake)] = name;
  }
}

/** Formats ES 6.8 has only in lenient form (no strict_* variant exists for them). */
const NO_STRICT = new Set<IsoName>([
  'basic_date',
  'basic_date_time',
  'basic_date_time_no_millis',
  'basic_ordinal_date',
  'basic_ordinal_date_time',
  'basic_ordinal_date_time_no_millis',
  'basic_time',
  'basic_time_no_millis',
  'basic_t_time',
  'basic_t_time_no_millis',
]);

/** A built-in named format, or null. Epoch formats included. */
export function namedFormat(name: string): NamedFormat | null {
  register();
  if (name === 'epoch_millis') {
    const e = epoch(true);
    return { parser: e, printer: e };
  }
  if (name === 'epoch_second') {
    const e = epoch(false);
    return { parser: e, printer: e };
  }
  const l = LENIENT_NAMES[name];
  if (l) return lenient![l];
  const s = STRICT_NAMES[name];
  if (s && !NO_STRICT.has(s)) return strict![s];
  return null;
}

/** Every built-in name (snake and camel case), for tests and docs. */
export function namedFormatNames(): string[] {
  register();
  const names = [...Object.keys(LENIENT_NAMES)];
  for (const [n, v] of Object.entries(STRICT_NAMES)) if (!NO_STRICT.has(v)) names.push(n);
  return [...names, 'epoch_millis', 'epoch_second'];
}
