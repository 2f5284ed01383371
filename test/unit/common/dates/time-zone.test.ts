// Joda DateTimeZone.forID / java ZoneId.of rules and transition semantics used by ES roundings.
import { describe, expect, it } from 'vitest';
import { UTC, fixedOffsetZone, printOffset, timeZone } from '../../../../src/common/dates/index.js';
import { EsError } from '../../../../src/common/errors.js';

const H = 3_600_000;
const error = (f: () => unknown): EsError => {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(EsError);
    return e as EsError;
  }
  throw new Error('expected an error');
};

describe('timeZone (Joda forID)', () => {
  it('accepts UTC, offsets and region ids', () => {
    expect(timeZone('UTC')).toBe(UTC);
    expect(timeZone('+01:00').id).toBe('+01:00');
    expect(timeZone('+01:00').offsetAt(0)).toBe(H);
    expect(timeZone('-0800').id).toBe('-08:00');
    expect(timeZone('+05').id).toBe('+05:00');
    expect(timeZone('+05:45:30').id).toBe('+05:45:30');
    expect(timeZone('-00:00')).toBe(UTC);
    expect(timeZone('+0000')).toBe(UTC);
    expect(timeZone('Europe/Paris').id).toBe('Europe/Paris');
    expect(timeZone('America/New_York').fixed).toBe(false);
    expect(timeZone('EST').offsetAt(Date.UTC(2020, 6, 1))).toBe(-5 * H);
    expect(timeZone('CET').offsetAt(Date.UTC(2020, 6, 1))).toBe(2 * H);
    expect(timeZone('Etc/GMT+5').offsetAt(0)).toBe(-5 * H);
  });

  it('rejects unknown ids with Joda wording', () => {
    for (const id of ['Z', 'europe/paris', 'Foo/Bar', 'utc', '']) {
      const e = error(() => timeZone(id));
      expect(e.type).toBe('illegal_argument_exception');
      expect(e.reason).toBe(`The datetime zone id '${id}' is not recognised`);
    }
    expect(error(() => timeZone('+1')).reason).toBe('Invalid format: "+1" is malformed at "1"');
    expect(error(() => timeZone('+24:00')).reason).toBe(
      'Invalid format: "+24:00" is malformed at "24:00"',
    );
    expect(error(() => timeZone('+01:00x')).reason).toBe(
      'Invalid format: "+01:00x" is malformed at "x"',
    );
  });

  it('knows offsets and transitions (Joda next/previousTransition semantics)', () => {
    const paris = timeZone('Europe/Paris');
    const spring = Date.UTC(2014, 2, 30, 1);
    const fall = Date.UTC(2014, 9, 26, 1);
    expect(paris.offsetAt(spring - 1)).toBe(H);
    expect(paris.offsetAt(spring)).toBe(2 * H);
    expect(paris.nextTransition(Date.UTC(2014, 0, 1))).toBe(spring);
    expect(paris.nextTransition(spring)).toBe(fall);
    expect(paris.previousTransition(Date.UTC(2014, 5, 1))).toBe(spring - 1);
    expect(paris.previousTransition(spring)).toBe(spring - 1);
    // far future uses the recurring rules
    expect(paris.offsetAt(Date.UTC(3000, 6, 1))).toBe(2 * H);
    expect(paris.nextTransition(Date.UTC(3000, 0, 1))).toBe(Date.UTC(3000, 2, 30, 1));
    // local mean time before standard time
    expect(paris.offsetAt(Date.UTC(1850, 0, 1))).toBe(561_000);
    const ktm = timeZone('Asia/Kathmandu');
    expect(ktm.offsetAt(Date.UTC(2020, 0, 1))).toBe(5.75 * H);
    expect(ktm.previousTransition(Date.UTC(2020, 0, 1))).toBe(Date.UTC(1985, 11, 31, 18, 30) - 1);
    expect(ktm.nextTransition(Date.UTC(2020, 0, 1))).toBe(Date.UTC(2020, 0, 1));
    const lh = timeZone('Australia/Lord_Howe');
    expect(lh.offsetAt(Date.UTC(2020, 0, 1))).toBe(11 * H);
    expect(lh.offsetAt(Date.UTC(2020, 6, 1))).toBe(10.5 * H);
    expect(UTC.nextTransition(5)).toBe(5);
  });

  it('converts local times like Joda (gaps forward, overlaps per algorithm)', () => {
    const paris = timeZone('Europe/Paris');
    // getOffsetFromLocal: overlap -> earlier instant, gap -> after the gap
    expect(paris.offsetFromLocal(Date.UTC(2014, 9, 26, 2, 30))).toBe(2 * H);
    // in the spring gap the previous offset is kept: 02:30 -> 01:30Z (03:30 CEST)
    expect(paris.offsetFromLocal(Date.UTC(2014, 2, 30, 2, 30))).toBe(H);
    // convertLocalToUTC(non strict): east of UTC the overlap resolves to the later instant
    expect(paris.localToUtc(Date.UTC(2014, 9, 26, 2, 30))).toBe(Date.UTC(2014, 9, 26, 1, 30));
    expect(
      paris.localToUtc(Date.UTC(2014, 9, 26, 2, 30), false, Date.UTC(2014, 9, 26, 0, 10)),
    ).toBe(Date.UTC(2014, 9, 26, 0, 30));
    expect(() => paris.localToUtc(Date.UTC(2014, 2, 30, 2, 30), true)).toThrow(
      "Illegal instant due to time zone offset transition (daylight savings time 'gap'): 2014-03-30T02:30:00.000 (Europe/Paris)",
    );
    const ny = timeZone('America/New_York');
    expect(ny.localToUtc(Date.UTC(2014, 2, 9, 2, 30))).toBe(Date.UTC(2014, 2, 9, 7, 30));
    expect(ny.localToUtc(Date.UTC(2014, 10, 2, 1, 30))).toBe(Date.UTC(2014, 10, 2, 5, 30));
  });

  it('prints offsets like Joda', () => {
    expect(printOffset(0)).toBe('+00:00');
    expect(printOffset(-5.5 * H)).toBe('-05:30');
    expect(printOffset(561_000)).toBe('+00:09:21');
    expect(printOffset(1001)).toBe('+00:00:01.001');
    expect(fixedOffsetZone(0)).toBe(UTC);
    expect(fixedOffsetZone(H).id).toBe('+01:00');
  });

  it('has display names', () => {
    expect(timeZone('Europe/Paris').shortName(Date.UTC(2020, 0, 1))).toBe('CET');
    expect(timeZone('America/New_York').shortName(Date.UTC(2020, 6, 1))).toBe('EDT');
    expect(UTC.shortName(0)).toBe('UTC');
    expect(timeZone('+01:00').shortName(0)).toBe('+01:00');
  });
});

