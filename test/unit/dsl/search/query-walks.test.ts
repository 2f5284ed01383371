/** The per-search walks of a parsed query: inner_hits definitions and terms lookups. */
import { describe, expect, it } from 'vitest';
import { parseQuery } from '../../../../src/dsl/query/index.js';
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
