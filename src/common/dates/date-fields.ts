/**
 * Date-time fields with Joda ISOChronology `set` semantics on local millis: value bounds checked
 * with Joda's IllegalFieldValueException wording, and the ordering keys (range, duration) that
 * DateTimeParserBucket uses to apply parsed fields largest-first.
 */

import {
  MAX_YEAR,
  MILLIS_PER_DAY,
  MILLIS_PER_HOUR,
  MILLIS_PER_MINUTE,
  MILLIS_PER_WEEK,
  MIN_YEAR,
  breakDown,
  dayOfYear as dayOfYearOf,
  daysFromCivil,
  daysInMonth,
  daysInYear,
  floorMod,
  floorMonthLocal,
  floorWeekLocal,
  floorYearLocal,
  isoDayOfWeek,
  isoWeekOf,
  newLocalFields,
  setYearLocal,
  weeksInWeekyear,
  weekyearStartDays,
  yearOf,
} from './calendar.js';

/** Thrown by `set` when a value is out of bounds; message is Joda's. */
export class FieldValueError extends Error {}

// Duration ranks: bigger unit = bigger rank (Joda DurationField ordering by unit millis).
const D_MILLI = 1;
const D_SECOND = 2;
const D_MINUTE = 3;
const D_HOUR = 4;
const D_HALFDAY = 5;
const D_DAY = 6;
const D_WEEK = 7;
const D_MONTH = 8;
const D_YEAR = 9; // years and weekyears have the same average length
const D_CENTURY = 10;
const D_ERA = 11;
const D_NONE = 99; // unsupported range field (year, weekyear, era): sorts first

export const RANK_MONTH = D_MONTH;
export const RANK_DAY = D_DAY;

export interface DateField {
  /** Joda DateTimeFieldType name, used in error messages. */
  readonly name: string;
  readonly durationRank: number;
  readonly rangeRank: number;
  /** Sets the field on local millis, validating the value. */
  set(local: number, value: number): number;
  get(local: number): number;
  /** Joda roundFloor: the start of the field's unit holding `local`. */
  floor(local: number): number;
}

const lf = newLocalFields();

function bounds(name: string, v: number, min: number, max: number): void {
  if (v < min || v > max) {
    throw new FieldValueError(`Value ${v} for ${name} must be in the range [${min},${max}]`);
  }
}

/** A field that is a fixed number of millis within a fixed range (hour of day, ...). */
function precise(
  name: string,
  unit: number,
  range: number,
  durationRank: number,
  rangeRank: number,
): DateField {
  const max = range / unit - 1;
  return {
    name,
    durationRank,
    rangeRank,
    get: (m) => Math.floor(floorMod(m, range) / unit),
    floor: (m) => m - floorMod(m, unit),
    set(m, v) {
      bounds(name, v, 0, max);
      return m + (v - Math.floor(floorMod(m, range) / unit)) * unit;
    },
  };
}

/** Joda ZeroIsMaxDateTimeField: 1..max, where max stands for 0 (clockhour fields). */
function zeroIsMax(base: DateField, name: string, max: number): DateField {
  return {
    name,
    durationRank: base.durationRank,
    rangeRank: base.rangeRank,
    get: (m) => base.get(m) || max,
    floor: base.floor,
    set(m, v) {
      bounds(name, v, 1, max);
      return base.set(m, v === max ? 0 : v);
    },
  };
}

