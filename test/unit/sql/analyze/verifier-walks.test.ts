/**
 * The verifier finds unresolved names in one walk and runs its rarer checks only when their node
 * kinds occur: each check still reports, in ES's wording, when its kind is there.
 */
import { describe, expect, it } from 'vitest';
import { failure } from '../translate/helpers.js';

const reason = (sql: string) => failure(sql).reason;

describe('verifier', () => {
  it('reports unresolved names once, bottom-up, and not on the nodes above them', () => {
    expect(reason('SELECT x FROM test_emp GROUP BY y')).toBe(
      'Found 2 problems\nline 1:33: Unknown column [y]\nline 1:8: Unknown column [x]',
    );
    expect(reason('SELECT emp_no FROM nope')).toBe(
      'Found 1 problem\nline 1:20: Unknown index [nope]',
    );
  });

  it('runs the checks whose node kinds occur', () => {
    expect(reason('SELECT KURTOSIS(salary + 1) FROM test_emp')).toBe(
      'Found 1 problem\nline 1:17: [KURTOSIS()] cannot be used on top of operators or scalars',
    );
    expect(reason('SELECT ABS(SCORE()) FROM test_emp')).toBe(
      'Found 1 problem\nline 1:12: [SCORE()] cannot be an argument to a function',
    );
    expect(reason("SELECT MATCH(first_name, 'x') AS m FROM test_emp")).toBe(
      'Found 1 problem\nline 1:8: Cannot use MATCH() or QUERY() full-text search functions in the SELECT clause',
    );
    expect(reason('SELECT HISTOGRAM(salary, 100) FROM test_emp')).toBe(
      'Found 1 problem\nline 1:8: [HISTOGRAM(salary, 100)] needs to be part of the grouping',
    );
  });
});
