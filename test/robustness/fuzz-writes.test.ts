/**
 * Fuzzing the write side of the HTTP API: mutated documents, updates, mappings, index settings and
 * bulk NDJSON. Every answer must be a well-formed ES response; a request rejected as a whole (4xx)
 * must leave index `fz` exactly as it was (mapping, settings, every document's version and source).
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestNode } from '../helpers/node.js';
import {
  brokenText,
  fuzzNode,
  malformed,
  mutated,
  RUNS,
  seedDoc,
  send,
  snapshot,
  difference,
  type Answer,
} from './fuzz-support.js';
import { BULK_ACTIONS, CREATE_BODIES, DOCS, MAPPINGS, SETTINGS, UPDATES } from './fuzz-requests.js';

let node: TestNode;
beforeAll(async () => {
  node = await fuzzNode(10);
}, 60_000);
afterAll(() => node.destroy());

/** The index state before the next write; recomputed only after a write was accepted. */
let state: string | null = null;

/**
 * Sends one write and, when it is rejected as a whole, checks it changed nothing. A version
 * conflict (409) is the exception for the mapping: ES applies a document's dynamic mapping update
 * before the engine checks the version (TransportShardBulkAction), so only documents are compared.
 */
async function checkWrite(method: string, path: string, body: string, ct?: string) {
  const before = (state ??= await snapshot(node));
  const a: Answer = await send(node, method, path, body, ct);
  const why = malformed(a);
  if (why) throw new Error(`${method} ${path} ${body.slice(0, 600)}\n→ ${why}`);
  if (a.status < 400) {
    state = null;
    return a;
  }
  const after = await snapshot(node);
  const docsOnly = (s: string) => JSON.stringify(JSON.parse(s).slice(2));
  if (a.status === 409 ? docsOnly(after) !== docsOnly(before) : after !== before)
    throw new Error(
      `rejected ${method} ${path} ${body.slice(0, 600)} changed the index: ${difference(before, after)}`,
    );
  state = after;
  return a;
}

describe('fuzzing the write API', () => {
  it('mutated documents: well-formed answers, rejections change nothing', async () => {
    let i = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          { weight: 3, arbitrary: mutated(DOCS).map((d) => JSON.stringify(d)) },
          { weight: 1, arbitrary: brokenText(DOCS) },
        ),
        fc.constantFrom(
          'PUT /fz/_doc/{id}',
          'POST /fz/_doc',
          'PUT /fz/_doc/{id}/_create',
          'PUT /fz/_doc/{id}?version=3&version_type=external',
          'PUT /fz/_doc/{id}?if_seq_no=0&if_primary_term=1',
          'PUT /fz/_doc/{id}?op_type=create&routing=r',
        ),
        async (body, route) => {
          const [method, path] = route.replace('{id}', `f${i++ % 13}`).split(' ') as [
            string,
            string,
          ];
          await checkWrite(method, path, body);
        },
      ),
      { numRuns: RUNS },
    );
  }, 120_000);

  it('mutated updates: well-formed answers, rejections change nothing', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          { weight: 3, arbitrary: mutated(UPDATES).map((d) => JSON.stringify(d)) },
          { weight: 1, arbitrary: brokenText(UPDATES) },
        ),
        fc.integer({ min: 0, max: 12 }),
        async (body, id) => {
          await checkWrite('POST', `/fz/_doc/${id}/_update?retry_on_conflict=1`, body);
        },
      ),
      { numRuns: RUNS },
    );
  }, 120_000);

  it('mutated mappings and settings: well-formed answers, rejections change nothing', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          mutated(MAPPINGS).map((b) => ['PUT', '/fz/_mapping/_doc', b] as const),
          mutated(SETTINGS).map((b) => ['PUT', '/fz/_settings', b] as const),
        ),
        async ([method, path, body]) => {
          await checkWrite(method, path, JSON.stringify(body));
        },
      ),
      { numRuns: RUNS },
    );
  }, 120_000);

  it('mutated index creation bodies answer well-formed responses', async () => {
    let k = 0;
    await fc.assert(
      fc.asyncProperty(mutated(CREATE_BODIES), async (body) => {
        const name = `new${k++}`;
        const a = await send(node, 'PUT', `/${name}`, JSON.stringify(body));
        const why = malformed(a);
        if (why) throw new Error(`PUT /${name} ${JSON.stringify(body).slice(0, 600)}\n→ ${why}`);
        // A rejected creation creates nothing.
        if (a.status >= 400) expect((await send(node, 'HEAD', `/${name}`)).status).toBe(404);
        else await send(node, 'DELETE', `/${name}`);
      }),
      { numRuns: Math.ceil(RUNS / 3) },
    );
  }, 120_000);

  it('mutated bulk NDJSON: well-formed answers and item results, rejected bulks change nothing', async () => {
    const line = fc.oneof(
      {
        weight: 4,
        arbitrary: fc
          .tuple(mutated(BULK_ACTIONS), mutated(DOCS.concat(UPDATES)))
          .map(([a, d]) => `${JSON.stringify(a)}\n${JSON.stringify(d)}`),
      },
      { weight: 1, arbitrary: fc.constantFrom(...BULK_ACTIONS).map((a) => JSON.stringify(a)) },
      { weight: 1, arbitrary: brokenText(BULK_ACTIONS) },
      {
        weight: 1,
        arbitrary: fc.constantFrom('', ' ', '{}', '{"index":{}}\n', '{"delete":{"_id":"b2"}}'),
      },
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(line, { minLength: 1, maxLength: 4 }),
        fc.boolean(),
        async (lines, nl) => {
          const body = lines.join('\n') + (nl ? '\n' : '');
          const a = await checkWrite('POST', '/fz/_doc/_bulk', body, 'application/x-ndjson');
          if (a.status === 200) {
            for (const item of a.json.items ?? []) {
              const r = Object.values(item)[0] as any;
              if (r?.error) {
                const inner = malformed({
                  status: r.status,
                  text: JSON.stringify({ error: r.error, status: r.status }),
                  json: { error: { root_cause: [r.error], ...r.error }, status: r.status },
                });
                if (inner) throw new Error(`bulk item ${body.slice(0, 600)}\n→ ${inner}`);
              }
            }
          }
        },
      ),
      { numRuns: RUNS * 2 },
    );
  }, 120_000);
});
