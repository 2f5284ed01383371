/**
 * The Painless-subset script language: expressions and statements, Java typing of literals and
 * typed locals, params and doc access, namespaced caller methods (SQL's InternalSqlScriptUtils),
 * builtins, and ES-shaped compile/runtime errors.
 */
import { describe, expect, it } from 'vitest';
import {
  compileScript,
  parseScriptSpec,
  ScriptDate,
  SegmentDocLookup,
} from '../../../../src/dsl/script/index.js';
import { buildIndex } from '../aggs/helpers/shards.js';
import { setStoredScriptLookup } from '../../../../src/dsl/script/stored.js';

const run = (
  src: string,
  vars: Record<string, unknown> = {},
  opts: Parameters<typeof compileScript>[1] = {},
) => compileScript(src, opts).evaluate(vars);

function errorBody(fn: () => unknown): Record<string, unknown> {
  try {
    fn();
  } catch (e) {
    return (e as { toBody(): { error: Record<string, unknown> } }).toBody().error;
  }
  throw new Error('expected an error');
}

describe('expressions', () => {
  it('arithmetic with Java int/double typing', () => {
    expect(run('5 / 2')).toBe(2);
    expect(run('-7 / 2')).toBe(-3);
    expect(run('7 % 3')).toBe(1);
    expect(run('5.0 / 2')).toBe(2.5);
    expect(run('(double) 5 / 2')).toBe(2.5);
    expect(run('(int) 7.9')).toBe(7);
    expect(run('(long) -7.9')).toBe(-7);
    expect(run('2147483647 + 1')).toBe(-2147483648);
    expect(run('1 + 2 * 3 - 4')).toBe(3);
    expect(run('(1 + 2) * 3')).toBe(9);
    expect(run('params.a / params.b', { params: { a: 5, b: 2 } })).toBe(2.5);
  });

  it('strings, comparison, logic, ternary and elvis', () => {
    expect(run("'a' + 1 + 2")).toBe('a12');
    expect(run("'x' + 1.0")).toBe('x1.0');
    expect(run("'abc'.length() + 'abc'.substring(1)")).toBe('3bc');
    expect(run("'Abc'.toLowerCase().startsWith('ab')")).toBe(true);
    expect(run('1 < 2 && 3 >= 3 || false')).toBe(true);
    expect(run('!(1 == 2)')).toBe(true);
    expect(run('1 == 1.0')).toBe(true);
    expect(run("params.x > 1 ? 'big' : 'small'", { params: { x: 2 } })).toBe('big');
    expect(run('params.missing ?: 42', { params: {} })).toBe(42);
    expect(run('params.m?.x', { params: { m: null } })).toBeNull();
  });

  it("params.x, params['x'], nested maps and lists", () => {
    const params = { a: { b: [10, 20, 30] }, 'weird key': 7 };
    expect(run("params['weird key']", { params })).toBe(7);
    expect(run('params.a.b[1] + params.a.b.size() + params.a.b.length', { params })).toBe(26);
    expect(run('params.a.b.get(2)', { params })).toBe(30);
    expect(run('params.containsKey("a")', { params })).toBe(true);
    expect(run('[1, 2, 3].contains(2) && [:].isEmpty()')).toBe(true);
    expect(run("def m = ['k': 1]; m.k + m['k']")).toBe(2);
  });

  it('Math and other builtins', () => {
    expect(run('Math.max(3, 7) + Math.min(1, -1) + Math.abs(-2)')).toBe(8);
    expect(run('Math.sqrt(16) + Math.pow(2, 10)')).toBe(1028);
    expect(run('Math.round(2.5) + Math.round(-2.5) + Math.floor(1.7)')).toBe(2);
    expect(run('Math.PI')).toBe(Math.PI);
    expect(run("Integer.parseInt('42') + Double.parseDouble('0.5')")).toBe(42.5);
    expect(run('String.valueOf(3) + Integer.MAX_VALUE')).toBe('32147483647');
    expect(
      run(
        'MovingFunctions.sum(values) + MovingFunctions.max(values)',
        { values: [1, 2, 3] },
        { variables: ['values'] },
      ),
    ).toBe(9);
  });
});

