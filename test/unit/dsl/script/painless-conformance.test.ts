/**
 * Painless behaviours the lang-painless REST suite checks: ES 6.8's statuses for script errors,
 * self-referencing results, the regex switch, dates in doc values and the _execute API.
 */
import { describe, expect, it } from 'vitest';
import { EsError } from '../../../../src/common/errors.js';
import { compileScript } from '../../../../src/dsl/script/index.js';

function caught(fn: () => unknown): EsError {
  try {
    fn();
  } catch (e) {
    if (e instanceof EsError) return e;
    throw e;
  }
  throw new Error('expected an error');
}

describe('script error statuses (6.8: ScriptException is a 500)', () => {
  it('compile errors are script_exception 500 with an illegal_argument_exception cause', () => {
    const e = caught(() => compileScript('while (true) {}'));
    expect(e.type).toBe('script_exception');
    expect(e.reason).toBe('compile error');
    expect(e.status).toBe(500);
    expect(e.toBody().error).toMatchObject({
      caused_by: { type: 'illegal_argument_exception', reason: 'While loop has no escape.' },
    });
  });

  it('runtime errors are script_exception 500 even when caused by an illegal argument', () => {
    const e = caught(() => compileScript('throw new IllegalArgumentException("x")').evaluate());
    expect(e.type).toBe('script_exception');
    expect(e.reason).toBe('runtime error');
    expect(e.status).toBe(500);
  });
});
