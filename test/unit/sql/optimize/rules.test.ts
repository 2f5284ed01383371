/**
 * Optimizer rules seen through whole statements: FoldNull (functions and aggregates included),
 * ConstantFolding, BooleanSimplification, CombineBinaryComparisons into a range,
 * SimplifyConditional, SimplifyCase/IIF with the type recomputed, ReplaceAggregatesWithLiterals
 * with Mul's type, and PruneFilters.
 */
import { describe, expect, it } from 'vitest';
import { planText } from '../../../../src/sql/plan/explain.js';
import { columns, plan, translate } from '../translate/helpers.js';

const optimized = (sql: string) => planText(plan(sql).optimized).split('\n')[0]!;

describe('folding', () => {
  it('folds NULL arguments of operators, scalars and aggregates (Function.nullable)', () => {
    // all-constant: no query at all (SkipQueryIfFoldingProjection)
    expect(optimized('SELECT COUNT(NULL) c FROM test_emp')).toBe('LocalRelation[[null]]');
    expect(optimized('SELECT COUNT(NULL) c, COUNT(*) n FROM test_emp')).toContain('null AS c');
    expect(optimized('SELECT ABS(salary + NULL) a FROM test_emp')).toBe('Project[[null AS a#17]]');
    expect(columns('SELECT COUNT(NULL) c FROM test_emp')).toEqual(['c:LONG']);
  });

  it('keeps CONCAT with a NULL argument (Concat is not nullable)', () => {
    expect(optimized('SELECT CONCAT(first_name, NULL) c FROM test_emp')).toContain('CONCAT(');
  });

  it('folds constant expressions and drops an always-true WHERE', () => {
    const b = translate('SELECT 1 + 2 AS x, emp_no FROM test_emp WHERE 1 + 1 = 2');
    expect(b.query).toBeUndefined();
    expect(optimized('SELECT 1 + 2 AS x FROM test_emp')).toBe('Project[[3 AS x#17]]');
  });

  it('simplifies booleans and combines comparisons into one range', () => {
    const b = translate('SELECT emp_no FROM test_emp WHERE emp_no > 1 AND TRUE AND emp_no <= 5');
    expect(b.query).toEqual({
      range: {
        emp_no: { from: 1, to: 5, include_lower: false, include_upper: true, boost: 1.0 },
      },
    });
  });
});

describe('conditionals', () => {
  it('drops NULL arguments of COALESCE', () => {
    expect(optimized('SELECT COALESCE(NULL, gender) c FROM test_emp')).toBe(
      'Project[[COALESCE(gender{f}#11) AS c#17]]',
    );
  });

  it('retypes a CASE whose branches folded away', () => {
    const sql =
      'SELECT CASE WHEN NULL = 1 THEN emp_no WHEN 10 < 5 THEN emp_no ELSE languages END AS c FROM test_emp';
    expect(columns(sql)).toEqual(['c:BYTE']);
    expect(
      columns('SELECT CASE WHEN emp_no > 1 THEN emp_no ELSE languages END AS c FROM test_emp'),
    ).toEqual(['c:INTEGER']);
  });

  it('turns an IIF with a folded-away condition into its else branch, retyped', () => {
    expect(columns('SELECT IIF(NULL, emp_no, languages) i FROM test_emp')).toEqual(['i:BYTE']);
    expect(columns('SELECT IIF(10 > 5, emp_no, languages) i FROM test_emp')).toEqual(['i:INTEGER']);
    // IIF(NULL, x) is foldable (Case.foldable) and folds to a NULL of the IIF's type first
    expect(columns('SELECT IIF(NULL, emp_no) i FROM test_emp')).toEqual(['i:INTEGER']);
  });
});

describe('aggregates over literals', () => {
  it('rewrites SUM(literal) as IIF(COUNT(1) = 0, NULL, COUNT(1) * literal), a LONG', () => {
    expect(optimized('SELECT SUM(30) s FROM test_emp')).toBe(
      'Aggregate[[],[IIF(COUNT(1) = 0, null, COUNT(1) * 30) AS s#17]]',
    );
    expect(columns('SELECT SUM(30) s, MIN(123) m, AVG(2) a FROM test_emp')).toEqual([
      's:LONG',
      'm:INTEGER',
      'a:DOUBLE',
    ]);
  });

  it('rewrites COUNT(DISTINCT literal) as 0 or 1', () => {
    expect(optimized('SELECT COUNT(DISTINCT 5) c FROM test_emp')).toBe(
      'Aggregate[[],[IIF(COUNT(1) = 0, 0, 1) AS c#17]]',
    );
  });
});
