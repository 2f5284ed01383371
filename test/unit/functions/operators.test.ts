import { describe, expect, it } from 'vitest';
import { add, div, mod, mul, neg, sub } from '../../../src/functions/arithmetic.js';
import {
  and,
  compare,
  eq,
  gt,
  inList,
  lt,
  not,
  nulleq,
  or,
} from '../../../src/functions/comparison.js';
import { convert } from '../../../src/functions/convert.js';
import { isoDateTimeWithMillis, isoTimeWithMillis } from '../../../src/functions/datetime/iso.js';
import {
  compatibleInterval,
  intervalOf,
  parseInterval,
  parseIsoDuration,
  parseIsoPeriod,
} from '../../../src/functions/intervals.js';
import { javaToString } from '../../../src/functions/java-text.js';
import {
  like,
  likeToJavaPattern,
  likeToLuceneWildcard,
  rlike,
} from '../../../src/functions/like.js';
import { DateTimeValue, TimeValue } from '../../../src/functions/values.js';
import {
  zoneOf,
  parseOffset,
  offsetAt,
  localToEpochMillis,
} from '../../../src/functions/datetime/zones.js';
import { EsError } from '../../../src/common/errors.js';

function err(f: () => unknown): EsError {
  try {
    f();
  } catch (e) {
    if (e instanceof EsError) return e;
    throw e;
  }
  throw new Error('expected an error');
}

describe('arithmetic', () => {
  it('integer vs rational division and remainder', () => {
    expect(div(5, 2)).toBe(2);
    expect(div(-5, 2)).toBe(-2);
    expect(div(5, 2, 'DOUBLE')).toBe(2.5);
    expect(div(5.5, 2)).toBe(2.75);
    expect(mod(-7, 3)).toBe(-1);
    expect(mod(7.5, 2)).toBe(1.5);
    expect(div(1, 0, 'DOUBLE')).toBe(Infinity);
    expect(err(() => div(1, 0)).reason).toBe('/ by zero');
    expect(err(() => mod(1, 0, 'INTEGER')).reason).toBe('/ by zero');
  });
  it('overflows like Math.addExact', () => {
    expect(err(() => add(2147483647, 1, 'INTEGER')).reason).toBe('integer overflow');
    expect(add(2147483647, 1, 'LONG')).toBe(2147483648);
    expect(err(() => mul(2 ** 62, 4, 'LONG')).reason).toBe('long overflow');
    expect(err(() => neg(-2147483648, 'INTEGER')).reason).toBe('integer overflow');
    expect(Object.is(neg(0, 'INTEGER'), 0)).toBe(true);
  });
  it('null in, null out and type errors', () => {
    expect(add(null, 1)).toBeNull();
    expect(err(() => div('a', 1)).reason).toBe('A number is required; received a');
    expect(err(() => add(true, 1)).reason).toBe('Cannot compute [+] between [Boolean] [Long]');
  });
  it('datetime and time +/- intervals', () => {
    const dt = convert('2020-01-31T10:00:00Z', 'DATETIME') as DateTimeValue;
    expect(
      isoDateTimeWithMillis(add(dt, parseInterval('1', 'INTERVAL_MONTH')) as DateTimeValue),
    ).toBe('2020-02-29T10:00:00.000Z');
    expect(
      isoDateTimeWithMillis(
        sub(dt, parseInterval('1 02:00', 'INTERVAL_DAY_TO_MINUTE')) as DateTimeValue,
      ),
    ).toBe('2020-01-30T08:00:00.000Z');
    expect(
      isoDateTimeWithMillis(add(intervalOf(2, 'HOUR', 'INTERVAL_HOUR'), dt) as DateTimeValue),
    ).toBe('2020-01-31T12:00:00.000Z');
    const t = new TimeValue(23 * 3600e9, 0);
    expect(isoTimeWithMillis(add(t, parseInterval('2', 'INTERVAL_HOUR')) as TimeValue)).toBe(
      '01:00:00.000Z',
    );
    expect(add(t, parseInterval('1', 'INTERVAL_YEAR'))).toBe(t);
    expect(err(() => sub(parseInterval('1', 'INTERVAL_DAY'), dt)).reason).toBe(
      'Cannot subtract a date from an interval; do you mean the reverse?',
    );
  });
  it('keeps the zone and the local time across a DST change for date units', () => {
    const berlin = zoneOf('Europe/Berlin');
    const before = new DateTimeValue(Date.UTC(2020, 2, 28, 11), 0, berlin); // 12:00 CET
    const plusDay = add(before, parseInterval('1', 'INTERVAL_DAY')) as DateTimeValue;
    expect(isoDateTimeWithMillis(plusDay)).toBe('2020-03-29T13:00:00.000+02:00'); // 24h later on the instant
    const plusMonth = add(before, parseInterval('1', 'INTERVAL_MONTH')) as DateTimeValue;
    expect(isoDateTimeWithMillis(plusMonth)).toBe('2020-04-28T12:00:00.000+02:00');
  });
});

