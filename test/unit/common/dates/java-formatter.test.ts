// java.time patterns as ES SQL 7.x uses them (DATETIME_FORMAT/DATETIME_PARSE/TIME_PARSE examples
// from the 7.10 SQL spec tests datetime.csv-spec and docs.csv-spec) and ES 6.8 `8`-prefixed
// formats (REST tests index/80_bwc_date.yml, index/81_week_based_java_date.yml).
import { describe, expect, it } from 'vitest';
import { dateFormatter, parseDateMath, timeZone } from '../../../../src/common/dates/index.js';
import { EsError } from '../../../../src/common/errors.js';

const j = (p: string) => dateFormatter(p, 'java');
const reason = (f: () => unknown): string => {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(EsError);
    return (e as EsError).reason ?? '';
  }
  throw new Error('expected an error');
};

describe('java.time formatting (DATETIME_FORMAT)', () => {
  const t = Date.UTC(2020, 3, 5, 11, 22, 33, 123);
  it('matches the SQL spec outputs', () => {
    expect(j('dd/MM/YYYY HH:mm:ss.SSS').format(Date.UTC(2020, 3, 5))).toBe(
      '05/04/2020 00:00:00.000',
    );
    expect(j('dd/MM/YYYY HH:mm:ss.SS').format(t)).toBe('05/04/2020 11:22:33.12');
    expect(j('HH:mm:ss.SS').format(Date.UTC(1970, 0, 1, 11, 22, 33, 123))).toBe('11:22:33.12');
    expect(j('MM/dd/YYYY').format(Date.UTC(1963, 6, 22))).toBe('07/22/1963');
    expect(j('MM').format(Date.UTC(1963, 6, 22))).toBe('07');
    expect(j('dd/MM/YYYY HH:mm:ss.SS').format(Date.UTC(2020, 3, 5, 11, 22, 33, 987))).toBe(
      '05/04/2020 11:22:33.98',
    );
    expect(j('HH mm ss.S').format(Date.UTC(1970, 0, 1, 11, 22, 33, 987))).toBe('11 22 33.9');
  });

  it('prints text, zones, offsets and signs like java.time (Locale.ROOT)', () => {
    const paris = timeZone('Europe/Paris', 'java');
    expect(j('uuuu-MM-dd HH:mm:ss.SSS XXX VV z O').format(t, paris)).toBe(
      '2020-04-05 13:22:33.123 +02:00 Europe/Paris CEST GMT+2',
    );
    expect(j('yyyy G QQQ Q EEEE MMMM a h K k D').format(t)).toBe(
      '2020 AD Q2 2 Sunday April AM 11 11 11 96',
    );
    expect(j('X x Z').format(t)).toBe('Z +00 +0000');
    expect(j("'quote: ''' EEE MMM").format(t)).toBe("quote: ' Sun Apr");
    expect(j('uuuu').format(Date.UTC(10000, 0, 1))).toBe('+10000');
    expect(j('yyyy').format(Date.UTC(-5, 0, 1))).toBe('0006');
    expect(j('yy').format(t)).toBe('20');
    // Locale.ROOT (JDK COMPAT data) weeks start on Sunday, minimal days 1
    expect(j('YYYY-ww e').format(Date.UTC(2019, 11, 29))).toBe('2020-01 1');
    expect(j('W F').format(t)).toBe('2 1');
  });
});

