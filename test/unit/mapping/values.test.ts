import { describe, expect, it } from 'vitest';
import {
  javaDoubleToString,
  javaFloatToString,
  parseJavaDouble,
  roundToHalfFloat,
  stringToLong,
  tryParseJavaDouble,
} from '../../../src/mapping/java-numbers.js';
import { canonicalIp, parseCidr, bytesToIp } from '../../../src/mapping/ip.js';
import { decodeGeohash, encodeGeohash, normalizePoint } from '../../../src/mapping/geo.js';
import { builtinParseDate, builtinValidateDateFormat } from '../../../src/mapping/dates.js';
import { javaHashSetOrder } from '../../../src/mapping/java-collections.js';
import { simpleMatch } from '../../../src/mapping/dynamic-templates.js';
import { caught } from './helpers.js';

describe('Java number semantics', () => {
  it('Double.parseDouble accepts what Java accepts', () => {
    expect(
      ['1', ' 1.5 ', '1e3', '.5', '5.', '1.5f', '2D', '-Infinity', 'NaN', '0x1p3'].map(
        tryParseJavaDouble,
      ),
    ).toEqual([1, 1.5, 1000, 0.5, 5, 1.5, 2, -Infinity, NaN, 8]);
    expect(['', 'abc', '1,5', '1e', '--1'].map(tryParseJavaDouble)).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
    expect(caught(() => parseJavaDouble('  ')).reason).toBe('empty String');
    expect(caught(() => parseJavaDouble(' x ')).reason).toBe('For input string: "x"');
  });
  it('long coercion via BigDecimal (ES toLong)', () => {
    expect(stringToLong('9007199254740993', true)).toBe(9007199254740992);
    expect(stringToLong('12.9', true)).toBe(12);
    expect(stringToLong('-12.9', true)).toBe(-12);
    expect(stringToLong('1.2e3', false)).toBe(1200);
    expect(caught(() => stringToLong('12.5', false)).reason).toBe(
      'Value [12.5] has a decimal part',
    );
    expect(caught(() => stringToLong('9223372036854775808', true)).reason).toBe(
      'Value [9223372036854775808] is out of range for a long',
    );
    expect(caught(() => stringToLong('1x', true)).reason).toBe('For input string: "1x"');
  });
  it('Double/Float.toString', () => {
    expect([1, 1.5, 100, 1e7, 1.25e-4, 0.001, -0, 123456789.5].map(javaDoubleToString)).toEqual([
      '1.0',
      '1.5',
      '100.0',
      '1.0E7',
      '1.25E-4',
      '0.001',
      '-0.0',
      '1.234567895E8',
    ]);
    expect(javaFloatToString(Math.fround(0.1))).toBe('0.1');
    expect(javaFloatToString(Math.fround(1.1))).toBe('1.1');
    expect(javaFloatToString(Infinity)).toBe('Infinity');
  });
  it('half floats round to 11 significant bits', () => {
    expect(roundToHalfFloat(0.1)).toBe(0.0999755859375);
    expect(roundToHalfFloat(65504)).toBe(65504);
    expect(roundToHalfFloat(65520)).toBe(Infinity);
    expect(roundToHalfFloat(1e-8)).toBe(0);
    expect(roundToHalfFloat(-2.5)).toBe(-2.5);
  });
});

describe('IP literals (ES InetAddresses)', () => {
  it('canonicalizes', () => {
    expect(
      [
        '1.2.3.4',
        'FE80::0:0:1',
        '::1',
        '1::',
        '0:0:0:0:0:ffff:a0a:a0a',
        '::ffff:10.10.10.10',
        '1:0:0:1:0:0:0:1',
      ].map(canonicalIp),
    ).toEqual(['1.2.3.4', 'fe80::1', '::1', '1::', '10.10.10.10', '10.10.10.10', '1:0:0:1::1']);
  });
  it('rejects malformed literals', () => {
    for (const bad of [
      '1.2.3',
      '1.2.3.256',
      '01.2.3.4',
      '1:2:3',
      'a.b.c.d',
      ':::',
      '1::2::3',
      'localhost',
      '',
    ]) {
      expect(caught(() => canonicalIp(bad)).reason).toBe(`'${bad}' is not an IP string literal.`);
    }
  });
  it('CIDR ranges', () => {
    expect(parseCidr('192.168.1.77/24').map(bytesToIp)).toEqual(['192.168.1.0', '192.168.1.255']);
    expect(parseCidr('2001:db8::/32').map(bytesToIp)).toEqual([
      '2001:db8::',
      '2001:db8:ffff:ffff:ffff:ffff:ffff:ffff',
    ]);
    expect(caught(() => parseCidr('1.2.3.4')).reason).toBe(
      'Expected [ip/prefix] but was [1.2.3.4]',
    );
    expect(caught(() => parseCidr('1.2.3.4/33')).reason).toBe(
      'Illegal prefix length [33] in [1.2.3.4/33]. Must be 0-32 for IPv4 ranges, 0-128 for IPv6 ranges',
    );
  });
});

