// Expectations from ES 6.8 TimeValueTests, ByteSizeValueTests and RestTable rendering.
import { describe, expect, it } from 'vitest';
import { EsError } from '../../../src/common/errors.js';
import {
  format1Decimals,
  formatByteSize,
  formatBytesIn,
  formatSizeIn,
  formatSizeValue,
  formatTimeIn,
  formatTimeValue,
  formatTimeValueParts,
  javaDoubleToString,
  parseByteSize,
  parseTimeValue,
  parseTimeValueParts,
} from '../../../src/common/units.js';

function error(f: () => unknown): EsError {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(EsError);
    return e as EsError;
  }
  throw new Error('expected an error');
}

describe('parseTimeValue', () => {
  it('parses units case-insensitively (except m), with optional spaces', () => {
    const ten = { ms: 10, s: 10_000, m: 600_000, h: 36_000_000, d: 864_000_000 };
    for (const [unit, ms] of Object.entries(ten)) {
      expect(parseTimeValue(`10${unit}`, 'test')).toBe(ms);
      expect(parseTimeValue(`10 ${unit}`, 'test')).toBe(ms);
      if (unit !== 'm') expect(parseTimeValue(`10${unit.toUpperCase()}`, 'test')).toBe(ms);
    }
    expect(parseTimeValue('1s', 'x')).toBe(1000);
    expect(parseTimeValue('500ms', 'x')).toBe(500);
    expect(parseTimeValue('2500micros', 'x')).toBe(2);
    expect(parseTimeValue('999999nanos', 'x')).toBe(0);
    expect(parseTimeValueParts('10 MS', 'x')).toEqual({ duration: 10, unit: 'ms' });
    expect(parseTimeValue(' 5s ', 'x')).toBe(5000);
  });

  it('has unit-less -1 and 0', () => {
    expect(parseTimeValue('-1', 'x')).toBe(-1);
    expect(parseTimeValue('-0001', 'x')).toBe(-1);
    expect(parseTimeValue('0', 'x')).toBe(0);
    expect(parseTimeValue('000', 'x')).toBe(0);
    expect(parseTimeValue(0, 'x')).toBe(0);
    expect(parseTimeValue(-1, 'x')).toBe(-1);
    expect(parseTimeValue('-1s', 'x')).toBe(-1000);
  });

  it('fails like ES', () => {
    const missing = error(() => parseTimeValue('42', 'test'));
    expect(missing.type).toBe('illegal_argument_exception');
    expect(missing.reason).toBe(
      'failed to parse setting [test] with value [42] as a time value: unit is missing or unrecognized',
    );
    expect(error(() => parseTimeValue('10M', 'test')).reason).toBe(
      'failed to parse setting [test] with value [10M] as a time value: unit is missing or unrecognized',
    );
    expect(error(() => parseTimeValue('23tw', 'test')).reason).toContain('failed to parse');
    expect(error(() => parseTimeValue('42ms.', 'test')).reason).toContain('failed to parse');
    expect(error(() => parseTimeValue('1.5h', 'test')).reason).toBe(
      'failed to parse [1.5h], fractional time values are not supported',
    );
    expect(error(() => parseTimeValue('1.5e3ms', 'test')).reason).toBe(
      'failed to parse [1.5e3ms], fractional time values are not supported',
    );
    expect(error(() => parseTimeValue('abcs', 'test')).reason).toBe('failed to parse [abcs]');
    expect(error(() => parseTimeValue('-5s', 'test')).reason).toBe(
      'failed to parse setting [test] with value [-5s] as a time value: negative durations are not supported',
    );
  });
});

describe('formatTimeValue', () => {
  it('prints like TimeValue.toString', () => {
    expect(formatTimeValue(10)).toBe('10ms');
    expect(formatTimeValue(1533)).toBe('1.5s');
    expect(formatTimeValue(90_000)).toBe('1.5m');
    expect(formatTimeValue(90 * 60_000)).toBe('1.5h');
    expect(formatTimeValue(36 * 3_600_000)).toBe('1.5d');
    expect(formatTimeValue(1000 * 86_400_000)).toBe('1000d');
    expect(formatTimeValue(0)).toBe('0s');
    expect(formatTimeValue(-1)).toBe('-1');
    expect(formatTimeValue(1999)).toBe('1.9s');
    expect(formatTimeValue(60_000)).toBe('1m');
    expect(formatTimeValue(1e7 * 86_400_000)).toBe('1E7d');
    expect(formatTimeValueParts({ duration: 1500, unit: 'micros' })).toBe('1.5ms');
    expect(formatTimeValueParts({ duration: 999, unit: 'nanos' })).toBe('999nanos');
    expect(formatTimeValueParts({ duration: 1500, unit: 'nanos' })).toBe('1.5micros');
  });

  it('renders _cat time= resolutions', () => {
    expect(formatTimeIn(90_500, 's')).toBe('90');
    expect(formatTimeIn(90_500, 'm')).toBe('1');
    expect(formatTimeIn(90_500, 'ms')).toBe('90500');
    expect(formatTimeIn(3, 'micros')).toBe('3000');
    expect(formatTimeIn(3, 'nanos')).toBe('3000000');
    expect(formatTimeIn(86_400_000 * 3 - 1, 'd')).toBe('2');
    expect(formatTimeIn(7_200_000, 'h')).toBe('2');
    expect(formatTimeIn(90_500, '')).toBe('1.5m');
  });
});

