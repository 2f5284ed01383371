/**
 * DateFormatter for java.time patterns: parsing resolves fields like ResolverStyle.SMART (value
 * ranges checked, day-of-month clamped to the month, 24:00 as next midnight), then fills missing
 * fields like ES's DateFormatters.from (no time -> start of day, no day -> 1st, no year -> 1970,
 * no zone -> the given zone). Local times in a DST gap move forward (ZonedDateTime.ofLocal).
 */

import { illegalArgument } from '../errors.js';
import { MILLIS_PER_DAY, MILLIS_PER_HOUR, MILLIS_PER_MINUTE, civilFromDays } from './calendar.js';
import type { DateFormatter, ParseDetail } from './date-formatter.js';
import { DateParseError } from './date-formatter.js';
import type { JavaElement } from './java-pattern.js';
import {
  JavaFormatError,
  JavaParsed,
  compileJavaPattern,
  javaPrintContext,
} from './java-pattern.js';
import type { Resolved } from './java-resolve.js';
import {
  ROUND_UP_DEFAULTS,
  ResolveError,
  defaultDate,
  javaLocalToUtc,
  resolve,
} from './java-resolve.js';
import type { LocaleSymbols } from './locale-symbols.js';
import type { TimeZone } from './zone-base.js';
import { UTC } from './zone-base.js';

export { javaLocalToUtc } from './java-resolve.js';

interface JavaParser {
  elements: JavaElement[];
}

class JavaFormatter implements DateFormatter {
  readonly dialect = 'java' as const;
  constructor(
    readonly pattern: string,
    private readonly parsers: JavaParser[],
    private readonly printer: JavaElement[] | DateFormatter,
    private readonly locale: LocaleSymbols,
    /** ES 6.8 `8`-prefixed format: errors wrapped like JavaDateFormatter.parse. */
    private readonly es8: boolean,
  ) {}

  private run(text: string): { p: JavaParsed; error: string | null } {
    let lastError = '';
    for (const parser of this.parsers) {
      const p = new JavaParsed(this.locale);
      let pos = 0;
      for (const e of parser.elements) {
        pos = e.parse(p, text, pos);
        if (pos < 0) break;
      }
      if (pos < 0) lastError = `Text '${text}' could not be parsed at index ${~pos}`;
      else if (pos !== text.length) {
        lastError = `Text '${text}' could not be parsed, unparsed text found at index ${pos}`;
      } else return { p, error: null };
    }
    if (this.parsers.length > 1) lastError = 'Failed to parse with all enclosed parsers';
    return { p: new JavaParsed(this.locale), error: lastError };
  }

  private fail(text: string, reason: string): never {
    if (this.es8) {
      throw new DateParseError(
        `failed to parse date field [${text}] with format [${this.pattern}]`,
      );
    }
    throw new DateParseError(reason);
  }

  private compute(text: string, zone: TimeZone, roundUp: boolean): ParseDetail {
    if (this.es8 && text.length === 0) throw new DateParseError('cannot parse empty date');
    const { p, error } = this.run(text);
    if (error !== null) this.fail(text, error);
    let r: Resolved;
    try {
      r = resolve(p, roundUp ? ROUND_UP_DEFAULTS : null);
      let day = r.date;
      if (day === null) day = defaultDate(r.fields, this.locale.week);
      if (day === null && r.time === null) {
        throw new ResolveError(`Unable to obtain ZonedDateTime from TemporalAccessor: ${text}`);
      }
      const local = (day ?? 0) * MILLIS_PER_DAY + (r.time ?? 0);
      const z = r.zone ?? zone;
      return {
        millis: javaLocalToUtc(local, z),
        hasDate: r.date !== null,
        hasTime: r.time !== null,
        hasZone: r.zone !== null,
      };
    } catch (e) {
      if (e instanceof ResolveError)
        this.fail(text, `Text '${text}' could not be parsed: ${e.message}`);
      throw e;
    }
  }

