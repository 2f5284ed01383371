/**
 * fieldDecision: CASE-shaped scripts over one numeric field's first doc value compile to a
 * decision whose outcome always names the constant the script itself returns — checked against
 * the script run by the script engine on random predicate trees (comparisons both ways round,
 * AND/OR/NOT with SQL's three-valued logic, IS [NOT] NULL) and values at, between and beyond the
 * constants, -0.0, infinities and missing values; other shapes are refused.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileScript } from '../../../../src/dsl/script/index.js';
import { fieldDecision } from '../../../../src/dsl/script/field-decision.js';
import { SCRIPT_METHODS } from '../../../../src/functions/index.js';
import { sqlScriptMethods } from '../../../../src/sql/execute/script-bridge.js';

type Methods = Record<string, (...a: unknown[]) => unknown>;
const raw: Methods = {};
for (const [k, fn] of Object.entries(SCRIPT_METHODS))
  raw[`InternalQlScriptUtils.${k}`] = fn as (...a: unknown[]) => unknown;
const methods = sqlScriptMethods(raw);

/** A `doc` with one field holding `v` (NaN: no value), as scripts see doc values. */
const docWith = (v: number) => ({
  containsKey: (f: string) => f === 'f',
  get: () => ({
    size: () => (Number.isNaN(v) ? 0 : 1),
    get: () => v,
  }),
});

const U = 'InternalQlScriptUtils';
const DV = `${U}.docValue(doc,params.field)`;

type Pred =
  | { op: 'lt' | 'lte' | 'gt' | 'gte' | 'eq' | 'neq'; k: number; flip: boolean }
  | { op: 'and' | 'or'; l: Pred; r: Pred }
  | { op: 'not'; p: Pred }
  | { op: 'isNull' | 'isNotNull' };

const predArb: fc.Arbitrary<Pred> = fc.letrec<{ p: Pred }>((tie) => ({
  p: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.record({
      op: fc.constantFrom('lt', 'lte', 'gt', 'gte', 'eq', 'neq' as const),
      k: fc.constantFrom(-2, -0, 0, 0.5, 1, 3, 1e300, -Infinity, Infinity),
      flip: fc.boolean(),
    }) as fc.Arbitrary<Pred>,
    fc.record({ op: fc.constantFrom('and', 'or' as const), l: tie('p'), r: tie('p') }),
    fc.record({ op: fc.constant('not' as const), p: tie('p') }),
    fc.record({ op: fc.constantFrom('isNull', 'isNotNull' as const) }) as fc.Arbitrary<Pred>,
  ),
})).p;

/** Renders a predicate with its constants as params (ES SQL's script form). */
function render(p: Pred, params: Record<string, unknown>): string {
  switch (p.op) {
    case 'and':
    case 'or':
      return `${U}.${p.op}(${render(p.l, params)},${render(p.r, params)})`;
    case 'not':
      return `${U}.not(${render(p.p, params)})`;
    case 'isNull':
    case 'isNotNull':
      return `${U}.${p.op}(${DV})`;
    default: {
      const name = `v${Object.keys(params).length}`;
      params[name] = p.k;
      return p.flip ? `${U}.${p.op}(params.${name},${DV})` : `${U}.${p.op}(${DV},params.${name})`;
    }
  }
}

describe('fieldDecision', () => {
  it('decides like the script for random CASE chains', () => {
    fc.assert(
      fc.property(
        fc.array(predArb, { minLength: 1, maxLength: 4 }),
        fc.array(fc.oneof(fc.double(), fc.constantFrom(-2, -0, 0, 0.5, 1, 3, 1e300, NaN))),
        (whens, values) => {
          const params: Record<string, unknown> = { field: 'f' };
          let src = `params.r${whens.length}`;
          for (let i = whens.length - 1; i >= 0; i--)
            src = `${U}.nullSafeFilter(${render(whens[i]!, params)}) ? params.r${i} : ${src}`;
          for (let i = 0; i <= whens.length; i++) params[`r${i}`] = `outcome ${i}`;
          const d = fieldDecision(src, params, methods);
          expect(d).not.toBeNull();
          expect(d!.field).toBe('f');
          expect(d!.outcomes).toBe(whens.length + 1);
          const script = compileScript(src, { params, methods });
          for (const v of [...values, -Infinity, Infinity, NaN, -0, 0]) {
            const want = script.evaluate({ doc: docWith(v) });
            expect(`outcome ${d!.decide(v)}`).toBe(want);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('reads literal field names and constants too', () => {
    const d = fieldDecision(
      `${U}.nullSafeFilter(${U}.gt(${U}.docValue(doc,'size'),10)) ? 'big' : null`,
      {},
      methods,
    );
    expect(d).not.toBeNull();
    expect(d!.field).toBe('size');
    expect([d!.decide(11), d!.decide(10), d!.decide(NaN)]).toEqual([0, 1, 1]);
  });

  it('refuses other shapes', () => {
    const p = { a: 'x', b: 'y', k: 1, f: 'f', g: 'g' };
    const refused = [
      // two fields
      `${U}.nullSafeFilter(${U}.lt(${U}.docValue(doc,params.f),${U}.docValue(doc,params.g))) ? params.a : params.b`,
      `${U}.nullSafeFilter(${U}.lt(${U}.docValue(doc,params.f),params.k)) ? params.a : ${U}.nullSafeFilter(${U}.lt(${U}.docValue(doc,params.g),params.k)) ? params.a : params.b`,
      // a value that is not a constant
      `${U}.nullSafeFilter(${U}.lt(${U}.docValue(doc,params.f),params.k)) ? ${U}.docValue(doc,params.f) : params.b`,
      // no nullSafeFilter, a score, an unknown param, a string constant, doc access by index
      `${U}.lt(${U}.docValue(doc,params.f),params.k) ? params.a : params.b`,
      `${U}.nullSafeFilter(${U}.lt(_score,params.k)) ? params.a : params.b`,
      `${U}.nullSafeFilter(${U}.lt(${U}.docValue(doc,params.f),params.nope)) ? params.a : params.b`,
      `${U}.nullSafeFilter(${U}.lt(${U}.docValue(doc,params.f),params.a)) ? params.a : params.b`,
      `doc['f'].value < 1 ? params.a : params.b`,
      // no field at all, statements
      `params.a`,
      `def x = 1; return params.a`,
    ];
    for (const src of refused) expect(fieldDecision(src, p, methods), src).toBeNull();
    // docValue must be the first-value one (SQL's bridge marks it)
    const ok = `${U}.nullSafeFilter(${U}.lt(${U}.docValue(doc,params.f),params.k)) ? params.a : params.b`;
    expect(fieldDecision(ok, p, methods)).not.toBeNull();
    expect(fieldDecision(ok, p, raw)).toBeNull();
    expect(fieldDecision(ok, p, undefined)).toBeNull();
  });
});
