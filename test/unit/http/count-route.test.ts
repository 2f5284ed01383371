/**
 * `_count` through the REST dispatcher: a repeated body (its parse shared, count-body.ts) still
 * counts against the index as it is now (mappings, documents), and its errors stay ES's.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openNode } from '../../../src/node.js';
import { createDispatcher } from '../../../src/http/dispatcher.js';

let close: () => Promise<void>;
let d: ReturnType<typeof createDispatcher>;

const count = async (path: string, body: string) => {
  const r = await d('POST', path, body);
  return { status: r.status, body: r.body as Record<string, any> };
};

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'quarry-count-route-'));
  const node = await openNode({ dataPath: dir });
  d = createDispatcher(node.context);
  close = async () => {
    await node.close();
    rmSync(dir, { recursive: true, force: true });
  };
  const r = await d('PUT', '/c1', {
    mappings: { _doc: { properties: { s: { type: 'keyword' } } } },
  } as object);
  expect(r.status).toBe(200);
}, 60_000);

afterAll(async () => {
  await close?.();
});

async function index(docs: object[]): Promise<void> {
  const lines = docs.map((doc) => `{"index":{"_index":"c1","_type":"_doc"}}\n${JSON.stringify(doc)}\n`); // prettier-ignore
  expect((await d('POST', '/_bulk?refresh=true', lines.join(''))).status).toBe(200);
}

describe('_count with a repeated body', () => {
  it('sees mapping changes and new documents', async () => {
    await index([{ s: 'a' }, { s: 'b' }, { s: 'a' }]);
    const onS = '{"query":{"term":{"s":"a"}}}';
    expect((await count('/c1/_count', onS)).body.count).toBe(2);
    expect((await count('/c1/_count', onS)).body.count).toBe(2);
    // an unmapped field matches nothing; once mapped (as text, analyzed) the same body counts
    const onT = '{"query":{"match":{"t":"Quick Fox"}}}';
    expect((await count('/c1/_count', onT)).body.count).toBe(0);
    await index([{ t: 'the quick brown fox' }, { s: 'a' }]);
    expect((await count('/c1/_count', onT)).body.count).toBe(1);
    expect((await count('/c1/_count', onS)).body.count).toBe(3);
  });

  it('keeps URI parameters apart from the shared parse', async () => {
    const body = '{"query":{"term":{"s":"a"}}}';
    const plain = (await count('/c1/_count', body)).body.count as number;
    expect(plain).toBeGreaterThan(0);
    // `q` replaces the body's query (RestCountAction): b, not a
    expect((await count('/c1/_count?q=s:b', body)).body.count).toBe(1);
    expect((await count('/c1/_count', body)).body.count).toBe(plain);
  });

  it('answers bad bodies with the same ES errors each time', async () => {
    const bad = [
      ['{"query":{"term":{"s":"a"}}', 'json_e_o_f_exception'],
      ['{"query":{"term":{"s":"a"}},"query":{"match_all":{}}}', 'json_parse_exception'],
      ['{"query":{"nope":{}}}', 'parsing_exception'],
      ['{"size":0}', 'parsing_exception'],
    ] as const;
    for (const [text, type] of bad) {
      const first = await count('/c1/_count', text);
      expect(first.status).toBe(400);
      expect(first.body.error.type).toBe(type);
      expect(await count('/c1/_count', text)).toEqual(first);
    }
  });

  it('follows the search routing of an alias added between two equal counts', async () => {
    const made = await d('PUT', '/r2', { settings: { number_of_shards: 4 } } as object);
    expect(made.status).toBe(200);
    const lines = Array.from({ length: 20 }, (_, i) => `{"index":{"_index":"r2","_type":"_doc","routing":"k${i % 5}"}}\n{"n":${i}}\n`); // prettier-ignore
    expect((await d('POST', '/_bulk?refresh=true', lines.join(''))).status).toBe(200);
    const all = '{"query":{"match_all":{}}}';
    expect((await count('/r2/_count', all)).body.count).toBe(20);
    const routed = (await count('/r2/_count?routing=k1', all)).body;
    expect(routed._shards.total).toBe(1);
    const alias = { actions: [{ add: { index: 'r2', alias: 'r2k1', search_routing: 'k1' } }] };
    expect((await d('POST', '/_aliases', alias as object)).status).toBe(200);
    expect((await count('/r2k1/_count', all)).body).toEqual(routed);
    expect((await count('/r2/_count', all)).body.count).toBe(20);
  });
});