describe('statements', () => {
  it('declarations, assignments, if/else, loops, implicit last value', () => {
    expect(run('def x = 3; if (x > 2) { return x * 2 } else { return 0 }')).toBe(6);
    expect(run('int x = 7; x /= 2; x')).toBe(3);
    expect(run('double t = 0; for (int i = 1; i <= 4; i++) { t += i } return t')).toBe(10);
    expect(run('int n = 0; while (n < 5) { n++; if (n == 3) { break; } } n')).toBe(3);
    expect(
      run('def s = 0; for (def v : params.l) { s += v } s', { params: { l: [1, 2, 3] } }),
    ).toBe(6);
    expect(
      run('def s = 0; for (v in params.l) { if (v == 2) { continue; } s += v } s', {
        params: { l: [1, 2, 3] },
      }),
    ).toBe(4);
    expect(run('if (params.a) { 1 } else { 2 }', { params: { a: false } })).toBe(2);
    expect(run('def l = new ArrayList(); l.add(1); l.add(2); l.size()')).toBe(2);
  });

  it('compiles once and evaluates many times with different vars', () => {
    const s = compileScript('params.a + params.b');
    expect(s.evaluate({ params: { a: 1, b: 2 } })).toBe(3);
    expect(s.evaluate({ params: { a: 10, b: 20 } })).toBe(30);
    const withParams = compileScript('params.p * 2', { params: { p: 21 } });
    expect(withParams.evaluate()).toBe(42);
    expect(withParams.needsScore).toBe(false);
    expect(compileScript('_score * 2').needsScore).toBe(true);
  });
});

describe('caller methods (SQL InternalSqlScriptUtils)', () => {
  it('resolves Namespace.method and bare names', () => {
    const methods = {
      'InternalSqlScriptUtils.gt': (a: unknown, b: unknown) =>
        a === null || b === null ? null : (a as number) > (b as number),
      nullSafeFilter: (x: unknown) => x === true,
      'InternalQlScriptUtils.add': (a: unknown, b: unknown) => (a as number) + (b as number),
    };
    const s = compileScript(
      'InternalSqlScriptUtils.nullSafeFilter(InternalSqlScriptUtils.gt(params.a, params.v))',
      { methods },
    );
    expect(s.evaluate({ params: { a: 5, v: 3 } })).toBe(true);
    expect(s.evaluate({ params: { a: null, v: 3 } })).toBe(false);
    expect(run('InternalQlScriptUtils.add(params.a, 1)', { params: { a: 2 } }, { methods })).toBe(
      3,
    );
  });

  it('passes `doc` to docValue-style helpers', () => {
    const idx = buildIndex({ n: 'long', k: 'keyword', d: 'date', ip: 'ip', b: 'boolean' }, [
      { n: 5, k: 'x', d: '2020-01-02T03:04:05Z', ip: '10.0.0.1', b: true },
      { k: ['y', 'z'] },
    ]);
    const ls = idx.shards[0]!.searcher().segments[0]!;
    const doc = new SegmentDocLookup((p) => idx.fields.get(p));
    doc.setSegment(ls);
    const docValue = (d: unknown, f: unknown) => {
      const lookup = d as SegmentDocLookup;
      if (!lookup.containsKey(f as string)) return null;
      const v = lookup.get(f as string);
      return v.isEmpty() ? null : v.get(0);
    };
    const s = compileScript('InternalSqlScriptUtils.docValue(doc, params.f)', {
      methods: { 'InternalSqlScriptUtils.docValue': docValue },
    });
    doc.setDoc(0);
    expect(s.evaluate({ doc, params: { f: 'n' } })).toBe(5);
    expect(s.evaluate({ doc, params: { f: 'ip' } })).toBe('10.0.0.1');
    expect(s.evaluate({ doc, params: { f: 'b' } })).toBe(true);
    expect((s.evaluate({ doc, params: { f: 'd' } }) as ScriptDate).getMillis()).toBe(
      Date.UTC(2020, 0, 2, 3, 4, 5),
    );
    doc.setDoc(1);
    expect(s.evaluate({ doc, params: { f: 'n' } })).toBeNull();
    expect(
      run("doc['k'].values.size() + ':' + doc['k'].value + ':' + doc['k'].length", { doc }),
    ).toBe('2:y:2');
    expect(run("doc['n'].empty && doc['n'].size() == 0 && doc['n'].value == 0", { doc })).toBe(
      true,
    );
    doc.setDoc(0);
    expect(run("doc['d'].value.getYear() * 100 + doc['d'].value.getMonthValue()", { doc })).toBe(
      202001,
    );
    expect(run("doc['n'].value * 2", { doc })).toBe(10);
  });
});

