/**
 * Built-in date parsing for mappings until the full Joda implementation (src/common/dates/) is
 * plugged in through MappingContext.parseDate: `a||b` alternatives, the ES named formats, and
 * Joda's error wording (FormatUtils.createErrorMessage with the furthest error position).
 * ISO and epoch parsing are in date-iso.ts, Joda patterns in date-pattern.ts.
 */
import { illegalArgument } from './errors.js';
import type { Attempt } from './date-fields.js';
import { fastIso, parseEpoch, parseIsoOptionalTime } from './date-iso.js';
import { compilePattern } from './date-pattern.js';

const cache = new Map<string, (text: string) => number>();

/** Parses `text` with an ES format (`a||b||…`); throws illegal_argument_exception as Joda does. */
export function builtinParseDate(text: string, format: string): number {
  let parser = cache.get(format);
  if (parser === undefined) {
    parser = compileFormat(format);
    if (cache.size > 1000) cache.clear();
    cache.set(format, parser);
  }
  return parser(text);
}

/** Throws when `format` is not a valid ES date format (ES DateFormatter.forPattern). */
export function builtinValidateDateFormat(format: string): void {
  compileFormat(format);
}

function compileFormat(format: string): (text: string) => number {
  const parts = format.split('||');
  const attempts = parts.map(compileOne);
  const first = parts[0]!.trim();
  const slow = compileAttempts(attempts);
  // the default and dynamic formats start with strict ISO: try the allocation-free path first
  if (
    first === 'strict_date_optional_time' ||
    first === 'strictDateOptionalTime' ||
    first === 'date_optional_time'
  ) {
    return (text: string) => {
      const ms = fastIso(text);
      return Number.isNaN(ms) ? slow(text) : ms;
    };
  }
  return slow;
}

function compileAttempts(attempts: Attempt[]): (text: string) => number {
  return (text: string) => {
    let best = -1;
    let msg: string | undefined;
    for (const a of attempts) {
      const r = a(text);
      if ('ms' in r) return r.ms;
      if (r.msg !== undefined) {
        msg ??= r.msg;
      } else if (r.err > best) best = r.err;
    }
    if (msg !== undefined && best <= 0) throw illegalArgument(msg);
    throw illegalArgument(jodaErrorMessage(text, Math.max(best, 0)));
  };
}

/** Joda FormatUtils.createErrorMessage. */
function jodaErrorMessage(text: string, errorPos: number): string {
  const sampleLen = errorPos + 32;
  const sample = text.length <= sampleLen + 3 ? text : text.slice(0, sampleLen) + '...';
  if (errorPos <= 0) return `Invalid format: "${sample}"`;
  if (errorPos >= text.length) return `Invalid format: "${sample}" is too short`;
  return `Invalid format: "${sample}" is malformed at "${sample.slice(errorPos)}"`;
}

const NAMED_PATTERNS: Record<string, string> = {
  basic_date: 'yyyyMMdd',
  basic_date_time: "yyyyMMdd'T'HHmmss.SSSZ",
  basic_date_time_no_millis: "yyyyMMdd'T'HHmmssZ",
  basic_ordinal_date: 'yyyyDDD',
  basic_ordinal_date_time: "yyyyDDD'T'HHmmss.SSSZ",
  basic_ordinal_date_time_no_millis: "yyyyDDD'T'HHmmssZ",
  basic_time: 'HHmmss.SSSZ',
  basic_time_no_millis: 'HHmmssZ',
  basic_t_time: "'T'HHmmss.SSSZ",
  basic_t_time_no_millis: "'T'HHmmssZ",
  basic_week_date: "xxxx'W'wwe",
  basic_week_date_time: "xxxx'W'wwe'T'HHmmss.SSSZ",
  basic_week_date_time_no_millis: "xxxx'W'wwe'T'HHmmssZ",
  date: 'yyyy-MM-dd',
  date_hour: "yyyy-MM-dd'T'HH",
  date_hour_minute: "yyyy-MM-dd'T'HH:mm",
  date_hour_minute_second: "yyyy-MM-dd'T'HH:mm:ss",
  date_hour_minute_second_fraction: "yyyy-MM-dd'T'HH:mm:ss.SSSSSSSSS",
  date_hour_minute_second_millis: "yyyy-MM-dd'T'HH:mm:ss.SSS",
  date_time: "yyyy-MM-dd'T'HH:mm:ss.SSSSSSSSSZZ",
  date_time_no_millis: "yyyy-MM-dd'T'HH:mm:ssZZ",
  hour: 'HH',
  hour_minute: 'HH:mm',
  hour_minute_second: 'HH:mm:ss',
  hour_minute_second_fraction: 'HH:mm:ss.SSSSSSSSS',
  hour_minute_second_millis: 'HH:mm:ss.SSS',
  ordinal_date: 'yyyy-DDD',
  ordinal_date_time: "yyyy-DDD'T'HH:mm:ss.SSSSSSSSSZZ",
  ordinal_date_time_no_millis: "yyyy-DDD'T'HH:mm:ssZZ",
  time: 'HH:mm:ss.SSSSSSSSSZZ',
  time_no_millis: 'HH:mm:ssZZ',
  t_time: "'T'HH:mm:ss.SSSSSSSSSZZ",
  t_time_no_millis: "'T'HH:mm:ssZZ",
  week_date: "xxxx-'W'ww-e",
  week_date_time: "xxxx-'W'ww-e'T'HH:mm:ss.SSSSSSSSSZZ",
  week_date_time_no_millis: "xxxx-'W'ww-e'T'HH:mm:ssZZ",
  weekyear: 'xxxx',
  weekyear_week: "xxxx-'W'ww",
  weekyear_week_day: "xxxx-'W'ww-e",
  year: 'yyyy',
  year_month: 'yyyy-MM',
  year_month_day: 'yyyy-MM-dd',
};

function compileOne(raw: string): Attempt {
  let name = raw.trim();
  // ES 6.7+: a leading "8" selects java.time semantics (Y is the week-based year there)
  const javaTime = name.length > 1 && name.startsWith('8');
  if (javaTime) name = name.slice(1);
  const camel = name.replace(/[A-Z]/g, (c) => '_' + c.toLowerCase()); // ES accepts camelCase names
  const key = NAMED_PATTERNS[camel] !== undefined || isSpecialName(camel) ? camel : name;
  switch (key) {
    case 'date_optional_time':
      return (t) => parseIsoOptionalTime(t, false);
    case 'strict_date_optional_time':
      return (t) => {
        const ms = fastIso(t);
        return Number.isNaN(ms) ? parseIsoOptionalTime(t, true) : { ms };
      };
    case 'epoch_millis':
      return (t) => parseEpoch(t, 1, 13);
    case 'epoch_second':
      return (t) => parseEpoch(t, 1000, 10);
  }
  if (key.startsWith('strict_') && NAMED_PATTERNS[key.slice(7)] !== undefined) {
    return compilePattern(NAMED_PATTERNS[key.slice(7)]!, true);
  }
  const named = NAMED_PATTERNS[key];
  if (named !== undefined) return compilePattern(named, false);
  if (key.length === 0) throw illegalArgument('No date pattern provided');
  return compilePattern(key, false, javaTime);
}

const isSpecialName = (n: string) =>
  n === 'date_optional_time' ||
  n === 'strict_date_optional_time' ||
  n === 'epoch_millis' ||
  n === 'epoch_second' ||
  (n.startsWith('strict_') && NAMED_PATTERNS[n.slice(7)] !== undefined);
