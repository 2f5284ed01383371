/**
 * Parse state shared by format elements (Joda DateTimeParserBucket): parsed fields are saved,
 * then applied largest-first onto a base local time, and the result is shifted to UTC by the
 * parsed offset, the parsed zone, or the formatter's zone.
 */

import type { DateField } from './date-fields.js';
import { FieldValueError, RANK_DAY, RANK_MONTH, compareFields, year } from './date-fields.js';
import type { LocaleSymbols } from './locale-symbols.js';
import type { TimeZone } from './time-zone.js';

export interface BucketState {
  count: number;
  fields: DateField[];
  values: number[];
  offset: number | null;
  zone: TimeZone | null;
}

/** Thrown when applying parsed fields fails; `message` is the Joda reason. */
export class ParseFailure extends Error {}

export class ParseBucket {
  fields: DateField[] = [];
  values: number[] = [];
  count = 0;
  /** Offset parsed from the text (millis), wins over any zone. */
  offset: number | null = null;
  /** Zone parsed from the text (`ZZZ`, `z`), or the formatter's zone. */
  zone: TimeZone | null = null;

  constructor(
    public locale: LocaleSymbols,
    public defaultZone: TimeZone,
  ) {}

  reset(locale: LocaleSymbols, zone: TimeZone): void {
    this.count = 0;
    this.offset = null;
    this.zone = null;
    this.locale = locale;
    this.defaultZone = zone;
  }

  save(field: DateField, value: number): void {
    this.fields[this.count] = field;
    this.values[this.count] = value;
    this.count++;
  }

  saveState(): BucketState {
    return {
      count: this.count,
      fields: this.fields.slice(0, this.count),
      values: this.values.slice(0, this.count),
      offset: this.offset,
      zone: this.zone,
    };
  }

  restoreState(s: BucketState): void {
    for (let i = 0; i < s.count; i++) {
      this.fields[i] = s.fields[i]!;
      this.values[i] = s.values[i]!;
    }
    this.count = s.count;
    this.offset = s.offset;
    this.zone = s.zone;
  }

  /** Cheap state for sequential parsers that only need to roll back (no copy). */
  mark(): number {
    return this.count;
  }

  /**
   * Joda computeMillis: applies the saved fields (largest first) onto `baseLocal`, defaulting
   * the year when the first field is a month/week/day field, then converts to UTC.
   * `resetFields` (parseMillis) re-applies the fields and floors the smallest one.
   */
  computeMillis(baseLocal: number, text: string, resetFields: boolean, defaultYear = 1970): number {
    const n = this.count;
    const order: number[] = [];
    for (let i = 0; i < n; i++) order.push(i);
    // stable sort (Joda uses insertion sort / merge sort)
    order.sort((a, b) => compareFields(this.fields[a]!, this.fields[b]!) || a - b);
    let millis = baseLocal;
    try {
      if (n > 0) {
        const first = this.fields[order[0]!]!;
        if (first.durationRank <= RANK_MONTH && first.durationRank >= RANK_DAY) {
          millis = year.set(millis, defaultYear);
        }
      }
      for (const i of order) millis = this.fields[i]!.set(millis, this.values[i]!);
      if (resetFields) {
        // parseMillis sets every field again and floors the last (smallest) one
        for (let k = 0; k < n; k++) {
          const i = order[k]!;
          millis = this.fields[i]!.set(millis, this.values[i]!);
          if (k === n - 1) millis = this.fields[i]!.floor(millis);
        }
      }
    } catch (e) {
      if (e instanceof FieldValueError)
        throw new ParseFailure(`Cannot parse "${text}": ${e.message}`);
      throw e;
    }
    if (this.offset !== null) return millis - this.offset;
    const zone = this.zone ?? this.defaultZone;
    if (zone.fixed) return millis - zone.offsetAt(millis);
    const offset = zone.offsetFromLocal(millis);
    const utc = millis - offset;
    if (offset !== zone.offsetAt(utc)) {
      throw new ParseFailure(
        `Cannot parse "${text}": Illegal instant due to time zone offset transition (${zone.id})`,
      );
    }
    return utc;
  }
}
