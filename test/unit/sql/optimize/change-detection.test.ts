/**
 * The optimizer's change test (sameTree under runBatches): a rule that changes nothing, even by
 * rebuilding equal nodes, leaves the plan as it was and ends a fixpoint batch after one run; a
 * rule that changes something runs again until it stops changing the plan.
 */
import { describe, expect, it } from 'vitest';
import { runBatches, type Batch, type Transformation } from '../../../../src/sql/plan/rules.js';
import { sameTree } from '../../../../src/sql/plan/same-tree.js';
import { optimize } from '../../../../src/sql/optimize/index.js';
import { planText } from '../../../../src/sql/plan/explain.js';
import { plan } from '../translate/helpers.js';
import { fixtureConfig } from '../translate/fixture-catalog.js';

interface Node {
  readonly kind: 'N';
  readonly value: number;
  readonly kids: readonly Node[];
  readonly src: { readonly line: number };
}
const node = (value: number, kids: Node[] = [], line = 1): Node => ({
  kind: 'N',
  value,
  kids,
  src: { line },
});
const copy = (n: Node): Node => ({ ...n, kids: n.kids.map(copy), src: { line: n.src.line + 1 } });

function fixpoint(apply: (n: Node) => Node) {
  let runs = 0;
  const trace: Transformation[] = [];
  const batch: Batch<Node> = {
    name: 'B',
    limit: 'fixpoint',
    rules: [{ name: 'R', apply: (n) => (runs++, apply(n)) }],
  };
  return { runs: () => runs, trace, run: (n: Node) => runBatches(n, [batch], sameTree, trace) };
}

describe('sameTree', () => {
  it('holds for equal rebuilt trees (source positions aside) and fails on any field', () => {
    const t = node(1, [node(2), node(3, [node(4)])]);
    expect(sameTree(t, copy(t))).toBe(true);
    expect(sameTree(t, node(1, [node(2), node(3, [node(5)])]))).toBe(false);
    expect(sameTree(t, node(1, [node(2)]))).toBe(false);
    expect(sameTree({ a: 1 }, { a: 1, b: undefined })).toBe(false);
    expect(sameTree({ v: NaN }, { v: NaN })).toBe(true);
    // values of classes compare by reference
    expect(sameTree({ d: new Date(0) }, { d: new Date(0) })).toBe(false);
  });
});

describe('runBatches with sameTree', () => {
  it('keeps the given plan and stops after one run when a rule changes nothing', () => {
    const t = node(1, [node(2)]);
    const identity = fixpoint((n) => n);
    expect(identity.run(t)).toBe(t);
    expect(identity.runs()).toBe(1);
    expect(identity.trace).toEqual([]);

    const rebuild = fixpoint(copy);
    expect(rebuild.run(t)).toBe(t);
    expect(rebuild.runs()).toBe(1);
    expect(rebuild.trace).toEqual([]);
  });

  it('re-runs a changing rule until it reaches a fixpoint', () => {
    // each run lowers the deepest value over 0 by one: 3 + 2 changes, then one run to see none
    const lower = (n: Node): Node => {
      const kids = n.kids.map(lower);
      if (kids.some((k, i) => k !== n.kids[i])) return { ...n, kids };
      return n.value > 0 ? { ...n, value: n.value - 1 } : n;
    };
    const f = fixpoint(lower);
    const out = f.run(node(2, [node(3)]));
    expect(out).toEqual(node(0, [node(0)]));
    expect(f.runs()).toBe(6);
    expect(f.trace).toHaveLength(5);
  });

  it('stops a rule that keeps changing the plan at 100 runs', () => {
    const f = fixpoint((n) => ({ ...n, value: n.value + 1 }));
    expect(f.run(node(0)).value).toBe(100);
    expect(f.runs()).toBe(100);
  });
});

describe('optimize', () => {
  it('returns an already optimized plan as it is, recording no rule', () => {
    const p = plan('SELECT emp_no FROM test_emp WHERE emp_no > 1 AND emp_no <= 5 ORDER BY emp_no');
    const trace: Transformation[] = [];
    const again = optimize(p.optimized, fixtureConfig(), trace);
    expect(again).toBe(p.optimized);
    expect(planText(again)).toBe(planText(p.optimized));
    expect(trace).toEqual([]);
  });
});

describe('expression rules skipped when their node kinds are absent', () => {
  const rulesFired = (sql: string): string[] => {
    const trace: Transformation[] = [];
    optimize(plan(sql).analyzed, fixtureConfig(), trace);
    return trace.map((t) => t.rule);
  };

  it('leave a plan without those kinds as it is', () => {
    const p = plan('SELECT gender, AVG(salary) FROM test_emp GROUP BY gender');
    const trace: Transformation[] = [];
    expect(optimize(p.analyzed, fixtureConfig(), trace)).toBe(p.analyzed);
    expect(trace).toEqual([]);
  });

  it('still rewrite a plan holding their kinds', () => {
    expect(rulesFired('SELECT emp_no FROM test_emp WHERE NOT NOT emp_no > 1')).toContain(
      'BooleanSimplification',
    );
    expect(rulesFired('SELECT emp_no FROM test_emp WHERE 10 < emp_no')).toContain(
      'BooleanLiteralsOnTheRight',
    );
    expect(rulesFired('SELECT CAST(emp_no AS INTEGER) AS e FROM test_emp')).toContain('PruneCast');
    expect(rulesFired('SELECT COALESCE(NULL, emp_no) AS e FROM test_emp')).toContain(
      'SimplifyConditional',
    );
    expect(
      rulesFired('SELECT emp_no FROM test_emp WHERE emp_no > 1 AND emp_no < 5 AND salary > 3'),
    ).toContain('CombineBinaryComparisons');
    expect(
      rulesFired('SELECT CASE WHEN 1 > 2 THEN emp_no ELSE salary END AS c FROM test_emp'),
    ).toContain('SimplifyCase');
  });
});