describe('java.time parsing (DATETIME_PARSE)', () => {
  it('matches the SQL spec results', () => {
    const d = j('dd/MM/uuuu___HH:mm:ss VV').parseDetail!('07/04/2020___11:22:33 Europe/Berlin');
    expect(d).toEqual({
      millis: Date.UTC(2020, 3, 7, 9, 22, 33),
      hasDate: true,
      hasTime: true,
      hasZone: true,
    });
    expect(j('HH:mm:ss uuuu__MM__dd zz').parse('11:22:33 2020__04__07 -05:33')).toBe(
      Date.UTC(2020, 3, 7, 16, 55, 33),
    );
    expect(j('dd/MM/uuuu HH:mm:ss.SSS').parse('07/04/2020 10:20:30.123')).toBe(
      Date.UTC(2020, 3, 7, 10, 20, 30, 123),
    );
    expect(j('HH:mm:ss dd/MM/uuuu VV').parse('10:20:30 07/04/2020 Europe/Berlin')).toBe(
      Date.UTC(2020, 3, 7, 8, 20, 30),
    );
    expect(j('HH:mm:ssXXX').parseDetail!('10:20:30-01:00')).toEqual({
      millis: Date.UTC(1970, 0, 1, 11, 20, 30),
      hasDate: false,
      hasTime: true,
      hasZone: true,
    });
    expect(j('MM/dd/ HH uuuu mm SSS ss').parse('07/22/ 00 1963 00 000 00')).toBe(
      Date.UTC(1963, 6, 22),
    );
    expect(j('dd/MM/uuuu').parseDetail!('22/07/1963').hasTime).toBe(false);
  });

  it('uses adjacent value parsing, reduced years and SMART resolution', () => {
    expect(j('yyyyMMdd').parse('20200405')).toBe(Date.UTC(2020, 3, 5));
    expect(j('yyyyMMddHHmmssSSS').parse('20200405112233123')).toBe(
      Date.UTC(2020, 3, 5, 11, 22, 33, 123),
    );
    expect(j('yy-MM-dd').parse('99-01-01')).toBe(Date.UTC(2099, 0, 1));
    expect(j('uuuu-MM-dd').parse('2020-02-30')).toBe(Date.UTC(2020, 1, 29));
    expect(j('uuuu-MM-dd HH:mm').parse('2020-01-01 24:00')).toBe(Date.UTC(2020, 0, 2));
    expect(j('hh:mm a').parse('03:15 PM')).toBe(Date.UTC(1970, 0, 1, 15, 15));
    expect(j("uuuu-MM-dd'T'HH:mm[:ss]").parse('2020-01-01T10:11')).toBe(
      Date.UTC(2020, 0, 1, 10, 11),
    );
    expect(j("uuuu-MM-dd'T'HH:mm[:ss]").parse('2020-01-01T10:11:12')).toBe(
      Date.UTC(2020, 0, 1, 10, 11, 12),
    );
    expect(j('EEE, dd MMM uuuu').parse('Sun, 05 Apr 2020')).toBe(Date.UTC(2020, 3, 5));
  });

  it('moves local times in a DST gap forward and uses the given zone', () => {
    const paris = timeZone('Europe/Paris', 'java');
    expect(j('uuuu-MM-dd HH:mm').parse('2020-03-29 02:30', paris)).toBe(
      Date.UTC(2020, 2, 29, 1, 30),
    );
    expect(j('uuuu-MM-dd HH:mm').parse('2020-10-25 02:30', paris)).toBe(
      Date.UTC(2020, 9, 25, 0, 30),
    );
    expect(j('uuuu-MM-dd HH:mm').parse('2020-07-01 12:00', paris)).toBe(Date.UTC(2020, 6, 1, 10));
  });

  it('fails with java.time messages', () => {
    expect(reason(() => j('uuuu-MM-dd').parse('2020-13-01'))).toBe(
      "Text '2020-13-01' could not be parsed: Invalid value for MonthOfYear (valid values 1 - 12): 13",
    );
    expect(reason(() => j('uuuu-MM-dd').parse('2020-1-01'))).toBe(
      "Text '2020-1-01' could not be parsed at index 5",
    );
    expect(reason(() => j('uuuu-MM-dd').parse('2020-01-01x'))).toBe(
      "Text '2020-01-01x' could not be parsed, unparsed text found at index 10",
    );
    expect(reason(() => j('EEE, dd MMM uuuu').parse('Mon, 05 Apr 2020'))).toBe(
      "Text 'Mon, 05 Apr 2020' could not be parsed: Conflict found: Field DayOfWeek 1 differs from DayOfWeek 7 derived from 2020-04-05",
    );
    expect(reason(() => j('MMM').parse('apr'))).toBe("Text 'apr' could not be parsed at index 0");
    expect(reason(() => j('HH').parse('25'))).toBe(
      "Text '25' could not be parsed: Invalid value for HourOfDay (valid values 0 - 23): 25",
    );
  });

  it('rejects invalid patterns with java.time messages', () => {
    expect(reason(() => j('yyyy-MM-dd{'))).toBe("Pattern includes reserved character: '{'");
    expect(reason(() => j('qqqqqq'))).toBe('Too many pattern letters: q');
    expect(reason(() => j('bb'))).toBe('Unknown pattern letter: b');
    expect(reason(() => j("yyyy 'x"))).toBe(
      "Pattern ends with an incomplete string literal: yyyy 'x",
    );
    expect(reason(() => j('yyyy]'))).toBe('Pattern invalid as it contains ] without previous [');
    expect(reason(() => j('VVV'))).toBe('Pattern letter count must be 2: V');
  });
});

