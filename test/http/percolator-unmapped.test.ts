/** A stored percolator query must name mapped fields (ES 6.8, map_unmapped_fields_as_text false). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestNode, type TestNode } from '../helpers/node.js';

let node: TestNode;
beforeAll(async () => {
  node = await startTestNode();
  await node.req('PUT', '/queries', {
    mappings: { _doc: { properties: { query: { type: 'percolator' }, body: { type: 'text', fields: { raw: { type: 'keyword' } } } } } }, // prettier-ignore
  });
});
afterAll(async () => {
  await node.destroy();
});

describe('percolator queries and the mapping', () => {
  it('refuses a query on an unmapped field with ES error, and stores nothing', async () => {
    const r = await node.req('PUT', '/queries/_doc/1?refresh=true', { query: { bool: { must: [{ match: { title: 'x' } }] } } }); // prettier-ignore
    expect(r.status).toBe(400);
    expect(r.json.error).toMatchObject({
      type: 'mapper_parsing_exception',
      reason: 'failed to parse',
      caused_by: { type: 'query_shard_exception', reason: 'No field mapping can be found for the field with name [title]' }, // prettier-ignore
    });
    expect((await node.req('GET', '/queries/_doc/1')).json.found).toBe(false);
  });

  it('accepts mapped fields, sub-fields, metadata fields and wildcard patterns', async () => {
    for (const q of [
      { match: { body: 'x' } },
      { term: { 'body.raw': 'x' } },
      { term: { _id: '1' } },
      { exists: { field: 'nope' } },
    ])
      // prettier-ignore
      expect((await node.req('PUT', '/queries/_doc/2', { query: q })).status).toBeLessThan(300);
    await node.req('POST', '/queries/_refresh');
    const p = await node.req('POST', '/queries/_search', {
      query: { percolate: { field: 'query', document: { body: 'x' } } },
    });
    expect(p.status).toBe(200);
    // the last stored query (doc 2, `exists` on an unmapped field) matches nothing
    expect(p.json.hits.total).toBe(0);
  });
});
