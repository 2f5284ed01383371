import { describe, expect, it } from 'vitest';
import { NumberLiteral, parseJsonStream, serializeJson } from './json-value.js';
import { parseSuite, SuiteParseError, type DoStep } from './suite.js';
import { relaxFlowCollections } from './yaml-load.js';

const SUITE = `---
setup:
  - do:
      indices.create:
        index: test
        body:
          settings: { number_of_shards: 1 }
---
teardown:
  - do:
      indices.delete: { index: test }
---
"First":
  - skip:
      version: " - 6.3.99"
      reason: not before 6.4
      features: [warnings, headers]
  - do:
      catch: missing
      headers:
        Content-Type: application/json
      warnings:
        - "[x] is deprecated"
      search:
        index: [a, b]
        type: []
        size: 10
        ratio: 1.50
        flag: true
        body: { query: { match_all: {} }, min_score: 1.0, big: 9223372036854775807 }
  - match: { hits.total: 2 }
  - is_true: acknowledged
  - is_false: ''
  - length: { hits.hits: 1 }
  - gte: { took: 0 }
  - set: { _scroll_id: scroll }
---
"Second":
  - do:
      bulk:
        body: |
          {"index": {"_index": "i", "_type": "t"}}
          {"f": 1.0}
  - do:
      bulk:
        body:
          - '{"delete": {"_index": "i"}}'
          - { index: { _index: i } }
          - { f: 2 }
`;

describe('parseSuite', () => {
  const suite = parseSuite('search', '10_basic.yml', SUITE);

  it('separates setup, teardown and test sections', () => {
    expect(suite.setup?.steps).toHaveLength(1);
    expect(suite.teardown?.steps[0]).toMatchObject({ kind: 'do', api: 'indices.delete' });
    expect(suite.tests.map((t) => t.name)).toEqual(['First', 'Second']);
  });

  it('reads the skip section', () => {
    const skip = suite.tests[0]!.skip!;
    expect(skip.features).toEqual(['warnings', 'headers']);
    expect(skip.reason).toBe('not before 6.4');
    expect(skip.ranges).toEqual([{ lower: 'first', upper: 6_039_999 }]);
  });

  it('keeps param texts as Jackson gives them, lists joined with commas', () => {
    const d = suite.tests[0]!.steps[0] as DoStep;
    expect(d.api).toBe('search');
    expect(d.catch).toBe('missing');
    expect([...d.headers]).toEqual([['Content-Type', 'application/json']]);
    expect(d.warnings).toEqual(['[x] is deprecated']);
    expect(Object.fromEntries(d.params)).toEqual({
      index: 'a,b',
      size: '10',
      ratio: '1.50',
      flag: 'true',
    });
    expect(d.line).toBe(18);
    expect(d.params.has('type')).toBe(false);
  });

  it('keeps float and long literals of bodies exact', () => {
    const d = suite.tests[0]!.steps[0] as DoStep;
    expect(serializeJson(d.bodies![0])).toBe(
      '{"query":{"match_all":{}},"min_score":1.0,"big":9223372036854775807}',
    );
  });

  it('parses the assertion steps', () => {
    const steps = suite.tests[0]!.steps.slice(1);
    expect(steps).toEqual([
      { kind: 'match', line: 31, field: 'hits.total', expected: 2 },
      { kind: 'is_true', line: 32, field: 'acknowledged' },
      { kind: 'is_false', line: 33, field: '' },
      { kind: 'length', line: 34, field: 'hits.hits', expected: 1 },
      { kind: 'gte', line: 35, field: 'took', expected: 0 },
      { kind: 'set', line: 36, pairs: [['_scroll_id', 'scroll']] },
    ]);
  });

  it('splits string and list bodies into one body per JSON object', () => {
    const [a, b] = suite.tests[1]!.steps as DoStep[];
    expect(a!.bodies).toHaveLength(2);
    expect(serializeJson(a!.bodies![1])).toBe('{"f":1.0}');
    expect(b!.bodies!.map(serializeJson)).toEqual([
      '{"delete":{"_index":"i"}}',
      '{"index":{"_index":"i"}}',
      '{"f":2}',
    ]);
  });

  it('rejects malformed suites as upstream does', () => {
    expect(() => parseSuite('x', 'a.yml', '"t":\n  - do: {}\n')).toThrow(
      /client call section is mandatory/,
    );
    expect(() => parseSuite('x', 'a.yml', '"t":\n  - bogus: {}\n')).toThrow(
      /unknown section \[bogus\]/,
    );
    expect(() => parseSuite('x', 'a.yml', '"t":\n  - match: { a: 1, b: 2 }\n')).toThrow(
      /key value pair/,
    );
    expect(() => parseSuite('x', 'a.yml', '"t":\n  - skip: { reason: x }\n')).toThrow(
      /version or features/,
    );
    expect(() =>
      parseSuite('x', 'a.yml', '"t":\n  - skip: { version: "1.0.0 - 2.0.0" }\n'),
    ).toThrow(/reason is mandatory/);
    expect(() => parseSuite('x', 'a.yml', '"t":\n  - do: { info: {} }')).toThrow(/line feed/);
    expect(() =>
      parseSuite(
        'x',
        'a.yml',
        '---\n"t":\n  - do: { info: {} }\n---\n"t":\n  - do: { info: {} }\n',
      ),
    ).toThrow(SuiteParseError);
  });
});

describe('lenient flow collections (SnakeYAML accepts them)', () => {
  const text = `"t":
  - do:
      search:
        body:
          collapse: { field: g, inner_hits: {
            name: sub, size: 2, sort: [{ sort: asc }]  # a comment
          } }
          sort: [{ sort: desc }]
  - match: { a: 1 }
`;

  it('joins an under-indented multi-line flow map onto its first line, keeping line numbers', () => {
    const relaxed = relaxFlowCollections(text);
    expect(relaxed.split('\n')).toHaveLength(text.split('\n').length);
    const suite = parseSuite('s', 'f.yml', text);
    const d = suite.tests[0]!.steps[0] as DoStep;
    expect(serializeJson(d.bodies![0])).toBe(
      '{"collapse":{"field":"g","inner_hits":{"name":"sub","size":2,"sort":[{"sort":"asc"}]}},"sort":[{"sort":"desc"}]}',
    );
    expect(suite.tests[0]!.steps[1]!.line).toBe(9);
  });

  it('leaves block scalars alone', () => {
    const t = 'a: |\n  {not: [flow\nb: 1\n';
    expect(relaxFlowCollections(t)).toBe(t);
  });
});

describe('JSON streams', () => {
  it('parses consecutive objects and keeps number literals', () => {
    const vals = parseJsonStream(
      '{"a": 1.50, "b": [1, 2e3]}\n{"c": "x\\"y", "d": null, "e": true}\n',
    );
    expect(vals).toHaveLength(2);
    expect(serializeJson(vals[0])).toBe('{"a":1.5,"b":[1,2000.0]}');
    expect(vals[1]).toEqual({ c: 'x"y', d: null, e: true });
    expect((vals[0] as { a: NumberLiteral }).a).toBeInstanceOf(NumberLiteral);
    expect(() => parseJsonStream('{"a": }')).toThrow(/unexpected character/);
    expect(() => parseJsonStream('{"a": 1')).toThrow();
  });
});
