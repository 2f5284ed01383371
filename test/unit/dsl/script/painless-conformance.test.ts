/**
 * Painless behaviours the lang-painless REST suite checks: ES 6.8's statuses for script errors,
 * self-referencing results, the regex switch, dates in doc values and the _execute API.
 */
import { describe, expect, it } from 'vitest';
import { EsError } from '../../../../src/common/errors.js';
import { ensureNoSelfReferences } from '../../../../src/common/self-reference.js';
import {
  compileScript,
  SegmentDocLookup,
  type ScriptDate,
} from '../../../../src/dsl/script/index.js';
import { buildIndex } from '../aggs/helpers/shards.js';

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

describe('doc values of dates and longs', () => {
  const idx = buildIndex({ date: 'date', long: 'long' }, [
    { date: '2017-01-01T12:11:12', long: 12348732141234 },
    {},
  ]);
  const ls = idx.shards[0]!.searcher().segments[0]!;
  const warnings: string[] = [];
  const doc = new SegmentDocLookup(
    (p) => idx.fields.get(p),
    undefined,
    (m) => warnings.push(m),
  );
  doc.setSegment(ls);
  const run = (src: string) => compileScript(src).evaluate({ doc });

  it('doc.field is doc[field]; dates render as strict_date_optional_time', () => {
    doc.setDoc(0);
    warnings.length = 0;
    expect(JSON.stringify(run('doc.date.get(0)'))).toBe('"2017-01-01T12:11:12.000Z"');
    expect(JSON.stringify(run('doc.date.value'))).toBe('"2017-01-01T12:11:12.000Z"');
    expect(run('doc.long.value')).toBe(12348732141234);
    expect(warnings).toEqual([]);
  });

  it('.date/.dates work with 6.8 deprecation warnings', () => {
    doc.setDoc(0);
    warnings.length = 0;
    expect((run("doc['date'].date") as ScriptDate).millis).toBe(Date.UTC(2017, 0, 1, 12, 11, 12));
    expect(warnings).toEqual([
      'getDate is no longer necessary on date fields as the value is now a date.',
    ]);
    warnings.length = 0;
    expect(JSON.stringify(run("doc['long'].dates.get(0)"))).toBe('"2361-04-26T03:22:21.234Z"');
    expect(warnings).toEqual([
      'getDates on numeric fields is deprecated. Use a date field to get dates.',
    ]);
  });

  it(".values logs 6.8's getValues deprecation; iterating the field itself does not", () => {
    doc.setDoc(0);
    warnings.length = 0;
    expect(run('int n = 0; for (def v : doc.long) { n++ } return n')).toBe(1);
    expect(run("doc['long'].contains(12348732141234L)")).toBe(true);
    expect(warnings).toEqual([]);
    expect(run("doc['long'].values.size()")).toBe(1);
    expect(warnings).toEqual([
      "Deprecated getValues used, the field is a list and should be accessed directly. For example, use doc['foo'] instead of doc['foo'].values.",
    ]);
  });

  it('the missing-value deprecation is only for reading a value the doc lacks', () => {
    doc.setDoc(1);
    warnings.length = 0;
    expect(run("doc['long'].size()")).toBe(0);
    expect(warnings).toEqual([]);
    expect(run("doc['long'].value")).toBe(0);
    expect(warnings[0]).toMatch(
      /^returning default values for missing document values is deprecated/,
    );
  });
});

describe('functions, lambdas and StringBuilder', () => {
  const run = (src: string, params: Record<string, unknown> = {}) =>
    compileScript(src).evaluate({ params });

  it('a function taking a Supplier lambda (20_scriptfield "Doing Compare")', () => {
    const src =
      'boolean compare(Supplier s, def v) {return s.get() == v;} compare(() -> { return params.foo }, params.x);';
    expect(run(src, { foo: 'aaa', x: 'aaa' })).toBe(true);
    expect(run(src, { foo: 'aaa', x: 'bbb' })).toBe(false);
  });

  it('recursive functions keep their own locals per call', () => {
    expect(run('int fib(int n) { if (n < 2) { return n; } return fib(n - 1) + fib(n - 2); } return fib(15);')).toBe(610); // prettier-ignore
  });

  it('lambdas with expression bodies, typed parameters and captured locals', () => {
    expect(run('def f = x -> x * 2; def g = (a, b) -> a + b; return f.apply(3) + g.apply(1, 2);')).toBe(9); // prettier-ignore
    expect(run('int k = 10; def f = (int x) -> x + k; return f.apply(5);')).toBe(15);
  });

  it('a duplicate function is a compile error; parentheses still group', () => {
    expect(() =>
      compileScript('int f(int a) { return a; } int f(int b) { return b; } f(1)'),
    ).toThrow('compile error');
    expect(run('return (params.a) * 2', { a: 4 })).toBe(8);
  });

  it('StringBuilder appends Java strings of values', () => {
    expect(run("StringBuilder b = new StringBuilder(); for (def d : params.l) { b.append(' ').append(d); } return b.toString().trim()", { l: [7, 3, 0.5] })).toBe('7 3 0.5'); // prettier-ignore
    expect(run("new StringBuilder('ab').append(1).reverse().toString()")).toBe('1ba');
  });

  it('dates give their java.time.DayOfWeek', () => {
    const idx = buildIndex({ dates: 'date' }, [
      { dates: ['2017-01-01', '2017-02-01', '2017-03-01'] },
    ]);
    const doc = new SegmentDocLookup((p) => idx.fields.get(p));
    doc.setSegment(idx.shards[0]!.searcher().segments[0]!);
    doc.setDoc(0);
    expect(compileScript('doc.dates.value.dayOfWeekEnum.value').evaluate({ doc })).toBe(7);
    const many = compileScript(
      "StringBuilder b = new StringBuilder(); for (def date : doc.dates) { b.append(' ').append(date.getDayOfWeekEnum().value); } return b.toString().trim()",
    );
    expect(many.evaluate({ doc })).toBe('7 3 3');
    expect(String(compileScript('doc.dates.value.dayOfWeekEnum').evaluate({ doc }))).toBe('SUNDAY');
  });
});

