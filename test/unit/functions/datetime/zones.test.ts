import { describe, expect, it } from 'vitest';
import { EsError } from '../../../../src/common/errors.js';
import { parseOffset, zoneOf } from '../../../../src/functions/datetime/zones.js';

const failure = (f: () => unknown): { reason: string; status: number } => {
  try {
    f();
  } catch (e) {
    return { reason: (e as EsError).message, status: (e as EsError).status };
  }
  throw new Error('expected a failure');
};

describe('SQL zone offsets (java.time ZoneOffset.of)', () => {
  it('reads every offset form', () => {
    expect(['Z', '+5', '-05', '+0530', '+05:30', '-053015', '+05:30:15'].map(parseOffset)).toEqual([
      0, 18000, -18000, 19800, 19800, -19815, 19815,
    ]);
    expect(zoneOf('UTC+01:00').id).toBe('UTC+01:00');
  });

  it('names the part out of range as Java does, minutes and seconds included', () => {
    expect(failure(() => parseOffset('+19'))).toEqual({ reason: 'Zone offset hours not in valid range: value 19 is not in the range -18 to 18', status: 500 }); // prettier-ignore
    expect(failure(() => parseOffset('+01:60')).reason).toBe('Zone offset minutes not in valid range: value 60 is not in the range -59 to 59'); // prettier-ignore
    expect(failure(() => parseOffset('+01:00:61')).reason).toBe('Zone offset seconds not in valid range: value 61 is not in the range -59 to 59'); // prettier-ignore
    expect(failure(() => parseOffset('+18:01')).reason).toBe('Zone offset not in valid range: -18:00 to +18:00'); // prettier-ignore
    expect(failure(() => parseOffset('+1x')).reason).toBe('Invalid ID for ZoneOffset, invalid format: +1x'); // prettier-ignore
  });
});
