/**
 * Date/time functions (ES SqlFunctionRegistry "Date" group). Extractors accept DATE/DATETIME (TIME
 * too for HOUR/MINUTE/SECOND), run in the session zone and are EXTRACT-viable; DATE_ADD/DIFF/PART/
 * TRUNC validate constant unit names with ES's "did you mean" messages; CURRENT_* read the request
 * clock and accept a fractional-seconds precision 0-9.
 */
import { isInterval, type DataTypeName } from '../../../functions/data-types.js';
import { convert } from '../../../functions/convert.js';
import { DATE_ADD_PARTS } from '../../../functions/datetime/date-add-diff.js';
import { dateAdd, dateDiff } from '../../../functions/datetime/date-add-diff.js';
import type { DateTimeFieldSet } from '../../../functions/datetime/date-time-field.js';
import {
  DATE_PART_PARTS,
  DATE_TRUNC_PARTS,
  datePart,
  dateTrunc,
} from '../../../functions/datetime/date-part-trunc.js';
import * as ex from '../../../functions/datetime/extract.js';
import {
  currentDate,
  currentTime,
  currentTimestamp,
  dateParse,
  dateTimeFormat,
  dateTimeParse,
  format,
  timeParse,
} from '../../../functions/datetime/format-parse.js';
import type { Zone } from '../../../functions/datetime/zones.js';
import { EsError } from '../../../common/errors.js';
import { def } from '../build.js';
import type { FunctionDefinition, ScriptInfo } from '../definition.js';
import {
  checkDate,
  checkDateOrInterval,
  checkDateOrTime,
  checkInteger,
  checkString,
  firstFailure,
  type ArgInfo,
  type Resolution,
} from '../type-resolutions.js';

type Extract = (v: unknown, zone: Zone | string) => unknown;

const extractor = (
  names: [string, ...string[]],
  f: Extract,
  script: ScriptInfo,
  opts: { time?: boolean; type?: DataTypeName } = {},
) =>
  def({
    names,
    arity: 'one',
    extractViable: true,
    configurationAware: true,
    resolve: (a, src) => (opts.time ? checkDateOrTime : checkDate)(a[0]!, src, 'DEFAULT'),
    dataType: opts.type ?? 'INTEGER',
    script,
    evaluate: ([v], ctx) => f(v, ctx.zone),
  });

/** DateTimeFunction.asScript: dateTimeChrono(value, zone, ChronoField name). */
const chrono = (field: string): ScriptInfo => ({
  prefix: 'sql',
  method: 'dateTimeChrono',
  zone: true,
  chrono: field,
});

/** NamedDateTimeFunction / NonIsoDateTimeFunction / Quarter / binary date functions: method(args, zone). */
const zoned = (method: string): ScriptInfo => ({ prefix: 'sql', method, zone: true });

/** BinaryDateTimeDatePartFunction / ThreeArgsDateTimeFunction: the constant unit must be known. */
function checkUnit(set: DateTimeFieldSet<string>, a: ArgInfo, src: string): Resolution {
  const s = checkString(a, src, 'FIRST');
  if (s) return s;
  if (a.foldable && typeof a.value === 'string' && set.resolve(a.value) === null) {
    const similar = set.findSimilar(a.value);
    if (similar.length === 0) {
      return `first argument of [${src}] must be one of ${set.validValuesText} or their aliases; found value [${a.name}]`;
    }
    return `Unknown value [${a.name}] for first argument of [${src}]; did you mean [${similar.join(', ')}]?`;
  }
  return null;
}

/**
 * ES DateUtils.getNanoPrecision at build time: the precision argument of CURRENT_TIME/TIMESTAMP
 * must fold to an integer 0-9. Returns a parsing_exception message (not a verification one).
 */
export function checkPrecision(arg: ArgInfo | undefined): string | null {
  if (!arg) return null;
  let p: number;
  try {
    p = convert(arg.value, 'INTEGER') as number;
  } catch (e) {
    return 'invalid precision; ' + (e instanceof EsError ? e.reason : String(e));
  }
  if (p === null || p < 0 || p > 9)
    return `precision needs to be between [0-9], received [${arg.sourceText ?? arg.name}]`;
  return null;
}

