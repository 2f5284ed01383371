/**
 * `DateFormatter`: ES 6.8 date formats (Joda.forPattern semantics): built-in names, custom Joda
 * patterns, `||` alternatives (first one prints, any one parses) and `8`-prefixed java.time
 * patterns. Parsing follows Joda's parseMillis (errors as Joda words them); `parseRoundUp` and
 * `parseInto` follow JodaDateMathParser. (strict_)date_optional_time has a hand-written fast path.
 */

import { EsError, illegalArgument } from '../errors.js';
import type { DateFormatter } from './date-formatter.js';
import { DateParseError } from './date-formatter.js';
import type { Element } from './format-elements.js';
import { EpochZoneError } from './epoch-element.js';
import { alternatives, printContext } from './format-elements.js';
import { NumberFormatError } from './number-elements.js';
import { fastEpochMillis, fastIsoFormat, fastIsoParse } from './iso-fast.js';
import { javaFormatter } from './java-formatter.js';
import { namedFormat } from './iso-formats.js';
import { PatternError, compileJodaPattern } from './joda-pattern.js';
import type { LocaleSymbols } from './locale-symbols.js';
import { localeSymbols } from './locale-symbols.js';
import { ParseBucket, ParseFailure } from './parse-bucket.js';
import type { TimeZone } from './time-zone.js';
import { jodaFormatError } from './joda-messages.js';
import { UTC } from './time-zone.js';

export type { DateFormatter, ParseDetail } from './date-formatter.js';
export { DateParseError } from './date-formatter.js';

const ROUND_UP_BASE = 86_399_999; // 1970-01-01T23:59:59.999 (local)

type FastKind = 'strict' | 'lenient' | null;

class JodaFormatter implements DateFormatter {
  readonly dialect = 'joda' as const;
  private readonly bucket: ParseBucket;

  constructor(
    readonly pattern: string,
    private readonly parser: Element,
    private readonly printer: Element,
    private readonly locale: LocaleSymbols,
    /** Set when the first alternative is (strict_)date_optional_time (ISO fast paths). */
    private readonly fastParse: FastKind,
    private readonly fastPrint: boolean,
    /** The format is exactly `strict_date_optional_time||epoch_millis` (integer fast path). */
    private readonly fastEpoch = false,
  ) {
    this.bucket = new ParseBucket(locale, UTC);
  }

  parse(text: string, zone: TimeZone = UTC): number {
    if (this.fastParse !== null) {
      const v = fastIsoParse(text, zone, 0);
      if (v === v) return v;
      if (this.fastEpoch && zone === UTC) {
        const e = fastEpochMillis(text);
        if (e === e) return e;
      }
    }
    const b = this.bucket;
    b.reset(this.locale, zone);
    let pos = this.runParser(text);
    if (pos >= 0) {
      if (pos >= text.length) return this.compute(0, text, true);
    } else pos = ~pos;
    throw new DateParseError(jodaFormatError(text, pos));
  }

  parseOrNull(text: string, zone?: TimeZone): number | null {
    try {
      return this.parse(text, zone);
    } catch (e) {
      if (e instanceof EsError) return null;
      throw e;
    }
  }

  parseInto(text: string, zone: TimeZone | undefined, roundUp: boolean): number {
    const z = zone ?? UTC;
    const base = roundUp ? ROUND_UP_BASE : 0;
    if (this.fastParse !== null) {
      const v = fastIsoParse(text, z, base);
      if (v === v) return v;
    }
    const b = this.bucket;
    b.reset(this.locale, z);
    const end = this.runParser(text);
    // Joda's parseInto computes the fields before looking at the parse position
    const millis = this.compute(base, text, false);
    if (end < 0) throw new DateParseError(`Parse failure at index [${~end}] of [${text}]`);
    if (end !== text.length) {
      throw new DateParseError(`Unrecognized chars at the end of [${text}]: [${text.slice(end)}]`);
    }
    return millis;
  }

  parseRoundUp(text: string, zone?: TimeZone): number {
    return this.parseInto(text, zone, true);
  }

  format(millis: number, zone: TimeZone = UTC): string {
    if (this.fastPrint) return fastIsoFormat(millis, zone);
    return this.printer.print!(printContext(millis, zone, this.locale));
  }

  private runParser(text: string): number {
    try {
      return this.parser.parse!(this.bucket, text, 0);
    } catch (e) {
      if (e instanceof EpochZoneError || e instanceof NumberFormatError)
        throw new DateParseError(e.message);
      throw e;
    }
  }

