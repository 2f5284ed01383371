import { afterEach, describe, expect, it } from 'vitest';
import { EsError } from '../../../../src/common/errors.js';
import { countBodyMemo, parseCountBody } from '../../../../src/dsl/search/count-body.js';
import {
  DEFAULT_MAX_NESTED_QUERY_DEPTH,
  setMaxNestedQueryDepth,
} from '../../../../src/dsl/query/index.js';

const term = (v: string) => JSON.stringify({ query: { term: { state: v } } });

/** The error a parse throws, as its ES type and reason. */
function errorOf(f: () => unknown): { type: string; reason: string } {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(EsError);
    const b = (e as EsError).toBody() as unknown as { error: { type: string; reason: string } };
    return { type: b.error.type, reason: b.error.reason };
  }
  throw new Error('no error');
}

describe('count body memo', () => {
  afterEach(() => setMaxNestedQueryDepth(DEFAULT_MAX_NESTED_QUERY_DEPTH));

  it('parses as parseCountBody does, and shares the parse of an equal text', () => {
    const parse = countBodyMemo();
    const a = parse(term('TX'));
    expect(a).toEqual(parseCountBody(JSON.parse(term('TX'))));
    expect(a.query).toMatchObject({ type: 'term', field: 'state', value: 'TX' });
    expect(parse(term('TX'))).toBe(a);
  });

  it('keeps different bodies apart', () => {
    const parse = countBodyMemo();
    const tx = parse(term('TX'));
    const ca = parse(term('CA'));
    expect(ca).not.toBe(tx);
    expect(ca.query).toMatchObject({ value: 'CA' });
    expect(parse(term('TX')).query).toMatchObject({ value: 'TX' });
  });

  it('reads blank text as no body: match_all', () => {
    const parse = countBodyMemo();
    expect(parse('  \n').query).toMatchObject({ type: 'match_all' });
    expect(parse('{}').query).toMatchObject({ type: 'match_all' });
  });

  it('throws the same errors every time and keeps no failed parse', () => {
    const parse = countBodyMemo();
    const cases = [
      '{"query": {"term": {"state": "TX"}}', // truncated
      '{"query": {"term": {"state": "TX"}}, "query": {"match_all": {}}}', // duplicate key
      '{"query": {"no_such_query": {}}}',
      '{"size": 0}',
    ];
    for (const text of cases) {
      const first = errorOf(() => parse(text));
      expect(errorOf(() => parse(text))).toEqual(first);
    }
    expect(errorOf(() => parse(cases[1]!)).type).toBe('json_parse_exception');
    expect(errorOf(() => parse(cases[2]!)).type).toBe('parsing_exception');
    expect(errorOf(() => parse(cases[3]!)).reason).toBe('request does not support [size]');
  });

  it('forgets the oldest text past its size', () => {
    const parse = countBodyMemo(2);
    const a = parse(term('A'));
    parse(term('B'));
    expect(parse(term('A'))).toBe(a);
    parse(term('C')); // A and B held: A, the oldest, goes
    expect(parse(term('A'))).not.toBe(a);
  });

  it('parses again once the nesting limit changes', () => {
    const parse = countBodyMemo();
    const deep = JSON.stringify({ query: { bool: { must: { bool: { must: { match_all: {} } } } } } }); // prettier-ignore
    expect(parse(deep).query).toMatchObject({ type: 'bool' });
    setMaxNestedQueryDepth(1);
    expect(errorOf(() => parse(deep)).reason).toMatch(/depth/);
    setMaxNestedQueryDepth(DEFAULT_MAX_NESTED_QUERY_DEPTH);
    expect(parse(deep).query).toMatchObject({ type: 'bool' });
  });
});
