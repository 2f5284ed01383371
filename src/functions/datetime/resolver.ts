/**
 * java.time.format.Parsed.resolve in ResolverStyle.SMART: turns parsed fields into a local date,
 * a local time (+ excess days), an offset and a zone, with java.time's validation and conflict
 * messages, then answers the TemporalQuery conversions DATETIME_PARSE & co. use
 * (ZonedDateTime::from, LocalDateTime::from, LocalDate::from, OffsetTime::from, LocalTime::from).
 */
import {
  epochDay,
  dateOfEpochDay,
  isLeapYear,
  isoDayOfWeek,
  lengthOfMonth,
  MILLIS_PER_DAY,
  type LocalDate,
} from './calendar.js';
import {
  checkValid,
  FIELD_DISPLAY,
  fieldValue,
  localizedDayOfWeek,
  SUNDAY_START,
  type FieldName,
} from './fields.js';
import { abbreviate, type ParsedFields } from './parse-temporal.js';
import { isoLocalDate } from '../java-text.js';
import { dateTimeException, localToEpochMillis, offsetId, zoneOf, type Zone } from './zones.js';

export interface Resolved {
  readonly date: LocalDate | null;
  readonly nanoOfDay: number | null;
  readonly offset: number | null;
  readonly zone: Zone | null;
}

const floorDiv = (a: number, b: number) => Math.floor(a / b);
const floorMod = (a: number, b: number) => a - Math.floor(a / b) * b;

class Resolution {
  readonly f: Map<FieldName, number>;
  date: LocalDate | null = null;
  nanoOfDay: number | null = null;
  excessDays = 0;

  constructor(fields: Map<FieldName, number>) {
    this.f = new Map(fields);
  }

  take(k: FieldName): number | undefined {
    const v = this.f.get(k);
    this.f.delete(k);
    return v;
  }

  /** Parsed.updateCheckConflict. */
  put(target: FieldName, changed: FieldName, value: number): void {
    const old = this.f.get(changed);
    if (old !== undefined && old !== value) {
      throw dateTimeException(
        `Conflict found: ${FIELD_DISPLAY[changed]} ${old} differs from ${FIELD_DISPLAY[changed]} ${value} while resolving  ${FIELD_DISPLAY[target]}`,
      );
    }
    this.f.set(changed, value);
  }

  resolveDate(): void {
    const yoe = this.take('YEAR_OF_ERA');
    if (yoe !== undefined) {
      checkValid('YEAR_OF_ERA', yoe);
      const era = this.take('ERA');
      if (era === undefined) {
        const year = this.f.get('YEAR');
        this.put('YEAR_OF_ERA', 'YEAR', year === undefined || year > 0 ? yoe : 1 - yoe);
      } else if (era === 1) {
        this.put('YEAR_OF_ERA', 'YEAR', yoe);
      } else if (era === 0) {
        this.put('YEAR_OF_ERA', 'YEAR', 1 - yoe);
      } else {
        throw dateTimeException('Invalid value for era: ' + era);
      }
    }
    const pm = this.take('PROLEPTIC_MONTH');
    if (pm !== undefined) {
      this.put('PROLEPTIC_MONTH', 'MONTH_OF_YEAR', floorMod(pm, 12) + 1);
      this.put('PROLEPTIC_MONTH', 'YEAR', floorDiv(pm, 12));
    }
    const year = this.f.get('YEAR');
    if (year !== undefined) {
      checkValid('YEAR', year);
      if (this.f.has('MONTH_OF_YEAR') && this.f.has('DAY_OF_MONTH')) {
        this.f.delete('YEAR');
        const moy = checkValid('MONTH_OF_YEAR', this.take('MONTH_OF_YEAR')!);
        let dom = checkValid('DAY_OF_MONTH', this.take('DAY_OF_MONTH')!);
        // SMART: a day beyond the month's end is clamped to the last valid day
        dom = Math.min(dom, lengthOfMonth(year, moy));
        this.date = { year, month: moy, day: dom };
        return;
      }
      if (this.f.has('DAY_OF_YEAR')) {
        this.f.delete('YEAR');
        const doy = checkValid('DAY_OF_YEAR', this.take('DAY_OF_YEAR')!);
        if (doy === 366 && !isLeapYear(year)) {
          throw dateTimeException(`Invalid date 'DayOfYear 366' as '${year}' is not a leap year`);
        }
        this.date = dateOfEpochDay(epochDay(year, 1, 1) + doy - 1);
        return;
      }
    }
    const wby = this.f.get('WEEK_BASED_YEAR');
    const wow = this.f.get('WEEK_OF_WEEK_BASED_YEAR');
    const ldow =
      this.f.get('LOCALIZED_DAY_OF_WEEK') ??
      (this.f.has('DAY_OF_WEEK')
        ? localizedDayOfWeek(SUNDAY_START, this.f.get('DAY_OF_WEEK')!)
        : undefined);
    if (wby !== undefined && wow !== undefined && ldow !== undefined) {
      // Sunday-start weeks with one minimal day: week 1 is the week holding 1 January
      const jan1 = epochDay(wby, 1, 1);
      const start = jan1 - (localizedDayOfWeek(SUNDAY_START, isoDayOfWeek(jan1)) - 1);
      this.date = dateOfEpochDay(start + (wow - 1) * 7 + (ldow - 1));
      this.f.delete('WEEK_BASED_YEAR');
      this.f.delete('WEEK_OF_WEEK_BASED_YEAR');
      this.f.delete('LOCALIZED_DAY_OF_WEEK');
    }
  }

