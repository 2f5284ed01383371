/**
 * How `/_sql` prints one value, per output: `txt` uses ES StringUtils.toString (ISO datetimes with
 * millis, SQL interval text), `csv`/`tsv` use Objects.toString (except datetimes), JSON/YAML use
 * XContent writers (ISO datetimes, HH:mm:ss.SSSZZZZZ times, ISO-8601 intervals). Numbers print
 * as the Java object ES holds: integral types as longs, DOUBLE via Double.toString, FLOAT via
 * Float.toString when the value is a float32 (SCORE, casts), Double.toString otherwise (float
 * fields are doubles at runtime in ES).
 */
import { isInteger, isRational, type DataTypeName } from '../../functions/data-types.js';
import { isoDateTimeWithMillis, isoTimeWithMillis } from '../../functions/datetime/iso.js';
import { isGeoValue, toWkt } from '../../functions/geo.js';
import {
  intervalDayTimeToSql,
  intervalYearMonthToSql,
  javaDoubleToString,
  javaDurationToString,
  javaFloatToString,
  javaNumberToString,
  javaOffsetTimeToString,
  javaPeriodToString,
} from '../../functions/java-text.js';
import {
  DateTimeValue,
  IntervalDayTime,
  IntervalYearMonth,
  TimeValue,
} from '../../functions/values.js';
import { offsetId } from '../../functions/datetime/zones.js';

/** Number text for a column type (Java's toString of the object ES would hold). */
export function numberText(v: number, type: DataTypeName | null): string {
  if (type && isInteger(type)) {
    return Number.isFinite(v) && Number.isInteger(v)
      ? Object.is(v, -0)
        ? '0'
        : v.toFixed(0)
      : javaDoubleToString(v);
  }
  if (type === 'FLOAT' || type === 'HALF_FLOAT') {
    return Math.fround(v) === v ? javaFloatToString(v) : javaDoubleToString(v);
  }
  if (type && isRational(type)) return javaDoubleToString(v);
  return javaNumberToString(v);
}

function commonText(v: unknown, type: DataTypeName | null): string | null {
  switch (typeof v) {
    case 'string':
      return v;
    case 'boolean':
      return v ? 'true' : 'false';
    case 'number':
      return numberText(v, type);
  }
  if (v instanceof DateTimeValue) return isoDateTimeWithMillis(v);
  if (v instanceof IntervalYearMonth) return intervalYearMonthToSql(v);
  if (v instanceof IntervalDayTime) return intervalDayTimeToSql(v);
  if (isGeoValue(v)) return toWkt(v.geometry);
  return null;
}

/** `txt` cell text (BasicFormatter FormatOption.TEXT = StringUtils.toString): null is "null". */
export function textCell(v: unknown, type: DataTypeName | null = null): string {
  if (v === null || v === undefined) return 'null';
  if (v instanceof TimeValue) return isoTimeWithMillis(v);
  return commonText(v, type) ?? String(v);
}

/** `csv`/`tsv` cell text (TextFormat.row: DateUtils for datetimes, Objects.toString else, null empty). */
export function delimitedCell(v: unknown, type: DataTypeName | null = null): string {
  if (v === null || v === undefined) return '';
  if (v instanceof TimeValue) return javaOffsetTimeToString(v);
  return commonText(v, type) ?? String(v);
}

/** XContentElasticsearchExtension OFFSET_TIME_FORMATTER "HH:mm:ss.SSSZZZZZ". */
function xcontentTime(t: TimeValue): string {
  const s = isoTimeWithMillis(new TimeValue(t.nanoOfDay, 0));
  return s.slice(0, -1) + offsetId(t.offsetSeconds);
}

/** A value as SqlQueryResponse.value writes it to JSON/YAML (non-CLI modes). */
export type XValue = null | boolean | string | { readonly number: string; readonly value: number };

export function xcontentValue(v: unknown, type: DataTypeName | null = null): XValue {
  if (v === null || v === undefined) return null;
  switch (typeof v) {
    case 'string':
      return v;
    case 'boolean':
      return v;
    case 'number':
      return { number: numberText(v, type), value: v };
  }
  if (v instanceof DateTimeValue) return isoDateTimeWithMillis(v);
  if (v instanceof TimeValue) return xcontentTime(v);
  if (v instanceof IntervalYearMonth) return javaPeriodToString(v);
  if (v instanceof IntervalDayTime) return javaDurationToString(v);
  if (isGeoValue(v)) return toWkt(v.geometry);
  return String(v);
}
