/**
 * inner_hits inside inner_hits over HTTP, as ES 6.8 answers them: a nested query's inner hits
 * carry the inner hits of the nested queries within it (the second level's `_nested` identity
 * nests under the first's, with the path relative to it), a top-level nested query on a deeper
 * path shows the whole identity chain, and has_child inner hits carry their own has_child inner
 * hits. Inner hits under a query without inner_hits are not returned (ES drops them).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestNode, type TestNode } from '../helpers/node.js';

let node: TestNode;
const req = (method: string, path: string, body?: unknown) =>
  node.req(
    method,
    path,
    body,
    typeof body === 'string' ? { 'content-type': 'application/x-ndjson' } : {},
  );
const bulk = (lines: unknown[]) =>
  req('POST', '/_bulk?refresh=true', lines.map((l) => JSON.stringify(l)).join('\n') + '\n');

beforeAll(async () => {
  node = await startTestNode();
  await req('PUT', '/blog', {
    mappings: {
      doc: {
        properties: {
          title: { type: 'text' },
          comments: {
            type: 'nested',
            properties: {
              author: { type: 'keyword' },
              votes: {
                type: 'nested',
                properties: { voter: { type: 'keyword' }, value: { type: 'integer' } },
              },
            },
          },
        },
      },
    },
  });
  await bulk([
    { index: { _index: 'blog', _type: 'doc', _id: '1' } },
    {
      title: 'first',
      comments: [
        { author: 'ann', votes: [{ voter: 'bob', value: 2 }] },
        {
          author: 'bob',
          votes: [
            { voter: 'carl', value: 3 },
            { voter: 'kimchy', value: 1 },
          ],
        },
      ],
    },
    { index: { _index: 'blog', _type: 'doc', _id: '2' } },
    { title: 'second', comments: [{ author: 'ann', votes: [] }] },
  ]);
  await req('PUT', '/qa', {
    mappings: {
      doc: {
        properties: {
          join: { type: 'join', relations: { question: 'answer', answer: 'comment' } },
          text: { type: 'text' },
          votes: { type: 'nested', properties: { who: { type: 'keyword' } } },
        },
      },
    },
  });
  const doc = (id: string, body: unknown, routing?: string) => [
    { index: { _index: 'qa', _type: 'doc', _id: id, ...(routing ? { routing } : {}) } },
    body,
  ];
  await bulk([
    ...doc('q1', { text: 'question one', join: 'question' }),
    ...doc(
      'a1',
      {
        text: 'good answer',
        join: { name: 'answer', parent: 'q1' },
        votes: [{ who: 'x' }, { who: 'y' }],
      },
      'q1',
    ),
    ...doc('a2', { text: 'bad answer', join: { name: 'answer', parent: 'q1' } }, 'q1'),
    ...doc('c1', { text: 'nice', join: { name: 'comment', parent: 'a1' } }, 'q1'),
    ...doc('c2', { text: 'meh', join: { name: 'comment', parent: 'a1' } }, 'q1'),
  ]);
});
afterAll(async () => {
  await node.destroy();
});

const votesQuery = (voter: string) => ({ term: { 'comments.votes.voter': voter } });

describe('nested inner hits', () => {
  it('renders the inner hits of a nested query inside a nested query’s inner hits', async () => {
    const r = await req('POST', '/blog/_search', {
      query: {
        nested: {
          path: 'comments',
          query: {
            nested: { path: 'comments.votes', query: votesQuery('kimchy'), inner_hits: {} },
          },
          inner_hits: { _source: ['comments.author'] },
        },
      },
    });
    expect(r.status).toBe(200);
    expect(r.json.hits.total).toBe(1);
    const comments = r.json.hits.hits[0].inner_hits.comments.hits;
    expect(comments.total).toBe(1);
    const c = comments.hits[0];
    expect(Object.keys(c)).toEqual([
      '_index',
      '_type',
      '_id',
      '_nested',
      '_score',
      '_source',
      'inner_hits',
    ]);
    expect(c._nested).toEqual({ field: 'comments', offset: 1 });
    expect(c._source).toEqual({ author: 'bob' });
    const votes = c.inner_hits['comments.votes'].hits;
    expect(votes.total).toBe(1);
    expect(votes.hits).toHaveLength(1);
    const v = votes.hits[0];
    expect(v._id).toBe('1');
    expect(v._nested).toEqual({
      field: 'comments',
      offset: 1,
      _nested: { field: 'votes', offset: 1 },
    });
    expect(v._source).toEqual({ voter: 'kimchy', value: 1 });
    expect(v.inner_hits).toBeUndefined();
  });

  it('shows the whole identity chain for a nested query on a deeper path', async () => {
    const r = await req('POST', '/blog/_search', {
      query: {
        nested: { path: 'comments.votes', query: votesQuery('bob'), inner_hits: { name: 'v' } },
      },
    });
    expect(r.status).toBe(200);
    expect(r.json.hits.total).toBe(1);
    const v = r.json.hits.hits[0].inner_hits.v.hits;
    expect(v.total).toBe(1);
    expect(v.hits[0]._nested).toEqual({
      field: 'comments',
      offset: 0,
      _nested: { field: 'votes', offset: 0 },
    });
    expect(v.hits[0]._source).toEqual({ voter: 'bob', value: 2 });
  });

  it('aggregates a deeper nested path from the root', async () => {
    const r = await req('POST', '/blog/_search', {
      size: 0,
      aggs: {
        votes: {
          nested: { path: 'comments.votes' },
          aggs: {
            voters: { terms: { field: 'comments.votes.voter' } },
            posts: { reverse_nested: {} },
          },
        },
      },
    });
    expect(r.status).toBe(200);
    const v = r.json.aggregations.votes;
    expect(v.doc_count).toBe(3);
    expect(v.voters.buckets.map((b: { key: string }) => b.key)).toEqual(['bob', 'carl', 'kimchy']);
    expect(v.posts.doc_count).toBe(1);
  });

  it('sorts by a deeper nested path from the root', async () => {
    const sorted = async (order: string, mode: string) => {
      const r = await req('POST', '/blog/_search', {
        sort: [{ 'comments.votes.value': { order, mode, nested: { path: 'comments.votes' } } }],
      });
      expect(r.status).toBe(200);
      return r.json.hits.hits.map((h: { _id: string; sort: number[] }) => [h._id, h.sort[0]]);
    };
    expect((await sorted('asc', 'min'))[0]).toEqual(['1', 1]);
    expect((await sorted('desc', 'max'))[0]).toEqual(['1', 3]);
  });

  it('drops inner hits under a nested query that has none', async () => {
    const r = await req('POST', '/blog/_search', {
      query: {
        nested: {
          path: 'comments',
          query: {
            nested: { path: 'comments.votes', query: votesQuery('kimchy'), inner_hits: {} },
          },
        },
      },
    });
    expect(r.status).toBe(200);
    expect(r.json.hits.total).toBe(1);
    expect(r.json.hits.hits[0].inner_hits).toBeUndefined();
  });
});

describe('parent-join inner hits', () => {
  it('renders has_child inner hits inside has_child inner hits', async () => {
    const r = await req('POST', '/qa/_search', {
      query: {
        has_child: {
          type: 'answer',
          query: {
            has_child: {
              type: 'comment',
              query: { match: { text: 'nice' } },
              inner_hits: { _source: false },
            },
          },
          inner_hits: { name: 'answers', _source: ['text'] },
        },
      },
    });
    expect(r.status).toBe(200);
    expect(r.json.hits.hits.map((h: { _id: string }) => h._id)).toEqual(['q1']);
    const answers = r.json.hits.hits[0].inner_hits.answers.hits;
    expect(answers.total).toBe(1);
    expect(answers.hits[0]._id).toBe('a1');
    expect(answers.hits[0]._source).toEqual({ text: 'good answer' });
    const comments = answers.hits[0].inner_hits.comment.hits;
    expect(comments.total).toBe(1);
    expect(comments.hits.map((h: { _id: string }) => h._id)).toEqual(['c1']);
    expect(comments.hits[0]._source).toBeUndefined();
  });

  it('renders nested inner hits inside has_child inner hits', async () => {
    const r = await req('POST', '/qa/_search', {
      query: {
        has_child: {
          type: 'answer',
          query: {
            nested: {
              path: 'votes',
              query: { term: { 'votes.who': 'y' } },
              inner_hits: { name: 'v' },
            },
          },
          inner_hits: { _source: false },
        },
      },
    });
    expect(r.status).toBe(200);
    const a = r.json.hits.hits[0].inner_hits.answer.hits.hits[0];
    expect(a._id).toBe('a1');
    const v = a.inner_hits.v.hits;
    expect(v.total).toBe(1);
    expect(v.hits[0]._nested).toEqual({ field: 'votes', offset: 1 });
    expect(v.hits[0]._source).toEqual({ who: 'y' });
  });

  it('renders has_parent inner hits inside has_child inner hits', async () => {
    const r = await req('POST', '/qa/_search', {
      query: {
        has_child: {
          type: 'comment',
          query: {
            has_parent: {
              parent_type: 'answer',
              query: { match: { text: 'good' } },
              inner_hits: { name: 'of' },
            },
          },
          inner_hits: {},
        },
      },
    });
    expect(r.status).toBe(200);
    expect(r.json.hits.hits.map((h: { _id: string }) => h._id)).toEqual(['a1']);
    const comments = r.json.hits.hits[0].inner_hits.comment.hits.hits;
    expect(comments.map((h: { _id: string }) => h._id)).toEqual(['c1', 'c2']);
    for (const c of comments) expect(c.inner_hits.of.hits.hits[0]._id).toBe('a1');
  });

  it('refuses two inner hits of one name at the same level', async () => {
    const r = await req('POST', '/qa/_search', {
      query: {
        has_child: {
          type: 'answer',
          query: {
            bool: {
              should: [
                {
                  has_child: {
                    type: 'comment',
                    query: { match_all: {} },
                    inner_hits: { name: 'x' },
                  },
                },
                {
                  has_child: {
                    type: 'comment',
                    query: { match_all: {} },
                    inner_hits: { name: 'x' },
                  },
                },
              ],
            },
          },
          inner_hits: {},
        },
      },
    });
    expect(r.status).toBe(400);
    expect(r.json.error.type).toBe('illegal_argument_exception');
    expect(r.json.error.reason).toBe('[inner_hits] already contains an entry for key [x]');
  });
});