  resolveTime(): void {
    const ch = this.take('CLOCK_HOUR_OF_DAY');
    if (ch !== undefined) {
      if (ch !== 0) checkValid('CLOCK_HOUR_OF_DAY', ch);
      this.put('CLOCK_HOUR_OF_DAY', 'HOUR_OF_DAY', ch === 24 ? 0 : ch);
    }
    const cap = this.take('CLOCK_HOUR_OF_AMPM');
    if (cap !== undefined) {
      if (cap !== 0) checkValid('CLOCK_HOUR_OF_AMPM', cap);
      this.put('CLOCK_HOUR_OF_AMPM', 'HOUR_OF_AMPM', cap === 12 ? 0 : cap);
    }
    if (this.f.has('AMPM_OF_DAY') && this.f.has('HOUR_OF_AMPM')) {
      const ap = checkValid('AMPM_OF_DAY', this.take('AMPM_OF_DAY')!);
      const hap = checkValid('HOUR_OF_AMPM', this.take('HOUR_OF_AMPM')!);
      this.put('AMPM_OF_DAY', 'HOUR_OF_DAY', ap * 12 + hap);
    }
    const nod = this.take('NANO_OF_DAY');
    if (nod !== undefined) {
      checkValid('NANO_OF_DAY', nod);
      this.put('NANO_OF_DAY', 'HOUR_OF_DAY', Math.floor(nod / 3_600_000_000_000));
      this.put('NANO_OF_DAY', 'MINUTE_OF_HOUR', Math.floor(nod / 60_000_000_000) % 60);
      this.put('NANO_OF_DAY', 'SECOND_OF_MINUTE', Math.floor(nod / 1e9) % 60);
      this.put('NANO_OF_DAY', 'NANO_OF_SECOND', nod % 1e9);
    }
    const mod = this.take('MILLI_OF_DAY');
    if (mod !== undefined) {
      checkValid('MILLI_OF_DAY', mod);
      this.put('MILLI_OF_DAY', 'SECOND_OF_DAY', Math.floor(mod / 1000));
      this.put('MILLI_OF_DAY', 'MILLI_OF_SECOND', mod % 1000);
    }
    const sod = this.take('SECOND_OF_DAY');
    if (sod !== undefined) {
      checkValid('SECOND_OF_DAY', sod);
      this.put('SECOND_OF_DAY', 'HOUR_OF_DAY', Math.floor(sod / 3600));
      this.put('SECOND_OF_DAY', 'MINUTE_OF_HOUR', Math.floor(sod / 60) % 60);
      this.put('SECOND_OF_DAY', 'SECOND_OF_MINUTE', sod % 60);
    }
    const mind = this.take('MINUTE_OF_DAY');
    if (mind !== undefined) {
      checkValid('MINUTE_OF_DAY', mind);
      this.put('MINUTE_OF_DAY', 'HOUR_OF_DAY', Math.floor(mind / 60));
      this.put('MINUTE_OF_DAY', 'MINUTE_OF_HOUR', mind % 60);
    }
    const ms = this.take('MILLI_OF_SECOND');
    if (ms !== undefined) {
      checkValid('MILLI_OF_SECOND', ms);
      const nos = this.f.get('NANO_OF_SECOND');
      if (nos !== undefined) this.put('MILLI_OF_SECOND', 'NANO_OF_SECOND', ms * 1e6 + (nos % 1e6));
      else this.put('MILLI_OF_SECOND', 'NANO_OF_SECOND', ms * 1e6);
    }
    const hod = this.f.get('HOUR_OF_DAY');
    if (hod === undefined) return;
    const moh = this.f.get('MINUTE_OF_HOUR');
    const som = this.f.get('SECOND_OF_MINUTE');
    const nos = this.f.get('NANO_OF_SECOND');
    // combinations that cannot be defaulted stay unresolved
    if (
      (moh === undefined && (som !== undefined || nos !== undefined)) ||
      (moh !== undefined && som === undefined && nos !== undefined)
    ) {
      return;
    }
    for (const k of [
      'HOUR_OF_DAY',
      'MINUTE_OF_HOUR',
      'SECOND_OF_MINUTE',
      'NANO_OF_SECOND',
    ] as const)
      this.f.delete(k);
    const m = moh ?? 0;
    const s = som ?? 0;
    const n = nos ?? 0;
    if (hod === 24 && m === 0 && s === 0 && n === 0) {
      this.nanoOfDay = 0;
      this.excessDays = 1;
      return;
    }
    checkValid('HOUR_OF_DAY', hod);
    checkValid('MINUTE_OF_HOUR', m);
    checkValid('SECOND_OF_MINUTE', s);
    checkValid('NANO_OF_SECOND', n);
    this.nanoOfDay = ((hod * 60 + m) * 60 + s) * 1e9 + n;
  }

