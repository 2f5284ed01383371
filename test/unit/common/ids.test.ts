import { describe, expect, it } from 'vitest';
import { timeBasedId } from '../../../src/common/ids.js';

describe('timeBasedId', () => {
  it('makes 20-char base64url ids that sort (as strings and as UTF-8 keys) in creation order', () => {
    const ids = Array.from({ length: 50_000 }, () => timeBasedId());
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_-]{20}$/);
    expect(new Set(ids).size).toBe(ids.length);
    for (let i = 1; i < ids.length; i++) {
      const a = ids[i - 1]!;
      const b = ids[i]!;
      if (!(a < b)) expect.fail(`${a} !< ${b} at ${i}`);
      if (Buffer.compare(Buffer.from(a), Buffer.from(b)) >= 0) expect.fail(`bytes ${a} >= ${b}`);
    }
  });

  it('starts with the creation time: a later millisecond sorts after', async () => {
    const a = timeBasedId();
    await new Promise((r) => setTimeout(r, 5));
    const b = timeBasedId();
    expect(a.slice(0, 8) < b.slice(0, 8)).toBe(true);
  });
});
