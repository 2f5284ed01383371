/**
 * The spec's SQL walkthrough (section 4.5) over HTTP on the bank sample (index `bank`): SHOW
 * TABLES, DESCRIBE, SHOW FUNCTIONS LIKE, GROUP BY with HAVING, MATCH/QUERY/SCORE, the `filter`
 * parameter, `fetch_size` paging to the last row, text formats, translate, cursor close, and ES
 * error bodies. Expected figures are computed from the raw accounts file.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestNode, type TestNode } from '../helpers/node.js';

const raw = readFileSync(
  resolve(__dirname, '../../../shared/conformance/data/accounts.json'),
  'utf8',
);

interface Account {
  account_number: number;
  balance: number;
  firstname: string;
  lastname: string;
  age: number;
  gender: string;
  address: string;
  employer: string;
  email: string;
  city: string;
  state: string;
}

const accounts: Account[] = raw
  .split('\n')
  .filter((l) => l.startsWith('{"account_number"'))
  .map((l) => JSON.parse(l) as Account);

let node: TestNode;
const sql = (body: unknown, query = '', headers?: Record<string, string>) =>
  node.req('POST', `/_sql${query}`, body, headers);

beforeAll(async () => {
  node = await startTestNode();
  const r = await node.req('POST', '/bank/_doc/_bulk?refresh=true', raw, {
    'content-type': 'application/x-ndjson',
  });
  expect(r.status).toBe(200);
}, 60_000);

afterAll(async () => {
  await node.destroy();
});

describe('SQL walkthrough (spec 4.5)', () => {
  it('SHOW TABLES lists the bank index', async () => {
    const r = await sql({ query: 'SHOW TABLES' });
    expect(r.status).toBe(200);
    expect(r.json.columns).toEqual([
      { name: 'name', type: 'keyword' },
      { name: 'type', type: 'keyword' },
      { name: 'kind', type: 'keyword' },
    ]);
    expect(r.json.rows).toEqual([['bank', 'TABLE', 'INDEX']]);
  });

  it('DESCRIBE bank lists every field with its SQL and mapping type', async () => {
    const r = await sql({ query: 'DESCRIBE bank' });
    const rows = r.json.rows as string[][];
    expect(rows.map((x) => x[0])).toEqual([
      'account_number',
      'address',
      'address.keyword',
      'age',
      'balance',
      'city',
      'city.keyword',
      'email',
      'email.keyword',
      'employer',
      'employer.keyword',
      'firstname',
      'firstname.keyword',
      'gender',
      'gender.keyword',
      'lastname',
      'lastname.keyword',
      'state',
      'state.keyword',
    ]);
    expect(rows[0]).toEqual(['account_number', 'BIGINT', 'long']);
    expect(rows[1]).toEqual(['address', 'VARCHAR', 'text']);
    expect(rows[2]).toEqual(['address.keyword', 'VARCHAR', 'keyword']);
  });

  it("SHOW FUNCTIONS LIKE 'A%' lists the A functions", async () => {
    const r = await sql({ query: "SHOW FUNCTIONS LIKE 'A%'" });
    expect(r.json.rows).toEqual([
      ['AVG', 'AGGREGATE'],
      ['ABS', 'SCALAR'],
      ['ACOS', 'SCALAR'],
      ['ASIN', 'SCALAR'],
      ['ATAN', 'SCALAR'],
      ['ATAN2', 'SCALAR'],
      ['ASCII', 'SCALAR'],
    ]);
  });

  it("SHOW FUNCTIONS lists Quarry's window functions after ES's, LIKE filtering them", async () => {
    const r = await sql({ query: "SHOW FUNCTIONS LIKE '%RANK'" });
    expect(r.json.rows).toEqual([
      ['PERCENTILE_RANK', 'AGGREGATE'],
      ['DENSE_RANK', 'WINDOW'],
      ['RANK', 'WINDOW'],
    ]);
    const all = (await sql({ query: 'SHOW FUNCTIONS' })).json.rows as string[][];
    expect(all.slice(-6)).toEqual([
      ['SCORE', 'SCORE'],
      ['DENSE_RANK', 'WINDOW'],
      ['LAG', 'WINDOW'],
      ['LEAD', 'WINDOW'],
      ['RANK', 'WINDOW'],
      ['ROW_NUMBER', 'WINDOW'],
    ]);
  });

  it('GROUP BY with HAVING COUNT(*) > n keeps the big groups', async () => {
    const counts = new Map<string, number>();
    for (const a of accounts) counts.set(a.state, (counts.get(a.state) ?? 0) + 1);
    const expected = [...counts]
      .filter(([, c]) => c > 25)
      .sort((x, y) => (x[0] < y[0] ? -1 : 1))
      .map(([s, c]) => [s, c]);
    expect(expected.length).toBeGreaterThan(0);
    const r = await sql({
      query:
        'SELECT state, COUNT(*) AS c FROM bank GROUP BY state HAVING COUNT(*) > 25 ORDER BY state',
    });
    expect(r.status).toBe(200);
    expect(r.json.columns).toEqual([
      { name: 'state', type: 'text' },
      { name: 'c', type: 'long' },
    ]);
    expect(r.json.rows).toEqual(expected);
  });

  it('aggregates per group: MAX and AVG', async () => {
    const byGender = new Map<string, number[]>();
    for (const a of accounts)
      byGender.set(a.gender, [...(byGender.get(a.gender) ?? []), a.balance]);
    const r = await sql({
      query:
        'SELECT gender, MAX(balance) mx, AVG(balance) av FROM bank GROUP BY gender ORDER BY gender',
    });
    const rows = r.json.rows as [string, number, number][];
    expect(rows.map((x) => x[0])).toEqual(['F', 'M']);
    for (const [g, mx, av] of rows) {
      const b = byGender.get(g)!;
      expect(mx).toBe(Math.max(...b));
      expect(av).toBeCloseTo(b.reduce((s, x) => s + x, 0) / b.length, 6);
    }
  });

  it('MATCH with SCORE() returns the matching row and its relevance', async () => {
    const target = accounts.find((a) => a.address === '880 Holmes Lane')!;
    const r = await sql({
      query:
        "SELECT account_number, address, SCORE() FROM bank WHERE MATCH(address, 'Holmes') ORDER BY SCORE() DESC",
    });
    expect(r.status).toBe(200);
    const rows = r.json.rows as [number, string, number][];
    expect(rows.some((x) => x[0] === target.account_number)).toBe(true);
    for (const x of rows) {
      expect(x[1]).toMatch(/Holmes/);
      expect(x[2]).toBeGreaterThan(0);
    }
    expect(r.json.columns[2]).toEqual({ name: 'SCORE()', type: 'float' });
  });

  it('QUERY matches through query_string', async () => {
    const expected = accounts.filter((a) => a.firstname === 'Amber').map((a) => a.account_number);
    const r = await sql({
      query:
        "SELECT account_number FROM bank WHERE QUERY('firstname:Amber') ORDER BY account_number",
    });
    expect((r.json.rows as number[][]).map((x) => x[0])).toEqual(expected.sort((a, b) => a - b));
  });

  it('the filter parameter and WHERE both restrict the rows', async () => {
    const expected = accounts
      .filter((a) => a.age > 35 && a.gender === 'F')
      .map((a) => a.account_number)
      .sort((a, b) => a - b);
    const r = await sql({
      query: 'SELECT account_number FROM bank WHERE age > 35 ORDER BY account_number',
      filter: { term: { 'gender.keyword': 'F' } },
      fetch_size: 1000,
    });
    expect((r.json.rows as number[][]).map((x) => x[0])).toEqual(expected);
  });

  it('fetch_size pages with a cursor down to the last row', async () => {
    const all = accounts.map((a) => a.account_number).sort((a, b) => a - b);
    let r = await sql({
      query: 'SELECT account_number FROM bank ORDER BY account_number',
      fetch_size: 300,
    });
    const seen: number[] = (r.json.rows as number[][]).map((x) => x[0]!);
    expect(seen).toHaveLength(300);
    expect(r.json.columns).toBeDefined();
    let pages = 1;
    while (r.json.cursor) {
      r = await sql({ cursor: r.json.cursor });
      expect(r.status).toBe(200);
      expect(r.json.columns).toBeUndefined();
      seen.push(...(r.json.rows as number[][]).map((x) => x[0]!));
      pages++;
    }
    // 300 + 300 + 300 + 100 rows, then the empty page that ends the scroll cursor (as in ES)
    expect(pages).toBe(5);
    expect(seen).toEqual(all);
  });

  it('pages grouped results through the composite after_key', async () => {
    const states = [...new Set(accounts.map((a) => a.state))].sort();
    let r = await sql({ query: 'SELECT state, COUNT(*) FROM bank GROUP BY state', fetch_size: 10 });
    const seen: string[] = (r.json.rows as string[][]).map((x) => x[0]!);
    while (r.json.cursor) {
      r = await sql({ cursor: r.json.cursor });
      seen.push(...(r.json.rows as string[][]).map((x) => x[0]!));
    }
    expect(seen).toEqual(states);
  });

  it('format=txt renders the text table with the cursor in a header', async () => {
    const r = await sql(
      { query: 'SELECT firstname, age FROM bank ORDER BY account_number LIMIT 2' },
      '?format=txt',
    );
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^text\/plain/);
    const first = accounts.sort((a, b) => a.account_number - b.account_number).slice(0, 2);
    expect(r.text).toBe(
      '   firstname   |      age      \n' +
        '---------------+---------------\n' +
        first.map((a) => `${a.firstname.padEnd(15)}|${String(a.age).padEnd(15)}\n`).join(''),
    );
    const paged = await sql({ query: 'SELECT firstname FROM bank', fetch_size: 5 }, '?format=txt');
    const cursor = paged.headers.get('cursor');
    expect(cursor).toBeTruthy();
    const next = await sql({ cursor }, '?format=txt');
    expect(next.text.split('\n').filter((l) => l.length > 0)).toHaveLength(5);
    expect(next.text).not.toMatch(/firstname/);
  });

  it('csv, tsv and yaml formats; the Accept header selects too', async () => {
    const q = { query: 'SELECT account_number, state FROM bank ORDER BY account_number LIMIT 2' };
    const csv = await sql(q, '?format=csv');
    expect(csv.text.split('\r\n')[0]).toBe('account_number,state');
    const semi = await sql(q, '?format=csv&delimiter=%3b');
    expect(semi.text.split('\r\n')[0]).toBe('account_number;state');
    const tsv = await sql(q, '', { accept: 'text/tab-separated-values' });
    expect(tsv.text.split('\n')[0]).toBe('account_number\tstate');
    const yaml = await sql(q, '?format=yaml');
    expect(yaml.text).toMatch(/^---\ncolumns:\n/);
  });

  it('columnar returns values by column', async () => {
    const r = await sql({
      query: 'SELECT account_number, age FROM bank ORDER BY account_number LIMIT 3',
      columnar: true,
    });
    expect(r.json.values).toHaveLength(2);
    expect(r.json.values[0]).toHaveLength(3);
  });

  it('translate returns the _search body', async () => {
    const r = await node.req('POST', '/_sql/translate', {
      query: 'SELECT state, COUNT(*) FROM bank GROUP BY state HAVING COUNT(*) > 25',
    });
    expect(r.status).toBe(200);
    const groupby = r.json.aggregations.groupby;
    expect(groupby.composite.sources[0]['0'].terms).toEqual({
      field: 'state.keyword',
      missing_bucket: true,
      order: 'asc',
    });
    const selector = Object.values(groupby.aggregations as Record<string, any>)[0].bucket_selector;
    expect(selector.buckets_path).toEqual({ a0: '_count' });
    expect(r.json.size).toBe(0);
  });

  it('binds params: bare values in plain mode, type/value objects for drivers', async () => {
    const expected = accounts.filter((a) => a.age > 35 && a.state === 'TX').length;
    const q = 'SELECT COUNT(*) FROM bank WHERE age > ? AND state = ?';
    const plain = await sql({ query: q, params: [35, 'TX'] });
    expect(plain.status).toBe(200);
    expect(plain.json.rows).toEqual([[expected]]);
    const jdbc = await sql({
      query: q,
      mode: 'jdbc',
      params: [
        { type: 'integer', value: 35 },
        { type: 'keyword', value: 'TX' },
      ],
    });
    expect(jdbc.json.rows).toEqual([[expected]]);
    const mixed = await sql({ query: q, params: [{ type: 'integer', value: 35 }, 'TX'] });
    expect(mixed.status).toBe(400);
    expect(mixed.json.error.type).toBe('x_content_parse_exception');
    expect(mixed.json.error.reason).toBe(
      '[params] must be an array where each entry is a single field (no objects supported)',
    );
    const bare = await sql({ query: q, mode: 'jdbc', params: [35, 'TX'] });
    expect(bare.json.error.reason).toBe(
      '[params] must be an array where each entry is an object with a value/type pair',
    );
  });

  it('the _xpack/sql endpoints work the same', async () => {
    const r = await node.req('POST', '/_xpack/sql', { query: 'SELECT COUNT(*) FROM bank' });
    expect(r.json.rows).toEqual([[accounts.length]]);
  });

  it('close frees a cursor', async () => {
    const r = await sql({ query: 'SELECT account_number FROM bank', fetch_size: 10 });
    const closed = await node.req('POST', '/_sql/close', { cursor: r.json.cursor });
    expect(closed.json).toEqual({ succeeded: true });
    const again = await node.req('POST', '/_sql/close', { cursor: r.json.cursor });
    expect(again.json).toEqual({ succeeded: false });
  });

  it('errors come back as ES bodies', async () => {
    const unknown = await sql({ query: 'SELECT nope FROM bank' });
    expect(unknown.status).toBe(400);
    expect(unknown.json.error.type).toBe('verification_exception');
    expect(unknown.json.error.reason).toBe('Found 1 problem\nline 1:8: Unknown column [nope]');
    const syntax = await sql({ query: 'SELECT FROM' });
    expect(syntax.status).toBe(400);
    expect(syntax.json.error.type).toBe('parsing_exception');
    const noIndex = await sql({ query: 'SELECT * FROM missing' });
    expect(noIndex.json.error.reason).toBe('Found 1 problem\nline 1:15: Unknown index [missing]');
  });

  // ES PlanExecutor.searchSource: a statement that runs without a search has no DSL (400)
  it('translate of a command or of a query without a search is a planning_exception', async () => {
    const show = await node.req('POST', '/_sql/translate', { query: 'SHOW FUNCTIONS' });
    expect(show.status).toBe(400);
    expect(show.json.error.root_cause[0].type).toBe('planning_exception');
    expect(show.json.error.reason).toBe(
      'Cannot generate a query DSL for a special SQL command (e.g.: DESCRIBE, SHOW), sql statement: [SHOW FUNCTIONS]',
    );
    for (const query of ['SELECT SIN(PI())', 'SELECT * FROM bank WHERE 1 = 2']) {
      const local = await node.req('POST', '/_sql/translate', { query });
      expect(local.status).toBe(400);
      expect(local.json.error.type).toBe('planning_exception');
      expect(local.json.error.reason).toBe(
        "Cannot generate a query DSL for an SQL query that either its WHERE clause evaluates to FALSE or doesn't operate on a table (missing a FROM clause), sql statement: [" +
          query +
          ']',
      );
    }
  });

  it('a statement too large for the stack at any stage is ES parser error (400)', async () => {
    for (const query of [
      'SELECT 1 ' + '+ 1 '.repeat(20000),
      'SELECT age FROM bank WHERE ' + Array.from({ length: 5000 }, (_, i) => `age = ${i}`).join(' OR '), // prettier-ignore
    ]) {
      for (const path of ['/_sql', '/_sql/translate']) {
        const r = await node.req('POST', path, { query });
        expect(r.status).toBe(400);
        expect(r.json.error.type).toBe('parsing_exception');
        expect(r.json.error.reason).toMatch(
          /^line -1:0: SQL statement is too large, causing stack overflow when generating the parsing tree: \[SELECT /,
        );
      }
    }
  });

  it('a missing query is a validation error, as ES validates the request', async () => {
    const t = await node.req('POST', '/_sql/translate', { fetch_size: 5 });
    expect(t.status).toBe(400);
    expect(t.json.error.type).toBe('action_request_validation_exception');
    expect(t.json.error.reason).toBe('Validation Failed: 1: query is required;');
    const q = await sql({ query: '  ' });
    expect(q.status).toBe(400);
    expect(q.json.error.reason).toBe(
      'Validation Failed: 1: one of [query] or [cursor] is required;',
    );
  });

  // ES declares these with converting ObjectParser fields: the conversion error is the cause
  it('a bad time_zone or timeout fails to parse its field (400), caused by the conversion', async () => {
    for (const [body, cause] of [
      [{ time_zone: 'Mars/Olympus' }, 'zone_rules_exception'],
      [{ time_zone: '+25:00' }, 'date_time_exception'],
      [{ page_timeout: '5 parsecs' }, 'illegal_argument_exception'],
      [{ request_timeout: 'soon' }, 'illegal_argument_exception'],
    ] as const) {
      for (const path of ['/_sql', '/_sql/translate']) {
        const r = await node.req('POST', path, { query: 'SELECT age FROM bank', ...body });
        expect(r.status, JSON.stringify(body)).toBe(400);
        expect(r.json.error.root_cause[0].type).toBe('x_content_parse_exception');
        expect(r.json.error.reason).toBe(
          `[sql/query] failed to parse field [${Object.keys(body)[0]}]`,
        );
        expect(r.json.error.caused_by.type).toBe(cause);
      }
    }
  });
});