describe('geo_point and binary values for scripts (read from the fetched _source)', () => {
  const idx = buildIndex({ geo: 'geo_point', bin: 'binary', n: 'long' }, [{ n: 1 }]);
  const warnings: string[] = [];
  const doc = new SegmentDocLookup(
    (p) => idx.fields.get(p),
    undefined,
    (m) => warnings.push(m),
  );
  doc.setSegment(idx.shards[0]!.searcher().segments[0]!);
  doc.setDoc(0);
  const run = (src: string, source: unknown) => {
    doc.setSource(() => source);
    return compileScript(src).evaluate({ doc });
  };

  it('geo points are quantized like Lucene doc values, with no missing-value warning', () => {
    warnings.length = 0;
    const p = run("doc['geo'].value", { geo: '41.12,-71.34' });
    expect(JSON.parse(JSON.stringify(p))).toEqual({
      lat: 41.1199999647215,
      lon: -71.34000004269183,
    });
    expect(run("doc['geo'].get(0).lat", { geo: { lat: 41.12, lon: -71.34 } })).toBe(
      41.1199999647215,
    );
    expect(
      run("doc['geo'].size()", {
        geo: [
          [-71.34, 41.12],
          [0, -10],
        ],
      }),
    ).toBe(2);
    // ordered by the encoded value: the southern point first
    expect(
      run("doc['geo'].get(0).lat", {
        geo: [
          [-71.34, 41.12],
          [0, -10],
        ],
      }),
    ).toBeLessThan(0);
    expect(warnings).toEqual([]);
  });

  it('binary values decode from base64, sorted and deduplicated', () => {
    warnings.length = 0;
    expect(run("doc['bin'].value.utf8ToString()", { bin: 'U29tZSBiaW5hcnkgYmxvYg==' })).toBe('Some binary blob'); // prettier-ignore
    const b64 = (s: string) => Buffer.from(s).toString('base64');
    expect(run("doc['bin'].get(0).utf8ToString() + doc['bin'].size()", { bin: [b64('b'), b64('a'), b64('b')] })).toBe('a2'); // prettier-ignore
    expect(warnings).toEqual([]);
  });

  it('a field the source lacks is missing: the default comes with the deprecation warning', () => {
    warnings.length = 0;
    expect(run("doc['geo'].size()", { n: 1 })).toBe(0);
    expect(warnings).toEqual([]);
    run("doc['geo'].value", { n: 1 });
    expect(warnings).toHaveLength(1);
  });
});

describe('Joda-compatible dates (6.8 JodaCompatibleZonedDateTime)', () => {
  const idx = buildIndex({ date: 'date' }, [{ date: '2017-01-01T12:11:12' }]);
  const warnings: string[] = [];
  const doc = new SegmentDocLookup(
    (p) => idx.fields.get(p),
    undefined,
    (m) => warnings.push(m),
  );
  doc.setSegment(idx.shards[0]!.searcher().segments[0]!);
  doc.setDoc(0);
  const run = (src: string) => compileScript(src).evaluate({ doc });

  it('Joda methods answer and log their deprecation; java.time ones do not', () => {
    warnings.length = 0;
    expect(run('doc.date.value.getYear() + doc.date.value.getHour() + doc.date.value.getMonthValue()')).toBe(2030); // prettier-ignore
    expect(warnings).toEqual([]);
    expect(run('doc.date.value.getMillis()')).toBe(Date.UTC(2017, 0, 1, 12, 11, 12));
    expect(run('doc.date.value.getHourOfDay()')).toBe(12);
    expect(run('doc.date.value.getDayOfWeek()')).toBe(7);
    expect(warnings).toEqual([
      'Use of the joda time method [getMillis()] is deprecated. Use [toInstant().toEpochMilli()] instead.',
      'Use of the joda time method [getHourOfDay()] is deprecated. Use [getHour()] instead.',
      'The return type of [getDayOfWeek()] will change to an enum in 7.0. Use getDayOfWeekEnum().getValue().',
    ]);
  });

  it('a date prints as strict_date_time', () => {
    expect(run("'' + doc.date.value")).toBe('2017-01-01T12:11:12.000Z');
  });
});
