/**
 * A cached plan runs the same first search every time: its body is kept with the plan's
 * container and parsed once (query-runner.ts firstRequest, search.ts parsedRequest). Repeated
 * grouped statements must answer exactly as their first run and as a grouping computed here:
 * ORDER BY over an aggregate, HAVING, LIMIT, OFFSET, null keys, groups over several composite
 * pages and cursors; a request filter or another fetch size is never served a kept body.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SqlService, type SqlPage } from '../../../../src/sql/execute/session.js';
import { templateNode } from './template-family.js';

let close: () => Promise<void>;
let sql: SqlService;

/** 2,500 keys (k0000..k2499) over 6,000 docs, and 40 docs without a key. */
const docs: Array<{ k?: string; n: number }> = [];
for (let i = 0; i < 6000; i++) docs.push({ k: `k${String((i * 7) % 2500).padStart(4, '0')}`, n: i % 97 }); // prettier-ignore
for (let i = 0; i < 40; i++) docs.push({ n: 1000 + i });

/** The groups computed here: key -> [count, sum]. */
const groups = new Map<string | null, [number, number]>();
for (const doc of docs) {
  const g = groups.get(doc.k ?? null) ?? [0, 0];
  g[0]++;
  g[1] += doc.n;
  groups.set(doc.k ?? null, g);
}

beforeAll(async () => {
  const n = await templateNode('g', { k: { type: 'keyword' }, n: { type: 'long' } }, docs);
  sql = new SqlService(n.sqlNode);
  close = n.close;
}, 60_000);

afterAll(async () => {
  await close();
});

/** Every row of a statement, following its cursor. */
async function allRows(first: SqlPage): Promise<unknown[][]> {
  const rows = [...first.rows];
  let cursor = first.cursor;
  while (cursor) {
    const p = await sql.execute({ cursor });
    rows.push(...p.rows);
    cursor = p.cursor;
  }
  return rows;
}

/** Runs a statement three times (the later runs from the kept plan and body): same answer. */
async function thrice(query: string, fetchSize?: number): Promise<unknown[][]> {
  const req = fetchSize === undefined ? { query } : { query, fetchSize };
  const first = await allRows(await sql.execute(req));
  expect(await allRows(await sql.execute(req))).toEqual(first);
  expect(await allRows(await sql.execute(req))).toEqual(first);
  return first;
}

const byKey = (a: string | null, b: string | null) =>
  a === b ? 0 : a === null ? -1 : b === null ? 1 : a < b ? -1 : 1;

describe('repeated grouped statements', () => {
  it('ORDER BY an aggregate with LIMIT, ties in key order', async () => {
    const rows = await thrice('SELECT k, COUNT(*) AS c, SUM(n) s FROM g GROUP BY k ORDER BY c DESC, k LIMIT 7'); // prettier-ignore
    const want = [...groups]
      .sort((a, b) => b[1][0] - a[1][0] || byKey(a[0], b[0]))
      .slice(0, 7)
      .map(([k, [c, s]]) => [k, c, s]);
    expect(rows).toEqual(want);
  });

  it('every group over several composite pages, the null key first', async () => {
    const rows = await thrice('SELECT k, COUNT(*) FROM g GROUP BY k', 1000);
    const want = [...groups].sort((a, b) => byKey(a[0], b[0])).map(([k, [c]]) => [k, c]);
    expect(rows.length).toBe(2501);
    expect(rows[0]).toEqual([null, 40]);
    expect(rows).toEqual(want);
  });

  it('a sort over every page (more groups than a page)', async () => {
    const rows = await thrice('SELECT k, AVG(n) a FROM g GROUP BY k ORDER BY a DESC, k DESC LIMIT 2600'); // prettier-ignore
    const avg = ([, [c, s]]: [string | null, [number, number]]) => s / c;
    const want = [...groups]
      .sort((a, b) => avg(b) - avg(a) || byKey(b[0], a[0]))
      .map((g) => [g[0], avg(g)]);
    expect(rows).toEqual(want);
  });

  it('HAVING drops groups after each page', async () => {
    const rows = await thrice('SELECT k, COUNT(*) c FROM g GROUP BY k HAVING COUNT(*) > 2', 300);
    const want = [...groups]
      .filter(([, [c]]) => c > 2)
      .sort((a, b) => byKey(a[0], b[0]))
      .map(([k, [c]]) => [k, c]);
    expect(want.length).toBeGreaterThan(300);
    expect(rows).toEqual(want);
  });

  it('LIMIT and OFFSET over groups', async () => {
    const rows = await thrice('SELECT k, COUNT(*) c FROM g GROUP BY k ORDER BY k LIMIT 3 OFFSET 2');
    const want = [...groups]
      .sort((a, b) => byKey(a[0], b[0]))
      .slice(2, 5)
      .map(([k, [c]]) => [k, c]);
    expect(rows).toEqual(want);
  });

  it('another fetch size or a request filter is not served the kept body', async () => {
    const q = 'SELECT k, COUNT(*) c FROM g GROUP BY k';
    const a = await sql.execute({ query: q, fetchSize: 100 });
    expect(a.rows.length).toBe(100);
    const b = await sql.execute({ query: q, fetchSize: 700 });
    expect(b.rows.length).toBe(700);
    const c = await sql.execute({ query: q, fetchSize: 100 });
    expect(c.rows).toEqual(a.rows);
    const filtered = await sql.execute({
      query: q,
      fetchSize: 100,
      filter: { range: { n: { gte: 1000 } } },
    });
    expect(filtered.rows).toEqual([[null, 40]]);
    expect((await sql.execute({ query: q, fetchSize: 100 })).rows).toEqual(a.rows);
  });

  it('a repeated implicit grouping and a repeated hit query', async () => {
    const agg = await thrice('SELECT COUNT(*), MAX(n) FROM g WHERE n < 50');
    expect(agg).toEqual([[docs.filter((x) => x.n < 50).length, 49]]);
    const hits = await thrice('SELECT n FROM g WHERE n >= 1030 ORDER BY n');
    expect(hits).toEqual(Array.from({ length: 10 }, (_, i) => [1030 + i]));
  });
});
