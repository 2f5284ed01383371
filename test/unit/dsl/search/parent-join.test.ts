/**
 * has_child, has_parent and parent_id (module parent-join) over a real node: children on their
 * parent's shard joined across segments, the score modes and child counts, ignore_unmapped and
 * ES's errors, inner_hits with size, sort and _source, and nested inner hits' offsets.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestNode, type TestNode } from '../../../helpers/node.js';

let node: TestNode;

const put = async (path: string, body: unknown) => {
  const r = await node.req('PUT', path, body);
  expect(r.status, JSON.stringify(r.json)).toBeLessThan(300);
};

beforeAll(async () => {
  node = await startTestNode();
  await put('/qa', {
    settings: { number_of_shards: 2, number_of_replicas: 0 },
    mappings: {
      _doc: {
        properties: {
          j: { type: 'join', relations: { question: 'answer', answer: 'comment' } },
          votes: { type: 'integer' },
          rank: { type: 'integer' },
        },
      },
    },
  });
  // one refresh per document: the join has to look at every segment of the shard
  const docs: Array<[string, string | null, unknown]> = [
    ['q1', null, { j: 'question', rank: 5 }],
    ['q2', null, { j: 'question', rank: 7 }],
    ['q3', null, { j: 'question', rank: 1 }],
    ['a1', 'q1', { j: { name: 'answer', parent: 'q1' }, votes: 1 }],
    ['a2', 'q1', { j: { name: 'answer', parent: 'q1' }, votes: 3 }],
    ['a3', 'q2', { j: { name: 'answer', parent: 'q2' }, votes: 2 }],
    ['c1', 'q1', { j: { name: 'comment', parent: 'a1' } }],
  ];
  for (const [id, routing, src] of docs)
    await put(`/qa/_doc/${id}?refresh=true${routing ? `&routing=${routing}` : ''}`, src);
  await put('/plain', { mappings: { _doc: { properties: { n: { type: 'integer' } } } } });
  await put('/nest', {
    mappings: {
      _doc: { properties: { items: { type: 'nested', properties: { k: { type: 'keyword' } } } } },
    },
  });
  await put('/nest/_doc/1?refresh=true', { items: [{ k: 'a' }, { k: 'b' }, { k: 'b' }] });
});
afterAll(async () => {
  await node.destroy();
});

const search = async (index: string, body: unknown) => node.req('POST', `/${index}/_search`, body);
const byVotes = {
  function_score: {
    query: { match_all: {} },
    functions: [{ field_value_factor: { field: 'votes' } }],
    boost_mode: 'replace',
  },
};
const ranked = async (body: unknown): Promise<Array<[string, number]>> => {
  const r = await search('qa', body);
  expect(r.status, JSON.stringify(r.json)).toBe(200);
  return r.json.hits.hits.map((h: any) => [h._id, h._score]);
};

describe('has_child', () => {
  it('scores parents from their matching children per score_mode', async () => {
    const q = (score_mode: string) => ({
      query: { has_child: { type: 'answer', score_mode, query: byVotes } },
    });
    expect(await ranked(q('sum'))).toEqual([
      ['q1', 4],
      ['q2', 2],
    ]);
    expect(await ranked(q('avg'))).toEqual([
      ['q1', 2],
      ['q2', 2],
    ]);
    expect(await ranked(q('max'))).toEqual([
      ['q1', 3],
      ['q2', 2],
    ]);
    expect(await ranked(q('min'))).toEqual([
      ['q2', 2],
      ['q1', 1],
    ]);
    const none = await ranked({ ...q('none'), sort: ['_id'], track_scores: true });
    expect(none).toEqual([
      ['q1', 1],
      ['q2', 1],
    ]);
  });

  it('keeps parents whose number of matching children is within min/max_children', async () => {
    const q = (min: number, max: number) => ({
      query: {
        has_child: {
          type: 'answer',
          min_children: min,
          max_children: max,
          query: { match_all: {} },
        },
      },
      sort: ['_id'],
    });
    expect((await ranked(q(2, 10))).map((h) => h[0])).toEqual(['q1']);
    expect((await ranked(q(0, 1))).map((h) => h[0])).toEqual(['q2']);
  });

  it('joins a grandchild to its parent that is a child itself', async () => {
    const r = await ranked({ query: { has_child: { type: 'comment', query: { match_all: {} } } } });
    expect(r).toEqual([['a1', 1]]);
  });

  it('answers unknown types and indices without join field as ES does', async () => {
    const bad = await search('qa', {
      query: { has_child: { type: 'nope', query: { match_all: {} } } },
    });
    expect(bad.status).toBe(400);
    expect(bad.json.error.root_cause[0]).toMatchObject({
      type: 'query_shard_exception',
      reason: "[has_child] join field [j] doesn't hold [nope] as a child",
      index: 'qa',
    });
    const ignored = await search('qa', {
      query: { has_child: { type: 'nope', ignore_unmapped: true, query: { match_all: {} } } },
    });
    expect(ignored.json.hits.total).toBe(0);
    const plain = await search('plain', { query: { has_parent: { parent_type: 'x', query: { match_all: {} } } } }); // prettier-ignore
    expect(plain.json.error.root_cause[0].reason).toBe(
      '[has_parent] no join field has been configured',
    );
    const notParent = await search('qa', { query: { has_parent: { parent_type: 'comment', query: { match_all: {} } } } }); // prettier-ignore
    expect(notParent.json.error.root_cause[0].reason).toBe(
      "[has_parent] join field [j] doesn't hold [comment] as a parent",
    );
  });
});

describe('has_parent and parent_id', () => {
  it('gives children their parent score when score is true', async () => {
    const q = (score: boolean) => ({
      query: {
        has_parent: {
          parent_type: 'question',
          score,
          query: {
            function_score: {
              query: { match_all: {} },
              functions: [{ field_value_factor: { field: 'rank' } }],
              boost_mode: 'replace',
            },
          },
        },
      },
      sort: [{ _score: 'desc' }, '_id'],
      track_scores: true,
    });
    expect(await ranked(q(true))).toEqual([
      ['a3', 7],
      ['a1', 5],
      ['a2', 5],
    ]);
    expect(await ranked(q(false))).toEqual([
      ['a1', 1],
      ['a2', 1],
      ['a3', 1],
    ]);
  });

  it('parent_id finds the children of one parent', async () => {
    const r = await ranked({ query: { parent_id: { type: 'answer', id: 'q1' } }, sort: ['_id'] });
    expect(r.map((h) => h[0])).toEqual(['a1', 'a2']);
  });

  it('refuses a child without routing', async () => {
    const r = await node.req('PUT', '/qa/_doc/a9', { j: { name: 'answer', parent: 'q1' } });
    expect(r.status).toBe(400);
    expect(r.json.error.type).toBe('mapper_parsing_exception');
    expect(r.json.error.caused_by.reason).toBe('[routing] is missing for join field [j]');
  });
});

describe('the join field', () => {
  it('is searched, aggregated and fetched as a keyword, its join keys too', async () => {
    const r = await search('qa', {
      query: { term: { j: 'answer' } },
      aggs: {
        kinds: { terms: { field: 'j' } },
        parents: { terms: { field: 'j#question' } },
      },
      docvalue_fields: [{ field: 'j#question', format: 'use_field_mapping' }],
      sort: ['_id'],
    });
    expect(r.status, JSON.stringify(r.json)).toBe(200);
    expect(r.json.hits.hits.map((h: any) => [h._id, h.fields['j#question']])).toEqual([
      ['a1', ['q1']],
      ['a2', ['q1']],
      ['a3', ['q2']],
    ]);
    expect(r.json.aggregations.kinds.buckets).toEqual([{ key: 'answer', doc_count: 3 }]);
    expect(r.json.aggregations.parents.buckets).toEqual([
      { key: 'q1', doc_count: 2 },
      { key: 'q2', doc_count: 1 },
    ]);
    const all = await search('qa', { size: 0, aggs: { kinds: { terms: { field: 'j' } } } });
    expect(all.json.aggregations.kinds.buckets).toEqual([
      { key: 'answer', doc_count: 3 },
      { key: 'question', doc_count: 3 },
      { key: 'comment', doc_count: 1 },
    ]);
  });
});

describe('inner_hits', () => {
  it('shows the best children of each parent with size, sort and _source', async () => {
    const r = await search('qa', {
      query: {
        has_child: {
          type: 'answer',
          query: { match_all: {} },
          inner_hits: { size: 1, sort: [{ votes: 'desc' }], _source: ['votes'] },
        },
      },
      sort: ['_id'],
    });
    const q1 = r.json.hits.hits[0];
    expect(q1._id).toBe('q1');
    expect(q1.inner_hits.answer.hits.total).toBe(2);
    expect(q1.inner_hits.answer.hits.hits.map((h: any) => [h._id, h._routing, h._source])).toEqual([
      ['a2', 'q1', { votes: 3 }],
    ]);
  });

  it('shows each child its parent under a chosen name', async () => {
    const r = await search('qa', {
      query: {
        has_parent: {
          parent_type: 'question',
          query: { match_all: {} },
          inner_hits: { name: 'q' },
        },
      },
      sort: ['_id'],
    });
    expect(
      r.json.hits.hits.map((h: any) => [h._id, h.inner_hits.q.hits.hits.map((p: any) => p._id)]),
    ).toEqual([
      ['a1', ['q1']],
      ['a2', ['q1']],
      ['a3', ['q2']],
    ]);
  });

  it('refuses unknown inner_hits options and a name used twice', async () => {
    const bad = await search('qa', {
      query: { has_child: { type: 'answer', query: { match_all: {} }, inner_hits: { nope: 1 } } },
    });
    expect(bad.status).toBe(400);
    expect(bad.json.error.reason).toBe('[inner_hits] unknown field [nope], parser not found');
    const twice = await search('qa', {
      query: {
        bool: {
          should: [
            { has_child: { type: 'answer', query: { match_all: {} }, inner_hits: { name: 'x' } } },
            {
              has_parent: {
                parent_type: 'question',
                query: { match_all: {} },
                inner_hits: { name: 'x' },
              },
            },
          ],
        },
      },
    });
    expect(twice.status).toBe(400);
    expect(twice.json.error.reason).toBe('[inner_hits] already contains an entry for key [x]');
  });

  it('names the offsets of matching nested objects', async () => {
    const r = await search('nest', {
      query: { nested: { path: 'items', query: { term: { 'items.k': 'b' } }, inner_hits: {} } },
    });
    const inner = r.json.hits.hits[0].inner_hits.items.hits;
    expect(inner.total).toBe(2);
    expect(inner.hits.map((h: any) => [h._id, h._nested, h._source])).toEqual([
      ['1', { field: 'items', offset: 1 }, { k: 'b' }],
      ['1', { field: 'items', offset: 2 }, { k: 'b' }],
    ]);
  });
});
