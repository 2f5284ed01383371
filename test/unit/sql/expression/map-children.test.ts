/** mapChildren keeps a node when no child changes and rebuilds it when any does. */
import { describe, expect, it } from 'vitest';
import {
  childrenOf,
  literal,
  mapChildren,
  type Expr,
} from '../../../../src/sql/expression/nodes.js';

const lit = (v: number) => literal(v, 'INTEGER');

describe('mapChildren', () => {
  const a = lit(1);
  const b = lit(2);
  const c = lit(3);
  const inExpr = { kind: 'In', dataType: 'BOOLEAN', value: a, list: [b, c] } as unknown as Expr;

  it('visits every child in order and keeps the node when none changes', () => {
    const seen: Expr[] = [];
    expect(mapChildren(inExpr, (x) => (seen.push(x), x))).toBe(inExpr);
    expect(seen).toEqual([a, b, c]);
  });

  it('rebuilds the node with the changed child in place', () => {
    const d = lit(4);
    const out = mapChildren(inExpr, (x) => (x === c ? d : x));
    expect(out).not.toBe(inExpr);
    expect(childrenOf(out)).toEqual([a, b, d]);
    expect(childrenOf(inExpr)).toEqual([a, b, c]);
  });

  it('leaves leaves alone', () => {
    expect(mapChildren(a, () => b)).toBe(a);
    expect(childrenOf(a)).toEqual([]);
  });
});