const precisionOf = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);

export const DATETIME_FUNCTIONS: readonly FunctionDefinition[] = [
  def({
    names: ['CURRENT_DATE', 'CURDATE', 'TODAY'],
    arity: 'none',
    configurationAware: true,
    dataType: 'DATE',
    foldable: () => true,
    evaluate: (_a, ctx) => currentDate(ctx.now, ctx.zone),
  }),
  def({
    names: ['CURRENT_TIME', 'CURTIME'],
    arity: 'zeroOrOne',
    configurationAware: true,
    dataType: 'TIME',
    foldable: () => true,
    evaluate: ([p], ctx) => currentTime(ctx.now, ctx.zone, precisionOf(p)),
  }),
  def({
    names: ['CURRENT_TIMESTAMP', 'NOW'],
    arity: 'zeroOrOne',
    configurationAware: true,
    dataType: 'DATETIME',
    foldable: () => true,
    evaluate: ([p], ctx) => currentTimestamp(ctx.now, ctx.zone, precisionOf(p)),
  }),
  extractor(['DAY_NAME', 'DAYNAME'], ex.dayName, zoned('dayName'), { type: 'KEYWORD' }),
  extractor(['DAY_OF_MONTH', 'DAYOFMONTH', 'DAY', 'DOM'], ex.dayOfMonth, chrono('DAY_OF_MONTH')),
  extractor(['DAY_OF_WEEK', 'DAYOFWEEK', 'DOW'], ex.dayOfWeek, zoned('dayOfWeek')),
  extractor(['DAY_OF_YEAR', 'DAYOFYEAR', 'DOY'], ex.dayOfYear, chrono('DAY_OF_YEAR')),
  def({
    names: ['DATEADD', 'DATE_ADD', 'TIMESTAMPADD', 'TIMESTAMP_ADD'],
    arity: 'threeZoned',
    configurationAware: true,
    resolve: (a, src) =>
      firstFailure(
        () => checkUnit(DATE_ADD_PARTS, a[0]!, src),
        () => checkInteger(a[1]!, src, 'SECOND'),
        () => checkDate(a[2]!, src, 'THIRD'),
      ),
    dataType: 'DATETIME',
    script: zoned('dateAdd'),
    evaluate: ([u, n, t], ctx) => dateAdd(u, n, t, ctx.zone),
  }),
  def({
    names: ['DATEDIFF', 'DATE_DIFF', 'TIMESTAMPDIFF', 'TIMESTAMP_DIFF'],
    arity: 'threeZoned',
    configurationAware: true,
    resolve: (a, src) =>
      firstFailure(
        () => checkUnit(DATE_ADD_PARTS, a[0]!, src),
        () => checkDate(a[1]!, src, 'SECOND'),
        () => checkDate(a[2]!, src, 'THIRD'),
      ),
    dataType: 'INTEGER',
    script: zoned('dateDiff'),
    evaluate: ([u, s, e], ctx) => dateDiff(u, s, e, ctx.zone),
  }),
  def({
    names: ['DATE_PARSE'],
    arity: 'two',
    configurationAware: true,
    resolve: (a, src) =>
      firstFailure(
        () => checkString(a[0]!, src, 'FIRST'),
        () => checkString(a[1]!, src, 'SECOND'),
      ),
    dataType: 'DATE',
    script: zoned('dateParse'),
    evaluate: ([t, p], ctx) => dateParse(t, p, ctx.zone),
  }),
  def({
    names: ['DATEPART', 'DATE_PART'],
    arity: 'two',
    configurationAware: true,
    resolve: (a, src) =>
      firstFailure(
        () => checkUnit(DATE_PART_PARTS, a[0]!, src),
        () => checkDate(a[1]!, src, 'SECOND'),
      ),
    dataType: 'INTEGER',
    script: zoned('datePart'),
    evaluate: ([p, t], ctx) => datePart(p, t, ctx.zone),
  }),
  def({
    names: ['DATETIME_FORMAT'],
    arity: 'two',
    configurationAware: true,
    resolve: (a, src) =>
      firstFailure(
        () => checkDateOrTime(a[0]!, src, 'FIRST'),
        () => checkString(a[1]!, src, 'SECOND'),
      ),
    dataType: 'KEYWORD',
    script: zoned('dateTimeFormat'),
    evaluate: ([t, p], ctx) => dateTimeFormat(t, p, ctx.zone),
  }),
  def({
    names: ['DATETIME_PARSE'],
    arity: 'two',
    configurationAware: true,
    resolve: (a, src) =>
      firstFailure(
        () => checkString(a[0]!, src, 'FIRST'),
        () => checkString(a[1]!, src, 'SECOND'),
      ),
    dataType: 'DATETIME',
    script: zoned('dateTimeParse'),
    evaluate: ([t, p], ctx) => dateTimeParse(t, p, ctx.zone),
  }),
  def({
    names: ['DATETRUNC', 'DATE_TRUNC'],
    arity: 'two',
    configurationAware: true,
    resolve: (a, src) =>
      firstFailure(
        () => checkUnit(DATE_TRUNC_PARTS, a[0]!, src),
        () => checkDateOrInterval(a[1]!, src, 'SECOND'),
      ),
    dataType: (a) => (isInterval(a[1]!.type) ? a[1]!.type : 'DATETIME'),
    script: zoned('dateTrunc'),
    evaluate: ([p, t], ctx) => dateTrunc(p, t, ctx.zone),
  }),
  def({
    names: ['FORMAT'],
    arity: 'two',
    configurationAware: true,
    resolve: (a, src) =>
      firstFailure(
        () => checkDateOrTime(a[0]!, src, 'FIRST'),
        () => checkString(a[1]!, src, 'SECOND'),
      ),
    dataType: 'KEYWORD',
    script: zoned('format'),
    evaluate: ([t, p], ctx) => format(t, p, ctx.zone),
  }),
  extractor(['HOUR_OF_DAY', 'HOUR'], ex.hourOfDay, chrono('HOUR_OF_DAY'), { time: true }),
  extractor(
    ['ISO_DAY_OF_WEEK', 'ISODAYOFWEEK', 'ISODOW', 'IDOW'],
    ex.isoDayOfWeek,
    chrono('DAY_OF_WEEK'),
  ),
  // ES scripts this as ALIGNED_WEEK_OF_YEAR, which differs from the in-memory ISO week
  extractor(
    ['ISO_WEEK_OF_YEAR', 'ISOWEEKOFYEAR', 'ISOWEEK', 'IWOY', 'IW'],
    ex.isoWeekOfYear,
    chrono('ALIGNED_WEEK_OF_YEAR'),
  ),
  extractor(['MINUTE_OF_DAY'], ex.minuteOfDay, chrono('MINUTE_OF_DAY'), { time: true }),
  extractor(['MINUTE_OF_HOUR', 'MINUTE'], ex.minuteOfHour, chrono('MINUTE_OF_HOUR'), {
    time: true,
  }),
  extractor(['MONTH_NAME', 'MONTHNAME'], ex.monthName, zoned('monthName'), { type: 'KEYWORD' }),
  extractor(['MONTH_OF_YEAR', 'MONTH'], ex.monthOfYear, chrono('MONTH_OF_YEAR')),
  extractor(['SECOND_OF_MINUTE', 'SECOND'], ex.secondOfMinute, chrono('SECOND_OF_MINUTE'), {
    time: true,
  }),
  def({
    names: ['TIME_PARSE'],
    arity: 'two',
    configurationAware: true,
    resolve: (a, src) =>
      firstFailure(
        () => checkString(a[0]!, src, 'FIRST'),
        () => checkString(a[1]!, src, 'SECOND'),
      ),
    dataType: 'TIME',
    script: zoned('timeParse'),
    evaluate: ([t, p], ctx) => timeParse(t, p, ctx.zone),
  }),
  extractor(['QUARTER'], ex.quarter, zoned('quarter')),
  extractor(['YEAR'], ex.year, chrono('YEAR')),
  extractor(['WEEK_OF_YEAR', 'WEEK'], ex.weekOfYear, zoned('weekOfYear')),
];