describe('intervals', () => {
  it('parses ES literal text', () => {
    expect(javaToString(parseInterval('1 02:03:04.5', 'INTERVAL_DAY_TO_SECOND'))).toBe(
      '+1 02:03:04.5',
    );
    expect(javaToString(parseInterval('-1-2', 'INTERVAL_YEAR_TO_MONTH'))).toBe('-1-2');
    expect(javaToString(parseInterval('90', 'INTERVAL_MINUTE'))).toBe('+0 01:30:00');
    // 1.05 is 1s 50ms; ES strips trailing zeros from the millis and prints ".5" (sic)
    expect(javaToString(parseInterval('1.05', 'INTERVAL_SECOND'))).toBe('+0 00:00:01.5');
    expect(javaToString(parseInterval('1.123', 'INTERVAL_SECOND'))).toBe('+0 00:00:01.123');
  });
  it('reports ES parsing errors', () => {
    expect(err(() => parseInterval('1-12', 'INTERVAL_YEAR_TO_MONTH')).reason).toBe(
      'Invalid [INTERVAL YEAR TO MONTH] value [1-12]: [MONTH] unit has illegal value [12], expected a positive number up to [11]',
    );
    expect(err(() => parseInterval('1 2', 'INTERVAL_DAY_TO_MINUTE')).reason).toBe(
      'Invalid [INTERVAL DAY TO MINUTE] value [1 2]: incorrect format, expecting [numeric] [numeric]:[numeric]',
    );
    expect(err(() => parseInterval('1x', 'INTERVAL_DAY')).reason).toBe(
      'Invalid [INTERVAL DAY] value [1x]: unexpected trailing characters found [x]',
    );
    expect(err(() => parseInterval('1:x', 'INTERVAL_HOUR_TO_MINUTE')).reason).toBe(
      'Invalid [INTERVAL HOUR TO MINUTE] value [1:x]: expected digit (at [2]) but found [x]',
    );
  });
  it('widens compatible interval types', () => {
    expect(compatibleInterval('INTERVAL_YEAR', 'INTERVAL_MONTH')).toBe('INTERVAL_YEAR_TO_MONTH');
    expect(compatibleInterval('INTERVAL_HOUR', 'INTERVAL_DAY_TO_MINUTE')).toBe(
      'INTERVAL_DAY_TO_MINUTE',
    );
    expect(compatibleInterval('INTERVAL_MINUTE_TO_SECOND', 'INTERVAL_HOUR')).toBe(
      'INTERVAL_HOUR_TO_SECOND',
    );
    expect(compatibleInterval('INTERVAL_YEAR', 'INTERVAL_DAY')).toBeNull();
  });
  it('reads ISO forms', () => {
    expect(javaToString(parseIsoPeriod('P1Y2M', 'INTERVAL_YEAR_TO_MONTH'))).toBe('+1-2');
    expect(javaToString(parseIsoDuration('PT26H3M4.5S', 'INTERVAL_DAY_TO_SECOND'))).toBe(
      '+1 02:03:04.5',
    );
    expect(javaToString(parseIsoDuration('-PT1S', 'INTERVAL_SECOND'))).toBe('-0 00:00:01');
  });
  it('multiplies component-wise', () => {
    expect(javaToString(mul(parseInterval('1-6', 'INTERVAL_YEAR_TO_MONTH'), 3))).toBe('+3-18');
    expect(
      javaToString(
        add(parseInterval('1-6', 'INTERVAL_YEAR_TO_MONTH'), parseInterval('7', 'INTERVAL_MONTH')),
      ),
    ).toBe('+2-1');
  });
});

