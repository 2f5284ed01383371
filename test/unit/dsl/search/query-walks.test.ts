/** The per-search walks of a parsed query: inner_hits definitions and terms lookups. */
import { describe, expect, it } from 'vitest';
import { isPlainQuery, parseQuery } from '../../../../src/dsl/query/index.js';
import { termsLookupsIn } from '../../../../src/dsl/query/terms-lookup-once.js';
import { extractInnerHits } from '../../../../src/dsl/search/inner-hits.js';

describe('extractInnerHits', () => {
  const q = parseQuery({
    bool: {
      must: [
        { nested: { path: 'a', query: { match_all: {} }, inner_hits: { name: 'x' } } },
        { has_child: { type: 'c', query: { match_all: {} }, inner_hits: {} } },
      ],
      filter: { nested: { path: 'b', query: { match_all: {} }, inner_hits: {} } },
    },
  });

  it('finds every definition in query order, the same on each call for one parsed query', () => {
    const first = extractInnerHits(q);
    expect(first.map((d) => [d.name, d.kind])).toEqual([
      ['x', 'nested'],
      ['c', 'child'],
      ['b', 'nested'],
    ]);
    expect(extractInnerHits(q)).toBe(first);
    // another parse of the same query is walked on its own
    const other = parseQuery({ nested: { path: 'a', query: { match_all: {} }, inner_hits: {} } });
    expect(extractInnerHits(other).map((d) => d.name)).toEqual(['a']);
  });

  it('refuses a duplicate name on every call (failures are not remembered as results)', () => {
    const dup = parseQuery({
      bool: {
        should: [
          { nested: { path: 'a', query: { match_all: {} }, inner_hits: {} } },
          { nested: { path: 'a', query: { match_all: {} }, inner_hits: {} } },
        ],
      },
    });
    const msg = '[inner_hits] already contains an entry for key [a]';
    expect(() => extractInnerHits(dup)).toThrow(msg);
    expect(() => extractInnerHits(dup)).toThrow(msg);
  });
});

describe('termsLookupsIn', () => {
  it('finds lookups in parsed queries, maps and request JSON, once per key', () => {
    const lookup = { index: 'i', type: '_doc', id: '1', path: 'p' };
    const q = parseQuery({
      bool: { filter: [{ terms: { f: lookup } }, { terms: { g: lookup } }, { term: { h: 1 } }] },
    });
    const aggs = new Map([['a', { filter: { terms: { f: { ...lookup, id: '2' } } } }]]);
    expect(termsLookupsIn([q, null, aggs]).map((l) => [l.index, l.id, l.path])).toEqual([
      ['i', '1', 'p'],
      ['i', '2', 'p'],
    ]);
    expect(termsLookupsIn([parseQuery({ match: { f: 'x' } })])).toEqual([]);
  });
});

describe('isPlainQuery', () => {
  const lookup = { index: 'i', type: '_doc', id: '1', path: 'p' };

  it('marks a tree parsed without lookups, more_like_this, percolate, nested or join queries', () => {
    const plain = parseQuery({
      bool: {
        must: { match: { f: 'x' } },
        filter: [{ range: { n: { gte: 1 } } }, { terms: { g: ['a', 'b'] } }],
      },
    });
    expect(isPlainQuery(plain)).toBe(true);
    expect(extractInnerHits(plain)).toEqual([]);
    expect(termsLookupsIn([plain])).toEqual([]);
  });

  it('does not mark a tree with one of those anywhere in it, so its walks still find them', () => {
    const deep = (q: object) => parseQuery({ bool: { should: [{ term: { a: 1 } }, { bool: { filter: q } }] } }); // prettier-ignore
    const withLookup = deep({ terms: { f: lookup } });
    expect(isPlainQuery(withLookup)).toBe(false);
    expect(termsLookupsIn([withLookup]).map((l) => l.id)).toEqual(['1']);
    const withNested = deep({ nested: { path: 'a', query: { match_all: {} }, inner_hits: {} } });
    expect(isPlainQuery(withNested)).toBe(false);
    expect(extractInnerHits(withNested).map((d) => d.name)).toEqual(['a']);
    for (const q of [
      { more_like_this: { like: [{ _index: 'i', _id: '1' }] } },
      { percolate: { field: 'q', index: 'i', id: '1' } },
      { has_child: { type: 'c', query: { match_all: {} } } },
      { has_parent: { parent_type: 'p', query: { match_all: {} } } },
    ])
      expect(isPlainQuery(deep(q))).toBe(false);
  });

  it('judges each parse on its own: a plain tree after one with a lookup, a failed parse', () => {
    expect(isPlainQuery(parseQuery({ terms: { f: lookup } }))).toBe(false);
    expect(() =>
      parseQuery({ bool: { must: [{ terms: { f: lookup } }, { nope: {} }] } }),
    ).toThrow();
    expect(isPlainQuery(parseQuery({ term: { f: 'x' } }))).toBe(true);
  });
});
