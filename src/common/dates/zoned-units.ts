/**
 * Calendar units as Joda's zoned fields compute them (ZonedChronology): units shorter than 12h
 * use "time arithmetic" (shift by the instant's offset), longer ones work on local time and
 * convert back with convertLocalToUTC(local, false, original) for field rounding/adding, or with
 * getOffsetFromLocal for duration adding (MutableDateTime.addDays & co).
 */

import {
  MILLIS_PER_DAY,
  MILLIS_PER_HOUR,
  MILLIS_PER_MINUTE,
  addMonthsLocal,
  addYearsLocal,
  floorMonthLocal,
  floorQuarterLocal,
  floorUnit,
  floorWeekLocal,
  floorYearLocal,
} from './calendar.js';
import type { TimeZone } from './time-zone.js';

export type CalendarUnit =
  'year' | 'quarter' | 'month' | 'week' | 'day' | 'hour' | 'minute' | 'second';

interface UnitOps {
  /** Time arithmetic (duration < 12h) with a fixed unit length. */
  readonly timeUnit: number;
  floorLocal(local: number): number;
  addLocal(local: number, n: number): number;
}

const dateUnit = (
  floorLocal: (l: number) => number,
  addLocal: (l: number, n: number) => number,
): UnitOps => ({
  timeUnit: 0,
  floorLocal,
  addLocal,
});
const timeUnit = (unit: number): UnitOps => ({
  timeUnit: unit,
  floorLocal: (l) => floorUnit(l, unit),
  addLocal: (l, n) => l + n * unit,
});

const UNITS: Record<CalendarUnit, UnitOps> = {
  year: dateUnit(floorYearLocal, addYearsLocal),
  quarter: dateUnit(floorQuarterLocal, (l, n) => addMonthsLocal(l, 3 * n)),
  month: dateUnit(floorMonthLocal, addMonthsLocal),
  week: dateUnit(floorWeekLocal, (l, n) => l + n * 7 * MILLIS_PER_DAY),
  day: dateUnit(
    (l) => floorUnit(l, MILLIS_PER_DAY),
    (l, n) => l + n * MILLIS_PER_DAY,
  ),
  hour: timeUnit(MILLIS_PER_HOUR),
  minute: timeUnit(MILLIS_PER_MINUTE),
  second: timeUnit(1000),
};

export const isTimeUnit = (unit: CalendarUnit): boolean => UNITS[unit].timeUnit !== 0;

/** Joda ZonedDateTimeField.roundFloor. */
export function zonedFloor(unit: CalendarUnit, zone: TimeZone, utc: number): number {
  const ops = UNITS[unit];
  if (ops.timeUnit !== 0) {
    const offset = zone.offsetAt(utc);
    return floorUnit(utc + offset, ops.timeUnit) - offset;
  }
  if (zone.fixed) {
    const offset = zone.offsetAt(utc);
    return ops.floorLocal(utc + offset) - offset;
  }
  const local = utc + zone.offsetAt(utc);
  return zone.localToUtc(ops.floorLocal(local), false, utc);
}

/** Joda ZonedDateTimeField.add (used by rounding: field.add(floor, 1)). */
export function zonedFieldAdd(unit: CalendarUnit, zone: TimeZone, utc: number, n: number): number {
  const ops = UNITS[unit];
  if (ops.timeUnit !== 0) return utc + n * ops.timeUnit;
  const offset = zone.offsetAt(utc);
  if (zone.fixed) return ops.addLocal(utc + offset, n) - offset;
  return zone.localToUtc(ops.addLocal(utc + offset, n), false, utc);
}

/** Joda ZonedDurationField.add (MutableDateTime.addYears/addMonths/addWeeks/addDays/...). */
export function zonedDurationAdd(
  unit: CalendarUnit,
  zone: TimeZone,
  utc: number,
  n: number,
): number {
  const ops = UNITS[unit];
  if (ops.timeUnit !== 0) return utc + n * ops.timeUnit;
  const local = ops.addLocal(utc + zone.offsetAt(utc), n);
  return local - zone.offsetFromLocal(local);
}

/** Joda roundCeiling of a zoned field: floor, and one unit up unless already on a boundary. */
export function zonedCeiling(unit: CalendarUnit, zone: TimeZone, utc: number): number {
  const floor = zonedFloor(unit, zone, utc);
  return floor === utc ? floor : zonedFieldAdd(unit, zone, floor, 1);
}
