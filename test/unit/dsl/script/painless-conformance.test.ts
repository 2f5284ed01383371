/**
 * Painless behaviours the lang-painless REST suite checks: ES 6.8's statuses for script errors,
 * self-referencing results, the regex switch, dates in doc values and the _execute API.
 */
import { describe, expect, it } from 'vitest';
import { EsError } from '../../../../src/common/errors.js';
import { ensureNoSelfReferences } from '../../../../src/common/self-reference.js';
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

describe('self-referencing script results', () => {
  it("a map a script links to itself is refused with 6.8's message", () => {
    const x = compileScript('def x = [:] ; def y = [:] ; x.a = y ; y.a = x ; return x').evaluate();
    const e = caught(() => ensureNoSelfReferences(x));
    expect(e.type).toBe('illegal_argument_exception');
    expect(e.reason).toBe('Iterable object is self-referencing itself');
    expect(e.status).toBe(400);
  });

  it('ctx._source = ctx is refused; shared (not cyclic) values are fine', () => {
    const ctx: Record<string, unknown> = { _source: { foo: 'bar' } };
    compileScript('ctx._source.ctx = ctx').evaluate({ ctx });
    expect(() => ensureNoSelfReferences(ctx._source)).toThrow(
      'Iterable object is self-referencing itself',
    );
    const shared = [1, 2];
    expect(() => ensureNoSelfReferences({ a: shared, b: shared, c: [shared] })).not.toThrow();
  });
});

describe('regexes (disabled as in 6.8 by default)', () => {
  it('a regex literal is a compile error naming script.painless.regex.enabled', () => {
    const e = caught(() => compileScript('ctx._source.foo = params.bar ==~ /cat/'));
    const body = e.toBody().error as Record<string, unknown>;
    expect(body).toMatchObject({
      reason: 'compile error',
      caused_by: {
        type: 'illegal_state_exception',
        reason: expect.stringContaining(
          'Regexes are disabled. Set [script.painless.regex.enabled] to [true] in elasticsearch.yaml',
        ),
      },
    });
    expect((body.script_stack as string[])[1]).toBe(' '.repeat(29) + '^---- HERE');
  });

  it('division still parses', () => {
    expect(compileScript('10 / 4').evaluate()).toBe(2);
  });
});
