import { describe, expect, it } from 'vitest';
import { queryMatchers } from '../../../../src/dsl/search/highlight.js';
import { Bench } from '../query/harness.js';

const bench = new Bench({
  properties: { title: { type: 'text' }, tag: { type: 'keyword' } },
});

const matcher = (q: unknown, field: string) => {
  const m = queryMatchers(bench.lower(q)).get(field);
  return (t: string) => m !== undefined && (m.terms.has(t) || m.tests.some((x) => x(t)));
};

describe('highlight query extraction', () => {
  it('keeps exact terms per field', () => {
    const m = matcher({ match: { title: 'Quick Fox' } }, 'title');
    expect(['quick', 'fox', 'brown'].map(m)).toEqual([true, true, false]);
    expect(queryMatchers(bench.lower({ match: { title: 'x' } })).has('tag')).toBe(false);
  });

  it('matches prefix, wildcard and range queries by testing each term', () => {
    const p = matcher({ prefix: { title: 'br' } }, 'title');
    expect(['brown', 'br', 'quick'].map(p)).toEqual([true, true, false]);
    const w = matcher({ wildcard: { tag: 'a*c' } }, 'tag');
    expect(['abc', 'ac', 'abd'].map(w)).toEqual([true, true, false]);
    const r = matcher({ range: { tag: { gte: 'b', lt: 'd' } } }, 'tag');
    expect(['b', 'cz', 'd', 'a'].map(r)).toEqual([true, true, false, false]);
  });

  it('looks into bool, dis_max and constant_score but not must_not', () => {
    const q = {
      bool: {
        must: [{ constant_score: { filter: { term: { tag: 'x' } } } }],
        should: [{ dis_max: { queries: [{ prefix: { title: 'qu' } }] } }],
        must_not: [{ term: { tag: 'no' } }],
      },
    };
    expect(['x', 'no'].map(matcher(q, 'tag'))).toEqual([true, false]);
    expect(matcher(q, 'title')('quick')).toBe(true);
  });
});
