/**
 * The DateFormatter contract shared by the Joda-semantics (ES 6.8 formats) and java.time-semantics
 * (ES SQL, `8`-prefixed formats) implementations, and the error they throw for unparseable text.
 */

import { EsError } from '../errors.js';
import type { TimeZone } from './time-zone.js';

/** A date that does not match its format; `reason` is the underlying Joda/java.time message. */
export class DateParseError extends EsError {
  constructor(reason: string) {
    super('illegal_argument_exception', reason, 400);
    this.name = 'DateParseError';
  }
}

export interface ParseDetail {
  millis: number;
  /** A date (year, month, day, week...) was parsed. */
  hasDate: boolean;
  /** A time of day was parsed. */
  hasTime: boolean;
  /** An offset or zone was parsed from the text. */
  hasZone: boolean;
}

export interface DateFormatter {
  /** The pattern as given (trimmed), e.g. "strict_date_optional_time||epoch_millis". */
  readonly pattern: string;
  readonly dialect: 'joda' | 'java';
  /** Epoch millis; throws DateParseError. Fields missing from the text come from 1970-01-01T00:00. */
  parse(text: string, zone?: TimeZone): number;
  parseOrNull(text: string, zone?: TimeZone): number | null;
  /** Formats with the first format of a `||` list. */
  format(millis: number, zone?: TimeZone): string;
  /** JodaDateMathParser round-up parse: missing fields from 1970-01-01T23:59:59.999. */
  parseRoundUp(text: string, zone?: TimeZone): number;
  /**
   * JodaDateMathParser.parseDateTime: like parse with a base of 00:00 or (roundUp) 23:59:59.999,
   * and its error wording ("Parse failure at index [..] of [..]", "Unrecognized chars at ...").
   */
  parseInto(text: string, zone: TimeZone | undefined, roundUp: boolean): number;
  /** Parse result with which kinds of fields were present (for SQL DATETIME_PARSE/TIME_PARSE). */
  parseDetail?(text: string, zone?: TimeZone): ParseDetail;
}
