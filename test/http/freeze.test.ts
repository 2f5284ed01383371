/**
 * Frozen indices (x-pack freeze API): `_freeze` / `_unfreeze` settings and responses, searches
 * and counts skipping frozen indices unless `ignore_throttled=false`, `_cat/indices` still
 * listing them, and SQL's view of them (SHOW TABLES [INCLUDE FROZEN], FROM FROZEN,
 * `index_include_frozen`, SYS TABLES).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestNode, type TestNode } from '../helpers/node.js';

let node: TestNode;
const sqlRows = async (query: string, extra: Record<string, unknown> = {}) => {
  const r = await node.req('POST', '/_sql', { query, ...extra });
  if (r.status !== 200) throw new Error(JSON.stringify(r.json));
  return r.json.rows as unknown[][];
};

beforeAll(async () => {
  node = await startTestNode();
  await node.req('PUT', '/hot', { mappings: { _doc: { properties: { n: { type: 'long' } } } } });
  await node.req('PUT', '/cold', { mappings: { _doc: { properties: { n: { type: 'long' } } } } });
  await node.req('PUT', '/hot/_doc/1?refresh=true', { n: 1 });
  await node.req('PUT', '/cold/_doc/1?refresh=true', { n: 2 });
  await node.req('PUT', '/cold/_doc/2?refresh=true', { n: 3 });
  const r = await node.req('POST', '/cold/_freeze');
  expect(r.json).toEqual({ acknowledged: true, shards_acknowledged: true });
});
afterAll(() => node.destroy());

describe('freeze API', () => {
  it('makes every document written before it searchable, as ES reopening the index does', async () => {
    await node.req('PUT', '/unrefreshed', { settings: { refresh_interval: -1 } });
    await node.req('PUT', '/unrefreshed/_doc/1', { n: 1 });
    await node.req('PUT', '/unrefreshed/_doc/2', { n: 2 });
    const before = await node.req('GET', '/unrefreshed/_search');
    expect(before.json.hits.total).toBe(0);
    await node.req('POST', '/unrefreshed/_freeze');
    const r = await node.req('GET', '/unrefreshed/_search?ignore_throttled=false');
    expect(r.json.hits.total).toBe(2);
    await node.req('DELETE', '/unrefreshed');
  });

  it('sets index.frozen, index.search.throttled and the write block', async () => {
    const s = (await node.req('GET', '/cold/_settings?flat_settings=true')).json.cold.settings;
    expect(s['index.frozen']).toBe('true');
    expect(s['index.search.throttled']).toBe('true');
    expect(s['index.blocks.write']).toBe('true');
  });

  it('skips frozen indices in searches and counts unless ignore_throttled=false', async () => {
    const total = async (path: string) => (await node.req('GET', path)).json.hits.total;
    expect(await total('/_search?size=0')).toBe(1);
    expect(await total('/cold/_search?size=0')).toBe(0);
    expect(await total('/cold/_search?size=0&ignore_throttled=false')).toBe(2);
    expect(await total('/*/_search?size=0&ignore_throttled=false')).toBe(3);
    expect((await node.req('GET', '/cold/_count')).json.count).toBe(0);
    const strict = await node.req('GET', '/cold/_search?allow_no_indices=false');
    expect(strict.status).toBe(404);
    expect(strict.json.error.type).toBe('index_not_found_exception');
  });

  it('still lists frozen indices in _cat/indices', async () => {
    const r = await node.req('GET', '/_cat/indices?h=index&s=index');
    expect(r.text.trim().split('\n')).toEqual(['cold', 'hot']);
  });

  it('finds nothing to freeze twice and unfreezes', async () => {
    expect((await node.req('POST', '/cold/_freeze?allow_no_indices=false')).json.error).toEqual(
      expect.objectContaining({
        type: 'resource_not_found_exception',
        reason: 'no index found to freeze',
      }),
    );
    expect((await node.req('POST', '/nope/_freeze')).status).toBe(404);
    await node.req('POST', '/hot/_unfreeze');
    expect((await node.req('GET', '/hot/_count')).json.count).toBe(1);
  });
});

describe('SQL over frozen indices', () => {
  it('lists frozen indices only with INCLUDE FROZEN, as TABLE / FROZEN INDEX', async () => {
    expect(await sqlRows('SHOW TABLES')).toEqual([['hot', 'TABLE', 'INDEX']]);
    expect(await sqlRows('SHOW TABLES INCLUDE FROZEN')).toEqual([
      ['cold', 'TABLE', 'FROZEN INDEX'],
      ['hot', 'TABLE', 'INDEX'],
    ]);
    expect(
      (await sqlRows("SYS TABLES LIKE '%'", { index_include_frozen: true })).map((r) => [
        r[2],
        r[3],
      ]),
    ).toEqual([
      ['cold', 'TABLE'],
      ['hot', 'TABLE'],
    ]);
  });

  it('queries a frozen index with FROM FROZEN or index_include_frozen only', async () => {
    const err = await node.req('POST', '/_sql', { query: 'SELECT n FROM cold' });
    expect(err.json.error.type).toBe('verification_exception');
    expect(err.json.error.reason).toContain('Unknown index [cold]');
    expect(await sqlRows('SELECT n FROM FROZEN cold ORDER BY n')).toEqual([[2], [3]]);
    expect(await sqlRows('SELECT COUNT(*) FROM cold', { index_include_frozen: true })).toEqual([
      [2],
    ]);
    // a pattern without FROZEN resolves and searches the open indices only
    expect(await sqlRows('SELECT n FROM "*" ORDER BY n')).toEqual([[1]]);
    expect(await sqlRows('SELECT n FROM FROZEN "*" ORDER BY n')).toEqual([[1], [2], [3]]);
  });
});
