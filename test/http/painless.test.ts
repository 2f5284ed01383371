/**
 * Painless over HTTP as ES 6.8 answers: the execute API, script errors in script_fields failing
 * every shard, and the static regex setting refused by cluster settings updates.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestNode, type TestNode } from '../helpers/node.js';

let node: TestNode;
beforeAll(async () => {
  node = await startTestNode();
  const r = await node.req('PUT', '/my-index', {
    settings: { number_of_shards: 3 },
    mappings: { doc: { properties: { rank: { type: 'long' }, field: { type: 'keyword' } } } },
  });
  expect(r.status).toBe(200);
  await node.req('PUT', '/my-index/doc/1?refresh=true', { rank: 1, field: 'a' });
});
afterAll(async () => {
  await node.destroy();
});

describe('painless over HTTP', () => {
  it('executes scripts with and without a context document', async () => {
    const t = await node.req('POST', '/_scripts/painless/_execute', {
      script: { source: 'params.a * 2', params: { a: 21 } },
    });
    expect(t.status).toBe(200);
    expect(t.json).toEqual({ result: '42' });
    const s = await node.req('POST', '/_scripts/painless/_execute', {
      script: { source: "doc['rank'].value / params.max", params: { max: 5.0 } },
      context: 'score',
      context_setup: { index: 'my-index', document: { rank: 4 } },
    });
    expect(s.json.result).toBeCloseTo(0.8, 12);
    const missing = await node.req('POST', '/_scripts/painless/_execute', {
      script: { source: 'true' },
      context: 'filter',
      context_setup: { index: 'nope', document: {} },
    });
    expect(missing.status).toBe(404);
    expect(missing.json.error.type).toBe('index_not_found_exception');
  });

  it('a script_fields script that does not compile fails every shard (6.8: a 500)', async () => {
    const r = await node.req('POST', '/my-index/_search', {
      script_fields: { bar: { script: { source: 'while (true) {}' } } },
    });
    expect(r.status).toBe(500);
    expect(r.json.error).toMatchObject({
      type: 'search_phase_execution_exception',
      reason: 'all shards failed',
      root_cause: [{ type: 'script_exception', reason: 'compile error' }],
    });
    expect(r.json.error.failed_shards[0].reason.caused_by).toEqual({
      type: 'illegal_argument_exception',
      reason: 'While loop has no escape.',
    });
  });

  it('refuses to change script.painless.regex.enabled (not a dynamic setting)', async () => {
    const r = await node.req('PUT', '/_cluster/settings', {
      transient: { 'script.painless.regex.enabled': true },
    });
    expect(r.status).toBe(400);
    expect(r.json.error.type).toBe('illegal_argument_exception');
    expect(r.json.error.reason).toBe(
      'transient setting [script.painless.regex.enabled], not dynamically updateable',
    );
    const g = await node.req('GET', '/_cluster/settings');
    expect(g.json).toEqual({ persistent: {}, transient: {} });
  });
});
