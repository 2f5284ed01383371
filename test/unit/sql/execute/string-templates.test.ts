/**
 * String literals lifted into literal templates (literal-templates.ts): statements differing only
 * in a lifted string (`column = '…'`, MATCH's text, QUERY's query string) or in what follows
 * their last token share their shape's template, and each has exactly the plan, the
 * `_sql/translate` body and the rows of the same statement planned alone, with the answers its
 * own literal gives. Strings the planner folds, converts or reads (LIKE/RLIKE patterns, options,
 * dates, constants compared with constants) are either not lifted or refused as templates.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { liftLiterals } from '../../../../src/sql/execute/literal-templates.js';
import { SqlService } from '../../../../src/sql/execute/session.js';
import { family, planOf, templateNode, type SqlNode } from './template-family.js';

let close: () => Promise<void>;
let sqlNode: SqlNode;

const WORDS = ['red fox', 'quick red dog', 'lazy dog', 'quick brown fox', "it's a fox"];

beforeAll(async () => {
  const docs = Array.from({ length: 30 }, (_, i) => ({
    k: `k${i % 5}`,
    g: i % 3 === 0 ? 'F' : 'M',
    t: WORDS[i % WORDS.length],
    n: i,
    d: 1_600_000_000_000 + i * 86_400_000,
  }));
  ({ sqlNode, close } = await templateNode(
    'st',
    {
      k: { type: 'keyword' },
      g: { type: 'keyword' },
      t: { type: 'text', fields: { raw: { type: 'keyword' } } },
      n: { type: 'integer' },
      d: { type: 'date' },
    },
    docs,
  ));
}, 60_000);

afterAll(async () => {
  await close();
});

/** The rows of an answer (an error answers null). */
const rows = (a: unknown) => (a as { rows?: unknown[][] }).rows ?? null;

