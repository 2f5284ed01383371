/**
 * `date_detection` of dynamic mapping (ES 6.8 DocumentParser): a string that is not a number is
 * tried against each dynamic date format; the first that parses decides the new `date` field and
 * its format. The defaults are ES 6.8's code defaults: the date field default format and
 * Joda.getStrictStandardDateFormatter (fixed-width yyyy/MM/dd[ HH:mm:ss], or epoch millis).
 */

import { mapperParsing } from '../errors.js';
import { parseJavaDouble, parseJavaLong } from '../units.js';
import * as F from './date-fields.js';
import { epoch } from './epoch-element.js';
import { alternatives, literal, sequence } from './format-elements.js';
import { fixedNumber } from './number-elements.js';
import type { DateFormatter } from './formatter.js';
import { DEFAULT_DATE_FORMAT, dateFormatter, formatterFromElements } from './formatter.js';

export const STRICT_STANDARD_DATE_FORMAT = 'yyyy/MM/dd HH:mm:ss||yyyy/MM/dd||epoch_millis';

/** ES 6.8 RootObjectMapper.Defaults.DYNAMIC_DATE_TIME_FORMATTERS patterns. */
export const DEFAULT_DYNAMIC_DATE_FORMATS: readonly string[] = [
  DEFAULT_DATE_FORMAT,
  STRICT_STANDARD_DATE_FORMAT,
];

let strictStandard: DateFormatter | null = null;

/** ES Joda.getStrictStandardDateFormatter (stricter than the same pattern written by a user). */
export function strictStandardDateFormatter(): DateFormatter {
  if (!strictStandard) {
    const date = [
      fixedNumber(F.year, 4, false),
      literal('/'),
      fixedNumber(F.monthOfYear, 2, false),
      literal('/'),
      fixedNumber(F.dayOfMonth, 2, false),
    ];
    const long = sequence([
      ...date,
      literal(' '),
      fixedNumber(F.hourOfDay, 2, true),
      literal(':'),
      fixedNumber(F.minuteOfHour, 2, true),
      literal(':'),
      fixedNumber(F.secondOfMinute, 2, true),
    ]);
    const parser = alternatives(null, [long, sequence(date), epoch(true)]);
    strictStandard = formatterFromElements(STRICT_STANDARD_DATE_FORMAT, parser, long);
  }
  return strictStandard;
}

/** The default dynamic date formatters (the second one is the strict standard formatter). */
export function defaultDynamicDateFormatters(): DateFormatter[] {
  return [dateFormatter(DEFAULT_DATE_FORMAT), strictStandardDateFormatter()];
}

/**
 * Resolves `dynamic_date_formats` (or legacy `date_formats`) as RootObjectMapper does: a list,
 * "none", or a single format; `epoch_*` formats are refused.
 */
export function parseDynamicDateFormats(value: unknown): DateFormatter[] {
  const list = Array.isArray(value) ? value : value === 'none' ? [] : [value];
  return list.map((v) => {
    const s = String(v);
    if (Array.isArray(value) && s.startsWith('epoch_')) {
      throw mapperParsing(`Epoch [${s}] is not supported as dynamic date format`);
    }
    return dateFormatter(s);
  });
}

/** The first dynamic format that parses `text` (and the parsed millis), or null. */
export function detectDate(
  text: string,
  formats: readonly (string | DateFormatter)[] = DEFAULT_DYNAMIC_DATE_FORMATS,
): { millis: number; formatter: DateFormatter } | null {
  // pure numbers are too likely to be false positives (epoch_millis, yyyy)
  if (parseJavaLong(text) !== null || parseJavaDouble(text) !== null) return null;
  const formatters =
    formats === DEFAULT_DYNAMIC_DATE_FORMATS
      ? defaultDynamicDateFormatters()
      : formats.map((f) => (typeof f === 'string' ? dateFormatter(f) : f));
  for (const formatter of formatters) {
    const millis = formatter.parseOrNull(text);
    if (millis !== null) return { millis, formatter };
  }
  return null;
}

/** Parsed millis when `text` would be detected as a date, else null. */
export function isDateLike(
  text: string,
  dynamicDateFormats: readonly (string | DateFormatter)[] = DEFAULT_DYNAMIC_DATE_FORMATS,
): number | null {
  return detectDate(text, dynamicDateFormats)?.millis ?? null;
}
