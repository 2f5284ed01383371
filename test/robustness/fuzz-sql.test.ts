/**
 * Fuzzing the SQL REST API: statements mutated token by token (deleted, duplicated, swapped or
 * replaced from a vocabulary of keywords, functions, operators and literals), random token soup
 * and mutated request bodies (fetch_size, params, time_zone, mode, format) sent to /_sql and
 * /_sql/translate. Every answer must be a well-formed ES response and must not hang.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestNode } from '../helpers/node.js';
import { fuzzNode, malformed, mutated, RUNS, send, snapshot } from './fuzz-support.js';

const STATEMENTS = [
  'SELECT * FROM fz',
  'SELECT tag, COUNT(*) AS c FROM fz GROUP BY tag HAVING c > 1 ORDER BY c DESC LIMIT 3',
  'SELECT n, price * 2 AS p FROM fz WHERE n BETWEEN 3 AND 9 AND ok = true ORDER BY n',
  "SELECT title FROM fz WHERE MATCH(title, 'quick fox') AND tag IN ('t1', 't2')",
  'SELECT YEAR("when") y, MONTH("when") m, AVG(price) FROM fz GROUP BY y, m',
  'SELECT HISTOGRAM(n, 10) h, MAX(price), MIN(n) FROM fz GROUP BY h',
  "SELECT CASE WHEN n > 5 THEN 'big' ELSE 'small' END AS s, COUNT(1) FROM fz GROUP BY s",
  "SELECT CONCAT(tag, '-'), LENGTH(title), UCASE(tag) FROM fz WHERE title LIKE '%fox%' LIMIT 5",
  'SELECT CAST(n AS DOUBLE) / 3, ROUND(price, 1), ABS(-n) FROM fz WHERE "when" > \'2020-01-05\'::datetime',
  'SELECT tag, PERCENTILE(price, 50), STDDEV_POP(n) FROM fz GROUP BY tag',
  "SELECT COUNT(DISTINCT tag), SUM(n) FROM fz WHERE QUERY('title:fox OR tag:t1')",
  'SELECT n FROM fz WHERE n IS NOT NULL AND NOT (n < 2 OR n > 30) ORDER BY SCORE() DESC, n',
  'SELECT DATE_TRUNC(\'month\', "when") d, COUNT(*) FROM fz GROUP BY d',
  'SELECT ip, "kids.name" FROM fz',
  'SHOW TABLES',
  'SHOW COLUMNS FROM fz',
  "SHOW FUNCTIONS LIKE 'A%'",
  'DESCRIBE fz',
  'SELECT 1 + 2 * 3, PI(), NOW(), CURRENT_DATE',
  'SELECT n FROM fz WHERE n > ? AND tag = ?',
];

const VOCAB = [
  'SELECT',
  'FROM',
  'WHERE',
  'GROUP',
  'BY',
  'HAVING',
  'ORDER',
  'LIMIT',
  'AS',
  'AND',
  'OR',
  'NOT',
  'IN',
  'LIKE',
  'RLIKE',
  'BETWEEN',
  'IS',
  'NULL',
  'TRUE',
  'FALSE',
  'CASE',
  'WHEN',
  'THEN',
  'ELSE',
  'END',
  'DISTINCT',
  'ALL',
  'ASC',
  'DESC',
  'NULLS',
  'FIRST',
  'LAST',
  'CAST',
  'CONVERT',
  'EXTRACT',
  'INTERVAL',
  'YEAR',
  'DAY',
  'HOUR',
  'TO',
  'PIVOT',
  'FOR',
  'JOIN',
  'UNION',
  'EXPLAIN',
  'SHOW',
  'COUNT',
  'SUM',
  'AVG',
  'MIN',
  'MAX',
  'PERCENTILE',
  'HISTOGRAM',
  'MATCH',
  'QUERY',
  'SCORE',
  'IIF',
  'COALESCE',
  'NULLIF',
  'GREATEST',
  'SUBSTRING',
  'LOCATE',
  'POSITION',
  'DATE_ADD',
  'DATE_PART',
  'TO_CHAR',
  'FORMAT',
  'TOP',
  'fz',
  'n',
  'tag',
  'title',
  'price',
  '"when"',
  'ok',
  'ip',
  'kids',
  '*',
  '(',
  ')',
  ',',
  '.',
  '::',
  '+',
  '-',
  '/',
  '%',
  '=',
  '<>',
  '!=',
  '<',
  '>=',
  '?',
  ';',
  "'x'",
  "''",
  "'%'",
  "'\\'",
  '0',
  '-1',
  '1e309',
  '9223372036854775808',
  '0.5',
  '{fn',
  '}',
  '{d',
  "'2020-01-01'",
  '"',
  '`',
  '--',
  '/*',
  '*/',
  "INTERVAL '1' DAY",
  'INTERVAL -2 YEARS',
];

/** Splits a statement into tokens: quoted strings and identifiers, words, numbers, symbols. */
function tokens(sql: string): string[] {
  return sql.match(/'(?:[^']|'')*'|"[^"]*"|::|<>|!=|<=|>=|[A-Za-z_][\w.]*|\d+(?:\.\d+)?|\S/g) ?? [];
}

