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

  it('stores aliases as ES parses them: routing sets both routings', async () => {
    const put = await node.req('PUT', '/_template/t2', {
      index_patterns: ['a-*'],
      aliases: { r: { routing: 'b' }, f: { filter: { term: { u: 'k' } }, search_routing: 's' } },
    });
    expect(put.status).toBe(200);
    const r = await node.req('GET', '/_template/t2');
    expect(r.json.t2.aliases).toEqual({
      r: { index_routing: 'b', search_routing: 'b' },
      f: { filter: { term: { u: 'k' } }, search_routing: 's' },
    });
    // and the index created from it gets the same aliases
    await node.req('PUT', '/a-1');
    expect((await node.req('GET', '/a-1/_alias')).json).toEqual({
      'a-1': {
        aliases: {
          f: { filter: { term: { u: 'k' } }, search_routing: 's' },
          r: { index_routing: 'b', search_routing: 'b' },
        },
      },
    });
  });

  it('refuses typeless mappings wrapped in _doc, and warns when include_type_name is absent', async () => {
    const bad = await node.req('PUT', '/_template/t3?include_type_name=false', {
      index_patterns: ['x'],
      mappings: { _doc: { properties: {} } },
    });
    expect(bad.status).toBe(400);
    expect(bad.json.error.reason).toBe(
      'The mapping definition cannot be nested under a type [_doc] unless include_type_name is set to true.',
    );
    const warned = await node.req('PUT', '/_template/t3', {
      index_patterns: ['x'],
      mappings: { _doc: { properties: {} } },
    });
    expect(warned.status).toBe(200);
    expect(warned.headers.get('warning')).toContain('put template requests');
  });
});
