/**
 * The ranking evaluation API as ES 6.8's rank-eval module serves it: rated requests searched,
 * verbatim or from templates, their hits rated and scored, failures kept per request.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestNode, type TestNode } from '../helpers/node.js';

let node: TestNode;
beforeAll(async () => {
  node = await startTestNode();
  await node.req('PUT', '/docs', { settings: { number_of_shards: 1 } });
  for (let i = 1; i <= 4; i++)
    await node.req('PUT', `/docs/_doc/${i}`, { n: i, title: `t${i}`, body: `b${i}` });
  await node.req('POST', '/docs/_refresh');
});
afterAll(async () => {
  await node.destroy();
});

const sorted = { query: { match_all: {} }, sort: ['n'] };
const ratings = [
  { _index: 'docs', _id: '1', rating: 0 },
  { _index: 'docs', _id: '2', rating: 2 },
];

describe('_rank_eval', () => {
  it('rates the hits, fetching only the summary fields', async () => {
    const r = await node.req('POST', '/docs/_rank_eval', {
      requests: [{ id: 'q', request: sorted, ratings, summary_fields: ['title'] }],
      metric: { precision: { k: 3 } },
    });
    expect(r.status).toBe(200);
    expect(r.json.metric_score).toBeCloseTo(1 / 3, 12);
    const q = r.json.details.q;
    expect(q.unrated_docs).toEqual([{ _index: 'docs', _id: '3' }]);
    expect(q.metric_details).toEqual({
      precision: { relevant_docs_retrieved: 1, docs_retrieved: 3 },
    });
    expect(q.hits.map((h: { rating: unknown }) => h.rating)).toEqual([0, 2, null]);
    expect(q.hits[0].hit).toMatchObject({ _index: 'docs', _id: '1', _source: { title: 't1' } });
    expect(r.json.failures).toEqual({});
    const bare = await node.req('POST', '/_rank_eval', {
      requests: [{ id: 'q', request: sorted, ratings }],
      metric: { mean_reciprocal_rank: {} },
    });
    expect(bare.json.details.q.hits[0].hit._source).toBeUndefined();
    expect(bare.json.details.q.metric_details).toEqual({
      mean_reciprocal_rank: { first_relevant: 2 },
    });
  });

  it('reports normalized dcg details and cuts expected reciprocal rank to k', async () => {
    const dcg = await node.req('POST', '/_rank_eval', {
      requests: [{ id: 'q', request: sorted, ratings }],
      metric: { dcg: { normalize: true } },
    });
    const d = dcg.json.details.q.metric_details.dcg;
    expect(Object.keys(d)).toEqual(['dcg', 'ideal_dcg', 'normalized_dcg', 'unrated_docs']);
    expect(d.ideal_dcg).toBe(3);
    expect(d.unrated_docs).toBe(2);
    expect(dcg.json.metric_score).toBeCloseTo(3 / Math.log2(3) / 3, 12);
    const err = await node.req('POST', '/_rank_eval', {
      requests: [{ id: 'q', request: sorted, ratings }],
      metric: { expected_reciprocal_rank: { maximum_relevance: 2, k: 2 } },
    });
    expect(err.json.details.q.hits).toHaveLength(2);
    expect(err.json.metric_score).toBeCloseTo(3 / 4 / 2, 12);
  });

  it('keeps a failed search per request, scoring NaN when none succeeded', async () => {
    const r = await node.req('POST', '/missing/_rank_eval', {
      requests: [{ id: 'q', request: sorted, ratings }],
      metric: { precision: {} },
    });
    expect(r.status).toBe(200);
    expect(r.json.metric_score).toBe('NaN');
    expect(r.json.details).toEqual({});
    expect(r.json.failures.q.error.type).toBe('index_not_found_exception');
    const lenient = await node.req('POST', '/missing/_rank_eval?ignore_unavailable=true', {
      requests: [{ id: 'q', request: sorted, ratings }],
      metric: { precision: {} },
    });
    expect(lenient.json.details.q.hits).toEqual([]);
  });

  it('renders templates, inline or stored, and keeps a rendering that is no JSON as a failure', async () => {
    await node.req('PUT', '/_scripts/by_n', {
      script: { lang: 'mustache', source: { query: { term: { n: '{{n}}' } } } },
    });
    const r = await node.req('POST', '/docs/_rank_eval', {
      templates: [
        { id: 'stored', template: { id: 'by_n' } },
        { id: 'broken', template: { source: '{"query": {{q}} }' } },
      ],
      requests: [
        { id: 'ok', template_id: 'stored', params: { n: 2 }, ratings },
        { id: 'bad', template_id: 'broken', params: { q: 'x' }, ratings },
      ],
      metric: { precision: {} },
    });
    expect(r.status).toBe(200);
    expect(r.json.metric_score).toBe(1);
    expect(r.json.details.ok.hits[0].hit._id).toBe('2');
    expect(r.json.failures.bad.error.type).toBe('json_parse_exception');
  });

  it('fails the whole request as ES does', async () => {
    const unknown = await node.req('POST', '/_rank_eval', {
      requests: [{ id: 'q', request: sorted, ratings }],
      metric: { recall: {} },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.json.error.type).toBe('x_content_parse_exception');
    expect(unknown.json.error.root_cause[0].type).toBe('named_object_not_found_exception');
    const noTemplate = await node.req('POST', '/_rank_eval', {
      templates: [{ id: 't', template: { source: '{}' } }],
      requests: [{ id: 'q', template_id: 'other', params: { a: 1 }, ratings }],
      metric: { precision: {} },
    });
    expect(noTemplate.status).toBe(500);
    expect(noTemplate.json.error.type).toBe('null_pointer_exception');
    const concurrency = await node.req('POST', '/_rank_eval', {
      requests: [{ id: 'q', request: sorted, ratings }],
      metric: { precision: {} },
      max_concurrent_searches: 0,
    });
    expect(concurrency.status).toBe(400);
    expect(concurrency.json.error.reason).toBe('maxConcurrentSearchRequests must be positive');
    const badQuery = await node.req('POST', '/_rank_eval', {
      requests: [{ id: 'q', request: { query: { nope: {} } }, ratings }],
      metric: { precision: {} },
    });
    expect(badQuery.status).toBe(400);
    expect(badQuery.json.error.reason).toMatch(/\[rank_eval\] failed to parse field \[requests\]/);
    expect(badQuery.json.error.root_cause[0].type).toBe('parsing_exception');
    const noBody = await node.req('POST', '/_rank_eval');
    expect(noBody.status).toBe(400);
    expect(noBody.json.error.type).toBe('parse_exception');
  });

  it('runs many requests with bounded concurrency, in request order', async () => {
    const requests = [1, 2, 3, 4].map((n) => ({
      id: `n${n}`,
      request: { query: { term: { n } } },
      ratings: [{ _index: 'docs', _id: String(n), rating: 1 }],
    }));
    const r = await node.req('POST', '/_rank_eval', {
      requests,
      metric: { precision: {} },
      max_concurrent_searches: 2,
    });
    expect(Object.keys(r.json.details)).toEqual(['n1', 'n2', 'n3', 'n4']);
    expect(r.json.metric_score).toBe(1);
  });
});
