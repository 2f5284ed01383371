/**
 * Fuzzing the URL router: random methods and paths built from index names, ES endpoint words and
 * junk, with random query parameters and bodies. Every answer must be well-formed (see judge()),
 * nothing may hang, and the protected index `fz` is unchanged afterwards.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestNode } from '../helpers/node.js';
import { fuzzNode, judge, RUNS, snapshot } from './fuzz-support.js';
import { routerRequest } from './fuzz-requests.js';

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

describe('fuzzing the router', () => {
  it('random methods, paths, parameters and bodies answer well-formed responses', async () => {
    await fc.assert(
      fc.asyncProperty(routerRequest, async (r) => {
        const res = await fetch(node.url + r.path, {
          method: r.method,
          ...(r.body !== undefined
            ? { body: r.body, headers: { 'content-type': r.contentType! } }
            : {}),
          signal: AbortSignal.timeout(10_000),
        });
        const text = await res.text();
        let json: unknown;
        try {
          json = text ? JSON.parse(text) : undefined;
        } catch {
          json = undefined;
        }
        const why = judge(
          r.method,
          { status: res.status, text, json },
          res.headers.get('content-type') ?? undefined,
        );
        if (why) throw new Error(`${r.method} ${r.path} ${r.body?.slice(0, 300) ?? ''}\n→ ${why}`);
      }),
      { numRuns: RUNS * 4 },
    );
  }, 180_000);
});
