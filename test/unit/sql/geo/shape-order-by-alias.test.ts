/**
 * Shapes have no doc values: ES SQL refuses sorting, grouping and filtering on them, and an
 * ORDER BY through a SELECT alias of a function over a shape must be refused the same way,
 * never answered in document order as if the ORDER BY were absent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSpecNode, type SpecNode } from '../../../conformance/sql/runner.js';

let node: SpecNode;
beforeAll(async () => {
  node = await startSpecNode('main', undefined, true);
}, 120_000);
afterAll(async () => {
  await node?.close();
});

const fails = async (query: string) => {
  try {
    await node.sql.execute({ query, mode: 'plain', fetchSize: null });
  } catch (e) {
    return e as { type?: string; message?: string; reason?: string };
  }
  return null;
};

describe('sorting on a shape through an alias', () => {
  it('is refused like a direct sort on the shape', async () => {
    // road_segments.centerline is a `shape` field (ES's message says "shapes"; geo_shape: "geo shapes")
    const direct = await fails('SELECT fid FROM road_segments ORDER BY ST_X(centerline) DESC');
    expect(String((direct as Error).message)).toMatch(/shapes cannot be used for sorting/);
    const viaAlias = await fails(
      'SELECT fid, ST_X(centerline) x FROM road_segments ORDER BY x DESC, fid',
    );
    expect(viaAlias).not.toBeNull();
    expect(String((viaAlias as Error).message)).toMatch(
      /line 1:18: shapes cannot be used for sorting/,
    );
  });

  it('an aggregate over a function of a shape is refused, not answered with null', async () => {
    const e = await fails('SELECT MAX(ST_X(centerline)) m FROM road_segments');
    expect(String((e as Error).message)).toMatch(/shapes cannot be used in aggregations/);
    const ok = await node.sql.execute({
      query: 'SELECT COUNT(centerline) c FROM road_segments',
      mode: 'plain',
      fetchSize: null,
    });
    expect(ok.rows[0]![0]).toBeGreaterThan(0);
  });
});