  parse(text: string, zone: TimeZone = UTC): number {
    return this.compute(text, zone, false).millis;
  }
  parseDetail(text: string, zone: TimeZone = UTC): ParseDetail {
    return this.compute(text, zone, false);
  }
  parseOrNull(text: string, zone?: TimeZone): number | null {
    try {
      return this.parse(text, zone);
    } catch (e) {
      if (e instanceof DateParseError) return null;
      throw e;
    }
  }
  parseInto(text: string, zone: TimeZone | undefined, roundUp: boolean): number {
    return this.compute(text, zone ?? UTC, roundUp).millis;
  }
  parseRoundUp(text: string, zone?: TimeZone): number {
    return this.parseInto(text, zone, true);
  }
  format(millis: number, zone: TimeZone = UTC): string {
    if (!Array.isArray(this.printer)) return this.printer.format(millis, zone);
    const ctx = javaPrintContext(millis, zone, this.locale);
    try {
      let s = '';
      for (const e of this.printer) s += e.print(ctx);
      return s;
    } catch (e) {
      if (e instanceof JavaFormatError) throw illegalArgument(e.message);
      throw e;
    }
  }
}

/**
 * A java.time formatter. With `es8` (ES 6.8 `8`-prefixed format) the pattern may be a `||` list
 * and hold ES built-in names, which `named` resolves (parsed/printed like the Joda built-in).
 */
export function javaFormatter(
  pattern: string,
  locale: LocaleSymbols,
  es8: boolean,
  named: (name: string) => DateFormatter | null,
): DateFormatter {
  const parts = es8 ? pattern.split('||') : [pattern];
  if (es8 && parts.some((p) => p.length === 0)) {
    throw illegalArgument(`Cannot have empty element in multi date format pattern: ${pattern}`);
  }
  const parsers: JavaParser[] = [];
  let printer: JavaElement[] | DateFormatter | null = null;
  for (const raw of parts) {
    const part = es8 ? raw.trim() : raw;
    const builtIn = es8 ? named(part === 'iso8601' ? 'strict_date_optional_time' : part) : null;
    if (builtIn) {
      // delegate: wrap the built-in as a single pseudo element
      parsers.push({ elements: [delegateElement(builtIn)] });
      printer ??= builtIn;
      continue;
    }
    let elements: JavaElement[];
    try {
      elements = compileJavaPattern(part);
    } catch (e) {
      if (e instanceof JavaFormatError) {
        throw illegalArgument(es8 ? `Invalid format: [${part}]: ${e.message}` : e.message);
      }
      throw e;
    }
    parsers.push({ elements });
    printer ??= elements;
  }
  return new JavaFormatter(pattern, parsers, printer!, locale, es8);
}

/** Runs a Joda-style formatter inside a java parser chain, reporting fields for resolution. */
function delegateElement(f: DateFormatter): JavaElement {
  return {
    print: () => '',
    parse(p, text, pos) {
      if (pos !== 0) return ~pos;
      const v = f.parseOrNull(text);
      if (v === null) return ~0;
      const day = Math.floor(v / MILLIS_PER_DAY);
      const ms = v - day * MILLIS_PER_DAY;
      const c = { year: 0, month: 0, day: 0 };
      civilFromDays(day, c);
      p.fields.set('Year', c.year);
      p.fields.set('MonthOfYear', c.month);
      p.fields.set('DayOfMonth', c.day);
      p.fields.set('HourOfDay', Math.floor(ms / MILLIS_PER_HOUR));
      p.fields.set('MinuteOfHour', Math.floor(ms / MILLIS_PER_MINUTE) % 60);
      p.fields.set('SecondOfMinute', Math.floor(ms / 1000) % 60);
      p.fields.set('NanoOfSecond', (ms % 1000) * 1e6);
      p.offsetSeconds = 0;
      return text.length;
    },
  };
}
