/**
 * Date/time runtime: zones (Intl-backed java.time.ZoneId), a java.time DateTimeFormatter subset,
 * ISO parsing/printing, and the SQL date/time functions. Kept self-contained so that it can later
 * be swapped for src/common/dates.
 */
export * as calendar from './calendar.js';
export { MILLIS_PER_DAY, epochDay, dateOfEpochDay, type LocalDate } from './calendar.js';
export * from './zones.js';
export { ofPattern } from './pattern.js';
export { formatTemporal } from './format-temporal.js';
export { parseFields } from './parse-temporal.js';
export { viewOfDateTime, viewOfTime, getField, type TemporalView } from './fields.js';
export * from './iso.js';
export * from './temporal-math.js';
export * from './extract.js';
export * from './date-add-diff.js';
export * from './date-part-trunc.js';
export * from './format-parse.js';
export { DateTimeFieldSet, findSimilar, levenshteinSimilarity } from './date-time-field.js';
