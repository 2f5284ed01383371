import { describe, expect, it } from 'vitest';
import {
  contextScore,
  matchContexts,
  queryContexts,
} from '../../../../src/dsl/search/completion-contexts.js';
import { encodeGeohash } from '../../../../src/mapping/geo.js';
import { geohashNeighbors } from '../../../../src/mapping/geohash-cells.js';
import type { CompletionContextDef } from '../../../../src/mapping/types.js';

const defs: CompletionContextDef[] = [
  { kind: 'geo', name: 'location', precision: 5 },
  { kind: 'category', name: 'color' },
];

describe('completion query contexts', () => {
  it('reads category contexts as exact matches unless prefix is asked', () => {
    expect(
      queryContexts(defs, { color: ['red', { context: 'bl', prefix: true, boost: 3 }] }),
    ).toEqual([
      { typeId: 1, value: 'red', boost: 1, prefix: false },
      { typeId: 1, value: 'bl', boost: 3, prefix: true },
    ]);
  });

  it('fails on unknown context names and bad boosts', () => {
    expect(() => queryContexts(defs, { size: 'x' })).toThrow(
      'Unknown context name [size], must be one of [color, location]',
    );
    expect(() => queryContexts(defs, { color: { context: 'a', boost: 0 } })).toThrow(
      'boost must be greater than 0',
    );
  });

  it('expands a geo point to its cell and neighbours at the mapping precision', () => {
    const cell = encodeGeohash(52.22, 4.53).slice(0, 5);
    const got = queryContexts(defs, { location: { lat: 52.22, lon: 4.53 } });
    expect(got.map((c) => c.value).sort()).toEqual([cell, ...geohashNeighbors(cell)].sort());
    expect(got.every((c) => c.typeId === 0 && !c.prefix && c.boost === 1)).toBe(true);
  });

  it('matches coarser cells as prefixes, with neighbours at the levels asked', () => {
    const got = queryContexts(defs, {
      location: { context: { lat: 52.22, lon: 4.53 }, precision: 3, neighbours: [2], boost: 2 },
    });
    const cell3 = encodeGeohash(52.22, 4.53).slice(0, 3);
    const cell2 = cell3.slice(0, 2);
    expect(got.map((c) => c.value).sort()).toEqual(
      [cell3, cell2, ...geohashNeighbors(cell2)].sort(),
    );
    expect(got.every((c) => c.prefix && c.boost === 2)).toBe(true);
  });

  it('matches indexed contexts and scores weight times the best boost', () => {
    const q = queryContexts(defs, { color: ['red', { context: 'blue', boost: 4 }] });
    expect(
      matchContexts(q, [
        [1, 'blue'],
        [1, 'red'],
        [0, 'u173z'],
      ]),
    ).toEqual({
      boost: 4,
      matched: [
        [1, 'blue'],
        [1, 'red'],
      ],
    });
    expect(matchContexts(q, [[1, 'green']])).toBeNull();
    expect(matchContexts(q, [])).toBeNull();
    expect(matchContexts([], [[1, 'green']])).toEqual({ boost: 0, matched: [[1, 'green']] });
    expect(contextScore(3, 4)).toBe(12);
    expect(contextScore(3, 0)).toBe(3);
    expect(contextScore(0, 4)).toBe(4);
  });
});
