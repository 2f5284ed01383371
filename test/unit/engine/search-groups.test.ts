import { describe, expect, it } from 'vitest';
import { ShardCounters } from '../../../src/engine/stats.js';

describe('search stats groups (ES ShardSearchStats groupsStats)', () => {
  it('counts a query phase once in the total and once per distinct group', () => {
    const c = new ShardCounters();
    c.queried();
    c.queried(['bar', 'baz', 'bar']);
    c.queried(['bar']);
    expect(c.queryTotal).toBe(3);
    expect(Object.fromEntries(c.groupQueries)).toEqual({ bar: 2, baz: 1 });
  });
});