  private compute(base: number, text: string, reset: boolean): number {
    try {
      return this.bucket.computeMillis(base, text, reset);
    } catch (e) {
      if (e instanceof ParseFailure) throw new DateParseError(e.message);
      throw e;
    }
  }
}

interface Compiled {
  parser: Element;
  printer: Element;
  fast: FastKind;
}

/** Joda.forPattern for one (non-`||`) format. */
function compileOne(input: string): Compiled {
  const p = input.trim();
  if (p.length === 0) throw illegalArgument('No date pattern provided');
  const named = namedFormat(p);
  if (named) {
    const fast: FastKind =
      p === 'strict_date_optional_time' || p === 'strictDateOptionalTime'
        ? 'strict'
        : p === 'date_optional_time' || p === 'dateOptionalTime'
          ? 'lenient'
          : null;
    return { parser: named.parser, printer: named.printer, fast };
  }
  let el: Element;
  try {
    el = compileJodaPattern(p);
  } catch (e) {
    if (e instanceof PatternError) throw illegalArgument(`Invalid format: [${p}]: ${e.message}`);
    throw e;
  }
  return { parser: el, printer: el, fast: null };
}

function jodaFormatter(pattern: string, locale: LocaleSymbols, fastPaths = true): DateFormatter {
  const input = pattern.trim();
  if (input.length === 0) throw illegalArgument('No date pattern provided');
  if (!input.includes('||') || namedFormat(input)) {
    const c = compileOne(input);
    const parser = c.parser.parse ? c.parser : unsupportedParser();
    const printer = c.printer.print ? c.printer : unsupportedPrinter();
    const fast = fastPaths ? c.fast : null;
    return new JodaFormatter(input, parser, printer, locale, fast, fast !== null);
  }
  const names = input.split('||');
  const parts = names.map(compileOne);
  const parser = alternatives(
    null,
    parts.map((c) => c.parser),
  );
  const first = parts[0]!;
  // the fast ISO path is exact only when the ISO format is tried first
  const fastParse = fastPaths ? first.fast : null;
  return new JodaFormatter(
    input,
    parser,
    first.printer.print ? first.printer : unsupportedPrinter(),
    locale,
    fastParse,
    fastParse !== null,
    fastParse === 'strict' && names.length === 2 && names[1]!.trim() === 'epoch_millis',
  );
}

const unsupportedParser = (): Element => ({
  parse() {
    throw new DateParseError('Parsing not supported');
  },
});
const unsupportedPrinter = (): Element => ({
  print() {
    throw new DateParseError('Printing not supported');
  },
});

/** A Joda-semantics formatter from hand-built elements (ES's getStrictStandardDateFormatter). */
export function formatterFromElements(
  pattern: string,
  parser: Element,
  printer: Element,
  locale?: string,
): DateFormatter {
  return new JodaFormatter(pattern, parser, printer, localeSymbols(locale), null, false);
}

/** The same formatter without the hand-written fast paths (tests compare the two). */
export function genericJodaFormatter(pattern: string, locale?: string): DateFormatter {
  return jodaFormatter(pattern, localeSymbols(locale), false);
}

// --- entry point -------------------------------------------------------------------------------

const cache = new Map<string, DateFormatter>();

/**
 * A cached formatter. `joda` (default) is ES 6.8's format syntax (a leading `8` switches to
 * java.time); `java` is java.time DateTimeFormatter syntax (ES SQL). `locale` as in the mapping
 * `locale` parameter (ROOT by default). Throws illegal_argument_exception for invalid patterns.
 */
export function dateFormatter(
  pattern: string,
  dialect: 'joda' | 'java' = 'joda',
  locale?: string,
): DateFormatter {
  const key = dialect + '\u0000' + (locale ?? '') + '\u0000' + pattern;
  let f = cache.get(key);
  if (f === undefined) {
    const symbols = localeSymbols(locale);
    if (pattern.length === 0) throw illegalArgument('No date pattern provided');
    if (dialect === 'java' || pattern.startsWith('8')) {
      f = javaFormatter(
        dialect === 'java' ? pattern : pattern.slice(1),
        symbols,
        dialect === 'joda',
        (name) => (namedFormat(name) ? dateFormatter(name, 'joda', locale) : null),
      );
    } else {
      f = jodaFormatter(pattern, symbols);
    }
    if (cache.size > 5000) cache.clear();
    cache.set(key, f);
  }
  return f;
}

/** ES's mapping default for date fields. */
export const DEFAULT_DATE_FORMAT = 'strict_date_optional_time||epoch_millis';
