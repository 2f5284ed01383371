import { describe, expect, it } from 'vitest';
import { checkAutoCreate } from '../../../src/engine/auto-create-index.js';
import { EsError } from '../../../src/common/errors.js';

const reasonOf = (index: string, setting: string | undefined): string | null => {
  try {
    checkAutoCreate(index, setting);
    return null;
  } catch (e) {
    expect(e).toBeInstanceOf(EsError);
    return (e as EsError).reason;
  }
};

describe('checkAutoCreate', () => {
  it('allows by default and with true', () => {
    expect(reasonOf('a', undefined)).toBeNull();
    expect(reasonOf('a', 'true')).toBeNull();
  });
  it('refuses with false, an excluding pattern or no match, as ES words it', () => {
    expect(reasonOf('a', 'false')).toBe('no such index and [action.auto_create_index] is [false]');
    expect(reasonOf('dest', 'test,-dest')).toBe(
      'no such index and [action.auto_create_index] contains [-dest] which forbids automatic creation of the index',
    );
    expect(reasonOf('dest', 'test')).toBe(
      "no such index and [action.auto_create_index] ([test]) doesn't match",
    );
  });
  it('lets the first matching pattern decide', () => {
    expect(reasonOf('logs-1', '+logs-*,-logs-1')).toBeNull();
    expect(reasonOf('logs-1', '-logs-1,+logs-*')).not.toBeNull();
  });
});
