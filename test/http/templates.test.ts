/**
 * Index template PUT as ES 6.8 checks it (PutIndexTemplateRequest.source, then validate, then
 * the existence check): an unknown top-level key is a parse_exception, before anything else.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestNode, type TestNode } from '../helpers/node.js';

let node: TestNode;
beforeAll(async () => {
  node = await startTestNode();
});
afterAll(async () => {
  await node.destroy();
});

describe('PUT _template', () => {
  // Unknown keys were silently dropped, so a misspelt `mapping` left the template without mappings.
  it('refuses an unknown top-level key, before the patterns and existence checks', async () => {
    const r = await node.req('PUT', '/_template/t1', {
      index_patterns: ['logs-*'],
      mapping: { _doc: { properties: { n: { type: 'long' } } } },
    });
    expect(r.status).toBe(400);
    expect(r.json.error).toMatchObject({
      type: 'parse_exception',
      reason: 'unknown key [mapping] in the template ',
    });
    expect((await node.req('GET', '/_template/t1')).status).toBe(404);
    const noPatterns = await node.req('PUT', '/_template/t1', { bogus: 1 });
    expect(noPatterns.json.error.type).toBe('parse_exception');
    const ok = await node.req('PUT', '/_template/t1', {
      index_patterns: ['logs-*'],
      order: 1,
      version: 3,
      settings: { number_of_shards: 1 },
      mappings: { _doc: { properties: { n: { type: 'long' } } } },
      aliases: { logs: {} },
    });
    expect(ok.json).toEqual({ acknowledged: true });
    const again = await node.req('PUT', '/_template/t1?create=true', { bogus: 1 });
    expect(again.json.error.type).toBe('parse_exception');
    const exists = await node.req('PUT', '/_template/t1?create=true', { index_patterns: ['x'] });
    expect(exists.json.error.reason).toBe('index_template [t1] already exists');
  });
});