describe('string literal templates', () => {
  it('share a template for column comparisons, each answering its own value', async () => {
    const { templated, answers } = await family(sqlNode, [
      "SELECT n FROM st WHERE k = 'k1' ORDER BY n",
      "SELECT n FROM st WHERE k = 'k2' ORDER BY n",
      "SELECT n FROM st WHERE k = 'k3' ORDER BY n",
      "SELECT n FROM st WHERE k = 'nothing' ORDER BY n",
      "SELECT n FROM st WHERE k = 'it''s' ORDER BY n",
      "SELECT COUNT(*) FROM st WHERE k <> 'k1'",
      "SELECT COUNT(*) FROM st WHERE k != 'k4'",
      "SELECT COUNT(*) FROM st WHERE k <> 'zz'",
      "SELECT g, COUNT(*) c FROM st WHERE k = 'k0' GROUP BY g ORDER BY g",
      "SELECT g, COUNT(*) c FROM st WHERE k = 'k1' GROUP BY g ORDER BY g",
      "SELECT g, COUNT(*) c FROM st WHERE k = 'k2' GROUP BY g ORDER BY g",
    ]);
    expect(templated).toBe(7);
    expect(rows(answers[0])).toEqual([[1], [6], [11], [16], [21], [26]]);
    expect(rows(answers[1])).toEqual([[2], [7], [12], [17], [22], [27]]);
    expect(rows(answers[3])).toEqual([]);
    expect(rows(answers[5])).toEqual([[24]]);
    expect(rows(answers[7])).toEqual([[30]]);
    expect(rows(answers[8])).toEqual([
      ['F', 2],
      ['M', 4],
    ]);
    expect(rows(answers[9])).toEqual([
      ['F', 2],
      ['M', 4],
    ]);
  });

  it('share a template for MATCH text and QUERY strings, options staying in the shape', async () => {
    const { templated, answers } = await family(sqlNode, [
      "SELECT n, SCORE() FROM st WHERE MATCH(t, 'fox') ORDER BY SCORE() DESC, n LIMIT 5",
      "SELECT n, SCORE() FROM st WHERE MATCH(t, 'lazy') ORDER BY SCORE() DESC, n LIMIT 5",
      "SELECT n, SCORE() FROM st WHERE MATCH(t, 'quick red') ORDER BY SCORE() DESC, n LIMIT 5",
      "SELECT COUNT(*) FROM st WHERE MATCH(t, 'quick red', 'operator=and')",
      "SELECT COUNT(*) FROM st WHERE MATCH(t, 'quick red', 'operator=or')",
      "SELECT COUNT(*) FROM st WHERE MATCH(t, 'quick fox', 'operator=and')",
      "SELECT COUNT(*) FROM st WHERE MATCH(t, 'quick fox', 'operator=or')",
      'SELECT COUNT(*) FROM st WHERE QUERY(\'t:"red fox"\')',
      'SELECT COUNT(*) FROM st WHERE QUERY(\'t:"red dog"\')',
      "SELECT COUNT(*) FROM st WHERE QUERY('t:(quick AND NOT fox)')",
      "SELECT COUNT(*) FROM st WHERE QUERY('quick dog', 'default_operator=and')",
      "SELECT COUNT(*) FROM st WHERE QUERY('quick dog', 'default_operator=or')",
      "SELECT COUNT(*) FROM st WHERE QUERY('lazy fox', 'default_operator=and')",
    ]);
    // MATCH text 2, MATCH with options (two shapes: and, or) 2, QUERY 2, QUERY with options 1
    expect(templated).toBe(7);
    expect(rows(answers[3])).toEqual([[6]]);
    expect(rows(answers[4])).toEqual([[18]]);
    expect(rows(answers[5])).toEqual([[6]]);
    expect(rows(answers[6])).toEqual([[24]]);
    expect(rows(answers[7])).toEqual([[6]]);
    expect(rows(answers[8])).toEqual([[6]]);
    expect(rows(answers[9])).toEqual([[6]]);
    expect(rows(answers[10])).toEqual([[6]]);
    expect(rows(answers[11])).toEqual([[18]]);
    expect(rows(answers[12])).toEqual([[0]]);
  });

  it('share a template whatever follows the last token, never a cached plan', async () => {
    const base = "SELECT n FROM st WHERE k = 'k1' ORDER BY n";
    const l = liftLiterals(base)!;
    for (const tail of [' ', '\n', ' \t\n  ', ' -- k1', ' /* x */ ', '\n-- a\n'])
      expect(liftLiterals(`${base}${tail}`)!.shape, JSON.stringify(tail)).toBe(l.shape);
    expect(liftLiterals(base.replace("'k1'", "'k2'") + '  ')!.shape).toBe(l.shape);
    const { templated, answers } = await family(sqlNode, [
      base,
      `${base} `,
      `${base.replace("'k1'", "'k2'")}  `,
      `${base.replace("'k1'", "'k3'")} -- k1`,
      `${base.replace("'k1'", "'k4'")}\n/* k1 */`,
      `${base.replace("'k1'", "'k0'")}\n\n`,
      "SELECT n\nFROM st\nWHERE k = 'k1'\n  AND g = 'M'\nORDER BY n  ",
      "SELECT n\nFROM st\nWHERE k = 'k2'\n  AND g = 'F'\nORDER BY n\n",
      "SELECT n\nFROM st\nWHERE k = 'k3'\n  AND g = 'MM'\nORDER BY n -- x",
    ]);
    expect(templated).toBe(7);
    expect(rows(answers[1])).toEqual(rows(answers[0]));
    expect(rows(answers[2])).toEqual([[2], [7], [12], [17], [22], [27]]);
    expect(rows(answers[5])).toEqual([[0], [5], [10], [15], [20], [25]]);
    expect(rows(answers[7])).toEqual([[12], [27]]);
    expect(rows(answers[8])).toEqual([]);
  });

  it('keep separate shapes for equal and unequal values', () => {
    const a = liftLiterals("SELECT n FROM st WHERE k = 'k1' AND g = 'k1'")!;
    expect(liftLiterals("SELECT n FROM st WHERE k = 'k2' AND g = 'k2'")!.shape).toBe(a.shape);
    expect(liftLiterals("SELECT n FROM st WHERE k = 'k1' AND g = 'k2'")!.shape).not.toBe(a.shape);
  });

  it('leave strings the planner reads as patterns, options, types or constants', () => {
    for (const text of [
      "SELECT n FROM st WHERE k LIKE 'k%'",
      "SELECT n FROM st WHERE k RLIKE 'k[12]'",
      "SELECT n FROM st WHERE k NOT LIKE 'k_'",
      "SELECT n FROM st WHERE 'a' = 'b'",
      "SELECT n FROM st WHERE k IN ('k1', 'k2')",
      "SELECT n FROM st WHERE k = 'k' || '1'",
      "SELECT n FROM st WHERE k = CONCAT('k', '1')",
      "SELECT k = 'k1' AS e FROM st",
      "SELECT CASE WHEN k = 'k1' THEN 1 ELSE 2 END FROM st",
      "SELECT n FROM st WHERE d > '2020-09-14'",
      "SELECT n FROM st WHERE CAST(k AS VARCHAR) > 'k1'",
      "SELECT DATE_TRUNC('month', d) FROM st",
      "SELECT n FROM st WHERE k = ''",
    ])
      expect(liftLiterals(text), text).toBeNull();
    // MATCH's and QUERY's options: never lifted
    const m = liftLiterals("SELECT n FROM st WHERE MATCH(t, 'fox', 'operator=and')")!;
    expect(m.literals.map((x) => x.value)).toEqual(['fox']);
    const q = liftLiterals("SELECT n FROM st WHERE QUERY('fox', 'default_operator=and')")!;
    expect(q.literals.map((x) => x.value)).toEqual(['fox']);
  });

  it('refuse a template where the planner folds or converts the lifted string', async () => {
    const folded = await family(sqlNode, [
      // the alias of a constant: the optimizer folds `'M' = '…'`
      "SELECT 'M' AS c, n FROM st WHERE c = 'F' ORDER BY n LIMIT 3",
      "SELECT 'M' AS c, n FROM st WHERE c = 'M' ORDER BY n LIMIT 3",
      "SELECT 'M' AS c, n FROM st WHERE c = 'X' ORDER BY n LIMIT 3",
      "SELECT 'M' AS c, n FROM st WHERE c <> 'M' ORDER BY n LIMIT 3",
      "SELECT 'M' AS c, n FROM st WHERE c <> 'F' ORDER BY n LIMIT 3",
    ]);
    expect(folded.templated).toBe(0);
    expect(rows(folded.answers[0])).toEqual([]);
    expect(rows(folded.answers[1])).toEqual([
      ['M', 0],
      ['M', 1],
      ['M', 2],
    ]);
    expect(rows(folded.answers[2])).toEqual([]);
    expect(rows(folded.answers[3])).toEqual([]);
    expect(rows(folded.answers[4])).toEqual([
      ['M', 0],
      ['M', 1],
      ['M', 2],
    ]);
    // a string compared with a date or a number is converted (or refused): answers as alone
    const converted = await family(sqlNode, [
      "SELECT n FROM st WHERE d = '2020-09-14T12:26:40Z' ORDER BY n",
      "SELECT n FROM st WHERE d = '2020-09-15T12:26:40Z' ORDER BY n",
      "SELECT n FROM st WHERE d = '2020-09-16T12:26:40Z' ORDER BY n",
      "SELECT n FROM st WHERE d = 'not a date' ORDER BY n",
      "SELECT n FROM st WHERE n = '5' ORDER BY n",
      "SELECT n FROM st WHERE n = '6' ORDER BY n",
      "SELECT n FROM st WHERE n = 'x' ORDER BY n",
      "SELECT n FROM st WHERE t = 'red fox' ORDER BY n",
      "SELECT n FROM st WHERE t = 'lazy dog' ORDER BY n",
      "SELECT n FROM st WHERE t.raw = 'lazy dog' ORDER BY n",
      "SELECT n FROM st WHERE t.raw = 'red fox' ORDER BY n",
    ]);
    const d1 = rows(converted.answers[0]);
    const d2 = rows(converted.answers[1]);
    if (d1 !== null && d2 !== null) expect(d1).not.toEqual(d2);
    expect(rows(converted.answers[9])).toEqual([[2], [7], [12], [17], [22], [27]]);
    expect(rows(converted.answers[10])).toEqual([[0], [5], [10], [15], [20], [25]]);
  });

  it('give the folded comparison of constants its own answer', async () => {
    const { answers } = await family(sqlNode, [
      "SELECT COUNT(*) FROM st WHERE 'a' = 'b'",
      "SELECT COUNT(*) FROM st WHERE 'a' = 'a'",
      "SELECT n FROM st WHERE k LIKE 'k1%' ORDER BY n LIMIT 2",
      "SELECT n FROM st WHERE k LIKE 'k2%' ORDER BY n LIMIT 2",
      "SELECT n FROM st WHERE k RLIKE 'k[34]' ORDER BY n LIMIT 2",
      "SELECT n FROM st WHERE k RLIKE 'k[01]' ORDER BY n LIMIT 2",
    ]);
    // a WHERE clause folded to FALSE answers no row (the plan runs no search)
    expect(answers.map(rows)).toEqual([[], [[30]], [[1], [6]], [[2], [7]], [[3], [4]], [[0], [1]]]); // prettier-ignore
  });

  it('keeps a shape in which the planner reads the string out of templates', async () => {
    // HAVING on a grouped key, a string within ORDER BY: whatever the planner makes of them,
    // every statement answers as alone
    await family(sqlNode, [
      "SELECT k, COUNT(*) c FROM st GROUP BY k HAVING k = 'k1'",
      "SELECT k, COUNT(*) c FROM st GROUP BY k HAVING k = 'k2'",
      "SELECT k, COUNT(*) c FROM st GROUP BY k HAVING k = 'k3'",
      "SELECT k FROM st GROUP BY k ORDER BY k = 'k1'",
      "SELECT k FROM st GROUP BY k ORDER BY k = 'k2'",
      "SELECT k FROM st GROUP BY k ORDER BY k = 'k3'",
    ]);
    // a plan made from a template is a plan of its own (the template's stays untouched)
    const s = new SqlService(sqlNode);
    const a = planOf(s, "SELECT n FROM st WHERE k = 'k1'").plan;
    planOf(s, "SELECT n FROM st WHERE k = 'k2'");
    const c = planOf(s, "SELECT n FROM st WHERE k = 'k3'").plan;
    expect(s.templatedCount).toBe(2);
    expect(JSON.stringify(a)).toContain('k1');
    expect(JSON.stringify(c)).toContain('k3');
    expect(JSON.stringify(c)).not.toContain('k1');
  });
});