describe('errors', () => {
  it('a thrown java.lang exception is the runtime error of its type and message', () => {
    expect(errorBody(() => run('throw new IllegalArgumentException("Cats!")'))).toMatchObject({
      type: 'script_exception',
      reason: 'runtime error',
      caused_by: { type: 'illegal_argument_exception', reason: 'Cats!' },
    });
    expect(errorBody(() => run('if (params.n > 1) { throw new UnsupportedOperationException(); } return 1', { params: { n: 2 } }))).toMatchObject({ caused_by: { type: 'unsupported_operation_exception', reason: null } }); // prettier-ignore
    expect(errorBody(() => run("throw new RuntimeException('n=' + 3)"))).toMatchObject({
      caused_by: { type: 'runtime_exception', reason: 'n=3' },
    });
    expect(errorBody(() => compileScript('throw new Cats("x")'))).toMatchObject({
      reason: 'compile error',
      caused_by: { reason: 'Not a type [Cats].' },
    });
  });

  it('compile errors are script_exception with the script_stack snippet', () => {
    expect(errorBody(() => compileScript('1 +'))).toMatchObject({
      type: 'script_exception',
      reason: 'compile error',
      script_stack: ['1 +', '   ^---- HERE'],
      script: '1 +',
      lang: 'painless',
      caused_by: { type: 'illegal_argument_exception', reason: 'unexpected end of script.' },
    });
    expect(errorBody(() => compileScript('foo + 1'))).toMatchObject({
      caused_by: { reason: 'Variable [foo] is not defined.' },
    });
    expect(errorBody(() => compileScript('a @ b'))).toMatchObject({
      caused_by: { reason: 'unexpected character [@].' },
    });
    const long = 'params.aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa + params.bbbbbbbbbbbbbbbbbbbb ) + 1';
    // PainlessScriptEngine.convertToScriptException: 25 chars either side of the offending offset
    expect(errorBody(() => compileScript(long))).toMatchObject({
      script_stack: [
        '... ams.bbbbbbbbbbbbbbbbbbbb ) + 1',
        '                             ^---- HERE',
      ],
      caused_by: { reason: "unexpected token [')'] was expecting one of [{<EOF>, ';'}]." },
    });
    expect(errorBody(() => compileScript('1 2'))).toMatchObject({
      caused_by: { reason: "unexpected token ['2'] was expecting one of [{<EOF>, ';'}]." },
    });
    expect(errorBody(() => compileScript('(1 + )'))).toMatchObject({
      caused_by: { reason: "invalid sequence of tokens near [')']." },
    });
    expect(errorBody(() => compileScript("'a\\b'")).caused_by).toMatchObject({
      reason:
        "unexpected character ['a\\b]. The only valid escape sequences in strings starting with ['] are [\\\\] and [\\'].",
    });
    expect(errorBody(() => compileScript('x', { lang: 'groovy' }))).toMatchObject({
      type: 'illegal_argument_exception',
    });
  });

  it('runtime errors are script_exception "runtime error" with the Java cause', () => {
    expect(errorBody(() => run('params.missing.foo', { params: {} }))).toMatchObject({
      type: 'script_exception',
      reason: 'runtime error',
      caused_by: { type: 'null_pointer_exception', reason: null },
    });
    expect(errorBody(() => run('1 / 0'))).toMatchObject({
      caused_by: { type: 'arithmetic_exception', reason: '/ by zero' },
    });
    expect(errorBody(() => run("'a'.nope()"))).toMatchObject({
      caused_by: {
        type: 'illegal_argument_exception',
        reason: 'dynamic method [java.lang.String, nope/0] not found',
      },
    });
  });

  // Painless's loop counter (CompilerSettings.maxLoopCounter, 1,000,000 statements per run)
  // keeps a script from holding the event loop: `while (true)` once hung the node
  it('stops a run after a million statements inside loops (painless_error)', () => {
    const limit = {
      type: 'script_exception',
      reason: 'runtime error',
      caused_by: {
        type: 'painless_error',
        reason: 'The maximum number of statements that can be executed in a loop has been reached.',
      },
    };
    for (const src of [
      'int i = 0; while (i >= 0) { i++ } return i',
      'for (;;) { int x = 1; }',
      'int i = 0; do { i++ } while (i > 0); return i',
      'def x = 0; for (int i = 0; i < 10; i++) { for (int j = 0; j < 200000; j++) { x = j } } return x',
      'def l = []; for (int i = 0; i < 600000; i++) { l.add(i) } int n = 0; for (def v : l) { n++ } return n',
    ])
      expect(
        errorBody(() => run(src)),
        src,
      ).toMatchObject(limit);
    // a body of two statements spends two per iteration
    expect(run('int i = 0; int j = 0; while (i < 499999) { i++; j++ } return i')).toBe(499999);
    expect(errorBody(() => run('int i = 0; int j = 0; while (i < 500000) { i++; j++ } return i'))).toMatchObject(limit); // prettier-ignore
    // the counter is per run: a script that stays under it runs again and again
    const cs = compileScript('int n = 0; for (int i = 0; i < 999999; i++) { n++ } return n');
    expect(cs.evaluate({})).toBe(999999);
    expect(cs.evaluate({})).toBe(999999);
  });

  it('refuses constant loops that never run or never end (Painless SWhile, SDo, SFor)', () => {
    const reason = (src: string) =>
      (errorBody(() => compileScript(src)).caused_by as { reason: string }).reason;
    expect(reason('while (true) {} return 1')).toBe('While loop has no escape.');
    expect(reason('while (false) { int x = 1 } return 1')).toBe('Extraneous while loop.');
    expect(reason('for (int i = 0; false; i++) { int x = 1 } return 1')).toBe(
      'Extraneous for loop.',
    );
    expect(reason('for (int i = 0; true; i++) {} return 1')).toBe('For loop has no escape.');
    expect(reason('do {} while (1 < 2); return 1')).toBe('Extraneous do while loop.');
    expect(reason('int i = 0; do { i++ } while (false); return i')).toBe(
      'Extraneous do while loop.',
    );
  });

  it('parses script objects like ES Script.parse', () => {
    expect(parseScriptSpec('a')).toEqual({ source: 'a', lang: 'painless', params: {} });
    expect(parseScriptSpec({ source: 'b', lang: 'expression', params: { x: 1 } })).toEqual({
      source: 'b',
      lang: 'expression',
      params: { x: 1 },
    });
    expect(parseScriptSpec({ inline: 'c' }).source).toBe('c');
    expect(() => parseScriptSpec({ params: {} })).toThrow(
      'must specify either [source] for an inline script or [id] for a stored script',
    );
    expect(() => parseScriptSpec({ source: 'x', foo: 1 })).toThrow(
      '[script] unknown field [foo], parser not found',
    );
  });
});

describe('stored scripts by id', () => {
  it("resolve through the installed node's lookup, which its release removes", () => {
    const a = setStoredScriptLookup((id) => (id === 's' ? { lang: 'painless', source: '1 + 1' } : undefined)); // prettier-ignore
    expect(parseScriptSpec({ id: 's', params: { x: 1 } })).toEqual({
      source: '1 + 1',
      lang: 'painless',
      params: { x: 1 },
    });
    const b = setStoredScriptLookup(() => undefined);
    a(); // not the installed one any more: changes nothing
    b();
    expect(errorBody(() => parseScriptSpec({ id: 's' }))).toMatchObject({
      type: 'resource_not_found_exception',
      reason: 'unable to find script [s] in cluster state',
    });
  });
});
