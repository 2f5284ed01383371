/**
 * Aggregate and statistics functions (ES SqlFunctionRegistry "Aggregate" and "Statistics" groups)
 * with their ES aggregation lowering, and HISTOGRAM (the one GROUPING function).
 */
import { isDateBased, isString } from '../../../functions/data-types.js';
import { def } from '../build.js';
import type { AggregateInfo, FunctionDefinition } from '../definition.js';
import {
  checkExact,
  checkFoldable,
  checkNotFoldable,
  checkNumeric,
  checkNumericOrDate,
  checkNumericOrDateOrTime,
  firstFailure,
  isType,
  type ArgInfo,
} from '../type-resolutions.js';
import { isInterval } from '../../../functions/data-types.js';

const numeric = (names: [string, ...string[]], aggregate: AggregateInfo): FunctionDefinition =>
  def({
    names,
    type: 'AGGREGATE',
    arity: 'one',
    resolve: (a, src) => checkNumeric(a[0]!, src, 'DEFAULT'),
    dataType: 'DOUBLE',
    aggregate,
  });

/** TopHits (FIRST/LAST): a field (not a constant), optionally a sort field. */
const topHits = (names: [string, ...string[]]): FunctionDefinition =>
  def({
    names,
    type: 'AGGREGATE',
    arity: 'oneOrTwo',
    resolve: (a, src) =>
      firstFailure(
        () => checkNotFoldable(a[0]!, src, 'FIRST'),
        () => checkExact(a[0]!, src, 'FIRST'),
        () => (a[1] ? checkNotFoldable(a[1], src, 'SECOND') : null),
        () => (a[1] ? checkExact(a[1], src, 'SECOND') : null),
      ),
    dataType: (a) => a[0]!.type,
    aggregate: { esAgg: 'top_hits' },
  });

/** MIN/MAX: exact strings, or numbers/dates/times. */
const minMax = (name: 'MIN' | 'MAX'): FunctionDefinition =>
  def({
    names: [name],
    type: 'AGGREGATE',
    arity: 'one',
    resolve: (a, src) =>
      isString(a[0]!.type)
        ? checkExact(a[0]!, src, 'DEFAULT')
        : checkNumericOrDateOrTime(a[0]!, src, 'DEFAULT'),
    dataType: (a) => a[0]!.type,
    aggregate: {
      esAgg: name === 'MIN' ? 'min' : 'max',
      enclosedIn: 'stats',
      innerName: name.toLowerCase(),
    },
  });

/** Percentile / PercentileRank: the second argument must be a numeric constant. */
const percent = (name: 'PERCENTILE' | 'PERCENTILE_RANK'): FunctionDefinition =>
  def({
    names: [name],
    type: 'AGGREGATE',
    arity: 'two',
    resolve: (a, src) =>
      firstFailure(
        () => checkFoldable(a[1]!, src, 'SECOND'),
        // Percentile checks the field as numeric, PercentileRank only for exactness
        () =>
          name === 'PERCENTILE'
            ? checkNumeric(a[0]!, src, 'DEFAULT')
            : checkExact(a[0]!, src, 'DEFAULT'),
        () => checkNumeric(a[1]!, src, 'DEFAULT'),
      ),
    dataType: 'DOUBLE',
    aggregate: { esAgg: name === 'PERCENTILE' ? 'percentiles' : 'percentile_ranks' },
  });

/** ES Percentile/PercentileRank.innerName: the constant as Double.toString. */
export { javaDoubleToString as percentInnerName } from '../../../functions/java-text.js';

export const AGGREGATE_FUNCTIONS: readonly FunctionDefinition[] = [
  def({
    names: ['AVG'],
    type: 'AGGREGATE',
    arity: 'one',
    resolve: (a, src) => checkNumeric(a[0]!, src, 'DEFAULT'),
    dataType: 'DOUBLE',
    aggregate: { esAgg: 'avg', enclosedIn: 'stats', innerName: 'avg' },
  }),
  def({
    names: ['COUNT'],
    type: 'AGGREGATE',
    arity: 'oneDistinct',
    distinct: true,
    resolve: (a, src) => checkExact(a[0]!, src, 'DEFAULT'),
    dataType: 'LONG',
    // COUNT(*) reads hits.total/_count, COUNT(x) value_count, COUNT(DISTINCT x) cardinality
    aggregate: { esAgg: 'value_count' },
  }),
  topHits(['FIRST', 'FIRST_VALUE']),
  topHits(['LAST', 'LAST_VALUE']),
  minMax('MAX'),
  minMax('MIN'),
  def({
    names: ['SUM'],
    type: 'AGGREGATE',
    arity: 'one',
    resolve: (a, src) => checkNumeric(a[0]!, src, 'DEFAULT'),
    dataType: (a) => a[0]!.type,
    aggregate: { esAgg: 'sum', enclosedIn: 'stats', innerName: 'sum' },
  }),
];

export const STATISTICS_FUNCTIONS: readonly FunctionDefinition[] = [
  numeric(['KURTOSIS'], {
    esAgg: 'matrix_stats',
    enclosedIn: 'matrix_stats',
    innerName: 'kurtosis',
  }),
  numeric(['MAD'], { esAgg: 'median_absolute_deviation' }),
  percent('PERCENTILE'),
  percent('PERCENTILE_RANK'),
  numeric(['SKEWNESS'], {
    esAgg: 'matrix_stats',
    enclosedIn: 'matrix_stats',
    innerName: 'skewness',
  }),
  numeric(['STDDEV_POP'], {
    esAgg: 'extended_stats',
    enclosedIn: 'extended_stats',
    innerName: 'std_deviation',
  }),
  numeric(['STDDEV_SAMP'], {
    esAgg: 'extended_stats',
    enclosedIn: 'extended_stats',
    innerName: 'std_deviation_sampling',
  }),
  numeric(['SUM_OF_SQUARES'], {
    esAgg: 'extended_stats',
    enclosedIn: 'extended_stats',
    innerName: 'sum_of_squares',
  }),
  numeric(['VAR_POP'], {
    esAgg: 'extended_stats',
    enclosedIn: 'extended_stats',
    innerName: 'variance',
  }),
  numeric(['VAR_SAMP'], {
    esAgg: 'extended_stats',
    enclosedIn: 'extended_stats',
    innerName: 'variance_sampling',
  }),
];

/** Histogram.resolveType: numeric or date field; interval numeric, or an INTERVAL for dates. */
function resolveHistogram(a: readonly ArgInfo[]): string | null {
  const r = checkNumericOrDate(a[0]!, 'HISTOGRAM', 'FIRST');
  if (r) return r;
  if (isDateBased(a[0]!.type))
    return isType(a[1]!, isInterval, '(Date) HISTOGRAM', 'SECOND', 'interval');
  return checkNumeric(a[1]!, '(Numeric) HISTOGRAM', 'SECOND');
}

export const HISTOGRAM_FUNCTIONS: readonly FunctionDefinition[] = [
  def({
    names: ['HISTOGRAM'],
    type: 'GROUPING',
    arity: 'two',
    configurationAware: true,
    resolve: resolveHistogram,
    dataType: (a) => a[0]!.type,
  }),
];
