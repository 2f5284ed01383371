import { describe, expect, it } from 'vitest';
import { lookupFunction } from '../../../../src/sql/functions/registry.js';
import {
  resolveCase,
  caseDataType,
  resolveCast,
  checkPrecision,
} from '../../../../src/sql/functions/index.js';
import type { ArgInfo } from '../../../../src/sql/functions/type-resolutions.js';
import type { DataTypeName } from '../../../../src/functions/data-types.js';
import { DateTimeValue } from '../../../../src/functions/values.js';

const field = (name: string, type: DataTypeName, extra: Partial<ArgInfo> = {}): ArgInfo => ({
  name,
  type,
  foldable: false,
  ...extra,
});
const lit = (text: string, type: DataTypeName, value: unknown): ArgInfo => ({
  name: text,
  sourceText: text,
  type,
  foldable: true,
  value,
});

const resolve = (fn: string, args: ArgInfo[], src: string) =>
  lookupFunction(fn)!.resolveType(args, src);
const type = (fn: string, args: ArgInfo[]) => lookupFunction(fn)!.dataType(args);

describe('argument checks (ES TypeResolutions wording)', () => {
  it('single-argument functions omit the ordinal', () => {
    expect(resolve('ABS', [field('first_name', 'KEYWORD')], 'ABS(first_name)')).toBe(
      'argument of [ABS(first_name)] must be [numeric], found value [first_name] type [keyword]',
    );
    expect(resolve('ABS', [field('salary', 'INTEGER')], 'ABS(salary)')).toBeNull();
    expect(resolve('ABS', [lit('null', 'NULL', null)], 'ABS(null)')).toBeNull();
    expect(resolve('YEAR', [field('emp_no', 'INTEGER')], 'YEAR(emp_no)')).toBe(
      'argument of [YEAR(emp_no)] must be [date or datetime], found value [emp_no] type [integer]',
    );
    expect(resolve('HOUR_OF_DAY', [field('x', 'KEYWORD')], 'HOUR(x)')).toBe(
      'argument of [HOUR(x)] must be [date, time or datetime], found value [x] type [keyword]',
    );
    expect(resolve('CHAR', [lit('1.5', 'DOUBLE', 1.5)], 'CHAR(1.5)')).toBe(
      'argument of [CHAR(1.5)] must be [integer], found value [1.5] type [double]',
    );
  });
  it('multi-argument functions name the argument', () => {
    expect(
      resolve('LEFT', [field('salary', 'INTEGER'), lit('1', 'INTEGER', 1)], 'LEFT(salary, 1)'),
    ).toBe(
      'first argument of [LEFT(salary, 1)] must be [string], found value [salary] type [integer]',
    );
    expect(
      resolve(
        'LOCATE',
        [lit("'a'", 'KEYWORD', 'a'), field('gender', 'KEYWORD'), lit("'x'", 'KEYWORD', 'x')],
        "LOCATE('a', gender, 'x')",
      ),
    ).toBe(
      "third argument of [LOCATE('a', gender, 'x')] must be [numeric], found value ['x'] type [keyword]",
    );
    expect(
      resolve(
        'SUBSTRING',
        [field('name', 'KEYWORD'), lit('1.0', 'DOUBLE', 1), lit('2', 'INTEGER', 2)],
        'SUBSTRING(name, 1.0, 2)',
      ),
    ).toBe(
      'second argument of [SUBSTRING(name, 1.0, 2)] must be [integer], found value [1.0] type [double]',
    );
  });
  it('requires exact text fields', () => {
    const text = field('first_name', 'TEXT', {
      exact: {
        hasExact: false,
        errorMsg:
          'No keyword/multi-field defined exact matches for [first_name]; define one or avoid using it',
      },
    });
    expect(resolve('LCASE', [text], 'LCASE(first_name)')).toBe(
      '[LCASE(first_name)] cannot operate on field of data type [text]: No keyword/multi-field defined exact matches for [first_name]; define one or avoid using it',
    );
    expect(resolve('CONCAT', [field('a', 'KEYWORD'), text], 'CONCAT(a, first_name)')).toBe(
      '[CONCAT(a, first_name)] cannot operate on second argument field of data type [text]: No keyword/multi-field defined exact matches for [first_name]; define one or avoid using it',
    );
  });
  it('validates constant date parts', () => {
    const dt = field('birth_date', 'DATETIME');
    expect(
      resolve(
        'DATE_PART',
        [lit("'dayss'", 'KEYWORD', 'dayss'), dt],
        "DATE_PART('dayss', birth_date)",
      ),
    ).toBe(
      "Unknown value ['dayss'] for first argument of [DATE_PART('dayss', birth_date)]; did you mean [days, day]?",
    );
    expect(
      resolve('DATE_TRUNC', [lit("'xyz'", 'KEYWORD', 'xyz'), dt], "DATE_TRUNC('xyz', birth_date)"),
    ).toBe(
      "first argument of [DATE_TRUNC('xyz', birth_date)] must be one of [MILLENNIUM, CENTURY, DECADE, YEAR, QUARTER, MONTH, WEEK, DAY, HOUR, MINUTE, SECOND, MILLISECOND, MICROSECOND, NANOSECOND] or their aliases; found value ['xyz']",
    );
    expect(
      resolve(
        'DATE_ADD',
        [lit("'day'", 'KEYWORD', 'day'), lit('1.5', 'DOUBLE', 1.5), dt],
        "DATE_ADD('day', 1.5, birth_date)",
      ),
    ).toBe(
      "second argument of [DATE_ADD('day', 1.5, birth_date)] must be [integer], found value [1.5] type [double]",
    );
    expect(
      resolve('DATE_DIFF', [lit("'day'", 'KEYWORD', 'day'), dt, dt], "DATE_DIFF('day', a, b)"),
    ).toBeNull();
  });
  it('checks conditionals against the first non-null type', () => {
    expect(
      resolve(
        'COALESCE',
        [lit('null', 'NULL', null), lit('1', 'INTEGER', 1), lit("'a'", 'KEYWORD', 'a')],
        "COALESCE(null, 1, 'a')",
      ),
    ).toBe(
      "3rd argument of [COALESCE(null, 1, 'a')] must be [integer], found value ['a'] type [keyword]",
    );
    expect(
      type('COALESCE', [
        lit('null', 'NULL', null),
        lit('1', 'INTEGER', 1),
        lit('1.5', 'DOUBLE', 1.5),
      ]),
    ).toBe('DOUBLE');
    expect(
      resolve('IIF', [lit('1', 'INTEGER', 1), lit("'a'", 'KEYWORD', 'a')], "IIF(1, 'a')"),
    ).toBe("first argument of [IIF(1, 'a')] must be [boolean], found value [1] type [integer]");
    expect(
      resolve(
        'IIF',
        [lit('true', 'BOOLEAN', true), lit("'a'", 'KEYWORD', 'a'), lit('1', 'INTEGER', 1)],
        "IIF(true, 'a', 1)",
      ),
    ).toBe(
      "third argument of [IIF(true, 'a', 1)] must be [keyword], found value [1] type [integer]",
    );
    expect(
      resolveCase(
        [
          {
            condition: lit('1', 'INTEGER', 1),
            result: lit("'a'", 'KEYWORD', 'a'),
            sourceText: "WHEN 1 THEN 'a'",
          },
        ],
        lit("'b'", 'KEYWORD', 'b'),
      ),
    ).toBe("condition of [WHEN 1 THEN 'a'] must be [boolean], found value [1] type [integer]");
    expect(caseDataType(['NULL', 'INTEGER'], 'LONG')).toBe('LONG');
  });
  it('checks aggregates and histograms', () => {
    expect(
      resolve(
        'PERCENTILE',
        [field('salary', 'INTEGER'), field('x', 'INTEGER')],
        'PERCENTILE(salary, x)',
      ),
    ).toBe('second argument of [PERCENTILE(salary, x)] must be a constant, received [x]');
    expect(resolve('FIRST', [lit('1', 'INTEGER', 1)], 'FIRST(1)')).toBe(
      'first argument of [FIRST(1)] must be a table column, found constant [1]',
    );
    expect(resolve('MAX', [field('b', 'BOOLEAN')], 'MAX(b)')).toBe(
      'argument of [MAX(b)] must be [date, time, datetime or numeric], found value [b] type [boolean]',
    );
    expect(
      resolve(
        'HISTOGRAM',
        [field('birth_date', 'DATETIME'), lit('1', 'INTEGER', 1)],
        'HISTOGRAM(birth_date, 1)',
      ),
    ).toBe(
      'second argument of [(Date) HISTOGRAM] must be [interval], found value [1] type [integer]',
    );
    expect(type('SUM', [field('salary', 'INTEGER')])).toBe('INTEGER');
    expect(type('COUNT', [field('salary', 'INTEGER')])).toBe('LONG');
    expect(lookupFunction('STDDEV_SAMP')!.aggregate).toEqual({
      esAgg: 'extended_stats',
      enclosedIn: 'extended_stats',
      innerName: 'std_deviation_sampling',
    });
  });
  it('geo functions report the ES operation name', () => {
    expect(resolve('ST_X', [field('city', 'KEYWORD')], 'ST_X(city)')).toBe(
      'argument of [X] must be [geo_point or geo_shape], found value [city] type [keyword]',
    );
  });
  it('casts and precisions', () => {
    expect(resolveCast('BOOLEAN', 'IP')).toBe('Cannot cast [BOOLEAN] to [IP]');
    expect(resolveCast('KEYWORD', 'INTEGER')).toBeNull();
    expect(checkPrecision(lit('10', 'INTEGER', 10))).toBe(
      'precision needs to be between [0-9], received [10]',
    );
    expect(checkPrecision(lit("'a'", 'KEYWORD', 'a'))).toBe(
      'invalid precision; cannot cast [a] to [integer]',
    );
  });
});

