/**
 * The H2 property test (issue 16): generated GROUP BY / HAVING / ORDER BY / LIMIT statements over
 * test_emp run on Quarry and on H2 and must give the same result set. Every ORDER BY item names
 * its NULLS order and the grouping keys close the ORDER BY, so both engines have one right answer.
 * A statement Quarry refuses is counted apart (a refusal is no wrong answer); an answer that
 * differs from H2's is a silently wrong one.
 */
import fc from 'fast-check';
import { toEsError } from '../../../src/common/errors.js';
import { SQL_SPEC_DIR } from './datasets.js';
import { startSpecNode } from './runner.js';
import { compareWithH2 } from './sql-spec-compare.js';
import { startH2 } from './sql-spec-h2.js';

interface Term {
  readonly sql: string;
  /** Values it takes, for HAVING constants. */
  readonly range: readonly [number, number];
}

const KEYS = ['gender', 'languages', 'salary / 10000', 'emp_no % 3'];
const COLUMNS: ReadonlyArray<readonly [string, number, number]> = [
  ['salary', 25000, 75000],
  ['languages', 1, 5],
  ['emp_no', 10001, 10100],
];

const aggArb: fc.Arbitrary<Term> = fc.oneof(
  fc.constant<Term>({ sql: 'COUNT(*)', range: [0, 60] }),
  fc
    .tuple(fc.constantFrom(...COLUMNS), fc.constantFrom('COUNT', 'MIN', 'MAX', 'SUM', 'AVG'))
    .map(([[col, lo, hi], fn]): Term => {
      if (fn === 'COUNT') return { sql: `COUNT(${col})`, range: [0, 60] };
      if (fn === 'SUM') return { sql: `SUM(${col})`, range: [lo, hi * 20] };
      return { sql: `${fn}(${col})`, range: [lo, hi] };
    }),
);

/** An aggregate or a scalar over aggregates. */
const aggExprArb: fc.Arbitrary<Term> = fc.oneof(
  { weight: 3, arbitrary: aggArb },
  {
    weight: 1,
    arbitrary: fc.tuple(aggArb, aggArb).map(([a, b]): Term => ({
      sql: `${a.sql} - ${b.sql}`,
      range: [a.range[0] - b.range[1], a.range[1] - b.range[0]],
    })),
  },
  {
    weight: 1,
    arbitrary: aggArb.map((a): Term => ({
      sql: `${a.sql} * 2`,
      range: [a.range[0] * 2, a.range[1] * 2],
    })),
  },
);

const conditionArb: fc.Arbitrary<string> = fc
  .tuple(
    aggExprArb,
    fc.constantFrom('>', '<', '>=', '<=', '<>'),
    fc.double({ min: 0, max: 1, noNaN: true }),
  )
  .map(([t, op, f]) => `${t.sql} ${op} ${Math.round(t.range[0] + f * (t.range[1] - t.range[0]))}`);

const havingArb = fc.oneof(
  conditionArb,
  fc
    .tuple(conditionArb, fc.constantFrom('AND', 'OR'), conditionArb)
    .map(([a, op, b]) => `${a} ${op} ${b}`),
);

const directionArb = fc.tuple(fc.constantFrom('ASC', 'DESC'), fc.constantFrom('FIRST', 'LAST'));
const order = ([d, n]: [string, string]) => `${d} NULLS ${n}`;

const whereArb = fc.constantFrom(
  'salary > 40000',
  "gender = 'M'",
  'languages IS NOT NULL',
  'emp_no < 10050',
  'languages > 2 OR gender IS NULL',
);

/** One generated statement. */
export const statementArb: fc.Arbitrary<string> = fc
  .record({
    keys: fc.subarray(KEYS, { minLength: 0, maxLength: 2 }),
    aggs: fc.array(aggExprArb, { minLength: 1, maxLength: 3 }),
    where: fc.option(whereArb, { freq: 3 }),
    having: fc.option(havingArb, { freq: 2 }),
    orderBy: fc.array(fc.tuple(fc.oneof(fc.nat(), aggExprArb), directionArb), { maxLength: 2 }),
    keyOrder: fc.array(directionArb, { minLength: 2, maxLength: 2 }),
    limit: fc.option(fc.integer({ min: 1, max: 20 }), { freq: 2 }),
  })
  .map((s) => {
    const select = [
      ...s.keys.map((k, i) => `${k} AS k${i}`),
      ...s.aggs.map((a, i) => `${a.sql} AS a${i}`),
    ];
    let q = `SELECT ${select.join(', ')} FROM test_emp`;
    if (s.where !== null) q += ` WHERE ${s.where}`;
    if (s.keys.length > 0) q += ` GROUP BY ${s.keys.join(', ')}`;
    if (s.having !== null) q += ` HAVING ${s.having}`;
    if (s.keys.length > 0) {
      const items = s.orderBy.map(([x, dir]) =>
        typeof x === 'number' ? `a${x % s.aggs.length} ${order(dir)}` : `${x.sql} ${order(dir)}`,
      );
      // the keys close the ORDER BY: one right order
      s.keys.forEach((_, i) => items.push(`k${i} ${order(s.keyOrder[i]!)}`));
      q += ` ORDER BY ${items.join(', ')}`;
    }
    if (s.limit !== null) q += ` LIMIT ${s.limit}`;
    return q;
  });

export interface PropertyReport {
  readonly runs: number;
  readonly matched: number;
  readonly refused: Array<{ sql: string; reason: string }>;
  readonly oracleErrors: Array<{ sql: string; reason: string }>;
  readonly wrong: Array<{ sql: string; reason: string }>;
}

/** Generates `runs` statements from `seed` and runs each on H2 and Quarry. */
export async function runProperty(runs: number, seed: number): Promise<PropertyReport> {
  const statements = fc.sample(statementArb, { numRuns: runs, seed });
  const h2 = await startH2(SQL_SPEC_DIR, ['setup_test_emp.sql']);
  const node = await startSpecNode('main').catch((e) => {
    h2.close();
    throw e;
  });
  const report: PropertyReport = { runs, matched: 0, refused: [], oracleErrors: [], wrong: [] };
  let matched = 0;
  try {
    for (const sql of statements) {
      const expected = await h2.query(sql);
      if ('error' in expected) {
        report.oracleErrors.push({ sql, reason: expected.error.split('\n')[0]! });
        continue;
      }
      let actual;
      try {
        let page = await node.sql.execute({ query: sql, mode: 'jdbc' });
        const columns = (page.columns ?? []).map((c) => ({ name: c.name, type: c.type }));
        const rows = [...page.rows];
        while (page.cursor !== null) {
          page = await node.sql.execute({ cursor: page.cursor });
          rows.push(...page.rows);
        }
        actual = { columns, rows };
      } catch (e) {
        const err = toEsError(e);
        report.refused.push({ sql, reason: `${err.type}: ${err.reason ?? ''}` });
        continue;
      }
      const diff = compareWithH2(expected, actual);
      if (diff === null) matched++;
      else report.wrong.push({ sql, reason: diff });
    }
  } finally {
    h2.close();
    await node.close();
  }
  return { ...report, matched };
}
