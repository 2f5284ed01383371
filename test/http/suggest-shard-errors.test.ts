/**
 * Suggesters that fail on a shard, over HTTP, as ES 6.8 reports them: the suggest phase runs
 * with each shard's query phase, so its failure fails the shard — every shard failing gives a
 * 400 `search_phase_execution_exception` ("all shards failed") whose root cause and
 * `failed_shards` carry the shard's `illegal_argument_exception`; some shards failing give the
 * others' suggestions with `_shards.failures`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestNode, type TestNode } from '../helpers/node.js';

let node: TestNode;
const req = (method: string, path: string, body?: unknown) =>
  node.req(
    method,
    path,
    body,
    typeof body === 'string' ? { 'content-type': 'application/x-ndjson' } : {},
  );
const bulk = (lines: unknown[]) =>
  req('POST', '/_bulk?refresh=true', lines.map((l) => JSON.stringify(l)).join('\n') + '\n');

beforeAll(async () => {
  node = await startTestNode();
  await req('PUT', '/books', {
    settings: { number_of_shards: 2 },
    mappings: {
      doc: { properties: { title: { type: 'text' }, name: { type: 'completion' } } },
    },
  });
  await req('PUT', '/notes', {
    settings: { number_of_shards: 1 },
    mappings: { doc: { properties: { name: { type: 'text' } } } },
  });
  await bulk([
    { index: { _index: 'books', _type: 'doc', _id: '1' } },
    { title: 'the lazy dog', name: 'Lazy Dog' },
    { index: { _index: 'books', _type: 'doc', _id: '2' } },
    { title: 'quick fox', name: 'Quick Fox' },
    { index: { _index: 'notes', _type: 'doc', _id: '1' } },
    { name: 'lazy afternoon' },
  ]);
});
afterAll(async () => {
  await node.destroy();
});

const shardCause = (reason: string) => ({ type: 'illegal_argument_exception', reason });

describe('suggest failures on every shard', () => {
  it('wraps a completion suggester on a text field as all shards failed', async () => {
    const r = await req('POST', '/books/_search', {
      suggest: { s: { prefix: 'la', completion: { field: 'title' } } },
    });
    expect(r.status).toBe(400);
    const cause = shardCause('Field [title] is not a completion suggest field');
    expect(r.json.status).toBe(400);
    expect(r.json.error).toEqual({
      root_cause: [cause],
      type: 'search_phase_execution_exception',
      reason: 'all shards failed',
      phase: 'query',
      grouped: true,
      failed_shards: [{ shard: 0, index: 'books', node: expect.any(String), reason: cause }],
      caused_by: cause,
    });
  });

  it('wraps a phrase or term suggester on an unmapped field', async () => {
    for (const s of [
      { text: 'lazy dgo', phrase: { field: 'nope' } },
      { text: 'lazy dgo', term: { field: 'nope' } },
    ]) {
      const r = await req('POST', '/books/_search', { suggest: { s } });
      expect(r.status).toBe(400);
      expect(r.json.error.type).toBe('search_phase_execution_exception');
      expect(r.json.error.root_cause).toEqual([shardCause('no mapping found for field [nope]')]);
      expect(r.json.error.failed_shards[0].reason).toEqual(
        shardCause('no mapping found for field [nope]'),
      );
    }
  });

  it('leaves request parse errors unwrapped', async () => {
    const r = await req('POST', '/books/_search', {
      suggest: { s: { prefix: 'la', completion: { field: 'name', fuzzy: { nope: 1 } } } },
    });
    expect(r.status).toBe(400);
    expect(r.json.error.type).not.toBe('search_phase_execution_exception');
  });
});

describe('suggest failures on some shards', () => {
  it('answers with the other shards’ suggestions and the failure in _shards', async () => {
    const r = await req('POST', '/books,notes/_search', {
      size: 0,
      suggest: { s: { prefix: 'la', completion: { field: 'name' } } },
    });
    expect(r.status).toBe(200);
    expect(r.json._shards).toEqual({
      total: 3,
      successful: 2,
      skipped: 0,
      failed: 1,
      failures: [
        {
          shard: 0,
          index: 'notes',
          node: expect.any(String),
          reason: shardCause('Field [name] is not a completion suggest field'),
        },
      ],
    });
    expect(r.json.suggest.s[0].options.map((o: { text: string }) => o.text)).toEqual(['Lazy Dog']);
  });
});
