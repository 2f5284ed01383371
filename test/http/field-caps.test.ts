/** `_field_caps` as ES 6.8 answers it (RestFieldCapabilitiesAction). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestNode, type TestNode } from '../helpers/node.js';

let node: TestNode;
beforeAll(async () => {
  node = await startTestNode();
  await node.req('PUT', '/fc1?include_type_name=false', {
    mappings: { properties: { n: { type: 'long' }, k: { type: 'keyword' } } },
  });
  await node.req('PUT', '/fc2?include_type_name=false', {
    mappings: { properties: { n: { type: 'keyword', index: false }, k: { type: 'keyword' } } },
  });
});
afterAll(async () => {
  await node.destroy();
});

describe('_field_caps', () => {
  it('merges field types across indices (GET with fields)', async () => {
    const r = await node.req('GET', '/fc*/_field_caps?fields=n,k');
    expect(r.status).toBe(200);
    expect(r.json).toEqual({
      fields: {
        n: {
          long: { type: 'long', searchable: true, aggregatable: true, indices: ['fc1'] },
          keyword: { type: 'keyword', searchable: false, aggregatable: true, indices: ['fc2'] },
        },
        k: { keyword: { type: 'keyword', searchable: true, aggregatable: true } },
      },
    });
  });
  it('takes the fields from a POST body, with ES deprecation warning', async () => {
    const r = await node.req('POST', '/_field_caps', { fields: ['k'] });
    expect(r.json.fields.k.keyword.searchable).toBe(true);
    expect(r.headers.get('warning')).toContain('Specifying a request body is deprecated');
  });
  it('refuses a request without fields and a missing index', async () => {
    const none = await node.req('GET', '/_field_caps');
    expect([none.status, none.json.error.reason]).toEqual([
      400,
      "specified fields can't be null or empty",
    ]);
    expect((await node.req('GET', '/missing/_field_caps?fields=*')).status).toBe(404);
    const both = await node.req('POST', '/_field_caps?fields=k', { fields: ['k'] });
    expect(both.status).toBe(400);
  });
});