describe('ES 6.8 `8`-prefixed formats', () => {
  it('parse custom java patterns (REST 80_bwc_date, 81_week_based_java_date)', () => {
    expect(dateFormatter('8yyyy-MM-dd HH:mm:ss').parse('2018-02-18 17:47:17')).toBe(
      Date.UTC(2018, 1, 18, 17, 47, 17),
    );
    const week = dateFormatter('8YYYY-ww');
    const w32 = week.parse('2020-32');
    const w33 = week.parse('2020-33');
    expect(w33 - w32).toBe(7 * 86_400_000);
    expect(w32).toBe(Date.UTC(2020, 7, 2));
    expect(parseDateMath('2020-33', () => 0, false, undefined, week)).toBe(w33);
  });

  it('support || lists with built-in names and wrap errors like JavaDateFormatter', () => {
    const f = dateFormatter('8yyyy/MM/dd||epoch_millis||strict_date_optional_time');
    expect(f.parse('2018/02/18')).toBe(Date.UTC(2018, 1, 18));
    expect(f.parse('1518976037000')).toBe(1518976037000);
    expect(f.parse('2018-02-18T17:47:17Z')).toBe(Date.UTC(2018, 1, 18, 17, 47, 17));
    expect(f.format(Date.UTC(2018, 1, 18))).toBe('2018/02/18');
    expect(reason(() => dateFormatter('8yyyy-MM-dd').parse('x'))).toBe(
      'failed to parse date field [x] with format [yyyy-MM-dd]',
    );
    expect(reason(() => dateFormatter('8yyyy-MM-ddbb'))).toBe(
      'Invalid format: [yyyy-MM-ddbb]: Unknown pattern letter: b',
    );
    expect(reason(() => dateFormatter('8yyyy||'))).toBe(
      'Cannot have empty element in multi date format pattern: yyyy||',
    );
    const math = (() => {
      try {
        parseDateMath('x', () => 0, false, undefined, dateFormatter('8yyyy-MM-dd'));
      } catch (e) {
        return (e as EsError).reason;
      }
      return '';
    })();
    expect(math).toBe(
      'failed to parse date field [x] with format [yyyy-MM-dd]: [failed to parse date field [x] with format [yyyy-MM-dd]]',
    );
  });

  it('round up missing fields like JavaDateFormatter ROUND_UP_BASE_FIELDS', () => {
    const f = dateFormatter('8yyyy-MM-dd');
    expect(f.parseRoundUp('2014-11-18')).toBe(Date.UTC(2014, 10, 18, 23, 59, 59, 999));
    expect(dateFormatter('8yyyy-MM').parseRoundUp('2014-11')).toBe(
      Date.UTC(2014, 10, 1, 23, 59, 59, 999),
    );
  });
});
