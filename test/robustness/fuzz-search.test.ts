/**
 * Fuzzing the read side of the HTTP API: mutated query DSL and aggregations, random JSON and
 * broken bytes sent to _search, _count, _validate/query, _explain and _msearch. Every answer must
 * be a well-formed ES response (see malformed()), no request may hang, and the data is unchanged.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestNode } from '../helpers/node.js';
import { brokenText, fuzzNode, malformed, mutated, RUNS, send, snapshot } from './fuzz-support.js';
import { QUERIES } from './fuzz-requests.js';

let node: TestNode;
let before: string;
beforeAll(async () => {
  node = await fuzzNode();
  before = await snapshot(node);
}, 60_000);
afterAll(async () => {
  // Reads never change anything, whatever they were.
  expect(await snapshot(node)).toBe(before);
  await node.destroy();
});

/** Sends one case; fails the property with the request and answer when malformed. */
async function check(method: string, path: string, body: string): Promise<void> {
  const a = await send(node, method, path, body);
  const why = malformed(a);
  if (why) throw new Error(`${method} ${path} ${body.slice(0, 600)}\n→ ${why}`);
}

describe('fuzzing the search API', () => {
  it('seeds are valid searches', async () => {
    for (const q of QUERIES) {
      const a = await send(node, 'POST', '/fz/_search', JSON.stringify(q));
      expect(a.status, `${JSON.stringify(q)} → ${a.text.slice(0, 300)}`).toBe(200);
    }
  });

  it('mutated query DSL and aggregations answer well-formed responses', async () => {
    await fc.assert(
      fc.asyncProperty(
        mutated(QUERIES),
        fc.constantFrom(
          '/fz/_search',
          '/fz/_doc/_search',
          '/_search',
          '/fz/_count',
          '/fz/_validate/query?explain=true',
          '/fz/_doc/3/_explain',
        ),
        async (body, path) => {
          if (path.endsWith('_count') || path.includes('_validate') || path.includes('_explain')) {
            const q =
              body && typeof body === 'object' && 'query' in body
                ? { query: (body as any).query }
                : body;
            return check('POST', path, JSON.stringify(q));
          }
          return check('POST', path, JSON.stringify(body));
        },
      ),
      { numRuns: RUNS * 4 },
    );
  }, 120_000);

  it('random JSON and broken bytes answer well-formed responses', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)),
          brokenText(QUERIES),
        ),
        fc.constantFrom('/fz/_search', '/fz/_count', '/fz/_search?scroll=1m', '/_search?size=3'),
        async (body, path) => check('POST', path, body),
      ),
      { numRuns: RUNS * 2 },
    );
  }, 120_000);

  it('mutated _msearch bodies answer well-formed responses', async () => {
    const header = [{}, { index: 'fz' }, { index: 'fz', search_type: 'dfs_query_then_fetch' }];
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(mutated(header), mutated(QUERIES)), { minLength: 1, maxLength: 3 }),
        fc.boolean(),
        async (pairs, trailingNewline) => {
          const body = pairs
            .map(([h, q]) => `${JSON.stringify(h)}\n${JSON.stringify(q)}`)
            .join('\n');
          const a = await send(
            node,
            'POST',
            '/fz/_msearch',
            body + (trailingNewline ? '\n' : ''),
            'application/x-ndjson',
          );
          const why = malformed(a);
          if (why) throw new Error(`_msearch ${body.slice(0, 600)}\n→ ${why}`);
          // Each item is a response or an ES-shaped error.
          for (const r of a.json.responses ?? []) {
            if (!r.error) continue;
            const inner = malformed({ status: r.status, text: JSON.stringify(r), json: r });
            if (inner) throw new Error(`_msearch item ${body.slice(0, 600)}\n→ ${inner}`);
          }
        },
      ),
      { numRuns: RUNS },
    );
  }, 120_000);

  it('mutated query parameters answer well-formed responses', async () => {
    const params = [
      'size',
      'from',
      'sort',
      'q',
      'df',
      'analyzer',
      'default_operator',
      '_source',
      'track_total_hits',
      'terminate_after',
      'timeout',
      'search_type',
      'preference',
      'routing',
      'scroll',
      'typed_keys',
      'request_cache',
      'allow_no_indices',
      'expand_wildcards',
      'ignore_unavailable',
      'stored_fields',
      'docvalue_fields',
      'version',
      'explain',
      'batched_reduce_size',
      'pre_filter_shard_size',
    ];
    const value = fc.oneof(
      fc.constantFrom(
        '',
        '-1',
        '0',
        '1',
        '99999999999',
        'true',
        'false',
        'n:desc',
        '_id',
        'title:fox',
        '*',
        'a,b',
        '1m',
        '-1s',
        'n',
        'xyz',
        '%00',
        '\u00e9',
      ),
      fc.string({ maxLength: 6 }),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.constantFrom(...params), value), { minLength: 1, maxLength: 4 }),
        fc.constantFrom('/fz/_search', '/fz/_count', '/fz,nope*/_search', '/f*/_search'),
        async (kv, path) => {
          const qs = kv.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&');
          const a = await send(node, 'GET', `${path}?${qs}`);
          const why = malformed(a);
          if (why) throw new Error(`GET ${path}?${qs}\n→ ${why}`);
        },
      ),
      { numRuns: RUNS * 2 },
    );
  }, 120_000);
});