  crossCheck(): void {
    if (this.date && this.excessDays) {
      this.date = dateOfEpochDay(
        epochDay(this.date.year, this.date.month, this.date.day) + this.excessDays,
      );
      this.excessDays = 0;
    }
    const view = { date: this.date, nanoOfDay: this.nanoOfDay, offsetSeconds: null, zone: null };
    for (const [k, v] of [...this.f]) {
      if (k === 'OFFSET_SECONDS') continue;
      const derived = fieldValue(view, k);
      if (derived === undefined) continue;
      if (derived !== v) {
        const target = this.date
          ? isoLocalDate(this.date.year, this.date.month, this.date.day)
          : String(this.nanoOfDay);
        throw dateTimeException(
          `Conflict found: Field ${FIELD_DISPLAY[k]} ${derived} differs from ${FIELD_DISPLAY[k]} ${v} derived from ${target}`,
        );
      }
      this.f.delete(k);
    }
  }
}

/** Parsed.resolve; resolution errors come out as "Text '...' could not be parsed: <reason>". */
export function resolveParsed(p: ParsedFields, text: string): Resolved {
  try {
    const r = new Resolution(p.fields);
    r.resolveDate();
    r.resolveTime();
    r.crossCheck();
    const offset = r.f.get('OFFSET_SECONDS');
    if (offset !== undefined) checkValid('OFFSET_SECONDS', offset);
    return { date: r.date, nanoOfDay: r.nanoOfDay, offset: offset ?? null, zone: p.zone };
  } catch (e) {
    const msg = e instanceof Error ? ((e as { reason?: string }).reason ?? e.message) : String(e);
    throw dateTimeException(`Text '${abbreviate(text)}' could not be parsed: ${msg}`);
  }
}

// ---- TemporalQuery conversions ------------------------------------------------------------------

/** ZonedDateTime::from. Null when the parse lacks a zone, a date or a time. */
export function zonedDateTimeFrom(
  r: Resolved,
): { millis: number; nanos: number; zone: Zone } | null {
  const zone = r.zone ?? (r.offset !== null ? zoneOf(offsetId(r.offset)) : null);
  if (!zone || !r.date || r.nanoOfDay === null) return null;
  const local =
    epochDay(r.date.year, r.date.month, r.date.day) * MILLIS_PER_DAY +
    Math.floor(r.nanoOfDay / 1e6);
  const millis = r.offset !== null ? local - r.offset * 1000 : localToEpochMillis(zone, local);
  return { millis, nanos: r.nanoOfDay % 1e6, zone };
}

/** LocalDateTime::from: local millis + sub-milli nanos. */
export function localDateTimeFrom(r: Resolved): { localMillis: number; nanos: number } | null {
  if (!r.date || r.nanoOfDay === null) return null;
  return {
    localMillis:
      epochDay(r.date.year, r.date.month, r.date.day) * MILLIS_PER_DAY +
      Math.floor(r.nanoOfDay / 1e6),
    nanos: r.nanoOfDay % 1e6,
  };
}

/** LocalDate::from: epoch day. */
export function localDateFrom(r: Resolved): number | null {
  return r.date ? epochDay(r.date.year, r.date.month, r.date.day) : null;
}

/** OffsetTime::from: needs an explicit offset (or a zone that is a ZoneOffset). */
export function offsetTimeFrom(r: Resolved): { nanoOfDay: number; offset: number } | null {
  if (r.nanoOfDay === null) return null;
  const zoneIsOffset = r.zone !== null && (r.zone.id === 'Z' || /^[+-]/.test(r.zone.id));
  const offset = r.offset ?? (zoneIsOffset ? r.zone!.fixedOffset : null);
  if (offset === null) return null;
  return { nanoOfDay: r.nanoOfDay, offset };
}

/** LocalTime::from. */
export function localTimeFrom(r: Resolved): number | null {
  return r.nanoOfDay;
}