export const millisOfSecond = precise('millisOfSecond', 1, 1000, D_MILLI, D_SECOND);
export const millisOfDay = precise('millisOfDay', 1, MILLIS_PER_DAY, D_MILLI, D_DAY);
export const secondOfMinute = precise(
  'secondOfMinute',
  1000,
  MILLIS_PER_MINUTE,
  D_SECOND,
  D_MINUTE,
);
export const secondOfDay = precise('secondOfDay', 1000, MILLIS_PER_DAY, D_SECOND, D_DAY);
export const minuteOfHour = precise(
  'minuteOfHour',
  MILLIS_PER_MINUTE,
  MILLIS_PER_HOUR,
  D_MINUTE,
  D_HOUR,
);
export const minuteOfDay = precise(
  'minuteOfDay',
  MILLIS_PER_MINUTE,
  MILLIS_PER_DAY,
  D_MINUTE,
  D_DAY,
);
export const hourOfDay = precise('hourOfDay', MILLIS_PER_HOUR, MILLIS_PER_DAY, D_HOUR, D_DAY);
export const hourOfHalfday = precise(
  'hourOfHalfday',
  MILLIS_PER_HOUR,
  MILLIS_PER_DAY / 2,
  D_HOUR,
  D_HALFDAY,
);
export const halfdayOfDay = precise(
  'halfdayOfDay',
  MILLIS_PER_DAY / 2,
  MILLIS_PER_DAY,
  D_HALFDAY,
  D_DAY,
);
export const clockhourOfDay = zeroIsMax(hourOfDay, 'clockhourOfDay', 24);
export const clockhourOfHalfday = zeroIsMax(hourOfHalfday, 'clockhourOfHalfday', 12);

/**
 * The field a parsed second/minute/hour fraction is saved as (Joda Fraction.parseInto): millis
 * within `range`, reported as millisOfSecond.
 */
export function fractionField(range: number, rangeRank: number): DateField {
  return precise('millisOfSecond', 1, range, D_MILLI, rangeRank);
}
export const FRACTION_RANKS = { second: D_SECOND, minute: D_MINUTE, hour: D_HOUR, day: D_DAY };

const dayMillis = (m: number) => floorMod(m, MILLIS_PER_DAY);
const floorDay = (m: number) => m - floorMod(m, MILLIS_PER_DAY);
const epochDay = (m: number) => Math.floor(m / MILLIS_PER_DAY);

export const year: DateField = {
  name: 'year',
  durationRank: D_YEAR,
  rangeRank: D_NONE,
  get: yearOf,
  floor: floorYearLocal,
  set(m, v) {
    // BasicChronology.setYear bounds check is one year wider than the field range
    bounds('year', v, MIN_YEAR - 1, MAX_YEAR + 1);
    return setYearLocal(m, v);
  },
};

export const monthOfYear: DateField = {
  name: 'monthOfYear',
  durationRank: D_MONTH,
  rangeRank: D_YEAR,
  get: (m) => breakDown(m, lf).month,
  floor: floorMonthLocal,
  set(m, v) {
    bounds('monthOfYear', v, 1, 12);
    breakDown(m, lf);
    const d = Math.min(lf.day, daysInMonth(lf.year, v));
    return daysFromCivil(lf.year, v, d) * MILLIS_PER_DAY + lf.millisOfDay;
  },
};

export const dayOfMonth: DateField = {
  name: 'dayOfMonth',
  durationRank: D_DAY,
  rangeRank: D_MONTH,
  get: (m) => breakDown(m, lf).day,
  floor: floorDay,
  set(m, v) {
    breakDown(m, lf);
    // Joda getDaysInMonthMaxForSet: 28 unless the value itself is out of 1..28
    const max = v > 28 || v < 1 ? daysInMonth(lf.year, lf.month) : 28;
    bounds('dayOfMonth', v, 1, max);
    return m + (v - lf.day) * MILLIS_PER_DAY;
  },
};

export const dayOfYear: DateField = {
  name: 'dayOfYear',
  durationRank: D_DAY,
  rangeRank: D_YEAR,
  get: (m) => {
    breakDown(m, lf);
    return dayOfYearOf(lf.year, lf.month, lf.day);
  },
  floor: floorDay,
  set(m, v) {
    breakDown(m, lf);
    const max = v > 365 || v < 1 ? daysInYear(lf.year) : 365;
    bounds('dayOfYear', v, 1, max);
    return m + (v - dayOfYearOf(lf.year, lf.month, lf.day)) * MILLIS_PER_DAY;
  },
};

export const dayOfWeek: DateField = {
  name: 'dayOfWeek',
  durationRank: D_DAY,
  rangeRank: D_WEEK,
  get: (m) => isoDayOfWeek(epochDay(m)),
  floor: floorDay,
  set(m, v) {
    bounds('dayOfWeek', v, 1, 7);
    return m + (v - isoDayOfWeek(epochDay(m))) * MILLIS_PER_DAY;
  },
};

