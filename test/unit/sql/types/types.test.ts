import { describe, expect, it } from 'vitest';
import {
  areCompatible,
  castTargetType,
  commonType,
  displaySize,
  defaultPrecision,
  fromEsType,
  metaSqlDataType,
  resolveArithmetic,
  resolveNeg,
  sqlType,
  sysTypesRows,
} from '../../../../src/sql/types/index.js';

describe('ES mapping and type names', () => {
  it('maps mapping types', () => {
    expect(fromEsType('date')).toBe('DATETIME');
    expect(fromEsType('keyword')).toBe('KEYWORD');
    expect(fromEsType('scaled_float')).toBe('SCALED_FLOAT');
    expect(fromEsType('geo_point')).toBe('GEO_POINT');
    expect(fromEsType('date_nanos')).toBe('UNSUPPORTED');
  });
  it('accepts the CAST/CONVERT type names', () => {
    expect(castTargetType('int')).toBe('INTEGER');
    expect(castTargetType('VARCHAR')).toBe('TEXT');
    expect(castTargetType('float')).toBe('DOUBLE');
    expect(castTargetType('REAL')).toBe('FLOAT');
    expect(castTargetType('timestamp')).toBe('DATETIME');
    expect(castTargetType('string')).toBe('KEYWORD');
    expect(castTargetType('SQL_INTEGER')).toBe('INTEGER');
    expect(castTargetType('sql_timestamp')).toBe('DATETIME');
    expect(castTargetType('interval_day_to_second')).toBe('INTERVAL_DAY_TO_SECOND');
    expect(castTargetType('SQL_FOO')).toBeNull();
    expect(castTargetType('object')).toBeNull();
  });
});

describe('JDBC metadata', () => {
  it('reports JDBC types, precision and display size', () => {
    expect(sqlType('DATETIME')).toEqual({ name: 'TIMESTAMP', vendorTypeNumber: 93 });
    expect(sqlType('BYTE').name).toBe('TINYINT');
    expect(sqlType('NESTED').name).toBe('STRUCT');
    expect(sqlType('INTERVAL_DAY_TO_SECOND')).toEqual({
      name: 'INTERVAL_DAY_TO_SECOND',
      vendorTypeNumber: 110,
    });
    expect(sqlType('GEO_POINT')).toEqual({ name: 'GEOMETRY', vendorTypeNumber: 114 });
    expect(displaySize('DATETIME')).toBe(29);
    expect(displaySize('KEYWORD')).toBe(32766);
    expect(defaultPrecision('LONG')).toBe(19);
    expect(metaSqlDataType('DATETIME')).toBe(9);
  });
  it('lists SYS TYPES ordered by JDBC code then name', () => {
    const rows = sysTypesRows();
    expect(rows.length).toBe(37);
    expect(rows[0]![0]).toBe('BYTE'); // TINYINT -6
    expect(rows.map((r) => r[1])).toEqual([...rows.map((r) => r[1])].sort((a, b) => a - b));
    const dt = rows.find((r) => r[0] === 'DATETIME')!;
    expect(dt).toEqual([
      'DATETIME',
      93,
      29,
      "'",
      "'",
      null,
      2,
      false,
      3,
      true,
      false,
      false,
      null,
      3,
      3,
      9,
      3,
      null,
      null,
    ]);
    expect(sysTypesRows(4).map((r) => r[0])).toEqual(['INTEGER']);
  });
});

describe('type widening and operators', () => {
  it('widens like SqlDataTypeConverter.commonType', () => {
    expect(commonType('INTEGER', 'LONG')).toBe('LONG');
    expect(commonType('LONG', 'FLOAT')).toBe('FLOAT');
    expect(commonType('DOUBLE', 'FLOAT')).toBe('DOUBLE');
    expect(commonType('KEYWORD', 'TEXT')).toBe('TEXT');
    expect(commonType('KEYWORD', 'INTEGER')).toBe('INTEGER');
    expect(commonType('DATE', 'INTERVAL_YEAR')).toBe('DATE');
    expect(commonType('DATE', 'INTERVAL_DAY')).toBe('DATETIME');
    expect(commonType('TIME', 'INTERVAL_HOUR')).toBe('TIME');
    expect(commonType('INTERVAL_DAY', 'INTEGER')).toBe('INTERVAL_DAY');
    expect(commonType('INTERVAL_DAY', 'INTERVAL_HOUR')).toBe('INTERVAL_DAY_TO_HOUR');
    expect(commonType('INTERVAL_DAY', 'INTERVAL_YEAR')).toBeNull();
    expect(commonType('BOOLEAN', 'INTEGER')).toBeNull();
    expect(areCompatible('DATE', 'DATETIME')).toBe(true);
    expect(areCompatible('KEYWORD', 'INTEGER')).toBe(false);
  });
  it('types arithmetic with ES messages', () => {
    const op = (type: any, name: string) => ({ type, name, sourceText: name });
    expect(resolveArithmetic('/', op('INTEGER', 'a'), op('DOUBLE', 'b'), 'a / b')).toEqual({
      ok: true,
      type: 'DOUBLE',
    });
    expect(
      resolveArithmetic(
        '+',
        op('DATETIME', 'd'),
        op('INTERVAL_DAY', 'INTERVAL 1 DAY'),
        'd + INTERVAL 1 DAY',
      ),
    ).toEqual({
      ok: true,
      type: 'DATETIME',
    });
    expect(resolveArithmetic('-', op('INTERVAL_DAY', 'i'), op('DATETIME', 'd'), 'i - d')).toEqual({
      ok: false,
      message: 'Cannot subtract a datetime[d] from an interval[i]; do you mean the reverse?',
    });
    expect(
      resolveArithmetic('*', op('INTERVAL_YEAR', 'i'), op('DOUBLE', '1.5'), 'i * 1.5'),
    ).toEqual({
      ok: false,
      message: '[*] has arguments with incompatible types [INTERVAL_YEAR] and [DOUBLE]',
    });
    expect(resolveArithmetic('%', op('KEYWORD', 'a'), op('INTEGER', '2'), 'a % 2')).toEqual({
      ok: false,
      message: 'first argument of [a % 2] must be [numeric], found value [a] type [keyword]',
    });
    expect(resolveNeg(op('KEYWORD', 'a'), '-a')).toEqual({
      ok: false,
      message: 'argument of [-a] must be [numeric], found value [a] type [keyword]',
    });
  });
});
