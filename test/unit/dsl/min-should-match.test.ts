import { describe, expect, it } from 'vitest';
import { minShouldMatch } from '../../../src/dsl/min-should-match.js';
import { isEsError } from '../../../src/common/errors.js';

function error(spec: string, n: number): { type: string; reason: string | null; status: number } {
  try {
    minShouldMatch(spec, n);
  } catch (e) {
    if (isEsError(e)) return { type: e.type, reason: e.reason, status: e.status };
    throw e;
  }
  throw new Error('expected an error');
}

describe('minShouldMatch (ES Queries.calculateMinShouldMatch)', () => {
  const cases: Array<[string | number, number, number]> = [
    // integers (may exceed the clause count) and negative integers (clamped at 0)
    ['3', 5, 3],
    ['3', 2, 3],
    [3, 5, 3],
    ['+2', 5, 2],
    ['0', 5, 0],
    ['-2', 5, 3],
    [-1, 3, 2],
    ['-2', 1, 0],
    // percentages round down, negative percentages subtract the truncated share
    ['75%', 4, 3],
    ['75%', 5, 3],
    ['33%', 3, 0],
    ['100%', 7, 7],
    ['-25%', 4, 3],
    ['-25%', 5, 4],
    ['-100%', 5, 0],
    ['200%', 3, 6],
    // conditional specs
    ['3<90%', 3, 3],
    ['3<90%', 2, 2],
    ['3<90%', 4, 3],
    ['3<90%', 10, 9],
    ['2<-25% 9<-3', 1, 1],
    ['2<-25% 9<-3', 2, 2],
    ['2<-25% 9<-3', 3, 3],
    ['2<-25% 9<-3', 4, 3],
    ['2<-25% 9<-3', 9, 7],
    ['2<-25% 9<-3', 10, 7],
    ['2<-25% 9<-3', 12, 9],
    [' 3 < 90% ', 10, 9],
    ['3 <90%', 10, 9],
    ['3< 90%', 10, 9],
    ['3<-4', 3, 3],
    ['3<-4', 5, 1],
    ['3<-6', 5, 0],
    ['5<2', 3, 3],
  ];
  for (const [spec, n, want] of cases) {
    it(`${JSON.stringify(spec)} of ${n} -> ${want}`, () =>
      expect(minShouldMatch(spec, n)).toBe(want));
  }

  it('bad specs fail like ES (Java exceptions)', () => {
    expect(error('abc', 3)).toEqual({
      type: 'number_format_exception',
      reason: 'For input string: "abc"',
      status: 400,
    });
    expect(error('50%x', 3).reason).toBe('For input string: "50%"');
    expect(error('<3', 5).reason).toBe('For input string: ""');
    expect(error('2.5', 5).reason).toBe('For input string: "2.5"');
    expect(error('', 5).reason).toBe('For input string: ""');
    expect(error('2<-25%  9<-3', 10).reason).toBe('For input string: ""');
    expect(error('99999999999', 5).reason).toBe('For input string: "99999999999"');
    expect(error('3<', 5)).toEqual({
      type: 'array_index_out_of_bounds_exception',
      reason: 'Index 1 out of bounds for length 1',
      status: 500,
    });
  });

  it('a conditional spec stops at the first bound not exceeded', () => {
    // later pairs are not even parsed once a bound holds
    expect(minShouldMatch('9<-3 x<y', 5)).toBe(5);
  });
});