describe('comparison and logic', () => {
  it('compares like ql Comparisons', () => {
    expect(compare(1, 1.0)).toBe(0);
    expect(compare('a', 'b')).toBe(-1);
    expect(compare('a', 1)).toBeNull();
    expect(compare(false, true)).toBe(-1);
    expect(eq(NaN, NaN)).toBe(true);
    expect(lt(-0, 0)).toBe(true);
    expect(gt(null, 1)).toBeNull();
    expect(nulleq(1, 'a')).toBe(false);
  });
  it('orders datetimes by instant and times by normalised time', () => {
    const a = new DateTimeValue(1000, 0, zoneOf('+01:00'));
    const b = new DateTimeValue(1000, 0, zoneOf('Z'));
    expect(compare(a, b)).toBe(1); // same instant, later local time
    // OffsetTime.compareTo: same instant, then the local time decides
    expect(compare(new TimeValue(10 * 3600e9, 3600), new TimeValue(9 * 3600e9, 0))).toBe(1);
    expect(compare(new TimeValue(9 * 3600e9, 3600), new TimeValue(9 * 3600e9, 0))).toBe(-1);
  });
  it('three-valued logic and IN', () => {
    expect(and(false, null)).toBe(false);
    expect(and(true, null)).toBeNull();
    expect(or(true, null)).toBe(true);
    expect(or(false, null)).toBeNull();
    expect(not(null)).toBeNull();
    expect(inList(1, [2, null, 1])).toBe(true);
    expect(inList(3, [2, null])).toBeNull();
    expect(inList(3, [2])).toBe(false);
    expect(err(() => and(1, true)).reason).toBe('A boolean is required; received 1');
  });
});

describe('LIKE / RLIKE', () => {
  it('translates LIKE patterns', () => {
    expect(likeToJavaPattern('a%b_c.')).toBe('^a.*b.c\\.$');
    expect(likeToJavaPattern('100!%', '!')).toBe('^100%$');
    expect(likeToLuceneWildcard('a%b_*', null)).toBe('a*b?\\*');
    expect(err(() => likeToJavaPattern('a!', '!')).reason).toBe(
      'Invalid sequence - escape character is not followed by special wildcard char',
    );
    expect(err(() => likeToJavaPattern('!a', '!')).reason).toBe(
      'Invalid sequence - escape character is not followed by special wildcard char',
    );
  });
  it('matches whole values', () => {
    expect(like('Elastic', 'El%')).toBe(true);
    expect(like('Elastic', 'el%')).toBe(false);
    expect(like('a\nb', 'a_b')).toBe(false);
    expect(like(null, '%')).toBeNull();
    expect(rlike('abc', 'b')).toBe(false);
    expect(rlike('abc', '.*b.*')).toBe(true);
    expect(rlike('aaa', 'a++')).toBe(true);
  });
});

describe('zones', () => {
  it('parses Java zone ids', () => {
    expect(zoneOf('Z').id).toBe('Z');
    expect(zoneOf('+01:00').fixedOffset).toBe(3600);
    expect(zoneOf('+1').id).toBe('+01:00');
    expect(zoneOf('-0530').id).toBe('-05:30');
    expect(zoneOf('UTC').id).toBe('UTC');
    expect(zoneOf('GMT+2').id).toBe('GMT+02:00');
    expect(zoneOf('Europe/Berlin').fixedOffset).toBeNull();
    expect(parseOffset('+05:30:15')).toBe(19815);
    expect(err(() => zoneOf('Mars/Olympus')).reason).toBe('Unknown time-zone ID: Mars/Olympus');
    expect(err(() => zoneOf('+25')).reason).toContain('not in the range');
    expect(err(() => zoneOf('europe/berlin')).reason).toBe('Unknown time-zone ID: europe/berlin');
  });
  it('resolves offsets and local times through transitions', () => {
    const ny = zoneOf('America/New_York');
    expect(offsetAt(ny, Date.UTC(2020, 0, 1))).toBe(-18000);
    expect(offsetAt(ny, Date.UTC(2020, 6, 1))).toBe(-14400);
    // 2020-03-08 02:30 does not exist in New York: moved forward by the gap
    expect(localToEpochMillis(ny, Date.UTC(2020, 2, 8, 2, 30))).toBe(Date.UTC(2020, 2, 8, 7, 30));
    // 2020-11-01 01:30 happens twice: the earlier offset wins
    expect(localToEpochMillis(ny, Date.UTC(2020, 10, 1, 1, 30))).toBe(Date.UTC(2020, 10, 1, 5, 30));
    expect(localToEpochMillis(ny, Date.UTC(2020, 10, 1, 1, 30), -18000)).toBe(
      Date.UTC(2020, 10, 1, 6, 30),
    );
    expect(offsetAt(zoneOf('Asia/Kolkata'), Date.UTC(2020, 0, 1))).toBe(19800);
  });
});
