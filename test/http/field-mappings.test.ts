/** GET _mapping/field/{fields} as ES 6.8 answers it (RestGetFieldMappingAction). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestNode, type TestNode } from '../helpers/node.js';

let node: TestNode;
beforeAll(async () => {
  node = await startTestNode();
  await node.req('PUT', '/fm1?include_type_name=true', {
    mappings: {
      doc: {
        properties: {
          title: { type: 'text', fields: { raw: { type: 'keyword' } } },
          user: { properties: { name: { type: 'keyword' } } },
        },
      },
    },
  });
  await node.req('PUT', '/fm2?include_type_name=false', {
    mappings: { properties: { title: { type: 'keyword' } } },
  });
});
afterAll(async () => {
  await node.destroy();
});

describe('GET _mapping/field', () => {
  it('answers by index and type with full and leaf names', async () => {
    const r = await node.req('GET', '/fm1/_mapping/doc/field/user.name,title.raw');
    expect(r.status).toBe(200);
    expect(r.json).toEqual({
      fm1: {
        mappings: {
          doc: {
            'user.name': { full_name: 'user.name', mapping: { name: { type: 'keyword' } } },
            'title.raw': { full_name: 'title.raw', mapping: { raw: { type: 'keyword' } } },
          },
        },
      },
    });
    expect(r.headers.get('warning')).toContain('get field mapping requests');
  });

  it('expands wildcards across indices, typeless', async () => {
    const r = await node.req('GET', '/_mapping/field/title*?include_type_name=false');
    expect(Object.keys(r.json.fm1.mappings).sort()).toEqual(['title', 'title.raw']);
    expect(Object.keys(r.json.fm2.mappings)).toEqual(['title']);
    expect(r.headers.get('warning')).toBeNull();
  });

  it('renders defaults on request', async () => {
    const r = await node.req('GET', '/fm2/_mapping/field/title?include_defaults=true');
    expect(r.json.fm2.mappings._doc.title.mapping.title).toMatchObject({
      type: 'keyword',
      ignore_above: 2147483647,
      doc_values: true,
    });
  });

  it('answers 404 for a missing index or type, {} for a missing single field', async () => {
    expect((await node.req('GET', '/nope/_mapping/field/x')).status).toBe(404);
    const t = await node.req('GET', '/fm1/_mapping/other/field/title');
    expect([t.status, t.json]).toEqual([404, {}]);
    const f = await node.req('GET', '/fm1/_mapping/doc/field/missing');
    expect([f.status, f.json]).toEqual([200, {}]);
    const bad = await node.req('GET', '/fm1/_mapping/doc/field/x?include_type_name=false');
    expect(bad.status).toBe(400);
    expect(bad.json.error.reason).toBe(
      'Cannot set include_type_name=false and specify types at the same time.',
    );
  });
});
