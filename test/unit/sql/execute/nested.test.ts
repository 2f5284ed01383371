/**
 * Nested fields as rows (ES 7.10 SQL): the nested query's inner hits give one row per nested
 * document, conditions on nested fields each become a nested query whose inner hits are merged
 * by offset, LIMIT counts rows, and ORDER BY on a nested field sorts with the condition as
 * the nested sort's filter.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openNode } from '../../../../src/node.js';
import { createDispatcher } from '../../../../src/http/dispatcher.js';
import { sqlNodeOf } from '../../../../src/http/routes/sql.js';
import { SqlService } from '../../../../src/sql/execute/session.js';

let close: () => Promise<void>;
let sql: SqlService;

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'quarry-sql-nested-'));
  const node = await openNode({ dataPath: dir });
  const d = createDispatcher(node.context);
  const r = await d('PUT', '/emp?include_type_name=false', {
    settings: { number_of_shards: 1 },
    mappings: {
      properties: {
        name: { type: 'keyword' },
        dep: {
          type: 'nested',
          properties: {
            id: { type: 'keyword' },
            title: { type: 'text', fields: { keyword: { type: 'keyword' } } },
            start: { type: 'date' },
          },
        },
      },
    },
  } as object);
  expect(r.status).toBe(200);
  const docs = [
    {
      name: 'Ann',
      dep: [
        { id: 'd1', title: 'Sales', start: '1990-01-01' },
        { id: 'd2', title: 'Research', start: '1995-01-01' },
        { id: 'd3', title: 'Sales', start: '1980-01-01' },
      ],
    },
    { name: 'Bob', dep: [{ id: 'd4', title: 'Research', start: '1985-01-01' }] },
  ];
  const lines = docs.flatMap((doc, i) => [
    JSON.stringify({ index: { _index: 'emp', _type: '_doc', _id: String(i + 1) } }),
    JSON.stringify(doc),
  ]);
  const b = await d('POST', '/_bulk?refresh=true', (lines.join('\n') + '\n') as never);
  expect(b.status).toBe(200);
  sql = new SqlService(sqlNodeOf(node.context));
  close = async () => {
    await node.close();
    rmSync(dir, { recursive: true, force: true });
  };
}, 60_000);

afterAll(async () => {
  await close();
});

const rows = async (query: string, fetchSize?: number) => {
  let page = await sql.execute({ query, mode: 'jdbc', ...(fetchSize ? { fetchSize } : {}) });
  const all = [...page.rows];
  while (page.cursor !== null) {
    page = await sql.execute({ cursor: page.cursor });
    all.push(...page.rows);
  }
  return all.map((r) => r.map((v) => (v !== null && typeof v === 'object' ? String(v) : v)));
};

describe('nested fields in SQL', () => {
  it('gives one row per nested document, in source order, keyword and text read right', async () => {
    expect(await rows('SELECT name, dep.id, dep.title FROM emp ORDER BY name')).toEqual([
      ['Ann', 'd1', 'Sales'],
      ['Ann', 'd2', 'Research'],
      ['Ann', 'd3', 'Sales'],
      ['Bob', 'd4', 'Research'],
    ]);
  });

  it('reads the inner hits of every page of a cursor', async () => {
    expect(await rows('SELECT name, dep.id FROM emp ORDER BY name', 1)).toEqual([
      ['Ann', 'd1'],
      ['Ann', 'd2'],
      ['Ann', 'd3'],
      ['Bob', 'd4'],
    ]);
  });

  it('counts LIMIT in rows', async () => {
    expect(await rows('SELECT name, dep.id FROM emp ORDER BY name LIMIT 2')).toEqual([
      ['Ann', 'd1'],
      ['Ann', 'd2'],
    ]);
  });

  it('keeps the nested documents that match any nested condition', async () => {
    expect(
      await rows(
        "SELECT name, dep.id FROM emp WHERE dep.title = 'Sales' AND dep.start > '1985-06-01' ORDER BY name",
      ),
    ).toEqual([
      ['Ann', 'd1'],
      ['Ann', 'd2'],
      ['Ann', 'd3'],
    ]);
  });

  it('sorts on a nested field with the nested condition as filter', async () => {
    expect(
      await rows("SELECT name FROM emp WHERE dep.title = 'Research' ORDER BY dep.start"),
    ).toEqual([['Bob'], ['Ann']]);
    const t = sql.translate({
      query: "SELECT name, dep.id FROM emp WHERE dep.title = 'Research' ORDER BY dep.start",
    }) as Record<string, unknown>;
    const nested = (t.query as { nested: Record<string, unknown> }).nested;
    expect(nested.inner_hits).toMatchObject({
      name: 'dep_0',
      size: 99,
      _source: false,
      stored_fields: '_none_',
      docvalue_fields: [{ field: 'dep.id' }],
    });
    expect(t.sort).toEqual([
      {
        'dep.start': {
          order: 'asc',
          missing: '_last',
          unmapped_type: 'date',
          nested: {
            path: 'dep',
            filter: { term: { 'dep.title.keyword': { value: 'Research', boost: 1.0 } } },
          },
        },
      },
    ]);
  });
});
