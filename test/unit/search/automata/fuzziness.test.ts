import { describe, expect, it } from 'vitest';
import {
  AUTO,
  asDistance,
  autoFuzziness,
  editsFor,
  parseFuzziness,
} from '../../../../src/search/automata/fuzziness.js';
import { isEsError } from '../../../../src/common/errors.js';

function error(f: () => unknown): Record<string, unknown> {
  try {
    f();
  } catch (e) {
    if (isEsError(e)) return e.toErrorObject();
  }
  throw new Error('expected an error');
}

describe('ES Fuzziness', () => {
  it('AUTO: 0 edits under 3 code points, 1 under 6, else 2', () => {
    expect(
      ['', 'a', 'ab', 'abc', 'abcde', 'abcdef', 'abcdefghij'].map((t) => autoFuzziness(t)),
    ).toEqual([0, 0, 0, 1, 1, 2, 2]);
    expect(autoFuzziness('😀😀')).toBe(0); // two code points, four UTF-16 units
    expect(autoFuzziness('abcd', 2, 4)).toBe(2);
    expect(autoFuzziness('a', 2, 4)).toBe(0);
  });
  it('parses 0|1|2|"AUTO"|"AUTO:3,6"|"1" and friends', () => {
    expect(parseFuzziness('AUTO')).toEqual(AUTO);
    expect(parseFuzziness('auto')).toEqual(AUTO);
    expect(parseFuzziness('AUTO:3,6')).toEqual(AUTO);
    expect(parseFuzziness('Auto:1,4')).toEqual({ auto: true, low: 1, high: 4 });
    expect(parseFuzziness('AUTO:2,2')).toEqual({ auto: true, low: 2, high: 2 });
    for (const v of [0, 1, 2, '0', '1', '2']) {
      expect(asDistance(parseFuzziness(v), 'whatever')).toBe(Number(v));
    }
    // other numbers clamp to 2 and truncate (Math.min(2, (int) asFloat()))
    expect(asDistance(parseFuzziness(5), 'x')).toBe(2);
    expect(asDistance(parseFuzziness('1.5'), 'x')).toBe(1);
    expect(asDistance(parseFuzziness(0.7), 'x')).toBe(0);
    expect(asDistance(parseFuzziness('-1'), 'x')).toBe(-1);
    // AUTO on a missing text assumes 5 code points
    expect(asDistance(AUTO)).toBe(1);
    expect(asDistance(parseFuzziness('AUTO:1,4'), 'abcd')).toBe(2);
  });
  it('ES errors', () => {
    expect(error(() => parseFuzziness('AUTO:3'))).toMatchObject({
      type: 'parse_exception',
      reason: 'failed to find low and high distance values',
    });
    expect(error(() => parseFuzziness('AUTO:'))).toMatchObject({ type: 'parse_exception' });
    expect(error(() => parseFuzziness('AUTO:a,6'))).toMatchObject({
      type: 'parse_exception',
      reason: 'failed to parse [AUTO:a,6] as a "auto:int,int"',
      caused_by: { type: 'number_format_exception', reason: 'For input string: "a"' },
    });
    expect(error(() => parseFuzziness('AUTO:6,3'))).toMatchObject({
      type: 'illegal_argument_exception',
      reason:
        'fuzziness wrongly configured, must be: lowDistance > 0, highDistance > 0 and lowDistance <= highDistance ',
    });
    expect(error(() => parseFuzziness(''))).toMatchObject({
      type: 'illegal_argument_exception',
      reason: "fuzziness can't be null!",
    });
    // non-numeric values are accepted, then fail when used (asFloat on the upper-cased text)
    const bad = parseFuzziness('abc');
    expect(error(() => asDistance(bad, 'x'))).toMatchObject({
      type: 'number_format_exception',
      reason: 'For input string: "ABC"',
    });
    expect(error(() => editsFor(parseFuzziness(-1), 'x'))).toMatchObject({
      type: 'illegal_argument_exception',
      reason: 'Valid edit distances are [0, 1, 2] but was [-1]',
    });
    expect(editsFor(AUTO, 'abcdef')).toBe(2);
  });
});
