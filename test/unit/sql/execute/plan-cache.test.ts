/**
 * Plan reuse in SqlService: an identical statement (text, params, time zone, frozen flag) reuses
 * its plan; a mapping change, a new index under the pattern or an alias change drops it; plans
 * that read the clock (CURRENT_DATE, NOW()) or may fold RANDOM() are never kept, so their values
 * stay per statement; errors are never cached.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openNode } from '../../../../src/node.js';
import { createDispatcher } from '../../../../src/http/dispatcher.js';
import { sqlNodeOf } from '../../../../src/http/routes/sql.js';
import { SqlService } from '../../../../src/sql/execute/session.js';
import { PlanCache } from '../../../../src/sql/execute/plan-cache.js';

let close: () => Promise<void>;
let sql: SqlService;
let d: ReturnType<typeof createDispatcher>;

const bulk = async (index: string, docs: object[]) => {
  const lines = docs.flatMap((doc) => [
    JSON.stringify({ index: { _index: index, _type: '_doc' } }),
    JSON.stringify(doc),
  ]);
  const b = await d('POST', '/_bulk?refresh=true', (lines.join('\n') + '\n') as never);
  expect(b.status).toBe(200);
};

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'quarry-sql-plans-'));
  const node = await openNode({ dataPath: dir });
  d = createDispatcher(node.context);
  const r = await d('PUT', '/p1', {
    mappings: { _doc: { properties: { a: { type: 'keyword' }, n: { type: 'long' } } } },
  } as object);
  expect(r.status).toBe(200);
  await bulk('p1', [
    { a: 'x', n: 1 },
    { a: 'y', n: 2 },
    { a: 'x', n: 3 },
  ]);
  sql = new SqlService(sqlNodeOf(node.context));
  close = async () => {
    await node.close();
    rmSync(dir, { recursive: true, force: true });
  };
}, 60_000);

afterAll(async () => {
  await close();
});

describe('plan reuse', () => {
  it('reuses the plan of an identical statement and answers the same', async () => {
    sql.plans.clear();
    const q = "SELECT a, COUNT(*) c FROM p1 WHERE a = 'x' GROUP BY a";
    const first = await sql.execute({ query: q });
    expect(sql.plans.size).toBe(1);
    const second = await sql.execute({ query: q });
    expect(sql.plans.size).toBe(1);
    expect(second).toEqual(first);
    expect(first.rows).toEqual([['x', 2]]);
  });

  it('keys on params, time zone and the frozen flag', async () => {
    sql.plans.clear();
    const q = 'SELECT COUNT(*) FROM p1 WHERE n > ?';
    expect((await sql.execute({ query: q, params: [{ type: 'integer', value: 1 }] })).rows).toEqual(
      [[2]],
    );
    expect((await sql.execute({ query: q, params: [{ type: 'integer', value: 2 }] })).rows).toEqual(
      [[1]],
    );
    expect(sql.plans.size).toBe(2);
    await sql.execute({
      query: q,
      params: [{ type: 'integer', value: 2 }],
      timeZone: 'Europe/Oslo',
    });
    await sql.execute({ query: q, params: [{ type: 'integer', value: 2 }], includeFrozen: true });
    expect(sql.plans.size).toBe(4);
  });

  it('serves translate from the same plans', async () => {
    sql.plans.clear();
    const q = "SELECT n FROM p1 WHERE a = 'y'";
    const a = sql.translate({ query: q });
    const b = sql.translate({ query: q, fetchSize: 7 });
    expect(sql.plans.size).toBe(1);
    expect(b.size).toBe(7);
    expect({ ...b, size: a.size }).toEqual(a);
  });

  it('replans after a mapping change: new columns become visible', async () => {
    sql.plans.clear();
    const q = 'SELECT * FROM p1 ORDER BY n LIMIT 1';
    const before = await sql.execute({ query: q });
    expect(before.columns!.map((c) => c.name)).toEqual(['a', 'n']);
    const r = await d('PUT', '/p1/_mapping/_doc', { properties: { b: { type: 'keyword' } } });
    expect(r.status).toBe(200);
    const after = await sql.execute({ query: q });
    expect(after.columns!.map((c) => c.name)).toEqual(['a', 'b', 'n']);
  });

  it('replans when a pattern matches another index or an alias moves', async () => {
    sql.plans.clear();
    const q = 'SELECT COUNT(*) FROM "p*"';
    expect((await sql.execute({ query: q })).rows).toEqual([[3]]);
    await d('PUT', '/p2', {
      mappings: { _doc: { properties: { a: { type: 'keyword' }, n: { type: 'long' } } } },
    } as object);
    await bulk('p2', [{ a: 'z', n: 9 }]);
    expect((await sql.execute({ query: q })).rows).toEqual([[4]]);

    const qa = 'SELECT COUNT(*) FROM al';
    await d('POST', '/_aliases', { actions: [{ add: { index: 'p1', alias: 'al' } }] });
    expect((await sql.execute({ query: qa })).rows).toEqual([[3]]);
    await d('POST', '/_aliases', {
      actions: [{ remove: { index: 'p1', alias: 'al' } }, { add: { index: 'p2', alias: 'al' } }],
    });
    expect((await sql.execute({ query: qa })).rows).toEqual([[1]]);
  });

  it('never keeps plans that read the clock', async () => {
    sql.plans.clear();
    await sql.execute({
      query: 'SELECT COUNT(*) FROM p1 WHERE CURRENT_DATE > CAST(n AS DATETIME)',
    });
    await sql.execute({ query: 'SELECT NOW() AS t, a FROM p1 LIMIT 1' });
    await sql.execute({ query: 'SELECT TODAY() AS t FROM p1 LIMIT 1' });
    expect(sql.plans.size).toBe(0);
  });

  it('never keeps statements that may fold RANDOM()', async () => {
    sql.plans.clear();
    await sql.execute({ query: 'SELECT RANDOM(NULL) AS r FROM p1 LIMIT 1' });
    await sql.execute({ query: 'SELECT RAND(NULL) AS r FROM p1 LIMIT 1' });
    expect(sql.plans.size).toBe(0);
  });

  it('does not cache failing statements or commands', async () => {
    sql.plans.clear();
    await expect(sql.execute({ query: 'SELECT nope FROM p1' })).rejects.toThrow(/Unknown column/);
    await expect(sql.execute({ query: 'SELECT nope FROM p1' })).rejects.toThrow(/Unknown column/);
    await sql.execute({ query: 'SHOW TABLES' });
    expect(sql.plans.size).toBe(0);
  });
});

describe('PlanCache', () => {
  const catalog = (index: object | null) => ({ resolveIndex: () => index as never });

  it('drops the least recently used entry past its bound', async () => {
    const c = new PlanCache<number>();
    const cat = catalog(null);
    for (let i = 0; i < 512; i++) c.put(`k${i}`, i, c.trace(cat));
    expect(c.get('k0', cat)).toBe(0); // k0 becomes the most recent
    c.put('new', -1, c.trace(cat));
    expect(c.size).toBe(512);
    expect(c.get('k0', cat)).toBe(0);
    expect(c.get('k1', cat)).toBeNull();
  });

  it('checks every recorded resolution on reuse', async () => {
    const c = new PlanCache<string>();
    const a = {};
    const t = c.trace(catalog(a));
    expect(t.catalog.resolveIndex('x', false)).toBe(a);
    c.put('k', 'plan', t);
    expect(c.get('k', catalog(a))).toBe('plan');
    expect(c.get('k', catalog({}))).toBeNull();
    expect(c.size).toBe(0);
  });

  it('keys differ by params, zone and frozen flag; RAND statements have no key', async () => {
    const c = new PlanCache<string>();
    const keys = new Set([
      c.key('SELECT 1', [], 'Z', false),
      c.key('SELECT 1', [{ type: 'integer', value: 1 }], 'Z', false),
      c.key('SELECT 1', [], 'UTC', false),
      c.key('SELECT 1', [], 'Z', true),
    ]);
    expect(keys.size).toBe(4);
    expect(c.key('SELECT RAND(1)', [], 'Z', false)).toBeNull();
  });
});
