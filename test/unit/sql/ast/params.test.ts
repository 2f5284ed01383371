/**
 * REST parameters become typed literals the way ES's visitParamLiteral converts them
 * (DataTypeConverter), with its error messages.
 */
import { describe, expect, it } from 'vitest';
import { paramLiteral } from '../../../../src/sql/ast/params.js';
import type { SqlParam } from '../../../../src/sql/ast/params.js';
import { EsError } from '../../../../src/common/errors.js';

const loc = { line: 1, column: 8 };
const convert = (type: string, value: unknown) => paramLiteral({ type, value }, loc);

function failure(param: SqlParam): EsError {
  try {
    paramLiteral(param, loc);
  } catch (e) {
    if (e instanceof EsError) return e;
    throw e;
  }
  throw new Error('converted');
}

describe('parameter literals', () => {
  it('keep values that already have the declared type (longs as bigint)', () => {
    expect(convert('integer', 5)).toEqual({ dataType: 'integer', value: 5 });
    expect(convert('LONG', 5_000_000_000)).toEqual({ dataType: 'long', value: 5_000_000_000n });
    expect(convert('keyword', 'x')).toEqual({ dataType: 'keyword', value: 'x' });
    expect(convert('boolean', false)).toEqual({ dataType: 'boolean', value: false });
    expect(convert('double', 1.5)).toEqual({ dataType: 'double', value: 1.5 });
  });

  it('keep a null value with the declared type', () => {
    expect(convert('datetime', null)).toEqual({ dataType: 'datetime', value: null });
  });

  it('convert numbers between types (Math.round for rational to integral)', () => {
    expect(convert('long', 2.5)).toEqual({ dataType: 'long', value: 3n });
    expect(convert('integer', -2.5)).toEqual({ dataType: 'integer', value: -2 });
    expect(convert('float', 0.1)).toEqual({ dataType: 'float', value: Math.fround(0.1) });
    expect(convert('boolean', 0.4)).toEqual({ dataType: 'boolean', value: false });
    expect(convert('short', true)).toEqual({ dataType: 'short', value: 1 });
  });

  it('print values to strings as Java does', () => {
    expect(convert('keyword', 1e21)).toEqual({ dataType: 'keyword', value: '1.0E21' });
    expect(convert('text', 0.5)).toEqual({ dataType: 'text', value: '0.5' });
    expect(convert('keyword', 7)).toEqual({ dataType: 'keyword', value: '7' });
  });

  it('parse strings with Java syntax', () => {
    expect(convert('integer', '-42')).toEqual({ dataType: 'integer', value: -42 });
    expect(convert('double', ' 1e3 ')).toEqual({ dataType: 'double', value: 1000 });
    expect(convert('boolean', 'False')).toEqual({ dataType: 'boolean', value: false });
    expect(convert('ip', '::1')).toEqual({ dataType: 'ip', value: '::1' });
  });

  it('convert to datetime, date and time in UTC', () => {
    expect(convert('datetime', '2020-01-02T03:04:05+02:00').value).toBe('2020-01-02T01:04:05.000Z');
    expect(convert('datetime', 1.6).value).toBe('1970-01-01T00:00:00.002Z');
    expect(convert('date', '2020-03-04 10:00').value).toBe('2020-03-04');
    expect(convert('time', -1000).value).toBe('23:59:59.000Z');
  });

  it('reject unknown types and impossible conversions with ES messages', () => {
    expect(failure({ type: 'varchar', value: 'x' }).reason).toBe(
      'line 1:9: Invalid parameter data type [varchar]',
    );
    expect(failure({ type: 'geo_point', value: 'x' }).reason).toBe(
      'line 1:9: Cannot cast value [x] of type [KEYWORD] to parameter type [GEO_POINT]',
    );
    expect(failure({ type: 'ip', value: 2.5 }).reason).toBe(
      'line 1:9: Cannot cast value [2.5] of type [DOUBLE] to parameter type [IP]',
    );
  });

  it('nest the conversion failure as caused_by', () => {
    const e = failure({ type: 'short', value: 40000 });
    expect(e.reason).toBe('line 1:9: Unexpected actual parameter type [INTEGER] for type [short]');
    expect(e.causedBy?.toInner()).toEqual({
      type: 'ql_illegal_argument_exception',
      reason: '[40000] out of [short] range',
    });
    const ip = failure({ type: 'ip', value: '1.2.3' });
    expect(ip.causedBy?.reason).toBe('[1.2.3] is not a valid IPv4 or IPv6 address');
    const datetime = failure({ type: 'datetime', value: '2020-13-01' });
    expect(datetime.causedBy?.reason).toBe(
      'cannot cast [2020-13-01] to [datetime]: failed to parse date field [2020-13-01] with format [strict_date_optional_time]',
    );
  });
});
