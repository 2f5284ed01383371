// Week-based java patterns follow the locale's week rule (JDK COMPAT data): Sunday and minimal
// days 1 for ROOT and en-US, Monday and 4 (ISO) for European regions such as en-GB.
import { describe, expect, it } from 'vitest';
import { dateFormatter } from '../../../../src/common/dates/index.js';
import { ISO_WEEKS, SUNDAY_1, weekRule } from '../../../../src/common/dates/week-rules.js';

describe('locale week rules', () => {
  it('reads the rule from the region of the locale tag', () => {
    expect(weekRule(undefined)).toBe(SUNDAY_1);
    expect(weekRule('en-US')).toBe(SUNDAY_1);
    expect(weekRule('de')).toBe(SUNDAY_1);
    expect(weekRule('en-GB')).toBe(ISO_WEEKS);
    expect(weekRule('de_DE')).toBe(ISO_WEEKS);
  });

  it('parses week 33 of 2020 to its first day in the locale (REST ingest 30_date_processor)', () => {
    const parse = (locale?: string) =>
      new Date(dateFormatter('8YYYY-ww', 'joda', locale).parse('2020-33')).toISOString();
    expect(parse()).toBe('2020-08-09T00:00:00.000Z');
    expect(parse('en-US')).toBe('2020-08-09T00:00:00.000Z');
    expect(parse('en-GB')).toBe('2020-08-10T00:00:00.000Z');
  });

  it('prints ISO week-based years and weeks for an ISO locale', () => {
    const iso = dateFormatter('YYYY-ww e', 'java', 'en-GB');
    // 2021-01-03 (Sunday) is the last day of ISO week 53 of 2020
    expect(iso.format(Date.UTC(2021, 0, 3))).toBe('2020-53 7');
    expect(iso.format(Date.UTC(2021, 0, 4))).toBe('2021-01 1');
    const root = dateFormatter('YYYY-ww e', 'java');
    expect(root.format(Date.UTC(2021, 0, 3))).toBe('2021-02 1');
  });
});
