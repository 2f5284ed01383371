import { describe, expect, it } from 'vitest';
import { parseJavaDigits, type DigitsSpec } from '../../../../src/common/dates/java-digits.js';

const parse = (text: string, spec: Partial<DigitsSpec>, at = 0) => {
  const out = { value: NaN, start: -1 };
  const full: DigitsSpec = { sign: 'NORMAL', min: 1, max: 19, subsequentWidth: 0, ...spec };
  const end = parseJavaDigits(text, at, full, out);
  return end < 0 ? { error: ~end } : { end, value: out.value, start: out.start };
};

describe('java.time number parsing (strict)', () => {
  it('reads min..max digits and leaves the adjacent values their width', () => {
    expect(parse('2024x', { min: 4, max: 4 })).toEqual({ end: 4, value: 2024, start: 0 });
    // yyyyMMdd: the year takes what the 4 digits after it leave
    expect(parse('20240131', { min: 4, max: 10, subsequentWidth: 4 })).toEqual({ end: 4, value: 2024, start: 0 }); // prettier-ignore
    expect(parse('12', { min: 3, max: 3 })).toEqual({ error: 0 });
  });

  it('takes a sign only as the SignStyle allows', () => {
    expect(parse('-5', { sign: 'NORMAL' })).toEqual({ end: 2, value: -5, start: 1 });
    expect(parse('+5', { sign: 'NORMAL' })).toEqual({ error: 0 });
    expect(parse('-5', { sign: 'NOT_NEGATIVE' })).toEqual({ error: 0 });
    expect(parse('5', { sign: 'ALWAYS' })).toEqual({ error: 0 });
    expect(parse('-0', { sign: 'NORMAL' })).toEqual({ error: 0 });
    // EXCEEDS_PAD: a '+' only on values wider than the pad, and then it is required
    expect(parse('+12345', { sign: 'EXCEEDS_PAD', min: 4 })).toEqual({ end: 6, value: 12345, start: 1 }); // prettier-ignore
    expect(parse('+1234', { sign: 'EXCEEDS_PAD', min: 4 })).toEqual({ error: 0 });
    expect(parse('12345', { sign: 'EXCEEDS_PAD', min: 4 })).toEqual({ error: 0 });
  });
});
