/**
 * The first-of-shape store keeps a shape's first statement only as its lifted literals and text,
 * never its plan (one-off shapes are the common case and a kept plan outlived young collections);
 * a shape that comes back plans its first statement again to check the template, so templates
 * still form on the second statement, cached plans answer again exactly as alone, and a mapping
 * changed between a shape's first and second statement is seen by the check.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDispatcher } from '../../../../src/http/dispatcher.js';
import { SqlService } from '../../../../src/sql/execute/session.js';
import { samePlan } from '../../../../src/sql/execute/literal-templates.js';
import { family, planOf, templateNode, type SqlNode } from './template-family.js';

let close: () => Promise<void>;
let d: ReturnType<typeof createDispatcher>;
let sqlNode: SqlNode;

beforeAll(async () => {
  const docs = Array.from({ length: 12 }, (_, i) => ({ k: `k${i % 3}`, n: i }));
  ({ sqlNode, d, close } = await templateNode('fs', { k: { type: 'keyword' }, n: { type: 'long' } }, docs)); // prettier-ignore
}, 60_000);

afterAll(async () => {
  await close();
});

const shapesOf = (s: SqlService) =>
  (s as unknown as { shapes: Map<string, Record<string, unknown>> }).shapes;

describe('first-of-shape store', () => {
  it('keeps no plan for a shape seen once', () => {
    const s = new SqlService(sqlNode);
    for (let i = 0; i < 20; i++) planOf(s, `SELECT COUNT(*) AS c${i} FROM fs WHERE k = 'k1'`);
    const shapes = shapesOf(s);
    expect(shapes.size).toBe(20);
    for (const first of shapes.values()) {
      expect(Object.keys(first)).toEqual(['lifted']);
      // a few hundred bytes of text and literals, not an analyzed/optimized tree
      expect(JSON.stringify(first).length).toBeLessThan(400);
    }
  });

  it('still makes a template on the second statement; cached plans answer again as alone', async () => {
    const statements = ['k0', 'k1', 'k2', 'nothing', 'k1', 'k0'].map(
      (k) => `SELECT k, COUNT(*) c, AVG(n) a FROM fs WHERE k = '${k}' GROUP BY k`,
    );
    // run twice through one service: the second round answers from the plan cache
    const { templated, answers } = await family(sqlNode, [...statements, ...statements]);
    expect(templated).toBe(3);
    expect(answers.slice(6)).toEqual(answers.slice(0, 6));
    expect((answers[1] as { rows: unknown[][] }).rows).toEqual([['k1', 4, 5.5]]);
  });

  it('checks the template against the mappings current at the second statement', async () => {
    await d('PUT', '/fs2', {
      mappings: { _doc: { properties: { v: { type: 'keyword' } } } },
    } as object);
    const s = new SqlService(sqlNode);
    planOf(s, `SELECT * FROM "fs2*" WHERE v = 'a'`);
    // a new index under the pattern adds a column: the first statement's old plan is stale
    await d('PUT', '/fs2b', {
      mappings: { _doc: { properties: { v: { type: 'keyword' }, w: { type: 'long' } } } },
    } as object);
    for (const k of ['b', 'c']) {
      const q = `SELECT * FROM "fs2*" WHERE v = '${k}'`;
      const shared = planOf(s, q).plan;
      const alone = planOf(new SqlService(sqlNode), q).plan;
      expect(samePlan(shared, alone)).toBe(true);
      expect(JSON.stringify(shared)).toContain('"w"');
    }
    // the template was checked against the first statement planned now, so it formed
    expect(s.templatedCount).toBe(2);
  });
});
