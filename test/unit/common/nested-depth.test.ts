/** nestedDeeperThan: objects and arrays count alike, at any position; scalars never nest. */
import { describe, expect, it } from 'vitest';
import { nestedDeeperThan } from '../../../src/common/json.js';

const nest = (n: number, leaf: unknown, wrap: (v: unknown) => unknown): unknown => {
  let v = leaf;
  for (let i = 0; i < n; i++) v = wrap(v);
  return v;
};

describe('nestedDeeperThan', () => {
  it('never finds scalars or flat documents too deep', () => {
    for (const v of [null, 1, 'x', true]) expect(nestedDeeperThan(v, 0)).toBe(false);
    expect(nestedDeeperThan({ a: 1, b: 'x', c: null }, 1)).toBe(false);
    expect(nestedDeeperThan({ a: 1 }, 0)).toBe(true);
  });

  it('counts objects and arrays, mixed, wherever they sit', () => {
    const alt = (n: number) => nest(n, 1, (v) => (Math.random() < 0.5 ? [v] : { k: v }));
    for (const n of [2, 3, 5, 50]) {
      const doc = { flat: 1, list: [1, 2], deep: alt(n - 1) };
      expect(nestedDeeperThan(doc, n)).toBe(false);
      expect(nestedDeeperThan(doc, n - 1)).toBe(true);
    }
    // the deep branch behind shallow siblings, in an array and in an object
    expect(nestedDeeperThan([{}, [], [[[[{}]]]]], 5)).toBe(true);
    expect(nestedDeeperThan([{}, [], [[[[{}]]]]], 6)).toBe(false);
    expect(nestedDeeperThan({ a: {}, b: { c: { d: [{ e: 1 }] } } }, 4)).toBe(true);
    expect(nestedDeeperThan({ a: {}, b: { c: { d: [{ e: 1 }] } } }, 5)).toBe(false);
  });
});
