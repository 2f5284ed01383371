/**
 * The unified highlighter's passages over HTTP, as ES 6.8 (Lucene 7.7) gives them: one passage
 * per sentence, ranked by Lucene's PassageScorer; `order: score` returns them best first,
 * otherwise in text order, and `number_of_fragments` keeps the best ones.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestNode, type TestNode } from '../helpers/node.js';

let node: TestNode;
const req = (method: string, path: string, body?: unknown) => node.req(method, path, body);

const S1 = 'The old fox sleeps under the tall green tree near the quiet river bank.';
const S2 = 'A quick brown fox jumps over the lazy dog while another fox watches.';
const S3 = 'Brown dogs and brown cats play together in the warm afternoon sun.';
// the sentences highlighted for "fox brown"
const H1 = 'The old <em>fox</em> sleeps under the tall green tree near the quiet river bank.';
const H2 =
  'A quick <em>brown</em> <em>fox</em> jumps over the lazy dog while another <em>fox</em> watches.';
const H3 = '<em>Brown</em> dogs and <em>brown</em> cats play together in the warm afternoon sun.';

beforeAll(async () => {
  node = await startTestNode();
  await req('PUT', '/docs', { mappings: { doc: { properties: { body: { type: 'text' } } } } });
  await req('PUT', '/docs/doc/1?refresh=true', { body: `${S1} ${S2} ${S3}` });
});
afterAll(async () => {
  await node.destroy();
});

const highlight = async (opts: Record<string, unknown>) => {
  const r = await req('POST', '/docs/_search', {
    query: { match: { body: 'fox brown' } },
    highlight: { fields: { body: opts } },
  });
  expect(r.status).toBe(200);
  return r.json.hits.hits[0].highlight.body as string[];
};

describe('unified highlighter passages', () => {
  it('orders sentences by PassageScorer with order: score', async () => {
    // scores 2.279 (two terms, three matches), 1.303 (brown twice), 0.982 (fox once, first)
    expect(await highlight({ order: 'score' })).toEqual([H2, H3, H1]);
  });

  it('keeps text order by default', async () => {
    expect(await highlight({})).toEqual([H1, H2, H3]);
  });

  it('keeps the best number_of_fragments passages', async () => {
    expect(await highlight({ number_of_fragments: 2 })).toEqual([H2, H3]);
    expect(await highlight({ number_of_fragments: 1, order: 'score' })).toEqual([H2]);
  });

  it('takes the order from the global options', async () => {
    const r = await req('POST', '/docs/_search', {
      query: { match: { body: 'fox brown' } },
      highlight: { order: 'score', number_of_fragments: 2, fields: { body: {} } },
    });
    expect(r.json.hits.hits[0].highlight.body).toEqual([H2, H3]);
  });
});
