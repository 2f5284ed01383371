import { describe, expect, it } from 'vitest';
import { recoveryPercent } from '../../../src/http/routes/index-shards.js';

describe('recoveryPercent', () => {
  it('is 100% when there was nothing to recover', () => {
    expect(recoveryPercent(0, 0)).toBe('100.0%');
  });
  it('formats with one decimal', () => {
    expect(recoveryPercent(1, 3)).toBe('33.3%');
  });
  it('is -1.0% for an unknown total', () => {
    expect(recoveryPercent(0, -1)).toBe('-1.0%');
  });
});
