// ES 6.8 dynamic mapping date detection (DocumentParser + RootObjectMapper defaults).
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_DYNAMIC_DATE_FORMATS,
  detectDate,
  isDateLike,
  parseDynamicDateFormats,
  strictStandardDateFormatter,
} from '../../../../src/common/dates/index.js';

describe('date detection', () => {
  it('detects ISO dates with the date field default format', () => {
    const d = detectDate('2015-01-01T12:10:30Z');
    expect(d?.millis).toBe(Date.UTC(2015, 0, 1, 12, 10, 30));
    expect(d?.formatter.pattern).toBe('strict_date_optional_time||epoch_millis');
    expect(isDateLike('2015-01-01')).toBe(Date.UTC(2015, 0, 1));
  });

  it('detects slash dates with the strict standard formatter', () => {
    const d = detectDate('2015/01/02 10:11:12');
    expect(d?.millis).toBe(Date.UTC(2015, 0, 2, 10, 11, 12));
    expect(d?.formatter.pattern).toBe('yyyy/MM/dd HH:mm:ss||yyyy/MM/dd||epoch_millis');
    expect(isDateLike('2015/01/02')).toBe(Date.UTC(2015, 0, 2));
    // fixed widths, unlike the same pattern written in a mapping
    expect(isDateLike('2015/1/2')).toBeNull();
    expect(strictStandardDateFormatter().format(Date.UTC(2015, 0, 2))).toBe('2015/01/02 00:00:00');
  });

  it('refuses numbers and non dates', () => {
    for (const s of [
      '2015',
      '1420070400000',
      '1.5',
      '1e3',
      'NaN',
      'Infinity',
      '12d',
      'hello',
      '2015-13-01',
      '',
    ]) {
      expect(isDateLike(s), s).toBeNull();
    }
    expect(DEFAULT_DYNAMIC_DATE_FORMATS).toEqual([
      'strict_date_optional_time||epoch_millis',
      'yyyy/MM/dd HH:mm:ss||yyyy/MM/dd||epoch_millis',
    ]);
  });

  it('uses custom dynamic_date_formats', () => {
    const formats = parseDynamicDateFormats(['MM/dd/yyyy']);
    expect(isDateLike('12/31/2015', formats)).toBe(Date.UTC(2015, 11, 31));
    expect(isDateLike('2015-12-31', formats)).toBeNull();
    expect(parseDynamicDateFormats('none')).toEqual([]);
    expect(parseDynamicDateFormats('yyyy')).toHaveLength(1);
    expect(() => parseDynamicDateFormats(['epoch_millis'])).toThrow(
      'Epoch [epoch_millis] is not supported as dynamic date format',
    );
  });
});
