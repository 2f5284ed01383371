/**
 * Valid but costly requests (fuzz-bombs.ts): never-ending scripts, nesting past the limits, SQL
 * too large for the stack, exploding regular expressions and extreme sizes. Each is answered
 * with a well-formed ES response in bounded time (no hang, no JavaScript error), and the node
 * keeps serving with its data unchanged.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestNode } from '../helpers/node.js';
import { bombRequest } from './fuzz-bombs.js';
import { fuzzNode, judge, MAPPING, RUNS, send, snapshot } from './fuzz-support.js';

let node: TestNode;
let before: string;
beforeAll(async () => {
  node = await fuzzNode();
  const w = await node.req('PUT', '/fzw', { mappings: { _doc: MAPPING } });
  expect(w.status).toBe(200);
  await node.req('PUT', '/fzw/_doc/f3?refresh=true', { n: 3, title: 'fox' });
  before = await snapshot(node);
}, 60_000);
afterAll(async () => {
  expect(await snapshot(node)).toBe(before);
  await node.destroy();
});

describe('fuzzing with bombs', () => {
  it('every bomb is answered, well-formed, and the node keeps serving', async () => {
    await fc.assert(
      fc.asyncProperty(bombRequest, async (r) => {
        const a = await send(node, r.method, r.path, r.body, r.contentType).catch((e) => {
          throw new Error(`${r.method} ${r.path} ${r.body?.slice(0, 300)}\n→ ${e}`);
        });
        const why = judge(r.method, a, a.type);
        if (why) throw new Error(`${r.method} ${r.path} ${r.body?.slice(0, 300)}\n→ ${why}`);
        expect((await send(node, 'GET', '/fz/_count')).json.count).toBe(40);
      }),
      { numRuns: Math.max(40, Math.floor(RUNS / 2)) },
    );
  }, 240_000);
});
