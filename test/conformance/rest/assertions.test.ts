import { describe, expect, it } from 'vitest';
import {
  assertCompare,
  assertContains,
  assertLength,
  assertMatch,
  firstDifference,
  isTruthy,
} from './assertions.js';
import { javaDoubleToString, javaToString } from './java-format.js';
import { NumberLiteral } from './json-value.js';

describe('is_true / is_false truthiness (Java toString)', () => {
  it('null, "", "0" and "false" in any case are false', () => {
    for (const v of [null, undefined, '', 0, '0', false, 'false', 'FALSE', 'False'])
      expect(isTruthy(v)).toBe(false);
  });

  it('everything else is true, including empty maps and lists and 0.5', () => {
    for (const v of [true, 1, -1, 0.5, 'x', 'no', {}, [], { a: 0 }, [0]])
      expect(isTruthy(v)).toBe(true);
  });
});

describe('match', () => {
  it('compares numbers as doubles at every depth', () => {
    expect(assertMatch('f', 1, 1.0)).toBeNull();
    expect(assertMatch('f', 2, 1)).not.toBeNull();
    expect(assertMatch('f', { a: [1, { b: 2.5 }] }, { a: [1.0, { b: 2.5 }] })).toBeNull();
    expect(assertMatch('f', 5, new NumberLiteral('5.0', true))).toBeNull();
  });

  it('does not equate numbers with strings or booleans', () => {
    expect(assertMatch('_id', '1', 1)?.message).toMatch(/_id didn't match expected value/);
    expect(assertMatch('f', 'true', true)).not.toBeNull();
  });

  it('requires exactly the same keys and list lengths', () => {
    expect(firstDifference({ a: 1, b: 2 }, { a: 1 }, 'x')).toMatch(/\[x\.b\] was not expected/);
    expect(firstDifference({ a: 1 }, { a: 1, b: 2 }, 'x')).toMatch(
      /\[x\.b\] expected \[2\] but was missing/,
    );
    expect(firstDifference([1, 2], [1], 'x')).toMatch(/list of 1 but was 2/);
    expect(firstDifference([1, 2], [2, 1], 'x')).toMatch(/\[x\.0\]/);
  });

  it('null expects null, and a null actual fails', () => {
    expect(assertMatch('f', null, null)).toBeNull();
    expect(assertMatch('f', 1, null)?.message).toBe('field [f] should be null but was [1]');
    expect(assertMatch('f', null, 1)?.message).toBe('field [f] is null');
  });

  it('/regex/ values need a string actual and use COMMENTS mode', () => {
    expect(assertMatch('$body', 'green 12\n', '/^ green \\s+ \\d+ \\n $/')).toBeNull();
    expect(assertMatch('f', 12, '/\\d+/')?.message).toMatch(/expected to be of type String/);
    expect(assertMatch('f', 'abc', '/^x/')?.message).toMatch(
      /expected to match the provided regex/,
    );
  });
});

describe('length', () => {
  it('counts string characters, list items and map keys', () => {
    expect(assertLength('f', 'abcd', 4)).toBeNull();
    expect(assertLength('f', [1, 2], 2)).toBeNull();
    expect(assertLength('f', { a: 1, b: 2, c: 3 }, '3')).toBeNull();
    expect(assertLength('f', [1], 2)?.message).toBe("field [f] doesn't have length [2]");
    expect(assertLength('f', null, 0)?.message).toMatch(/unsupported type \[null\]/);
  });
});

describe('gt / gte / lt / lte', () => {
  it('compares numbers numerically and strings lexicographically', () => {
    expect(assertCompare('gt', 'f', 2, 1)).toBeNull();
    expect(assertCompare('gt', 'f', 1, 1)?.message).toBe('field [f] is not greater than [1]');
    expect(assertCompare('gte', 'f', 1, 1)).toBeNull();
    expect(assertCompare('lt', 'f', 0.5, 1)).toBeNull();
    expect(assertCompare('lte', 'f', 2, 1)).not.toBeNull();
    expect(assertCompare('lt', 'f', 'abc', 'abd')).toBeNull();
  });

  it('fails on values of different kinds and on missing values', () => {
    expect(assertCompare('gt', 'f', '2', 1)?.message).toMatch(/cast error/);
    expect(assertCompare('gt', 'f', null, 1)?.message).toMatch(/is not comparable/);
  });
});

describe('contains', () => {
  it('finds an object with all the expected entries in a list', () => {
    const list = [{ a: 1, b: 2 }, { a: 3 }];
    expect(assertContains('f', list, { a: 3 })).toBeNull();
    expect(assertContains('f', list, { a: 1, b: 2 })).toBeNull();
    expect(assertContains('f', list, { a: 1, b: 3 })).not.toBeNull();
    expect(assertContains('f', list, { c: 1 })?.message).toMatch(/has keys: \[c\]/);
    expect(assertContains('f', {}, { a: 1 })?.message).toMatch(/only supports/);
  });
});

describe('Java formatting', () => {
  it('prints doubles as Double.toString does', () => {
    expect(javaDoubleToString(1)).toBe('1.0');
    expect(javaDoubleToString(1500)).toBe('1500.0');
    expect(javaDoubleToString(0.5)).toBe('0.5');
    expect(javaDoubleToString(1e7)).toBe('1.0E7');
    expect(javaDoubleToString(1.25e-5)).toBe('1.25E-5');
    expect(javaDoubleToString(0.001)).toBe('0.001');
    expect(javaDoubleToString(-0)).toBe('-0.0');
  });

  it('prints maps and lists as Map.toString / List.toString', () => {
    expect(javaToString({ type: 'x', root_cause: [{ a: 1 }], n: null })).toBe(
      '{type=x, root_cause=[{a=1}], n=null}',
    );
    expect(javaToString(2.5)).toBe('2.5');
    expect(javaToString(new NumberLiteral('1.0', true))).toBe('1.0');
  });
});