describe('byte sizes', () => {
  it('parses every unit spelling', () => {
    const cases: [string, string][] = [];
    for (const [n, u] of [
      ['42', 'pb'],
      ['54', 'tb'],
      ['12', 'gb'],
      ['12', 'mb'],
      ['23', 'kb'],
    ] as const) {
      for (const s of [u, u.toUpperCase(), u[0]!, u[0]!.toUpperCase()]) {
        cases.push([`${n}${s}`, `${n}${u}`], [`${n} ${s}`, `${n}${u}`]);
      }
    }
    for (const [input, out] of cases)
      expect(formatByteSize(parseByteSize(input, 'x')), input).toBe(out);
    expect(parseByteSize('1B', 'x')).toBe(1);
    expect(parseByteSize('1 b', 'x')).toBe(1);
    expect(parseByteSize('100mb', 'x')).toBe(104_857_600);
    expect(parseByteSize('4pb', 'x')).toBe(4503599627370496);
    expect(parseByteSize('1gb', 'x')).toBe(1073741824);
    expect(parseByteSize('512kb', 'x')).toBe(524288);
    expect(parseByteSize('-1', 'x')).toBe(-1);
    expect(parseByteSize('0', 'x')).toBe(0);
    expect(parseByteSize('1.5kb', 'x')).toBe(1536);
    expect(parseByteSize('0.1kb', 'x')).toBe(102);
  });

  it('fails like ES', () => {
    for (const s of ['23', '23jw', '', '42b.']) {
      const e = error(() => parseByteSize(s, 'test'));
      expect(e.type).toBe('parse_exception');
      expect(e.reason).toBe(
        `failed to parse setting [test] with value [${s}] as a size in bytes: unit is missing or unrecognized`,
      );
    }
    const g = error(() => parseByteSize('g', 'x'));
    expect(g.reason).toBe('failed to parse [g]');
    expect(g.causedBy?.type).toBe('number_format_exception');
    const big = error(() => parseByteSize('9999999pb', 'x'));
    expect(big.reason).toBe(
      'failed to parse setting [x] with value [9999999pb] as a size in bytes',
    );
    expect(big.causedBy?.reason).toBe(
      'Values greater than 9223372036854775807 bytes are not supported: 9999999pb',
    );
    expect(error(() => parseByteSize('1.5b', 'x')).reason).toBe('For input string: "1.5"');
  });

  it('prints like ByteSizeValue.toString', () => {
    expect(formatByteSize(10)).toBe('10b');
    expect(formatByteSize(230)).toBe('230b');
    expect(formatByteSize(1536)).toBe('1.5kb');
    expect(formatByteSize(1536 * 1024)).toBe('1.5mb');
    expect(formatByteSize(1536 * 1024 ** 2)).toBe('1.5gb');
    expect(formatByteSize(1536 * 1024 ** 3)).toBe('1.5tb');
    expect(formatByteSize(1536 * 1024 ** 4)).toBe('1.5pb');
    expect(formatByteSize(1536 * 1024 ** 5)).toBe('1536pb');
    expect(formatByteSize(3300)).toBe('3.2kb');
    expect(formatByteSize(2 * 1024 ** 3)).toBe('2gb');
    expect(formatByteSize(0)).toBe('0b');
  });

  it('renders _cat bytes= resolutions by integer division', () => {
    expect(formatBytesIn(1_600_000, 'b')).toBe('1600000');
    expect(formatBytesIn(1_600_000, 'k')).toBe('1562');
    expect(formatBytesIn(1_600_000, 'kb')).toBe('1562');
    expect(formatBytesIn(1_600_000, 'mb')).toBe('1');
    expect(formatBytesIn(1_600_000, 'g')).toBe('0');
    expect(formatBytesIn(5 * 1024 ** 4, 't')).toBe('5');
    expect(formatBytesIn(5 * 1024 ** 5, 'pb')).toBe('5');
    expect(formatBytesIn(1_600_000, 'x')).toBe('1.5mb');
  });

  it('renders counts (SizeValue)', () => {
    expect(formatSizeValue(1500)).toBe('1.5k');
    expect(formatSizeValue(999)).toBe('999');
    expect(formatSizeValue(2_000_000)).toBe('2m');
    expect(formatSizeIn(2_500_000, 'k')).toBe('2500');
    expect(formatSizeIn(2_500_000, '')).toBe('2500000');
  });
});

describe('Java number printing', () => {
  it('Double.toString', () => {
    expect(javaDoubleToString(1)).toBe('1.0');
    expect(javaDoubleToString(1.5)).toBe('1.5');
    expect(javaDoubleToString(1234567.25)).toBe('1234567.25');
    expect(javaDoubleToString(1e7)).toBe('1.0E7');
    expect(javaDoubleToString(1.25e-5)).toBe('1.25E-5');
    expect(javaDoubleToString(0.001)).toBe('0.001');
    expect(javaDoubleToString(-0.5)).toBe('-0.5');
    expect(javaDoubleToString(0)).toBe('0.0');
  });
  it('format1Decimals truncates to one fraction digit', () => {
    expect(format1Decimals(1.25, 'kb')).toBe('1.2kb');
    expect(format1Decimals(1.0, 'b')).toBe('1b');
    expect(format1Decimals(1.5e7, 'd')).toBe('1.5E7d');
  });
});
