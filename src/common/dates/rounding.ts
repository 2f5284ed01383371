/**
 * Date histogram roundings as ES 6.8's org.elasticsearch.common.rounding.Rounding:
 * TimeUnitRounding (calendar units, handling days with two midnights and other DST artefacts)
 * and TimeIntervalRounding (fixed intervals in local time, with DST gap handling), plus the
 * `offset` shift ES applies around them (DateHistogramAggregator: round(v - offset) + offset).
 */

import { illegalArgument } from '../errors.js';
import type { TimeZone } from './time-zone.js';
import type { CalendarUnit } from './zoned-units.js';
import { isTimeUnit, zonedFieldAdd, zonedFloor } from './zoned-units.js';

export interface Rounding {
  /** The start of the bucket holding `utcMillis`. */
  round(utcMillis: number): number;
  /** Given a rounded value, the next rounded value. */
  nextRoundingValue(utcMillis: number): number;
}

/** Latest T < utc whose offset differs from utc's, or +Infinity (ES TimeUnitRounding). */
function previousOffsetChange(zone: TimeZone, utc: number): number {
  const offsetAtInput = zone.offsetAt(utc);
  do {
    const prev = zone.previousTransition(utc);
    if (prev === utc) return Infinity;
    utc = prev;
  } while (zone.offsetAt(utc) === offsetAtInput);
  return utc;
}

class TimeUnitRounding implements Rounding {
  private readonly roundsToMidnight: boolean;
  constructor(
    private readonly unit: CalendarUnit,
    private readonly zone: TimeZone,
  ) {
    // units longer than an hour round down to midnight
    this.roundsToMidnight = !isTimeUnit(unit);
  }

  round(utc: number): number {
    const { unit, zone } = this;
    if (zone.fixed) return zonedFloor(unit, zone, utc);
    if (this.roundsToMidnight) {
      const anyStartOfDay = zonedFloor(unit, zone, utc);
      const prev = previousOffsetChange(zone, anyStartOfDay);
      if (prev === Infinity) return anyStartOfDay;
      // on days with two midnights, prefer the earlier one
      const also = anyStartOfDay + zone.offsetAt(anyStartOfDay) - zone.offsetAt(prev);
      return also <= prev ? also : anyStartOfDay;
    }
    for (;;) {
      const rounded = zonedFloor(unit, zone, utc);
      const prev = previousOffsetChange(zone, utc);
      if (prev === Infinity || prev < rounded) return rounded;
      utc = prev;
    }
  }

  nextRoundingValue(utc: number): number {
    const floor = this.round(utc);
    let next = this.round(zonedFieldAdd(this.unit, this.zone, floor, 1));
    if (next === floor) next = this.round(zonedFieldAdd(this.unit, this.zone, floor, 2));
    return next;
  }
}

/** Java long division semantics of ES's roundKey (floor for negative values). */
const roundKey = (value: number, interval: number): number =>
  value < 0 ? Math.trunc((value - interval + 1) / interval) : Math.trunc(value / interval);

class TimeIntervalRounding implements Rounding {
  constructor(
    private readonly interval: number,
    private readonly zone: TimeZone,
  ) {}

  round(utc: number): number {
    const zone = this.zone;
    const local = utc + zone.offsetAt(utc);
    const rounded = roundKey(local, this.interval) * this.interval;
    if (!this.isInDstGap(rounded)) {
      let roundedUtc = zone.localToUtc(rounded, true, utc);
      // crossed a DST transition: take the last rounded value before it
      const transition = zone.previousTransition(utc);
      if (transition !== utc && transition > roundedUtc) roundedUtc = this.round(transition - 1);
      return roundedUtc;
    }
    // the rounded local time does not exist: use 1ms after the transition (keeps idempotence)
    return zone.previousTransition(utc) + 1;
  }

  /** Joda convertLocalToUTC(strict) gap detection, without the exception. */
  private isInDstGap(local: number): boolean {
    const zone = this.zone;
    if (zone.fixed) return false;
    const offsetLocal = zone.offsetAt(local);
    const offset = zone.offsetAt(local - offsetLocal);
    if (offsetLocal === offset) return false;
    let nextLocal = zone.nextTransition(local - offsetLocal);
    if (nextLocal === local - offsetLocal) nextLocal = Infinity;
    let nextAdjusted = zone.nextTransition(local - offset);
    if (nextAdjusted === local - offset) nextAdjusted = Infinity;
    return nextLocal !== nextAdjusted;
  }

  nextRoundingValue(utc: number): number {
    const local = utc + this.zone.offsetAt(utc);
    return this.zone.localToUtc(local + this.interval, false);
  }
}

class OffsetRounding implements Rounding {
  constructor(
    private readonly inner: Rounding,
    private readonly offset: number,
  ) {}
  round(v: number): number {
    return this.inner.round(v - this.offset) + this.offset;
  }
  nextRoundingValue(v: number): number {
    return this.inner.nextRoundingValue(v - this.offset) + this.offset;
  }
}

/** ES TimeUnitRounding for a calendar unit in a zone. */
export function calendarRounding(unit: CalendarUnit, zone: TimeZone, offset = 0): Rounding {
  const r = new TimeUnitRounding(unit, zone);
  return offset === 0 ? r : new OffsetRounding(r, offset);
}

/** ES TimeIntervalRounding for a fixed interval (millis >= 1) in a zone. */
export function fixedRounding(intervalMillis: number, zone: TimeZone, offset = 0): Rounding {
  if (!(intervalMillis >= 1)) throw illegalArgument('Zero or negative time interval not supported');
  const r = new TimeIntervalRounding(intervalMillis, zone);
  return offset === 0 ? r : new OffsetRounding(r, offset);
}

/** Applies a date_histogram `offset` to any rounding. */
export function withOffset(rounding: Rounding, offset: number): Rounding {
  return offset === 0 ? rounding : new OffsetRounding(rounding, offset);
}
