import { describe, expect, it } from 'vitest';
import {
  dateTimeFormat,
  dateTimeParse,
  dateParse,
  timeParse,
} from '../../../../src/functions/datetime/format-parse.js';
import {
  isoDateTimeWithMillis,
  isoTimeWithMillis,
} from '../../../../src/functions/datetime/iso.js';
import { ofPattern } from '../../../../src/functions/datetime/pattern.js';
import { DateTimeValue, TimeValue } from '../../../../src/functions/values.js';
import { zoneOf } from '../../../../src/functions/datetime/zones.js';
import { EsError } from '../../../../src/common/errors.js';

const at = (y: number, mo: number, d: number, h = 0, mi = 0, s = 0, ms = 0, zone = 'Z') =>
  new DateTimeValue(Date.UTC(y, mo - 1, d, h, mi, s, ms), 0, zoneOf(zone));

function reason(f: () => unknown): string | null {
  try {
    f();
  } catch (e) {
    return e instanceof EsError ? e.reason : String(e);
  }
  return 'no error';
}

describe('DATETIME_FORMAT patterns (java.time DateTimeFormatter, Locale.ROOT)', () => {
  const dt = at(2020, 4, 5, 11, 22, 33, 123);
  it.each([
    ['uuuu-MM-dd', '2020-04-05'],
    ['yy', '20'],
    ['y', '2020'],
    ['M MM MMM MMMM MMMMM', '4 04 Apr April A'],
    ['d dd D DDD', '5 05 96 096'],
    ['E EEEE EEEEE', 'Sun Sunday S'],
    ['e c', '1 1'],
    ['a h hh K k H', 'AM 11 11 11 11 11'],
    ['m s S SS SSS SSSS n', '22 33 1 12 123 1230 123000000'],
    ['A N', '40953123 40953123000000'],
    ['G GGGG Q QQQ QQQQ q', 'AD Anno Domini 2 Q2 2nd quarter 2'],
    ['w W Y YY F', '15 2 2020 20 5'],
    ["'quoted' ''", "quoted '"],
    ['[HH:mm]', '11:22'],
    ['X XX XXX x xx xxx Z ZZZZ ZZZZZ O VV', 'Z Z Z +00 +0000 +00:00 +0000 GMT Z GMT Z'],
  ])('%s', (pattern, expected) => {
    expect(dateTimeFormat(dt, pattern, 'Z')).toBe(expected);
  });
  it('formats in the query zone', () => {
    expect(dateTimeFormat(dt, 'HH:mm XXX VV', 'Europe/Berlin')).toBe('13:22 +02:00 Europe/Berlin');
    expect(dateTimeFormat(dt, 'HH:mm XX', '+05:30')).toBe('16:52 +0530');
  });
  it('formats times, rejecting date fields like java.time', () => {
    const t = new TimeValue(40953123000000, 0);
    expect(dateTimeFormat(t, 'HH:mm:ss.SSS', 'Z')).toBe('11:22:33.123');
    expect(reason(() => dateTimeFormat(t, 'yyyy', 'Z'))).toBe(
      'Invalid pattern [yyyy] is received for formatting date/time [11:22:33.123Z]; Unsupported field: YearOfEra',
    );
  });
  it('reports pattern errors as ES does', () => {
    expect(reason(() => dateTimeFormat(dt, 'bb', 'Z'))).toBe(
      'Invalid pattern [bb] is received for formatting date/time [2020-04-05T11:22:33.123Z]; Unknown pattern letter: b',
    );
    expect(reason(() => ofPattern('ddd'))).toBe('Too many pattern letters: d');
    expect(reason(() => ofPattern("'abc"))).toBe(
      "Pattern ends with an incomplete string literal: 'abc",
    );
    expect(reason(() => ofPattern('HH]'))).toBe(
      'Pattern invalid as it contains ] without previous [',
    );
    expect(reason(() => ofPattern('#'))).toBe("Pattern includes reserved character: '#'");
  });
  it('returns null for an empty pattern and null inputs', () => {
    expect(dateTimeFormat(dt, '', 'Z')).toBeNull();
    expect(dateTimeFormat(null, 'yyyy', 'Z')).toBeNull();
  });
});

describe('DATETIME_PARSE / DATE_PARSE / TIME_PARSE', () => {
  it('parses with zones, offsets and adjacent values', () => {
    expect(
      isoDateTimeWithMillis(
        dateTimeParse('11:22:33 2020__04__07 -05:33', 'HH:mm:ss uuuu__MM__dd zz', 'Z')!,
      ),
    ).toBe('2020-04-07T16:55:33.000Z');
    expect(isoDateTimeWithMillis(dateTimeParse('20200407112233', 'uuuuMMddHHmmss', 'Z')!)).toBe(
      '2020-04-07T11:22:33.000Z',
    );
    expect(isoDateTimeWithMillis(dateTimeParse('07/04/20 1:02 PM', 'dd/MM/yy h:mm a', 'Z')!)).toBe(
      '2020-04-07T13:02:00.000Z',
    );
    expect(
      isoDateTimeWithMillis(
        dateTimeParse('2020-04-07 10:00', 'uuuu-MM-dd HH:mm', 'Europe/Athens')!,
      ),
    ).toBe('2020-04-07T10:00:00.000+03:00');
  });
  it('parses dates at the start of day in the query zone', () => {
    expect(isoDateTimeWithMillis(dateParse('07/04/2020', 'dd/MM/uuuu', 'Europe/Athens')!)).toBe(
      '2020-04-07T00:00:00.000+03:00',
    );
  });
  it('parses times', () => {
    expect(isoTimeWithMillis(timeParse('11:22:33 -0533', 'HH:mm:ss xx', 'Z')!)).toBe(
      '16:55:33.000Z',
    );
  });
  it('reports ES errors', () => {
    expect(reason(() => dateTimeParse('07/04/2020', 'dd/MM/uuuu', 'Z'))).toBe(
      'Invalid datetime string [07/04/2020] or pattern [dd/MM/uuuu] is received; Unable to convert parsed text into [datetime]',
    );
    expect(reason(() => dateParse('07/04/20', 'dd/MM/uuuu', 'Z'))).toBe(
      "Invalid date string [07/04/20] or pattern [dd/MM/uuuu] is received; Text '07/04/20' could not be parsed at index 6",
    );
    expect(reason(() => dateParse('10:20', 'HH:mm', 'Z'))).toBe(
      'Invalid date string [10:20] or pattern [HH:mm] is received; Unable to convert parsed text into [date]',
    );
    expect(reason(() => timeParse('25:00', 'HH:mm', 'Z'))).toBe(
      "Invalid time string [25:00] or pattern [HH:mm] is received; Text '25:00' could not be parsed: Invalid value for HourOfDay (valid values 0 - 23): 25",
    );
  });
  it('returns null on empty input', () => {
    expect(dateTimeParse('', 'dd', 'Z')).toBeNull();
    expect(dateTimeParse('x', '', 'Z')).toBeNull();
  });
});
