/**
 * Integer literals lifted into literal templates (literal-templates.ts): a statement answered
 * from its shape's template has exactly the plan, the `_sql/translate` body and the rows of the
 * same statement planned alone (a fresh SqlService), for positive and negative integers,
 * BETWEEN bounds in either order, ties, OFFSET; literals that are not lifted (decimals,
 * scientific, LIMIT, ordinals, folded literals) give separate shapes and the same answers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SqlService } from '../../../../src/sql/execute/session.js';
import { liftLiterals, sentinelStatement } from '../../../../src/sql/execute/literal-templates.js';
import { family as runFamily, templateNode, type SqlNode } from './template-family.js';

let close: () => Promise<void>;
let sqlNode: SqlNode;

beforeAll(async () => {
  const docs = Array.from({ length: 40 }, (_, i) => ({
    k: `k${i % 7}`,
    n: i * 13 - 200,
    l: i * 1000,
    f: i / 4,
    d: 1_600_000_000_000 + i * 86_400_000,
  }));
  ({ sqlNode, close } = await templateNode(
    'nt',
    {
      k: { type: 'keyword' },
      n: { type: 'integer' },
      l: { type: 'long' },
      f: { type: 'double' },
      d: { type: 'date' },
    },
    docs,
  ));
}, 60_000);

afterAll(async () => {
  await close();
});

/** How many of a family's statements came from a template (template-family.ts). */
const family = async (statements: string[]): Promise<number> =>
  (await runFamily(sqlNode, statements)).templated;

