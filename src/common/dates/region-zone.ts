/**
 * Region time zones backed by ICU (`Intl`): offsets are sampled every few days and transitions
 * bisected to the second, lazily per UTC year, into a sorted transition table. Years past 2400
 * reuse the 400-year Gregorian cycle (recurring DST rules repeat), years before 1800 the 1800
 * offset (local mean time).
 */

import {
  MILLIS_PER_DAY,
  MILLIS_PER_HOUR,
  MILLIS_PER_MINUTE,
  daysFromCivil,
  yearOf,
} from './calendar.js';
import { BaseZone } from './zone-base.js';

const LO_YEAR = 1800;
const HI_YEAR = 2400;
const T_LO = daysFromCivil(LO_YEAR, 1, 1) * MILLIS_PER_DAY;
const T_HI = daysFromCivil(HI_YEAR, 1, 1) * MILLIS_PER_DAY;
/** The Gregorian calendar (and so every recurring DST rule) repeats every 400 years. */
const CYCLE = 146097 * MILLIS_PER_DAY;
const SAMPLE_STEP = 4 * MILLIS_PER_DAY;
const yearStart = (y: number) => daysFromCivil(y, 1, 1) * MILLIS_PER_DAY;

export class RegionZone extends BaseZone {
  readonly fixed = false;
  private readonly fmt: Intl.DateTimeFormat;
  /** Transition instants (first millisecond of the new offset) and the offset from then on. */
  private times: number[] = [];
  private offs: number[] = [];
  /** Covered UTC years [lo, hi); startOffset is the offset at the start of year `lo`. */
  private lo = 0;
  private hi = 0;
  private startOffset = 0;
  // one-interval cache: [cStart, cEnd) has offset cOff; cPrev/cNext are the transitions
  // bounding it when known (NaN otherwise)
  private cStart = 1;
  private cEnd = 0;
  private cOff = 0;
  private cPrev = NaN;
  private cNext = NaN;

  constructor(
    readonly id: string,
    icuId: string,
  ) {
    super();
    this.fmt = new Intl.DateTimeFormat('en-US', { timeZone: icuId, timeZoneName: 'longOffset' });
  }

  /** ICU offset at an instant, from the "GMT+hh:mm[:ss]" long offset name. */
  private sample(t: number): number {
    const s = this.fmt.format(t);
    const i = s.lastIndexOf('GMT');
    if (i < 0 || i + 3 >= s.length) return 0;
    const sign = s.charCodeAt(i + 3) === 45 || s.charCodeAt(i + 3) === 0x2212 ? -1 : 1;
    const h = +s.slice(i + 4, i + 6);
    const m = +s.slice(i + 7, i + 9);
    const sec = s.length > i + 10 ? +s.slice(i + 10, i + 12) : 0;
    return sign * (h * MILLIS_PER_HOUR + m * MILLIS_PER_MINUTE + sec * 1000);
  }

  /** Transitions in UTC years [y0, y1): sampled every few days, bisected to the second. */
  private scan(y0: number, y1: number): { times: number[]; offs: number[]; start: number } {
    const times: number[] = [];
    const offs: number[] = [];
    const end = yearStart(y1);
    let a = yearStart(y0);
    const start = this.sample(a);
    let oa = start;
    while (a < end) {
      const b = Math.min(a + SAMPLE_STEP, end);
      const ob = this.sample(b);
      while (oa !== ob) {
        // find the first second in (a, b] whose offset differs from oa
        let lo = a;
        let hi = b;
        while (hi - lo > 1000) {
          const mid = lo + Math.floor((hi - lo) / 2000) * 1000;
          if (this.sample(mid) === oa) lo = mid;
          else hi = mid;
        }
        const oh = this.sample(hi);
        times.push(hi);
        offs.push(oh);
        a = hi;
        oa = oh;
        if (hi >= b) break;
      }
      a = b;
      oa = ob;
    }
    return { times, offs, start };
  }

  private cover(year: number): void {
    if (year < LO_YEAR) year = LO_YEAR;
    if (year > HI_YEAR) year = HI_YEAR;
    if (this.lo === this.hi) {
      const r = this.scan(year, year + 1);
      this.times = r.times;
      this.offs = r.offs;
      this.startOffset = r.start;
      this.lo = year;
      this.hi = year + 1;
    } else if (year < this.lo) {
      const r = this.scan(year, this.lo);
      this.times = r.times.concat(this.times);
      this.offs = r.offs.concat(this.offs);
      this.startOffset = r.start;
      this.lo = year;
    } else if (year >= this.hi) {
      const r = this.scan(this.hi, year + 1);
      this.times = this.times.concat(r.times);
      this.offs = this.offs.concat(r.offs);
      this.hi = year + 1;
    }
  }

  /** Index of the last transition <= t (or -1), with the table covering t's year. */
  private indexAt(t: number): number {
    const y = yearOf(t);
    if (y < this.lo || y >= this.hi) this.cover(y);
    const times = this.times;
    let lo = 0;
    let hi = times.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (times[mid]! <= t) lo = mid + 1;
      else hi = mid;
    }
    return lo - 1;
  }

  offsetAt(t: number): number {
    if (t >= this.cStart && t < this.cEnd) return this.cOff;
    if (t < T_LO) return this.offsetAt(T_LO);
    if (t >= T_HI) return this.offsetAt(t - Math.ceil((t - T_HI + 1) / CYCLE) * CYCLE);
    const i = this.indexAt(t);
    const off = i < 0 ? this.startOffset : this.offs[i]!;
    this.cStart = i < 0 ? yearStart(this.lo) : this.times[i]!;
    this.cEnd = i + 1 < this.times.length ? this.times[i + 1]! : yearStart(this.hi);
    this.cPrev = i < 0 ? NaN : this.times[i]!;
    this.cNext = i + 1 < this.times.length ? this.times[i + 1]! : NaN;
    this.cOff = off;
    return off;
  }

  nextTransition(t: number): number {
    if (t >= this.cStart && t < this.cEnd && this.cNext === this.cNext) return this.cNext;
    if (t >= T_HI) {
      const shift = Math.ceil((t - T_HI + 1) / CYCLE) * CYCLE;
      const n = this.nextTransition(t - shift);
      return n === t - shift ? t : n + shift;
    }
    const from = Math.max(t, T_LO - 1);
    const limitYear = Math.min(HI_YEAR, Math.max(yearOf(from) + 2, 2101));
    for (let y = yearOf(from); y <= limitYear; y++) {
      this.cover(y);
      const i = this.indexAt(from) + 1;
      if (i < this.times.length) return this.times[i]!;
    }
    return t;
  }

  previousTransition(t: number): number {
    if (t >= this.cStart && t < this.cEnd && this.cPrev === this.cPrev) return this.cPrev - 1;
    if (t < T_LO) return t;
    if (t >= T_HI) {
      const shift = Math.ceil((t - T_HI + 1) / CYCLE) * CYCLE;
      const p = this.previousTransition(t - shift);
      if (p === t - shift) return t;
      return p + 1 >= T_HI - CYCLE ? p + shift : p;
    }
    for (;;) {
      const i = this.indexAt(t);
      if (i >= 0) return this.times[i]! - 1;
      if (this.lo <= LO_YEAR) return t;
      this.cover(this.lo - 1);
    }
  }
}