export const weekOfWeekyear: DateField = {
  name: 'weekOfWeekyear',
  durationRank: D_WEEK,
  rangeRank: D_YEAR,
  get: (m) => isoWeekOf(epochDay(m)).week,
  floor: floorWeekLocal,
  set(m, v) {
    const w = isoWeekOf(epochDay(m));
    const max = v > 52 ? weeksInWeekyear(w.weekyear) : 52;
    bounds('weekOfWeekyear', v, 1, max);
    return m + (v - w.week) * MILLIS_PER_WEEK;
  },
};

export const weekyear: DateField = {
  name: 'weekyear',
  durationRank: D_YEAR,
  rangeRank: D_NONE,
  get: (m) => isoWeekOf(epochDay(m)).weekyear,
  floor: (m) => weekyearStartDays(isoWeekOf(epochDay(m)).weekyear) * MILLIS_PER_DAY,
  set(m, v) {
    bounds('weekyear', Math.abs(v), MIN_YEAR, MAX_YEAR);
    const days = epochDay(m);
    const cur = isoWeekOf(days);
    if (cur.weekyear === v) return m;
    // Joda BasicWeekyearDateTimeField.set: keep week (capped) and day of week
    const week = Math.min(cur.week, weeksInWeekyear(cur.weekyear), weeksInWeekyear(v));
    const jan4 = daysFromCivil(v, 1, 4);
    const start = jan4 - (isoDayOfWeek(jan4) - 1);
    const d = start + (week - 1) * 7 + (isoDayOfWeek(days) - 1);
    return d * MILLIS_PER_DAY + dayMillis(m);
  },
};

export const yearOfEra: DateField = {
  name: 'yearOfEra',
  durationRank: D_YEAR,
  rangeRank: D_ERA,
  get: (m) => {
    const y = yearOf(m);
    return y <= 0 ? 1 - y : y;
  },
  floor: floorYearLocal,
  set(m, v) {
    bounds('yearOfEra', v, 1, MAX_YEAR);
    return setYearLocal(m, yearOf(m) <= 0 ? 1 - v : v);
  },
};

export const era: DateField = {
  name: 'era',
  durationRank: D_ERA,
  rangeRank: D_NONE,
  get: (m) => (yearOf(m) <= 0 ? 0 : 1),
  floor: (m) => daysFromCivil(yearOf(m) <= 0 ? MIN_YEAR : 1, 1, 1) * MILLIS_PER_DAY,
  set(m, v) {
    bounds('era', v, 0, 1);
    const y = yearOf(m);
    return (y <= 0 ? 0 : 1) === v ? m : setYearLocal(m, -y);
  },
};

export const centuryOfEra: DateField = {
  name: 'centuryOfEra',
  durationRank: D_CENTURY,
  rangeRank: D_ERA,
  get: (m) => Math.floor(yearOfEra.get(m) / 100),
  floor(m) {
    const y = yearOf(m);
    const yoe = y <= 0 ? 1 - y : y;
    const start = yoe - (yoe % 100);
    return daysFromCivil(y <= 0 ? 1 - start : start, 1, 1) * MILLIS_PER_DAY;
  },
  set(m, v) {
    bounds('centuryOfEra', v, 0, Math.floor(MAX_YEAR / 100));
    const yoe = yearOfEra.get(m);
    const ny = v * 100 + (yoe % 100);
    return setYearLocal(m, yearOf(m) <= 0 ? 1 - ny : ny);
  },
};

export const yearOfCentury: DateField = {
  name: 'yearOfCentury',
  durationRank: D_YEAR,
  rangeRank: D_CENTURY,
  get: (m) => yearOfEra.get(m) % 100,
  floor: floorYearLocal,
  set(m, v) {
    bounds('yearOfCentury', v, 0, 99);
    const yoe = yearOfEra.get(m);
    const ny = yoe - (yoe % 100) + v;
    return setYearLocal(m, yearOf(m) <= 0 ? 1 - ny : ny);
  },
};

/** Stable largest-first order used by DateTimeParserBucket.computeMillis. */
export function compareFields(a: DateField, b: DateField): number {
  if (a.rangeRank !== b.rangeRank) return b.rangeRank - a.rangeRank;
  return b.durationRank - a.durationRank;
}
