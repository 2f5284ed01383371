/**
 * Statements answered from a literal template (sql/execute/literal-templates.ts) answer exactly
 * as when planned on their own: rows, columns, errors and translations, for lifted literals of
 * every kind and for shapes whose literals the planner reads (which get no template).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestNode, type TestNode } from '../helpers/node.js';

let node: TestNode;
let fresh = 0;

beforeAll(async () => {
  node = await startTestNode();
  await node.req('PUT', '/lt', {
    mappings: {
      _doc: {
        properties: {
          k: { type: 'keyword' },
          t: { type: 'text' },
          d: { type: 'date' },
          n: { type: 'long' },
          ip: { type: 'ip' },
        },
      },
    },
  });
  const docs = [
    { k: 'abc', t: 'quick brown fox', d: '2020-01-01', n: 1, ip: '10.0.0.1' },
    { k: 'abd', t: 'lazy brown dog', d: '2020-01-02', n: 2, ip: '10.0.0.2' },
    { k: "it's", t: 'quick dog', d: '2020-01-03', n: 3, ip: '10.0.0.3' },
    { k: 'xyz', t: 'the fox jumps', d: '2021-05-05', n: 4, ip: '10.0.0.4' },
  ];
  for (const [i, d] of docs.entries()) await node.req('PUT', `/lt/_doc/${i}`, d);
  await node.req('POST', '/lt/_refresh');
});
afterAll(async () => {
  await node.destroy();
});

/** The answer of a statement, and of the same statement planned on its own (a unique comment). */
async function both(statement: string, path = '/_sql?format=json') {
  const templated = await node.req('POST', path, { query: statement });
  const alone = await node.req('POST', path, { query: `${statement} /* ${fresh++} */` });
  return { templated, alone };
}

const FAMILIES: string[][] = [
  // keyword comparisons: lifted
  ["SELECT n FROM lt WHERE k = 'abc' ORDER BY n", "SELECT n FROM lt WHERE k = 'abd' ORDER BY n", "SELECT n FROM lt WHERE k = 'xyz' ORDER BY n", "SELECT n FROM lt WHERE k = 'it''s' ORDER BY n", "SELECT n FROM lt WHERE k = 'zzz' ORDER BY n"], // prettier-ignore
  ["SELECT COUNT(*) FROM lt WHERE k <> 'abc'", "SELECT COUNT(*) FROM lt WHERE k <> 'xyz'", "SELECT COUNT(*) FROM lt WHERE k != 'abd'"], // prettier-ignore
  // full text: lifted
  ["SELECT k, SCORE() FROM lt WHERE MATCH(t, 'quick fox') ORDER BY SCORE() DESC", "SELECT k, SCORE() FROM lt WHERE MATCH(t, 'brown dog') ORDER BY SCORE() DESC", "SELECT k, SCORE() FROM lt WHERE MATCH(t, 'lazy jump') ORDER BY SCORE() DESC"], // prettier-ignore
  ["SELECT k FROM lt WHERE QUERY('t:\"quick fox\"') ORDER BY k", "SELECT k FROM lt WHERE QUERY('t:\"brown dog\"') ORDER BY k", "SELECT k FROM lt WHERE QUERY('t:(quick OR d)') ORDER BY k"], // prettier-ignore
  // literals the planner reads: no template, same answers
  ["SELECT k FROM lt WHERE d = '2020-01-01' ORDER BY k", "SELECT k FROM lt WHERE d = '2020-01-02' ORDER BY k", "SELECT k FROM lt WHERE d = '2021-05-05' ORDER BY k"], // prettier-ignore
  ["SELECT k FROM lt WHERE ip = '10.0.0.1'", "SELECT k FROM lt WHERE ip = '10.0.0.2'", "SELECT k FROM lt WHERE ip = '10.0.0.3'"], // prettier-ignore
  ["SELECT 'abc' AS c FROM lt WHERE c = 'abc'", "SELECT 'abc' AS c FROM lt WHERE c = 'abd'", "SELECT 'abc' AS c FROM lt WHERE c = 'abc'"], // prettier-ignore
  ["SELECT k FROM lt WHERE n = '1'", "SELECT k FROM lt WHERE n = '2'", "SELECT k FROM lt WHERE n = 'x'"], // prettier-ignore
  // errors
  ["SELECT k FROM lt WHERE t = 'abc'", "SELECT k FROM lt WHERE t = 'abd'", "SELECT k FROM lt WHERE t = 'xyz'"], // prettier-ignore
  ["SELECT k FROM lt WHERE zz = 'abc'", "SELECT k FROM lt WHERE zz = 'abd'", "SELECT k FROM lt WHERE zz = 'xyz'"], // prettier-ignore
];

describe('SQL literal templates', () => {
  it('answers every statement of a shape as when planned alone', async () => {
    for (const family of FAMILIES) {
      for (const s of family) {
        const { templated, alone } = await both(s);
        expect(templated.status, s).toBe(alone.status);
        expect(templated.json, s).toEqual(alone.json);
      }
    }
  });

  it('translates a templated statement as when planned alone', async () => {
    for (const s of [
      "SELECT n FROM lt WHERE k = 'q1' AND MATCH(t, 'fox')",
      "SELECT n FROM lt WHERE k = 'q2' AND MATCH(t, 'dog')",
      "SELECT n FROM lt WHERE k = 'q3' AND MATCH(t, 'cat')",
    ]) {
      // prettier-ignore
      const { templated, alone } = await both(s, '/_sql/translate');
      expect(templated.status).toBe(200);
      expect(templated.json, s).toEqual(alone.json);
    }
  });

  it('follows a mapping change (a template planned against the old mapping is dropped)', async () => {
    const s = (v: string) => `SELECT COUNT(*) AS c FROM lt WHERE k2 = '${v}'`;
    expect((await node.req('POST', '/_sql?format=json', { query: s('a1') })).status).toBe(400);
    expect((await node.req('POST', '/_sql?format=json', { query: s('a2') })).status).toBe(400);
    await node.req('PUT', '/lt/_mapping/_doc', { properties: { k2: { type: 'keyword' } } });
    await node.req('PUT', '/lt/_doc/9?refresh=true', { k2: 'a3' });
    const r = await node.req('POST', '/_sql?format=json', { query: s('a3') });
    expect(r.status).toBe(200);
    expect((r.json as { rows: unknown[][] }).rows).toEqual([[1]]);
  });
});
