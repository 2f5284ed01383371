/**
 * Analysis deprecations reach the `Warning` header of searches on indices whose analysis reports
 * them, while searches on other indices run without the collector (deprecation-scope.ts), and the
 * collector is switched off between requests.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestNode, type TestNode } from '../helpers/node.js';

let node: TestNode;

beforeAll(async () => {
  node = await startTestNode();
  await node.req('PUT', '/plain', { mappings: { _doc: { properties: { t: { type: 'text' } } } } });
  await node.req('PUT', '/stripped', {
    settings: {
      analysis: {
        analyzer: { old: { type: 'custom', tokenizer: 'standard', char_filter: ['htmlStrip'] } },
      },
    },
    mappings: { _doc: { properties: { t: { type: 'text', analyzer: 'old' } } } },
  });
  await node.req('PUT', '/plain/_doc/1?refresh=true', { t: 'quick fox' });
  await node.req('PUT', '/stripped/_doc/1?refresh=true', { t: '<b>quick</b> fox' });
});
afterAll(async () => {
  await node.destroy();
});

const query = { query: { match: { t: '<i>quick</i>' } } };

describe('deprecation collection on searches', () => {
  it('a search analysing with htmlStrip reports it, by name, alias-free expression and _msearch', async () => {
    for (const [path, body] of [
      ['/stripped/_search', query],
      ['/stripped/_count', query],
      ['/_search', query],
      ['/strip*/_search', query],
    ] as const) {
      const r = await node.req('POST', path, body);
      expect(r.status).toBe(200);
      expect(r.headers.get('warning') ?? '', path).toContain('[htmpStrip] char filter name');
    }
    const lines = `{"index":"stripped"}\n${JSON.stringify(query)}\n`;
    const r = await node.req('POST', '/plain/_msearch', lines, {
      'content-type': 'application/x-ndjson',
    });
    expect(r.status).toBe(200);
    expect(r.headers.get('warning') ?? '').toContain('[htmpStrip] char filter name');
  });

  it('a search of an index without reporting components answers the same, with no warning', async () => {
    const r = await node.req('POST', '/plain/_search', query);
    expect(r.status).toBe(200);
    expect((r.json as { hits: { total: number } }).hits.total).toBe(1);
    expect(r.headers.get('warning')).toBeNull();
  });
});
