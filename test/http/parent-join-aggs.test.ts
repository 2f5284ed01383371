/**
 * The `children` and `parent` aggregations of module parent-join over HTTP, as ES 6.8 answers
 * them: the join runs over the whole shard (not only the query's docs), each joined doc counts
 * once per bucket, an unknown relation or an index without a join field gives an empty bucket,
 * and a request without `type` is refused with ES's parsing_exception.
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
const search = async (index: string, body: unknown, query = '') => {
  const r = await req('POST', `/${index}/_search${query}`, body);
  return r;
};
type Bucket = { key: string; doc_count: number; [k: string]: any };
const keyCounts = (buckets: Bucket[]) => buckets.map((b) => [b.key, b.doc_count]);

beforeAll(async () => {
  node = await startTestNode();
  await req('PUT', '/qa', {
    settings: { number_of_shards: 2 },
    mappings: {
      doc: {
        properties: {
          join: { type: 'join', relations: { question: 'answer', answer: 'comment' } },
          tag: { type: 'keyword' },
          owner: { type: 'keyword' },
          qid: { type: 'keyword' },
        },
      },
    },
  });
  const doc = (id: string, body: unknown, routing?: string) => [
    { index: { _index: 'qa', _type: 'doc', _id: id, ...(routing ? { routing } : {}) } },
    body,
  ];
  await bulk([
    ...doc('q1', { qid: 'q1', tag: 'a', join: 'question' }),
    ...doc('q2', { qid: 'q2', tag: 'b', join: 'question' }),
    ...doc('q3', { qid: 'q3', tag: 'a', join: { name: 'question' } }),
    ...doc('a1', { owner: 'x', join: { name: 'answer', parent: 'q1' } }, 'q1'),
    ...doc('a2', { owner: 'y', join: { name: 'answer', parent: 'q1' } }, 'q1'),
    ...doc('a3', { owner: 'x', join: { name: 'answer', parent: 'q2' } }, 'q2'),
    ...doc('c1', { owner: 'z', join: { name: 'comment', parent: 'a1' } }, 'q1'),
  ]);
  await req('PUT', '/plain', { mappings: { doc: { properties: { tag: { type: 'keyword' } } } } });
  await bulk([{ index: { _index: 'plain', _type: 'doc', _id: '1' } }, { tag: 'a' }]);
});
afterAll(async () => {
  await node.destroy();
});

describe('children aggregation', () => {
  it('buckets the children of each bucket’s parents, across shards', async () => {
    const r = await search('qa', {
      size: 0,
      aggs: {
        tags: {
          terms: { field: 'tag' },
          aggs: {
            to_answers: {
              children: { type: 'answer' },
              aggs: { owners: { terms: { field: 'owner' } } },
            },
          },
        },
      },
    });
    expect(r.status).toBe(200);
    const tags: Bucket[] = r.json.aggregations.tags.buckets;
    expect(keyCounts(tags)).toEqual([
      ['a', 2],
      ['b', 1],
    ]);
    expect(tags[0]!.to_answers.doc_count).toBe(2);
    expect(keyCounts(tags[0]!.to_answers.owners.buckets)).toEqual([
      ['x', 1],
      ['y', 1],
    ]);
    expect(tags[1]!.to_answers).toEqual({
      doc_count: 1,
      owners: {
        doc_count_error_upper_bound: 0,
        sum_other_doc_count: 0,
        buckets: [{ key: 'x', doc_count: 1 }],
      },
    });
  });

  it('joins children the query does not match, and chains to grandchildren', async () => {
    const r = await search(
      'qa',
      {
        size: 0,
        query: { term: { tag: 'a' } },
        aggs: {
          to_answers: {
            children: { type: 'answer' },
            aggs: { to_comments: { children: { type: 'comment' } } },
          },
        },
      },
      '?typed_keys',
    );
    expect(r.status).toBe(200);
    expect(r.json.aggregations).toEqual({
      'children#to_answers': { doc_count: 2, 'children#to_comments': { doc_count: 1 } },
    });
  });

  it('orders terms buckets by a children count', async () => {
    const r = await search('qa', {
      size: 0,
      aggs: {
        q: {
          terms: { field: 'qid', order: { kids: 'asc' } },
          aggs: { kids: { children: { type: 'answer' } } },
        },
      },
    });
    expect(r.status).toBe(200);
    const b: Bucket[] = r.json.aggregations.q.buckets;
    expect(b.map((x) => [x.key, x.kids.doc_count])).toEqual([
      ['q3', 0],
      ['q2', 1],
      ['q1', 2],
    ]);
  });

  it('is an empty bucket for an unknown relation or an index without a join field', async () => {
    const aggs = {
      kids: { children: { type: 'nope' }, aggs: { m: { value_count: { field: 'owner' } } } },
    };
    const r = await search('qa', { size: 0, aggs });
    expect(r.status).toBe(200);
    expect(r.json.aggregations.kids).toEqual({ doc_count: 0, m: { value: 0 } });
    const plain = await search('plain', {
      size: 0,
      aggs: { kids: { children: { type: 'answer' } } },
    });
    expect(plain.status).toBe(200);
    expect(plain.json.aggregations).toEqual({ kids: { doc_count: 0 } });
  });

  it('refuses a request without type, or with other keys, as ES does', async () => {
    const missing = await search('qa', { aggs: { kids: { children: {} } } });
    expect(missing.status).toBe(400);
    expect(missing.json.error.type).toBe('parsing_exception');
    expect(missing.json.error.reason).toBe(
      'Missing [child_type] field for children aggregation [kids]',
    );
    const extra = await search('qa', { aggs: { kids: { children: { type: 'answer', x: 'y' } } } });
    expect(extra.status).toBe(400);
    expect(extra.json.error.root_cause[0].type).toBe('parsing_exception');
    expect(extra.json.error.reason).toBe('Unknown key for a VALUE_STRING in [kids]: [x].');
    const bad = await search('qa', { aggs: { kids: { parent: { type: 1 } } } });
    expect(bad.status).toBe(400);
    expect(bad.json.error.reason).toBe('Unexpected token VALUE_NUMBER in [kids].');
    const noParentType = await search('qa', { aggs: { up: { parent: {} } } });
    expect(noParentType.json.error.reason).toBe(
      'Missing [child_type] field for parent aggregation [up]',
    );
  });
});

describe('parent aggregation', () => {
  it('buckets each parent of the bucket’s children once', async () => {
    const r = await search(
      'qa',
      {
        size: 0,
        query: { term: { join: 'answer' } },
        aggs: {
          all: { parent: { type: 'answer' } },
          owners: {
            terms: { field: 'owner' },
            aggs: {
              qs: { parent: { type: 'answer' }, aggs: { tags: { terms: { field: 'tag' } } } },
            },
          },
        },
      },
      '?typed_keys',
    );
    expect(r.status).toBe(200);
    const a = r.json.aggregations;
    expect(a['parent#all']).toEqual({ doc_count: 2 });
    const owners: Bucket[] = a['sterms#owners'].buckets;
    expect(owners.map((b) => [b.key, b['parent#qs'].doc_count])).toEqual([
      ['x', 2],
      ['y', 1],
    ]);
    expect(keyCounts(owners[0]!['parent#qs']['sterms#tags'].buckets)).toEqual([
      ['a', 1],
      ['b', 1],
    ]);
  });

  it('leaves deleted parents out', async () => {
    await req('DELETE', '/qa/doc/q2?refresh=true');
    try {
      const r = await search('qa', {
        size: 0,
        query: { term: { join: 'answer' } },
        aggs: { up: { parent: { type: 'answer' } } },
      });
      expect(r.json.aggregations.up.doc_count).toBe(1);
    } finally {
      await bulk([
        { index: { _index: 'qa', _type: 'doc', _id: 'q2' } },
        { tag: 'b', join: 'question' },
      ]);
    }
  });
});
