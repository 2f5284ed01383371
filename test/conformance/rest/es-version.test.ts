import { describe, expect, it } from 'vitest';
import { parseVersionId, parseVersionRanges, rangeContains, skipReason } from './es-version.js';

const v6813 = parseVersionId('6.8.13');

describe('Version.fromString', () => {
  it('orders releases, pre-releases and revisions', () => {
    expect(parseVersionId('6.8.13')).toBe(6_081_399);
    expect(parseVersionId('6.0.0-alpha1')).toBeLessThan(parseVersionId('6.0.0-beta1'));
    expect(parseVersionId('6.0.0-beta2')).toBeLessThan(parseVersionId('6.0.0-rc1'));
    expect(parseVersionId('6.0.0-rc2')).toBeLessThan(parseVersionId('6.0.0'));
    expect(parseVersionId('6.8.13-SNAPSHOT')).toBe(v6813);
    expect(parseVersionId('1.0.0.Beta1')).toBe(1_000_001);
    expect(() => parseVersionId('6.8')).toThrow(/major, minor, and revision/);
    expect(() => parseVersionId('6.8.x')).toThrow(/unable to parse/);
  });
});

describe('skip version ranges', () => {
  const skipped = (raw: string): boolean =>
    parseVersionRanges(raw).some((r) => rangeContains(r, v6813));

  it('closed ranges include both ends', () => {
    expect(skipped('6.8.13 - 6.8.13')).toBe(true);
    expect(skipped('6.0.0 - 6.8.12')).toBe(false);
    expect(skipped('6.8.14 - 7.0.0')).toBe(false);
  });

  it('open ends run from the first version to the current one', () => {
    expect(skipped(' - 6.6.99')).toBe(false);
    expect(skipped(' - 6.8.99')).toBe(true);
    expect(skipped('6.7.0 - ')).toBe(true);
    expect(skipped('7.0.0 - ')).toBe(false);
    expect(skipped(' - ')).toBe(true);
    expect(skipped('all')).toBe(true);
  });

  it('lists of ranges skip when any contains the version', () => {
    expect(skipped('5.0.0 - 5.6.99, 6.8.0 - 6.8.99')).toBe(true);
    expect(skipped('5.0.0 - 5.6.99, 7.0.0 - ')).toBe(false);
    expect(() => parseVersionRanges('1 - 2 - 3')).toThrow();
  });
});

describe('skip sections', () => {
  it('skips on version with the reason, and on unsupported features', () => {
    expect(skipReason(null, v6813)).toBeNull();
    expect(
      skipReason({ ranges: parseVersionRanges(' - 6.99.99'), features: [], reason: 'why' }, v6813),
    ).toBe('version: why');
    expect(
      skipReason({ ranges: [], features: ['warnings', 'headers', 'yaml'], reason: null }, v6813),
    ).toBeNull();
    expect(
      skipReason(
        {
          ranges: [],
          features: ['stash_in_path', 'embedded_stash_key', 'default_shards', 'contains'],
          reason: null,
        },
        v6813,
      ),
    ).toBeNull();
    expect(
      skipReason({ ranges: [], features: ['node_selector', 'warnings'], reason: null }, v6813),
    ).toBe('unsupported features [node_selector]');
    expect(skipReason({ ranges: [], features: ['xpack'], reason: null }, v6813)).toMatch(/xpack/);
  });
});
