/**
 * Month, weekday, AM/PM and era names per locale for text pattern letters (`MMM`, `E`, `a`, `G`).
 * ES 6.8 runs the JDK with COMPAT locale data, whose names differ from CLDR/ICU for German and
 * French (e.g. "Dez", "Mi" instead of "Dez.", "Mi."), so those and the ROOT/English tables are
 * built in; other locales fall back to ICU names from `Intl`. Week rules come from the region.
 */
import { SUNDAY_1, weekRule, type WeekRule } from './week-rules.js';

export interface LocaleSymbols {
  readonly id: string;
  /** Index 1..12. */
  readonly months: readonly string[];
  readonly shortMonths: readonly string[];
  /** Index 1..7 = Monday..Sunday (ISO / Joda dayOfWeek numbering). */
  readonly weekdays: readonly string[];
  readonly shortWeekdays: readonly string[];
  /** [AM, PM] */
  readonly ampm: readonly string[];
  /** [BC, AD] */
  readonly eras: readonly string[];
  /** First day of the week and minimal days of the first week (week-based fields). */
  readonly week: WeekRule;
}

const withPad = (a: string[]) => ['', ...a];

const ROOT: LocaleSymbols = {
  id: 'root',
  months: withPad([
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
  ]),
  shortMonths: withPad([
    'Jan',
    'Feb',
    'Mar',
    'Apr',
    'May',
    'Jun',
    'Jul',
    'Aug',
    'Sep',
    'Oct',
    'Nov',
    'Dec',
  ]),
  weekdays: withPad(['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday']),
  shortWeekdays: withPad(['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun']),
  ampm: ['AM', 'PM'],
  eras: ['BC', 'AD'],
  week: SUNDAY_1,
};

const DE: LocaleSymbols = {
  id: 'de',
  months: withPad([
    'Januar',
    'Februar',
    'März',
    'April',
    'Mai',
    'Juni',
    'Juli',
    'August',
    'September',
    'Oktober',
    'November',
    'Dezember',
  ]),
  shortMonths: withPad([
    'Jan',
    'Feb',
    'Mär',
    'Apr',
    'Mai',
    'Jun',
    'Jul',
    'Aug',
    'Sep',
    'Okt',
    'Nov',
    'Dez',
  ]),
  weekdays: withPad([
    'Montag',
    'Dienstag',
    'Mittwoch',
    'Donnerstag',
    'Freitag',
    'Samstag',
    'Sonntag',
  ]),
  shortWeekdays: withPad(['Mo', 'Di', 'Mi', 'Do', 'Fr', 'Sa', 'So']),
  ampm: ['AM', 'PM'],
  eras: ['v. Chr.', 'n. Chr.'],
  week: SUNDAY_1,
};

const FR: LocaleSymbols = {
  id: 'fr',
  months: withPad([
    'janvier',
    'février',
    'mars',
    'avril',
    'mai',
    'juin',
    'juillet',
    'août',
    'septembre',
    'octobre',
    'novembre',
    'décembre',
  ]),
  shortMonths: withPad([
    'janv.',
    'févr.',
    'mars',
    'avr.',
    'mai',
    'juin',
    'juil.',
    'août',
    'sept.',
    'oct.',
    'nov.',
    'déc.',
  ]),
  weekdays: withPad(['lundi', 'mardi', 'mercredi', 'jeudi', 'vendredi', 'samedi', 'dimanche']),
  shortWeekdays: withPad(['lun.', 'mar.', 'mer.', 'jeu.', 'ven.', 'sam.', 'dim.']),
  ampm: ['AM', 'PM'],
  eras: ['av. J.-C.', 'ap. J.-C.'],
  week: SUNDAY_1,
};

function fromIntl(tag: string): LocaleSymbols {
  const month = (style: 'long' | 'short') => {
    const f = new Intl.DateTimeFormat(tag, { month: style, timeZone: 'UTC' });
    return withPad(Array.from({ length: 12 }, (_, i) => f.format(Date.UTC(2001, i, 15))));
  };
  const weekday = (style: 'long' | 'short') => {
    const f = new Intl.DateTimeFormat(tag, { weekday: style, timeZone: 'UTC' });
    // 2001-01-01 was a Monday
    return withPad(Array.from({ length: 7 }, (_, i) => f.format(Date.UTC(2001, 0, 1 + i))));
  };
  const part = (opts: Intl.DateTimeFormatOptions, t: number, type: string) =>
    new Intl.DateTimeFormat(tag, { ...opts, timeZone: 'UTC' })
      .formatToParts(t)
      .find((p) => p.type === type)?.value ?? '';
  const am = part({ hour: 'numeric', hour12: true }, Date.UTC(2001, 0, 1, 1), 'dayPeriod') || 'AM';
  const pm = part({ hour: 'numeric', hour12: true }, Date.UTC(2001, 0, 1, 13), 'dayPeriod') || 'PM';
  const bc = part({ era: 'short', year: 'numeric' }, Date.UTC(-100, 0, 1), 'era') || 'BC';
  const ad = part({ era: 'short', year: 'numeric' }, Date.UTC(2001, 0, 1), 'era') || 'AD';
  return {
    id: tag,
    months: month('long'),
    shortMonths: month('short'),
    weekdays: weekday('long'),
    shortWeekdays: weekday('short'),
    ampm: [am, pm],
    eras: [bc, ad],
    week: SUNDAY_1,
  };
}

const cache = new Map<string, LocaleSymbols>([
  ['', ROOT],
  ['root', ROOT],
  ['en', ROOT],
  ['de', DE],
  ['fr', FR],
]);

/** Symbols for an ES `locale` setting ("de", "de_DE", "de-DE", "ROOT", ""); unknown -> ROOT. */
export function localeSymbols(locale?: string): LocaleSymbols {
  if (!locale) return ROOT;
  const lang = locale.toLowerCase().split(/[-_]/)[0]!;
  let s = cache.get(lang);
  if (s === undefined) {
    try {
      s = fromIntl(lang);
    } catch {
      s = ROOT;
    }
    cache.set(lang, s);
  }
  const week = weekRule(locale);
  if (week === s.week) return s;
  // names by language, week rule by region
  const key = `${lang}\u0000${week.firstDay}${week.minimalDays}`;
  let r = cache.get(key);
  if (r === undefined) cache.set(key, (r = { ...s, week }));
  return r;
}

export const ROOT_SYMBOLS = ROOT;
