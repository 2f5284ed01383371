import { describe, expect, it } from 'vitest';
import { responseContentType, selectFormat } from '../../../../src/sql/format/media-type.js';
import { EsError } from '../../../../src/common/errors.js';

function error(f: () => unknown): EsError {
  try {
    f();
  } catch (e) {
    if (e instanceof EsError) return e;
    throw e;
  }
  throw new Error('expected an error');
}

describe('format selection (RestSqlQueryAction)', () => {
  it('lets the format parameter win over Accept and Content-Type', () => {
    expect(selectFormat({ format: 'txt', accept: 'application/json' })).toBe('txt');
    expect(
      selectFormat({ accept: 'text/csv; header=absent', contentType: 'application/json' }),
    ).toBe('csv');
    expect(selectFormat({ accept: '*/*', contentType: 'application/json' })).toBe('json');
    expect(selectFormat({ contentType: 'application/yaml' })).toBe('yaml');
    expect(selectFormat({ format: 'TSV' })).toBe('tsv');
    expect(selectFormat({ format: 'text/plain' })).toBe('txt');
    expect(selectFormat({ accept: 'application/*' })).toBe('json');
    expect(selectFormat({})).toBe('json');
    expect(selectFormat({ format: 'json', columnar: true })).toBe('json');
  });
  it('rejects unknown formats and columnar text', () => {
    const e = error(() => selectFormat({ format: 'xml' }));
    expect(e.type).toBe('illegal_argument_exception');
    expect(e.reason).toBe('invalid format [xml]');
    expect(e.status).toBe(400);
    expect(error(() => selectFormat({ format: 'csv', columnar: true })).reason).toBe(
      'Invalid use of [columnar] argument: cannot be used in combination with txt, csv or tsv formats',
    );
  });
  it('reports the media types', () => {
    expect(responseContentType('txt')).toBe('text/plain');
    expect(responseContentType('csv')).toBe('text/csv; charset=utf-8; header=present');
    expect(responseContentType('csv', { headerParam: 'absent' })).toBe(
      'text/csv; charset=utf-8; header=absent',
    );
    expect(responseContentType('tsv')).toBe('text/tab-separated-values; charset=utf-8');
    expect(responseContentType('json')).toBe('application/json; charset=UTF-8');
    expect(responseContentType('yaml')).toBe('application/yaml');
  });
});
