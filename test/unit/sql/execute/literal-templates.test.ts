/**
 * Literal lifting (literal-templates.ts): which string literals a statement shape leaves open,
 * sentinels of the literals' length, and substitution refusing plans that could hide a sentinel.
 */
import { describe, expect, it } from 'vitest';
import {
  liftLiterals,
  samePlan,
  substitute,
} from '../../../../src/sql/execute/literal-templates.js';

describe('liftLiterals', () => {
  it('lifts column comparisons, MATCH text and QUERY strings, keeping every position', () => {
    const text =
      "SELECT a FROM t WHERE s = 'libs' AND MATCH(d, 'gd lib', 'operator=and') AND QUERY('x:\"y\"') AND n <> 'it''s'";
    const l = liftLiterals(text)!;
    expect(l.subs.map((s) => s.value)).toEqual(['libs', 'gd lib', 'x:"y"', "it's"]);
    expect(l.subs.map((s) => s.image)).toEqual(["'libs'", "'gd lib'", '\'x:"y"\'', "'it''s'"]);
    expect(l.sentinelText).toHaveLength(text.length);
    // MATCH's options are not lifted: the planner reads them
    expect(l.sentinelText).toContain("'operator=and'");
    // same lengths, same shape; another length, another shape
    expect(liftLiterals(text.replace("'libs'", "'misc'"))!.shape).toBe(l.shape);
    expect(liftLiterals(text.replace("'libs'", "'lib'"))!.shape).not.toBe(l.shape);
  });

  it('leaves literals the planner reads or folds', () => {
    for (const text of [
      "SELECT a FROM t WHERE s LIKE 'ab%'",
      "SELECT a FROM t WHERE 'a' = 'a'",
      "SELECT a FROM t WHERE UPPER(s) = 'AB'",
      "SELECT a FROM t WHERE s = 'ab' || 'c'",
      "SELECT a FROM t WHERE s = ''",
      "SELECT CONCAT('a', s) FROM t",
      "SELECT a FROM t WHERE s = 'two\nlines'",
      "SELECT a FROM t WHERE s = '\ue000'",
    ])
      expect(liftLiterals(text), text).toBeNull();
  });
});

describe('substitute', () => {
  const l = liftLiterals("SELECT a FROM t WHERE s = 'libs'")!;
  const sentinel = l.subs[0]!.sentinel;
  const def = { name: 'COUNT', resolveType: () => 'LONG' };

  it('swaps values and source text, sharing what holds no sentinel', () => {
    const shared = { fields: ['a', 's'] };
    const plan = {
      index: shared,
      def,
      condition: { value: sentinel, src: { text: `s = '${sentinel}'`, line: 1, column: 22 } },
    };
    const hot = new Set<object>();
    const out = substitute(plan, l.subs, null, hot)!;
    expect(out.condition).toEqual({ value: 'libs', src: { text: "s = 'libs'", line: 1, column: 22 } }); // prettier-ignore
    expect(out.index).toBe(shared);
    expect(out.def).toBe(def);
    expect(plan.condition.value).toBe(sentinel);
    const other = liftLiterals("SELECT a FROM t WHERE s = 'misc'")!;
    expect(samePlan(substitute(plan, other.subs, hot), { ...out, condition: { value: 'misc', src: { text: "s = 'misc'", line: 1, column: 22 } } })).toBe(true); // prettier-ignore
  });

  it('refuses a folded, embedded or hidden sentinel', () => {
    expect(substitute({ value: 'folded' }, l.subs)).toBeNull();
    expect(substitute({ value: sentinel, other: `${sentinel}x` }, l.subs)).toBeNull();
    expect(substitute({ value: sentinel, f: () => sentinel }, l.subs)).toBeNull();
    class Node {
      constructor(readonly v: string) {}
    }
    expect(substitute({ value: sentinel, n: new Node('x') }, l.subs)).toBeNull();
  });
});
