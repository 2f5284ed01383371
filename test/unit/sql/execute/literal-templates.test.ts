/**
 * Literal lifting (literal-templates.ts): which string literals a statement shape leaves open,
 * sentinels one character longer than the literals, source positions moved by substitution, and
 * substitution refusing plans that could hide a sentinel.
 */
import { describe, expect, it } from 'vitest';
import {
  bindLiterals,
  liftLiterals,
  samePlan,
  sentinelStatement,
  substitute,
} from '../../../../src/sql/execute/literal-templates.js';

describe('liftLiterals', () => {
  it('lifts column comparisons, MATCH text and QUERY strings, keeping every position', () => {
    const text =
      "SELECT a FROM t WHERE s = 'libs' AND MATCH(d, 'gd lib', 'operator=and') AND QUERY('x:\"y\"') AND n <> 'it''s'";
    const l = liftLiterals(text)!;
    const { text: sentinelText, subs } = sentinelStatement(l);
    expect(subs.map((s) => s.value)).toEqual(['libs', 'gd lib', 'x:"y"', "it's"]);
    expect(subs.map((s) => s.image)).toEqual(["'libs'", "'gd lib'", '\'x:"y"\'', "'it''s'"]);
    // each sentinel one character longer than its literal, its column in the sentinel text
    expect(sentinelText).toHaveLength(text.length + 4);
    expect(subs.map((s) => s.sentinelImage.length)).toEqual([7, 9, 8, 8]);
    for (const s of subs) expect(sentinelText.slice(s.column - 1)).toMatch(new RegExp(`^${s.sentinelImage}`)); // prettier-ignore
    // MATCH's options are not lifted: the planner reads them
    expect(sentinelText).toContain("'operator=and'");
    // any value, any length: same shape; equal values: another shape
    expect(liftLiterals(text.replace("'libs'", "'misc'"))!.shape).toBe(l.shape);
    expect(liftLiterals(text.replace("'libs'", "'lib'"))!.shape).toBe(l.shape);
    expect(liftLiterals(text.replace("'libs'", "'gd lib'"))!.shape).not.toBe(l.shape);
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
  const { subs } = sentinelStatement(l);
  const sentinel = subs[0]!.sentinel as string;
  const def = { name: 'COUNT', resolveType: () => 'LONG' };

  it('swaps values and source text, moving later columns, sharing what holds no sentinel', () => {
    const shared = { fields: ['a', 's'] };
    const plan = {
      index: shared,
      def,
      condition: { value: sentinel, src: { text: `s = '${sentinel}'`, line: 1, column: 23 } },
      after: { line: 1, column: 35 },
      before: { line: 1, column: 8 },
    };
    const hot = new Map<object, Array<string | number>>();
    const out = substitute(plan, subs, null, hot)!;
    expect(out.condition).toEqual({ value: 'libs', src: { text: "s = 'libs'", line: 1, column: 23 } }); // prettier-ignore
    expect(out.after).toEqual({ line: 1, column: 34 });
    expect(out.before).toBe(plan.before);
    expect(out.index).toBe(shared);
    expect(out.def).toBe(def);
    expect(plan.condition.value).toBe(sentinel);
    const other = liftLiterals("SELECT a FROM t WHERE s = 'miscellaneous'")!;
    expect(samePlan(substitute(plan, bindLiterals(subs, other), hot), { ...out, condition: { value: 'miscellaneous', src: { text: "s = 'miscellaneous'", line: 1, column: 23 } }, after: { line: 1, column: 43 } })).toBe(true); // prettier-ignore
  });

  it('refuses a folded, embedded or hidden sentinel', () => {
    expect(substitute({ value: 'folded' }, subs)).toBeNull();
    expect(substitute({ value: sentinel, other: `${sentinel}x` }, subs)).toBeNull();
    expect(substitute({ value: sentinel, f: () => sentinel }, subs)).toBeNull();
    class Node {
      constructor(readonly v: string) {}
    }
    expect(substitute({ value: sentinel, n: new Node('x') }, subs)).toBeNull();
    // seen only in the analyzed plan: the optimizer folded it away
    expect(substitute({ analyzed: { value: sentinel }, optimized: { value: 'x' } }, subs)).toBeNull(); // prettier-ignore
  });
});
