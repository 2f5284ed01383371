/**
 * Queries on constant_keyword fields (ES 7.10): every document has the mapping's value, so
 * term-level queries match all documents or none, even documents indexed before the value was
 * set; without a value they match nothing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openNode } from '../../../../src/node.js';
import { createDispatcher } from '../../../../src/http/dispatcher.js';

let d: ReturnType<typeof createDispatcher>;
let close: () => Promise<void>;

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'quarry-constant-'));
  const node = await openNode({ dataPath: dir });
  d = createDispatcher(node.context);
  const r = await d('PUT', '/c?include_type_name=false', {
    mappings: {
      properties: {
        n: { type: 'integer' },
        kind: { type: 'constant_keyword' },
        unset: { type: 'constant_keyword' },
      },
    },
  } as object);
  expect(r.status).toBe(200);
  expect((await d('PUT', '/c/_doc/1?refresh=true', { n: 1 })).status).toBe(201);
  expect((await d('PUT', '/c/_doc/2?refresh=true', { n: 2, kind: 'log' })).status).toBe(201);
  expect((await d('PUT', '/c/_doc/3?refresh=true', { n: 3 })).status).toBe(201);
  close = async () => {
    await node.close();
    rmSync(dir, { recursive: true, force: true });
  };
}, 60_000);

afterAll(async () => {
  await close();
});

const ids = async (query: object): Promise<string[]> => {
  const r = await d('POST', '/c/_search', { query, sort: ['n'] });
  expect(r.status).toBe(200);
  return (r.body as { hits: { hits: Array<{ _id: string }> } }).hits.hits.map((h) => h._id);
};

describe('constant_keyword queries', () => {
  it('match every document when the value matches, none otherwise', async () => {
    expect(await ids({ term: { kind: 'log' } })).toEqual(['1', '2', '3']);
    expect(await ids({ term: { kind: 'other' } })).toEqual([]);
    expect(await ids({ terms: { kind: ['x', 'log'] } })).toEqual(['1', '2', '3']);
    expect(await ids({ prefix: { kind: 'lo' } })).toEqual(['1', '2', '3']);
    expect(await ids({ wildcard: { kind: '*g' } })).toEqual(['1', '2', '3']);
    expect(await ids({ regexp: { kind: 'l.g' } })).toEqual(['1', '2', '3']);
    expect(await ids({ range: { kind: { gt: 'log' } } })).toEqual([]);
    expect(await ids({ range: { kind: { gte: 'log', lt: 'm' } } })).toEqual(['1', '2', '3']);
    expect(await ids({ exists: { field: 'kind' } })).toEqual(['1', '2', '3']);
  });

  it('match nothing while the mapping has no value', async () => {
    expect(await ids({ exists: { field: 'unset' } })).toEqual([]);
    expect(await ids({ term: { unset: '' } })).toEqual([]);
  });

  it('refuse another value at index time', async () => {
    const r = await d('PUT', '/c/_doc/4', { kind: 'metric' });
    expect(r.status).toBe(400);
    expect(JSON.stringify(r.body)).toContain(
      '[constant_keyword] field [kind] only accepts values that are equal to the value defined in the mappings [log], but got [metric]',
    );
  });
});