describe('geo helpers', () => {
  it('geohash decode gives the cell corner containing the encoded point', () => {
    const hash = encodeGeohash(41.12, -71.34);
    expect(hash).toBe('drm3btev3e86');
    const c = decodeGeohash(hash);
    expect(c.lat).toBeLessThanOrEqual(41.12);
    expect(41.12 - c.lat).toBeLessThan(180 / 2 ** 30);
    expect(c.lon).toBeLessThanOrEqual(-71.34);
    expect(-71.34 - c.lon).toBeLessThan(360 / 2 ** 30);
    expect(decodeGeohash('s')).toEqual({ lat: 0, lon: 0 });
    expect(decodeGeohash('u')).toEqual({ lat: 45, lon: 0 });
    expect(encodeGeohash(90, 180)).toBe('zzzzzzzzzzzz');
  });
  it('normalizes like GeoUtils.normalizePoint', () => {
    expect(normalizePoint({ lat: 91, lon: 181 })).toEqual({ lat: 89, lon: 1 });
    expect(normalizePoint({ lat: -95, lon: 10 })).toEqual({ lat: -85, lon: -170 });
    expect(normalizePoint({ lat: 10, lon: 370 })).toEqual({ lat: 10, lon: 10 });
  });
});

describe('built-in date parsing', () => {
  const p = builtinParseDate;
  it('ISO date_optional_time, strict and lenient', () => {
    expect(p('2015-01-01T12:10:30Z', 'strict_date_optional_time')).toBe(
      Date.UTC(2015, 0, 1, 12, 10, 30),
    );
    expect(p('2015-01-01T12:10:30.5+01:00', 'strict_date_optional_time')).toBe(
      Date.UTC(2015, 0, 1, 11, 10, 30, 500),
    );
    expect(p('2015-01-01T12', 'strict_date_optional_time')).toBe(Date.UTC(2015, 0, 1, 12));
    // Joda: after T both the time and the offset are optional
    expect(p('2015-01-01T', 'strict_date_optional_time')).toBe(Date.UTC(2015, 0, 1));
    expect(p('2015-01-01T10:15Z', 'strict_date_optional_time')).toBe(Date.UTC(2015, 0, 1, 10, 15));
    expect(p('2015-1-1', 'date_optional_time')).toBe(Date.UTC(2015, 0, 1));
    expect(p('2016-060', 'strict_date_optional_time')).toBe(Date.UTC(2016, 1, 29));
    expect(p('0001-01-01', 'strict_date_optional_time')).toBe(-62135596800000);
    expect(caught(() => p('2015-1-1', 'strict_date_optional_time')).reason).toBe(
      'Invalid format: "2015-1-1" is malformed at "-1-1"',
    );
  });
  it('Joda error messages', () => {
    expect(caught(() => p('abc', 'strict_date_optional_time||epoch_millis')).reason).toBe(
      'Invalid format: "abc"',
    );
    expect(caught(() => p('2015-01', 'yyyy-MM-dd')).reason).toBe(
      'Invalid format: "2015-01" is too short',
    );
    expect(caught(() => p('2015-01-01Tx', 'strict_date_optional_time')).reason).toBe(
      'Invalid format: "2015-01-01Tx" is malformed at "x"',
    );
    expect(caught(() => p('2015-02-29', 'strict_date_optional_time')).reason).toBe(
      'Cannot parse "2015-02-29": Value 29 for dayOfMonth must be in the range [1,28]',
    );
  });
  it('epoch formats and patterns', () => {
    expect(p('-1000', 'epoch_millis')).toBe(-1000);
    expect(p('1.9', 'epoch_second')).toBe(1000);
    expect(caught(() => p('12345678901234', 'epoch_millis')).reason).toBe(
      'Invalid format: "12345678901234"',
    );
    expect(p('2015/01/02', 'yyyy/MM/dd HH:mm:ss||yyyy/MM/dd')).toBe(Date.UTC(2015, 0, 2));
    expect(p('10/Mar/2015:10:00:00 -0200', 'dd/MMM/yyyy:HH:mm:ss Z')).toBe(
      Date.UTC(2015, 2, 10, 12),
    );
    expect(p('03 PM 2015-01-01', 'hh a yyyy-MM-dd')).toBe(Date.UTC(2015, 0, 1, 15));
    expect(p('2015-W01-1', 'week_date')).toBe(Date.UTC(2014, 11, 29));
    expect(p('20150101T101010.000Z', 'basic_date_time')).toBe(Date.UTC(2015, 0, 1, 10, 10, 10));
    expect(p('2015-01-01', 'strictDate')).toBe(Date.UTC(2015, 0, 1));
  });
  it('validates patterns', () => {
    expect(() => builtinValidateDateFormat('yyyy-MM-dd HH:mm:ss||epoch_millis')).not.toThrow();
    expect(caught(() => builtinValidateDateFormat("yyyy'T")).reason).toBe(
      "Invalid format: [yyyy'T]: Illegal pattern component: 'T",
    );
  });
});

describe('small helpers', () => {
  it('ES Regex.simpleMatch', () => {
    expect(simpleMatch('*', 'x')).toBe(true);
    expect(simpleMatch('a*', 'abc')).toBe(true);
    expect(simpleMatch('*c', 'abc')).toBe(true);
    expect(simpleMatch('a*c*e', 'abcde')).toBe(true);
    expect(simpleMatch('a*c*f', 'abcde')).toBe(false);
    expect(simpleMatch('**b', 'ab')).toBe(true);
    expect(simpleMatch('abc', 'abd')).toBe(false);
  });
  it('Java HashSet iteration order', () => {
    expect(javaHashSetOrder(['t1', 't2'])).toEqual(['t1', 't2']);
    expect(javaHashSetOrder(['_doc', 'other'])).toEqual(['other', '_doc']);
  });
});
