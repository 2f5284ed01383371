/**
 * The TimeZone contract with Joda DateTimeZone semantics, the Joda algorithms built on a zone's
 * offsets and transitions (getOffsetFromLocal, convertLocalToUTC), and fixed-offset zones.
 * Region zones (ICU data) live in region-zone.ts; id parsing in time-zone.ts.
 */

import type { EsError } from '../errors.js';
import { illegalArgument } from '../errors.js';
import { MILLIS_PER_HOUR, MILLIS_PER_MINUTE, breakDown, newLocalFields } from './calendar.js';
import { zoneLongName, zoneShortName } from './zone-names.js';

export interface TimeZone {
  /** Joda/java id: "UTC", "+01:00", "Europe/Paris" (java offsets use "Z" for zero). */
  readonly id: string;
  /** True when the offset never changes (Joda DateTimeZone.isFixed). */
  readonly fixed: boolean;
  /** Offset in millis at an instant. */
  offsetAt(utcMillis: number): number;
  /** Joda nextTransition: first instant > utc where the offset changes, or `utc` when none. */
  nextTransition(utcMillis: number): number;
  /** Joda previousTransition: (last transition <= utc) - 1, or `utc` when none. */
  previousTransition(utcMillis: number): number;
  /** Joda getOffsetFromLocal: gaps resolve after the gap, overlaps to the earlier instant. */
  offsetFromLocal(localMillis: number): number;
  /**
   * Joda convertLocalToUTC(local, strict[, originalUtc]): with `originalUtc`, keeps that instant's
   * offset when it is valid for `local`; `strict` throws in a DST gap.
   */
  localToUtc(localMillis: number, strict?: boolean, originalUtc?: number): number;
  /** Zone display names (Joda `z` / `zzzz`). */
  shortName(utcMillis: number): string;
  longName(utcMillis: number): string;
}

export abstract class BaseZone implements TimeZone {
  abstract readonly id: string;
  abstract readonly fixed: boolean;
  abstract offsetAt(utc: number): number;
  abstract nextTransition(utc: number): number;
  abstract previousTransition(utc: number): number;

  offsetFromLocal(local: number): number {
    // Joda DateTimeZone.getOffsetFromLocal
    const offsetLocal = this.offsetAt(local);
    const adjusted = local - offsetLocal;
    const offsetAdjusted = this.offsetAt(adjusted);
    if (offsetLocal !== offsetAdjusted) {
      if (offsetLocal - offsetAdjusted < 0) {
        let nextLocal = this.nextTransition(adjusted);
        if (nextLocal === local - offsetLocal) nextLocal = Infinity;
        let nextAdjusted = this.nextTransition(local - offsetAdjusted);
        if (nextAdjusted === local - offsetAdjusted) nextAdjusted = Infinity;
        if (nextLocal !== nextAdjusted) return offsetLocal;
      }
    } else if (offsetLocal >= 0) {
      const prev = this.previousTransition(adjusted);
      if (prev < adjusted) {
        const offsetPrev = this.offsetAt(prev);
        if (adjusted - prev <= offsetPrev - offsetLocal) return offsetPrev;
      }
    }
    return offsetAdjusted;
  }

  localToUtc(local: number, strict = false, originalUtc?: number): number {
    if (originalUtc !== undefined) {
      const offsetOriginal = this.offsetAt(originalUtc);
      const utc = local - offsetOriginal;
      if (this.offsetAt(utc) === offsetOriginal) return utc;
    }
    // Joda DateTimeZone.convertLocalToUTC(long, boolean)
    const offsetLocal = this.offsetAt(local);
    let offset = this.offsetAt(local - offsetLocal);
    if (offsetLocal !== offset && (strict || offsetLocal < 0)) {
      let nextLocal = this.nextTransition(local - offsetLocal);
      if (nextLocal === local - offsetLocal) nextLocal = Infinity;
      let nextAdjusted = this.nextTransition(local - offset);
      if (nextAdjusted === local - offset) nextAdjusted = Infinity;
      if (nextLocal !== nextAdjusted) {
        if (strict) throw illegalInstant(local, this.id);
        offset = offsetLocal;
      }
    }
    return local - offset;
  }

  shortName(utc: number): string {
    return zoneShortName(this, utc);
  }
  longName(utc: number): string {
    return zoneLongName(this, utc);
  }
}

/** Joda IllegalInstantException wording (local time printed as yyyy-MM-dd'T'HH:mm:ss.SSS). */
export function illegalInstant(local: number, zoneId: string): EsError {
  const f = breakDown(local, newLocalFields());
  const p = (n: number, w: number) => String(n).padStart(w, '0');
  const iso = `${p(f.year, 4)}-${p(f.month, 2)}-${p(f.day, 2)}T${p(f.hour, 2)}:${p(f.minute, 2)}:${p(f.second, 2)}.${p(f.millis, 3)}`;
  return illegalArgument(
    `Illegal instant due to time zone offset transition (daylight savings time 'gap'): ${iso} (${zoneId})`,
  );
}

export class FixedZone extends BaseZone {
  readonly fixed = true;
  constructor(
    readonly id: string,
    readonly offset: number,
  ) {
    super();
  }
  offsetAt(): number {
    return this.offset;
  }
  nextTransition(utc: number): number {
    return utc;
  }
  previousTransition(utc: number): number {
    return utc;
  }
  override offsetFromLocal(): number {
    return this.offset;
  }
  override localToUtc(local: number): number {
    return local - this.offset;
  }
}

export const UTC: TimeZone = new FixedZone('UTC', 0);

/** Joda printOffset / java ZoneOffset id: "+hh:mm", "+hh:mm:ss", "+hh:mm:ss.SSS". */
export function printOffset(offset: number): string {
  let s = offset >= 0 ? '+' : '-';
  let o = Math.abs(offset);
  const h = Math.floor(o / MILLIS_PER_HOUR);
  o -= h * MILLIS_PER_HOUR;
  const m = Math.floor(o / MILLIS_PER_MINUTE);
  o -= m * MILLIS_PER_MINUTE;
  s += pad2(h) + ':' + pad2(m);
  if (o === 0) return s;
  const sec = Math.floor(o / 1000);
  o -= sec * 1000;
  s += ':' + pad2(sec);
  if (o === 0) return s;
  return s + '.' + String(o).padStart(3, '0');
}
const pad2 = (n: number) => (n < 10 ? '0' + n : String(n));

/** A fixed-offset zone as Joda's forOffsetMillis builds it (zero offset is UTC). */
export function fixedOffsetZone(offsetMillis: number): TimeZone {
  return offsetMillis === 0 ? UTC : new FixedZone(printOffset(offsetMillis), offsetMillis);
}
