import { describe, expect, it } from 'vitest';
import { SCRIPT_METHODS as S } from '../../../src/functions/script-methods.js';
import { isoDateTimeWithMillis } from '../../../src/functions/datetime/iso.js';
import { javaToString } from '../../../src/functions/java-text.js';
import { DateTimeValue, IntervalDayTime } from '../../../src/functions/values.js';

describe('SCRIPT_METHODS (InternalSqlScriptUtils / InternalQlScriptUtils)', () => {
  const doc = {
    salary: [50000],
    hire_date: [new DateTimeValue(Date.UTC(1985, 1, 26, 10))],
    empty: [],
  };

  it('reads doc values null-safely', () => {
    expect(S.docValue!(doc, 'salary')).toBe(50000);
    expect(S.docValue!(doc, 'empty')).toBeNull();
    expect(S.docValue!(doc, 'missing')).toBeNull();
    expect(S.docValue!(new Map([['x', [1, 2]]]), 'x')).toBe(1);
  });

  it('evaluates a HAVING/WHERE style script', () => {
    // InternalSqlScriptUtils.nullSafeFilter(InternalQlScriptUtils.gt(InternalSqlScriptUtils.div(docValue, v1), v2))
    const v = S.nullSafeFilter!(S.gt!(S.div!(S.docValue!(doc, 'salary'), 2), 20000));
    expect(v).toBe(true);
    expect(S.nullSafeFilter!(S.gt!(S.docValue!(doc, 'missing'), 1))).toBe(false);
    expect(S.nullSafeSortNumeric!(null)).toBe(0);
    expect(S.nullSafeSortString!(null)).toBe('');
    expect(S.in!(2, [1, 2])).toBe(true);
  });

  it('runs date functions on doc values, numbers and ISO strings', () => {
    const hd = S.docValue!(doc, 'hire_date');
    expect(S.dateTimeChrono!(hd, 'Z', 'YEAR')).toBe(1985);
    expect(S.dateTimeChrono!(Date.UTC(1985, 1, 26), 'Z', 'MONTH_OF_YEAR')).toBe(2);
    expect(S.dayName!(hd, 'Z')).toBe('Tuesday');
    expect(S.monthName!('1985-02-26T10:00:00Z', 'Z')).toBe('February');
    expect(S.quarter!(hd, 'Z')).toBe(1);
    expect(isoDateTimeWithMillis(S.dateAdd!('day', 3, hd, 'Z') as DateTimeValue)).toBe(
      '1985-03-01T10:00:00.000Z',
    );
    expect(S.dateDiff!('month', hd, '1986-02-26T10:00:00Z', 'Z')).toBe(12);
    expect(S.datePart!('dw', hd, 'Z')).toBe(3);
    expect(isoDateTimeWithMillis(S.dateTrunc!('month', hd, 'Z') as DateTimeValue)).toBe(
      '1985-02-01T00:00:00.000Z',
    );
    expect(S.dateTimeFormat!(hd, 'uuuu/MM', 'Z')).toBe('1985/02');
  });

  it('builds interval and time literals from their ISO text', () => {
    const i = S.intervalDayTime!('PT26H', 'INTERVAL_HOUR') as IntervalDayTime;
    expect(javaToString(i)).toBe('+1 02:00:00');
    expect(i.type).toBe('INTERVAL_HOUR');
    expect(javaToString(S.intervalYearMonth!('P1Y2M', 'INTERVAL_YEAR_TO_MONTH'))).toBe('+1-2');
    expect(javaToString(S.asTime!('10:20:30.123+01:00'))).toBe('10:20:30.123+01:00');
    expect(isoDateTimeWithMillis(S.add!(S.docValue!(doc, 'hire_date'), i) as DateTimeValue)).toBe(
      '1985-02-27T12:00:00.000Z',
    );
  });

  it('casts with SQL type names', () => {
    expect(S.cast!('123', 'INTEGER')).toBe(123);
    expect(S.cast!(12.5, 'LONG')).toBe(13);
    expect(S.cast!(S.docValue!(doc, 'hire_date'), 'DATE')).toBeInstanceOf(DateTimeValue);
    expect(S.cast!(1, 'BOOLEAN')).toBe(true);
  });

  it('covers strings, math and conditionals', () => {
    expect(S.substring!('Elasticsearch', 1, 7)).toBe('Elastic');
    expect(S.locate!('a', 'Elasticsearch')).toBe(3);
    expect(S.locate!('a', 'Elasticsearch', 5)).toBe(10);
    expect(S.startsWith!('Elastic', 'el', false)).toBe(true);
    expect(S.round!(2.5, null)).toBe(3);
    expect(S.coalesce!([null, 2])).toBe(2);
    expect(S.greatest!([1, 3, 2])).toBe(3);
    expect(S.regex!('abc', 'a.c')).toBe(true);
    expect(S.stAswkt!(S.stWktToSql!('POINT (1 2)'))).toBe('POINT (1.0 2.0)');
  });
});

describe('asTime', () => {
  it('parses OffsetTime.toString forms', () => {
    expect(javaToString(S.asTime!('10:20Z'))).toBe('10:20Z');
    expect(javaToString(S.asTime!('10:20:30.5-05:30'))).toBe('10:20:30.500-05:30');
  });
});
