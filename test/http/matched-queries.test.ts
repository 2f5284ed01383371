/**
 * Named queries over HTTP (ES 6.8 MatchedQueriesFetchSubPhase): each hit lists the `_name`d
 * parts of the query and post_filter it matches, in ES's order, after `sort`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestNode, type TestNode } from '../helpers/node.js';

let node: TestNode;
type Hit = { _id: string; matched_queries?: string[]; sort?: unknown[] };
const search = async (body: unknown, path = '/named/_search') => {
  const r = await node.req('POST', path, body);
  expect(r.status).toBe(200);
  const hits = (r.json as { hits: { hits: Hit[] } }).hits.hits;
  return new Map(hits.map((h) => [h._id, h]));
};

beforeAll(async () => {
  node = await startTestNode();
  await node.req('PUT', '/named', {
    mappings: { doc: { properties: { t: { type: 'text' }, n: { type: 'integer' } } } },
  });
  // two refreshes: two segments, so scorers are made per segment
  await node.req('PUT', '/named/doc/1?refresh=true', { t: 'quick brown fox', n: 1 });
  await node.req('PUT', '/named/doc/2?refresh=true', { t: 'lazy dog', n: 2 });
  await node.req('PUT', '/named/doc/3?refresh=true', { t: 'quick dog', n: 3 });
});
afterAll(async () => {
  await node.destroy();
});

describe('matched_queries', () => {
  it('names the should clauses each hit matched, in Java HashMap order of the names', async () => {
    const hits = await search({
      query: {
        bool: {
          should: [
            { match: { t: { query: 'dog', _name: 'q2' } } },
            { match: { t: { query: 'quick', _name: 'q1' } } },
          ],
        },
      },
    });
    // ES copies the names into a HashMap of 4 buckets: "q1" (hash 3552) before "q2" (3553)
    expect(hits.get('1')!.matched_queries).toEqual(['q1']);
    expect(hits.get('2')!.matched_queries).toEqual(['q2']);
    expect(hits.get('3')!.matched_queries).toEqual(['q1', 'q2']);
  });

  it('counts names in filters, ranges and the post_filter; unmatched hits have no key', async () => {
    const hits = await search({
      query: {
        bool: {
          filter: { range: { n: { gte: 2, _name: 'big' } } },
          should: { term: { t: { value: 'lazy', _name: 'lazy' } } },
        },
      },
      post_filter: { bool: { must_not: { term: { n: 3 } }, _name: 'not3' } },
    });
    expect([...hits.keys()]).toEqual(['2']);
    expect(hits.get('2')!.matched_queries).toEqual(['big', 'lazy', 'not3']);
    const plain = await search({ query: { match: { t: 'quick' } } });
    expect([...plain.values()].every((h) => !('matched_queries' in h))).toBe(true);
    const partly = await search({ query: { match: { t: { query: 'fox', _name: 'fox' } } } });
    expect(partly.get('1')!.matched_queries).toEqual(['fox']);
  });

  it('comes after sort values in the hit, and on scroll pages too', async () => {
    const r = await node.req('POST', '/named/_search?scroll=1m', {
      size: 1,
      sort: ['n'],
      query: { match_all: { _name: 'all' } },
    });
    const body = r.json as { _scroll_id: string; hits: { hits: Hit[] } };
    expect(Object.keys(body.hits.hits[0]!).slice(-2)).toEqual(['sort', 'matched_queries']);
    expect(body.hits.hits[0]!.matched_queries).toEqual(['all']);
    const next = await node.req('POST', '/_search/scroll', {
      scroll: '1m',
      scroll_id: body._scroll_id,
    });
    const page = (next.json as { hits: { hits: Hit[] } }).hits.hits;
    expect(page.map((h) => [h._id, h.matched_queries])).toEqual([['2', ['all']]]);
  });
});
