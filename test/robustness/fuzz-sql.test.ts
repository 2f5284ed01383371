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
import { SQL_BODIES, STATEMENTS, statement } from './fuzz-requests.js';

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
    await fc.assert(
      fc.asyncProperty(
        mutated(SQL_BODIES),
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