describe('result types and evaluation', () => {
  const ctx = {
    zone: 'Z',
    now: { millis: Date.UTC(2018, 11, 12, 14, 48, 52, 448) },
    clusterName: 'elasticsearch',
    username: 'elastic',
  };
  it('types results like ES', () => {
    expect(type('CEIL', [field('x', 'DOUBLE')])).toBe('LONG');
    expect(type('CEIL', [field('x', 'SHORT')])).toBe('SHORT');
    expect(type('ROUND', [field('x', 'INTEGER')])).toBe('INTEGER');
    expect(type('SIGN', [field('x', 'DOUBLE')])).toBe('INTEGER');
    expect(type('MOD', [field('x', 'INTEGER'), field('y', 'LONG')])).toBe('LONG');
    expect(type('DATE_TRUNC', [lit("'d'", 'KEYWORD', 'd'), field('i', 'INTERVAL_DAY')])).toBe(
      'INTERVAL_DAY',
    );
    expect(type('DATE_PARSE', [])).toBe('DATE');
    expect(type('NULLIF', [field('a', 'INTEGER'), field('b', 'LONG')])).toBe('LONG');
  });
  it('folds what ES folds', () => {
    expect(lookupFunction('ABS')!.foldable([lit('1', 'INTEGER', 1)])).toBe(true);
    expect(lookupFunction('ABS')!.foldable([field('x', 'INTEGER')])).toBe(false);
    expect(
      lookupFunction('COALESCE')!.foldable([lit('1', 'INTEGER', 1), field('x', 'INTEGER')]),
    ).toBe(true);
    expect(
      lookupFunction('COALESCE')!.foldable([lit('null', 'NULL', null), lit('1', 'INTEGER', 1)]),
    ).toBe(false);
    expect(lookupFunction('AVG')!.foldable([lit('1', 'INTEGER', 1)])).toBe(false);
    expect(lookupFunction('NOW')!.foldable([])).toBe(true);
  });
  it('evaluates scalars', () => {
    const ev = (fn: string, args: unknown[], extra = {}) =>
      lookupFunction(fn)!.evaluate!(args, { ...ctx, ...extra });
    expect(ev('DATABASE', [])).toBe('elasticsearch');
    expect(ev('USER', [])).toBe('elastic');
    expect(ev('ROUND', [-345.153, 1])).toBe(-345.2);
    expect(ev('CEIL', [125.01], { resultType: 'LONG' })).toBe(126);
    expect(ev('DAY_NAME', [new DateTimeValue(Date.UTC(2018, 1, 19))])).toBe('Monday');
    expect(ev('CONCAT', ['a', null])).toBe('a');
    expect(ev('CAST', [1.5], { resultType: 'INTEGER', argTypes: ['DOUBLE'] })).toBe(2);
    expect(ev('CAST', [1], { resultType: 'KEYWORD', argTypes: ['DOUBLE'] })).toBe('1.0');
    expect(ev('CURRENT_TIMESTAMP', [1])).toEqual(
      new DateTimeValue(Date.UTC(2018, 11, 12, 14, 48, 52, 400)),
    );
    expect(
      ev('COALESCE', [
        () => null,
        () => 2,
        () => {
          throw new Error('not evaluated');
        },
      ]),
    ).toBe(2);
    expect(ev('IIF', [() => false, () => 1])).toBeNull();
    expect(ev('CASE', [() => false, () => 'a', () => true, () => 'b', () => 'c'])).toBe('b');
  });
});
