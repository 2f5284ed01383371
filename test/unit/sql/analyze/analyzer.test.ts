/**
 * The analyzer on the fixture catalog: table resolution (patterns, unknown indices), `*` expansion,
 * exact `.keyword` sub-fields, implicit grouping, ordinals and aliases in GROUP BY / ORDER BY,
 * HAVING over aggregates the SELECT lacks, ORDER BY a grouping after HAVING, and the verifier's
 * messages.
 */
import { describe, expect, it } from 'vitest';
import { planText } from '../../../../src/sql/plan/explain.js';
import { columns, failure, plan, translate } from '../translate/helpers.js';

describe('tables and columns', () => {
  it('expands * over test_emp in mapping order, with ES SQL types', () => {
    expect(columns('SELECT * FROM test_emp')).toEqual([
      'birth_date:DATETIME',
      'emp_no:INTEGER',
      'first_name:TEXT',
      'gender:KEYWORD',
      'hire_date:DATETIME',
      'languages:BYTE',
      'last_name:TEXT',
      'salary:INTEGER',
    ]);
  });

  it('resolves an index pattern to the merged mapping', () => {
    expect(columns('SELECT emp_no FROM "test_*"')).toEqual(['emp_no:INTEGER']);
    // 7.10 reads numbers from _source, keywords and dates from doc values
    const b = translate('SELECT emp_no, gender FROM "test_*"');
    expect(b._source).toEqual({ includes: ['emp_no'], excludes: [] });
    expect(b.docvalue_fields).toEqual([{ field: 'gender' }]);
  });

  it('reports unknown indices and columns with ES wording', () => {
    expect(failure('SELECT * FROM nope')).toEqual({
      type: 'verification_exception',
      reason: 'Found 1 problem\nline 1:15: Unknown index [nope]',
    });
    expect(failure('SELECT x FROM test_emp').reason).toBe(
      'Found 1 problem\nline 1:8: Unknown column [x]',
    );
    expect(failure('SELECT first_nme FROM test_emp').reason).toBe(
      'Found 1 problem\nline 1:8: Unknown column [first_nme], did you mean any of [first_name, last_name, first_name.keyword]?',
    );
  });
});

describe('exact fields', () => {
  it('groups, filters and sorts a text column on its keyword sub-field', () => {
    const b = translate(
      "SELECT first_name FROM test_emp WHERE first_name = 'Bob' GROUP BY first_name ORDER BY first_name DESC",
    );
    expect(b.query.term['first_name.keyword'].value).toBe('Bob');
    const source = b.aggregations.groupby.composite.sources[0];
    expect(Object.values(source)[0]).toMatchObject({
      terms: { field: 'first_name.keyword', missing_bucket: true, order: 'desc' },
    });
  });
});

describe('grouping', () => {
  it('makes an aggregate-only SELECT an implicit grouping', () => {
    const p = plan('SELECT COUNT(*), MAX(salary) FROM test_emp');
    if (p.analyzed.kind !== 'Aggregate') throw new Error('an Aggregate expected');
    expect(p.analyzed.groupings).toEqual([]);
    expect(columns('SELECT COUNT(*), MAX(salary) FROM test_emp')).toEqual([
      'COUNT(*):LONG',
      'MAX(salary):INTEGER',
    ]);
  });

  it('resolves GROUP BY and ORDER BY ordinals and aliases', () => {
    const byOrdinal = translate(
      'SELECT gender g, COUNT(*) c FROM test_emp GROUP BY 1 ORDER BY 1 DESC',
    );
    const byAlias = translate(
      'SELECT gender g, COUNT(*) c FROM test_emp GROUP BY g ORDER BY g DESC',
    );
    expect(byOrdinal).toEqual(byAlias);
    expect(Object.values(byAlias.aggregations.groupby.composite.sources[0])[0]).toMatchObject({
      terms: { field: 'gender', order: 'desc' },
    });
    expect(failure('SELECT gender FROM test_emp GROUP BY 3').reason).toBe(
      'Found 1 problem\nline 1:38: Invalid ordinal [3] specified in [GROUP BY 3] (valid range is [1, 1])',
    );
  });

  it('rejects non-grouped columns with ES wording', () => {
    expect(failure('SELECT first_name, COUNT(*) FROM test_emp GROUP BY gender').reason).toBe(
      'Found 1 problem\nline 1:8: Cannot use non-grouped column [first_name], expected [gender]',
    );
    expect(failure('SELECT gender FROM test_emp GROUP BY gender ORDER BY emp_no').reason).toBe(
      'Found 1 problem\nline 1:54: Cannot order by non-grouped column [emp_no], expected [gender]',
    );
  });

  it('adds HAVING aggregates the SELECT lacks and projects them away', () => {
    const sql = 'SELECT gender FROM test_emp GROUP BY gender HAVING AVG(salary) > 50000';
    expect(columns(sql)).toEqual(['gender:KEYWORD']);
    expect(planText(plan(sql).analyzed)).toContain('AVG(salary)');
    const b = translate(sql);
    const subs = b.aggregations.groupby.aggregations;
    expect(Object.values(subs).some((a: any) => a.avg?.field === 'salary')).toBe(true);
    expect(Object.values(subs).some((a: any) => a.bucket_selector !== undefined)).toBe(true);
  });

  it('orders by a grouping column after HAVING added hidden aggregates', () => {
    const sql =
      'SELECT MIN(salary) mi, COUNT(*) c FROM test_emp GROUP BY languages HAVING TRUNCATE(AVG(salary)) > 40000 ORDER BY languages';
    expect(columns(sql)).toEqual(['mi:INTEGER', 'c:LONG']);
    const source = translate(sql).aggregations.groupby.composite.sources[0];
    expect(Object.values(source)[0]).toMatchObject({ terms: { field: 'languages', order: 'asc' } });
  });
});
