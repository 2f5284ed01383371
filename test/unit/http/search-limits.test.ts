/** The node's search limits: kept while the cluster settings stay, read again when they change. */
import { describe, expect, it } from 'vitest';
import { searchLimits } from '../../../src/http/routes/search.js';
import type { NodeContext } from '../../../src/node-context.js';

describe('searchLimits', () => {
  it('is kept while the cluster settings object stays, and follows a change of it', () => {
    let cs: Record<string, string> = {};
    const node = {
      settings: { raw: { 'indices.query.bool.max_clause_count': '2048' } },
      clusterSettings: () => cs,
    } as unknown as NodeContext;
    const first = searchLimits(node);
    expect(first).toMatchObject({ maxBuckets: -1, maxClauseCount: 2048 });
    expect(searchLimits(node)).toBe(first);
    cs = { 'search.max_buckets': '10', 'indices.query.bool.max_clause_count': '16' };
    expect(searchLimits(node)).toMatchObject({ maxBuckets: 10, maxClauseCount: 16 });
    expect(() => {
      (searchLimits(node) as { maxBuckets: number }).maxBuckets = 1;
    }).toThrow();
  });

  it('takes the breakers once the node has them', () => {
    const cs = {};
    const node = { settings: { raw: {} }, clusterSettings: () => cs } as unknown as NodeContext;
    expect(searchLimits(node)).not.toHaveProperty('breaker');
    const check = () => undefined;
    (node as { overload?: unknown }).overload = { breakers: { bucketChecker: () => check } };
    expect(searchLimits(node)).toHaveProperty('breaker', check);
  });

  it('a node without cluster settings reads its own each time', () => {
    const node = { settings: { raw: {} } } as unknown as NodeContext;
    expect(searchLimits(node)).toMatchObject({ maxBuckets: -1, maxClauseCount: 1024 });
  });
});