type Op = { op: 'del' | 'dup' | 'swap' | 'put'; at: number; word: string };
const op: fc.Arbitrary<Op> = fc.record({
  op: fc.constantFrom('del', 'dup', 'swap', 'put'),
  at: fc.nat(),
  word: fc.oneof(
    { weight: 5, arbitrary: fc.constantFrom(...VOCAB) },
    { weight: 1, arbitrary: fc.string({ maxLength: 5 }) },
  ),
});

function mutate(sql: string, ops: Op[]): string {
  const t = tokens(sql);
  for (const o of ops) {
    if (t.length === 0) t.push(o.word);
    const i = o.at % t.length;
    if (o.op === 'del') t.splice(i, 1);
    else if (o.op === 'dup') t.splice(i, 0, t[i]!);
    else if (o.op === 'swap' && i + 1 < t.length) [t[i], t[i + 1]] = [t[i + 1]!, t[i]!];
    else t[i] = o.word;
  }
  return t.join(' ');
}

const statement = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .tuple(fc.constantFrom(...STATEMENTS), fc.array(op, { minLength: 1, maxLength: 4 }))
      .map(([s, ops]) => mutate(s, ops)),
  },
  {
    weight: 1,
    arbitrary: fc
      .array(fc.constantFrom(...VOCAB), { minLength: 1, maxLength: 12 })
      .map((w) => w.join(' ')),
  },
  { weight: 1, arbitrary: fc.constantFrom(...STATEMENTS) },
);

let node: TestNode;
let before: string;
beforeAll(async () => {
  node = await fuzzNode();
  before = await snapshot(node);
}, 60_000);
afterAll(async () => {
  expect(await snapshot(node)).toBe(before);
  await node.destroy();
});

async function check(path: string, body: unknown): Promise<void> {
  const text = JSON.stringify(body);
  const a = await send(node, 'POST', path, text);
  // Text formats answer tables, not JSON; their errors are JSON like the rest.
  const textual = /format=(txt|csv|tsv)/.test(path) && a.status < 400;
  const why = textual ? (a.status >= 200 ? null : `status ${a.status}`) : malformed(a);
  if (why) throw new Error(`POST ${path} ${text.slice(0, 600)}\n→ ${why}`);
}

describe('fuzzing the SQL API', () => {
  it('seed statements run', async () => {
    for (const query of STATEMENTS) {
      const a = await send(node, 'POST', '/_sql', JSON.stringify({ query, params: [2, 't1'] }));
      expect(a.status, `${query} → ${a.text.slice(0, 300)}`).toBe(200);
    }
  });

  it('mutated statements answer well-formed responses', async () => {
    await fc.assert(
      fc.asyncProperty(
        statement,
        fc.constantFrom(
          '/_sql',
          '/_sql?format=txt',
          '/_sql?format=csv',
          '/_sql/translate',
          '/_xpack/sql?format=json',
        ),
        async (query, path) => check(path, { query, params: [2, 't1'] }),
      ),
      { numRuns: RUNS * 4 },
    );
  }, 120_000);

  it('mutated request bodies answer well-formed responses', async () => {
    const BODIES: unknown[] = [
      { query: 'SELECT n, tag FROM fz ORDER BY n', fetch_size: 3 },
      {
        query: 'SELECT n FROM fz WHERE n > ?',
        params: [{ type: 'integer', value: 3 }],
        mode: 'jdbc',
      },
      {
        query: 'SELECT "when" FROM fz',
        time_zone: 'Europe/Paris',
        field_multi_value_leniency: true,
      },
      { query: 'SELECT COUNT(*) FROM fz', filter: { term: { tag: 't1' } }, request_timeout: '5s' },
      { query: 'SELECT tag FROM fz', columnar: true, mode: 'plain', page_timeout: '1m' },
    ];
    await fc.assert(
      fc.asyncProperty(
        mutated(BODIES),
        fc.constantFrom('/_sql', '/_sql/translate', '/_sql?format=tsv'),
        async (body, path) => check(path, body),
      ),
      { numRuns: RUNS * 2 },
    );
  }, 120_000);

  it('cursors: mutated and foreign cursors answer well-formed responses', async () => {
    const first = await send(
      node,
      'POST',
      '/_sql',
      JSON.stringify({ query: 'SELECT n FROM fz ORDER BY n', fetch_size: 2 }),
    );
    expect(first.status).toBe(200);
    const cursor = first.json.cursor as string;
    expect(typeof cursor).toBe('string');
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc
            .tuple(fc.nat(), fc.string({ maxLength: 3 }))
            .map(
              ([i, s]) =>
                cursor.slice(0, i % cursor.length) + s + cursor.slice((i % cursor.length) + 1),
            ),
          fc.string({ maxLength: 40 }),
          fc.constantFrom('', cursor, cursor + cursor, 'AAAA', '~~~~'),
        ),
        fc.constantFrom('/_sql', '/_sql/close', '/_sql?format=txt'),
        async (c, path) => check(path, { cursor: c }),
      ),
      { numRuns: RUNS },
    );
  }, 120_000);
});