describe('integer literal templates', () => {
  it('lifts WHERE comparisons, BETWEEN bounds, negatives and a trailing OFFSET', () => {
    const text =
      "SELECT k FROM nt WHERE n > -15 AND k = 'k1' AND l BETWEEN 120 AND 4500 ORDER BY n LIMIT 10 OFFSET 30";
    const l = liftLiterals(text)!;
    const { subs } = sentinelStatement(l);
    expect(subs.map((s) => s.value)).toEqual([-15, 'k1', 120, 4500, 30]);
    expect(subs.map((s) => s.image)).toEqual(['-15', "'k1'", '120', '4500', '30']);
    // integer sentinels: 10 digits, in the order of the values, with their signs
    expect(subs.map((s) => s.sentinel)).toEqual([-2000000001, subs[1]!.sentinel, 2000000000, 2000000001, 2000000002]); // prettier-ignore
    const same = liftLiterals(
      "SELECT k FROM nt WHERE n > -4 AND k = 'k33' AND l BETWEEN 350 AND 100000 ORDER BY n LIMIT 10 OFFSET 7",
    )!;
    expect(same.shape).toBe(l.shape);
    // another order of the bounds, another sign, another LIMIT: another shape
    for (const other of [
      "SELECT k FROM nt WHERE n > -15 AND k = 'k1' AND l BETWEEN 450 AND 120 ORDER BY n LIMIT 10 OFFSET 30",
      "SELECT k FROM nt WHERE n > 315 AND k = 'k1' AND l BETWEEN 120 AND 4500 ORDER BY n LIMIT 10 OFFSET 30",
      "SELECT k FROM nt WHERE n > -15 AND k = 'k1' AND l BETWEEN 120 AND 4500 ORDER BY n LIMIT 12 OFFSET 30",
    ])
      expect(liftLiterals(other)!.shape, other).not.toBe(l.shape);
  });

  it('shares one sentinel between equal values', () => {
    const l = liftLiterals('SELECT n FROM nt WHERE n > 12 AND n < 12 AND l = 95 LIMIT 98')!;
    expect(sentinelStatement(l).subs.map((s) => s.sentinel)).toEqual([2000000000, 2000000000, 2000000001]); // prettier-ignore
    expect(liftLiterals('SELECT n FROM nt WHERE n > 12 AND n < 13 AND l = 95 LIMIT 98')!.shape).not.toBe(l.shape); // prettier-ignore
  });

  it('leaves integers the planner reads or folds', () => {
    for (const text of [
      'SELECT n FROM nt LIMIT 5',
      'SELECT n FROM nt WHERE n > 0',
      'SELECT n FROM nt WHERE n > 007',
      'SELECT n FROM nt WHERE n > 1234567890',
      'SELECT n FROM nt WHERE n > 1.5',
      'SELECT n FROM nt WHERE n > 1e3',
      'SELECT n FROM nt WHERE n > 5 + 1',
      'SELECT n FROM nt WHERE n + 1 > 5',
      'SELECT n FROM nt WHERE ABS(n) > 5',
      'SELECT n FROM nt WHERE n IN (1, 2)',
      'SELECT n FROM nt WHERE n > - 5',
      'SELECT n, COUNT(*) FROM nt GROUP BY 1 ORDER BY 1',
      'SELECT COUNT(*) c FROM nt GROUP BY k HAVING c > 5',
      'SELECT CASE WHEN n < 1000 THEN 1 ELSE 2 END FROM nt',
      'SELECT n FROM nt WHERE n > (SELECT 1)',
      'SELECT TOP 5 n FROM nt OFFSET 3',
      'SELECT n FROM nt LIMIT 3 OFFSET 0',
      'SELECT n FROM nt OFFSET 3 ROWS',
    ])
      expect(liftLiterals(text), text).toBeNull();
  });

  it('plans integer comparisons from a template exactly as alone', async () => {
    const used = await family([
      'SELECT k, n FROM nt WHERE n > 5 ORDER BY n LIMIT 5',
      'SELECT k, n FROM nt WHERE n > 7 ORDER BY n LIMIT 5',
      'SELECT k, n FROM nt WHERE n > 3 ORDER BY n LIMIT 5',
      'SELECT k, n FROM nt WHERE n > 9 ORDER BY n LIMIT 5',
      'SELECT k, n FROM nt WHERE n >= -50 ORDER BY n LIMIT 5',
      'SELECT k, n FROM nt WHERE n >= -13 ORDER BY n LIMIT 5',
      'SELECT k, n FROM nt WHERE n >= -99 ORDER BY n LIMIT 5',
      'SELECT COUNT(*) FROM nt WHERE n = 60',
      'SELECT COUNT(*) FROM nt WHERE n = 73',
      'SELECT COUNT(*) FROM nt WHERE n = 99',
      'SELECT COUNT(*) FROM nt WHERE n <> 73',
      'SELECT COUNT(*) FROM nt WHERE n != 86',
      'SELECT COUNT(*) FROM nt WHERE n <> 60',
      'SELECT COUNT(*) FROM nt WHERE f < 5',
      'SELECT COUNT(*) FROM nt WHERE f < 7',
      'SELECT COUNT(*) FROM nt WHERE f < 2',
      'SELECT COUNT(*) FROM nt WHERE l <= 5000',
      'SELECT COUNT(*) FROM nt WHERE l <= 7000',
      'SELECT COUNT(*) FROM nt WHERE l <= 9999',
    ]);
    // a shape's first statement is planned alone, the later ones come from its template
    expect(used).toBe(12);
  });

  it('plans BETWEEN bounds, ties and combined bounds from a template exactly as alone', async () => {
    const used = await family([
      'SELECT k, n FROM nt WHERE n BETWEEN 10 AND 90 ORDER BY n',
      'SELECT k, n FROM nt WHERE n BETWEEN 20 AND 60 ORDER BY n',
      'SELECT k, n FROM nt WHERE n BETWEEN 30 AND 40 ORDER BY n',
      'SELECT k, n FROM nt WHERE n BETWEEN 90 AND 10 ORDER BY n',
      'SELECT k, n FROM nt WHERE n BETWEEN 60 AND 20 ORDER BY n',
      'SELECT k, n FROM nt WHERE n BETWEEN 50 AND 50 ORDER BY n',
      'SELECT k, n FROM nt WHERE n BETWEEN 11 AND 11 ORDER BY n',
      'SELECT k, n FROM nt WHERE n NOT BETWEEN -50 AND 50 ORDER BY n',
      'SELECT k, n FROM nt WHERE n NOT BETWEEN -30 AND 70 ORDER BY n',
      'SELECT k, n FROM nt WHERE n NOT BETWEEN -20 AND 10 ORDER BY n',
      'SELECT COUNT(*) FROM nt WHERE n > 5 AND n > 5',
      'SELECT COUNT(*) FROM nt WHERE n > 7 AND n > 7',
      'SELECT COUNT(*) FROM nt WHERE n > 5 AND n > 7',
      'SELECT COUNT(*) FROM nt WHERE n > 3 AND n > 8',
      'SELECT COUNT(*) FROM nt WHERE n > 8 AND n > 3',
      'SELECT COUNT(*) FROM nt WHERE n > 10 AND n < 90',
      'SELECT COUNT(*) FROM nt WHERE n > 20 AND n < 80',
      'SELECT COUNT(*) FROM nt WHERE n > 90 AND n < 10',
      'SELECT COUNT(*) FROM nt WHERE n > 80 AND n < 20',
      "SELECT k, COUNT(*) c FROM nt WHERE n BETWEEN -100 AND 100 AND k = 'k1' GROUP BY k",
      "SELECT k, COUNT(*) c FROM nt WHERE n BETWEEN -120 AND 300 AND k = 'k2' GROUP BY k",
      "SELECT k, COUNT(*) c FROM nt WHERE n BETWEEN -150 AND 200 AND k = 'k3' GROUP BY k",
    ]);
    expect(used).toBe(12);
  });

  it('plans OFFSET from a template exactly as alone, LIMIT and ordinals staying in the shape', async () => {
    const used = await family([
      'SELECT k, n FROM nt WHERE n > 10 ORDER BY n DESC LIMIT 5 OFFSET 10',
      'SELECT k, n FROM nt WHERE n > 20 ORDER BY n DESC LIMIT 5 OFFSET 20',
      'SELECT k, n FROM nt WHERE n > 30 ORDER BY n DESC LIMIT 5 OFFSET 30',
      'SELECT k, n FROM nt WHERE n > 30 ORDER BY n DESC LIMIT 5 OFFSET 3',
      'SELECT k, n FROM nt WHERE n > 30 ORDER BY n DESC LIMIT 5 OFFSET 7',
      'SELECT k, n FROM nt WHERE n > 30 ORDER BY n DESC LIMIT 5 OFFSET 0',
      'SELECT k, n FROM nt ORDER BY n DESC LIMIT 3 OFFSET 5',
      'SELECT k, n FROM nt ORDER BY n DESC LIMIT 3 OFFSET 8',
      'SELECT k, n FROM nt ORDER BY n DESC LIMIT 3 OFFSET 2',
      'SELECT k, n FROM nt ORDER BY n DESC LIMIT 7 OFFSET 2',
      'SELECT k, n FROM nt ORDER BY n DESC LIMIT 0 OFFSET 2',
      'SELECT k, n FROM nt ORDER BY n DESC OFFSET 35',
      'SELECT k, n FROM nt ORDER BY n DESC OFFSET 38',
      'SELECT k, n FROM nt ORDER BY n DESC OFFSET 45',
      'SELECT k, COUNT(*) FROM nt WHERE n > 10 GROUP BY 1 ORDER BY 2 DESC LIMIT 3',
      'SELECT k, COUNT(*) FROM nt WHERE n > 20 GROUP BY 1 ORDER BY 2 DESC LIMIT 3',
      'SELECT k, COUNT(*) FROM nt WHERE n > 30 GROUP BY 1 ORDER BY 1 DESC LIMIT 3',
      'SELECT k, COUNT(*) FROM nt WHERE n > 40 GROUP BY 1 ORDER BY 1 DESC LIMIT 3',
      'SELECT k, COUNT(*) FROM nt WHERE n > 40 GROUP BY 1 ORDER BY 1 DESC LIMIT 5',
      'SELECT k, COUNT(*) c FROM nt GROUP BY k ORDER BY k LIMIT 3 OFFSET 2',
      'SELECT k, COUNT(*) c FROM nt GROUP BY k ORDER BY k LIMIT 3 OFFSET 4',
      'SELECT k, COUNT(*) c FROM nt GROUP BY k ORDER BY k LIMIT 3 OFFSET 6',
      'SELECT k, COUNT(*) c FROM nt GROUP BY k ORDER BY c DESC LIMIT 3 OFFSET 1',
      'SELECT k, COUNT(*) c FROM nt GROUP BY k ORDER BY c DESC LIMIT 3 OFFSET 5',
    ]);
    expect(used).toBe(13);
  });

  it('gives folded, converted and non-lifted literals the same answers as alone', async () => {
    await family([
      'SELECT 5 AS c, n FROM nt WHERE c > 3 ORDER BY n LIMIT 2',
      'SELECT 5 AS c, n FROM nt WHERE c > 6 ORDER BY n LIMIT 2',
      'SELECT 5 AS c, n FROM nt WHERE c > 4 ORDER BY n LIMIT 2',
      // a literal folded by the optimizer stays in the analyzed plan only: no template
      "SELECT 'k1' AS c, n FROM nt WHERE c = 'zz' ORDER BY n LIMIT 2",
      "SELECT 'k1' AS c, n FROM nt WHERE c = 'zy' ORDER BY n LIMIT 2",
      "SELECT 'k1' AS c, n FROM nt WHERE c = 'k1' ORDER BY n LIMIT 2",
      'SELECT COUNT(*) FROM nt WHERE d > 5',
      'SELECT COUNT(*) FROM nt WHERE d > 7',
      'SELECT COUNT(*) FROM nt WHERE d > 3',
      'SELECT COUNT(*) FROM nt WHERE k = 5',
      'SELECT COUNT(*) FROM nt WHERE k = 6',
      'SELECT COUNT(*) FROM nt WHERE k = 7',
      'SELECT COUNT(*) FROM nt WHERE f > 1.5',
      'SELECT COUNT(*) FROM nt WHERE f > 2.5',
      'SELECT COUNT(*) FROM nt WHERE f > 1e1',
      'SELECT COUNT(*) FROM nt WHERE f > 2e1',
      'SELECT COUNT(*) FROM nt WHERE f > 2E-1',
      'SELECT COUNT(*) FROM nt WHERE n > 2147483647',
      'SELECT COUNT(*) FROM nt WHERE n > 123456789',
      'SELECT COUNT(*) FROM nt WHERE n > 987654321',
      'SELECT COUNT(*) FROM nt WHERE n > 999999999',
      'SELECT n FROM nt WHERE n > 5 LIMIT 5',
      'SELECT n FROM nt WHERE n > 6 LIMIT 6',
      'SELECT n FROM nt WHERE n > 7 LIMIT 7',
      'SELECT n FROM nt WHERE n > 9 LIMIT 9',
      'SELECT n FROM nt WHERE n > 8 LIMIT 9',
      'SELECT n FROM nt WHERE n > 8 LIMIT 8',
      'SELECT n + 1 AS m FROM nt WHERE n > 8 ORDER BY m LIMIT 3',
      'SELECT n + 1 AS m FROM nt WHERE n > 9 ORDER BY m LIMIT 3',
      'SELECT n + 1 AS m FROM nt WHERE n > 7 ORDER BY m LIMIT 3',
    ]);
  });

  it('answers a statement whose integer fails as alone (errors are the same)', async () => {
    const shared = new SqlService(sqlNode);
    for (const q of [
      'SELECT COUNT(*) FROM nt WHERE zz > 5',
      'SELECT COUNT(*) FROM nt WHERE zz > 6',
      'SELECT COUNT(*) FROM nt WHERE zz > 7',
    ]) {
      const alone = new SqlService(sqlNode);
      const err = (s: SqlService) => {
        try {
          s.translate({ query: q });
          return null;
        } catch (e) {
          return (e as Error).message;
        }
      };
      expect(err(shared), q).toEqual(err(alone));
      expect(err(shared), q).not.toBeNull();
    }
  });
});
