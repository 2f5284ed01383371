/**
 * Dates for Quarry: ES 6.8 date formats (Joda semantics) and java.time patterns (ES SQL), date
 * math, Joda-compatible time zones over ICU data, date_histogram roundings and intervals, and
 * dynamic-mapping date detection. Leaf module: depends only on src/common.
 */

export type { DateFormatter, ParseDetail } from './date-formatter.js';
export { DateParseError } from './date-formatter.js';
export { DEFAULT_DATE_FORMAT, dateFormatter, formatterFromElements } from './formatter.js';
export { namedFormatNames } from './iso-formats.js';
export { dateBoundText, dateRangeBounds, parseDateMath } from './date-math.js';
export type { TimeZone } from './time-zone.js';
export { UTC, fixedOffsetZone, printOffset, timeZone } from './time-zone.js';
export type { Rounding } from './rounding.js';
export { calendarRounding, fixedRounding, withOffset } from './rounding.js';
export type { CalendarUnit } from './zoned-units.js';
export { zonedCeiling, zonedFloor } from './zoned-units.js';
export type { DateHistogramInterval } from './interval.js';
export {
  DATE_FIELD_UNITS,
  parseCalendarInterval,
  parseDateHistogramInterval,
  parseFixedInterval,
} from './interval.js';
export {
  DEFAULT_DYNAMIC_DATE_FORMATS,
  STRICT_STANDARD_DATE_FORMAT,
  defaultDynamicDateFormatters,
  detectDate,
  isDateLike,
  parseDynamicDateFormats,
  strictStandardDateFormatter,
} from './date-detection.js';
export { javaLocalToUtc } from './java-formatter.js';
