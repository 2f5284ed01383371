import { describe, expect, it } from 'vitest';
import {
  evaluateConditions,
  nextRolloverName,
  parseConditions,
} from '../../../src/engine/rollover.js';

describe('nextRolloverName', () => {
  it('increments the trailing number and pads it to six digits', () => {
    expect(nextRolloverName('logs-1')).toBe('logs-000002');
    expect(nextRolloverName('a-b-000009')).toBe('a-b-000010');
    expect(nextRolloverName('x-999999')).toBe('x-1000000');
  });
  it('refuses a name without a trailing number', () => {
    expect(() => nextRolloverName('logs')).toThrow(/does not match pattern/);
  });
});

describe('evaluateConditions', () => {
  const facts = { ageMs: 2 * 86_400_000, docs: 5, bytes: 0 };
  it('labels each condition as ES prints it, rolling over when any holds', () => {
    const c = parseConditions({ max_docs: 5, max_size: '1b', max_age: '7d' });
    expect(evaluateConditions(c, facts)).toEqual({
      results: { '[max_docs: 5]': true, '[max_size: 1b]': false, '[max_age: 7d]': false },
      roll: true,
    });
  });
  it('does not roll over when no condition holds, but does without conditions', () => {
    expect(evaluateConditions(parseConditions({ max_docs: 6 }), facts).roll).toBe(false);
    expect(evaluateConditions([], facts).roll).toBe(true);
  });
  it('refuses an unknown condition', () => {
    expect(() => parseConditions({ max_foo: 1 })).toThrow(/unknown rollover condition/);
  });
});