describe('timeZone (java ZoneId.of)', () => {
  it('accepts java spellings', () => {
    expect(timeZone('Z', 'java').id).toBe('Z');
    expect(timeZone('+1', 'java').id).toBe('+01:00');
    expect(timeZone('+01:00', 'java').offsetAt(0)).toBe(H);
    expect(timeZone('-0530', 'java').id).toBe('-05:30');
    expect(timeZone('+00:00', 'java').id).toBe('Z');
    expect(timeZone('UTC', 'java').id).toBe('UTC');
    expect(timeZone('GMT+2', 'java').id).toBe('GMT+02:00');
    expect(timeZone('UTC+05:30', 'java').offsetAt(0)).toBe(5.5 * H);
    expect(timeZone('Europe/Berlin', 'java').offsetAt(Date.UTC(2020, 3, 7))).toBe(2 * H);
  });

  it('rejects with java.time messages', () => {
    expect(error(() => timeZone('Foo/Bar', 'java')).reason).toBe('Unknown time-zone ID: Foo/Bar');
    expect(error(() => timeZone('Foo/Bar', 'java')).type).toBe('zone_rules_exception');
    expect(error(() => timeZone('+19', 'java')).reason).toBe(
      'Zone offset hours not in valid range: value 19 is not in the range -18 to 18',
    );
    expect(error(() => timeZone('+1x', 'java')).reason).toBe(
      'Invalid ID for ZoneOffset, invalid format: +1x',
    );
    expect(error(() => timeZone('1abc', 'java')).reason).toBe(
      'Invalid ID for region-based ZoneId, invalid format: 1abc',
    );
  });
});
