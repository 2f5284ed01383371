/**
 * Span queries over HTTP as ES 6.8 answers them: search with scores and explanations, span_multi
 * on an index_prefixes field, `_validate/query?explain`, `_explain`, bool clauses and
 * highlighting, the deprecation warning for inner boosts, and parse, construction and search-time
 * failures.
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
const search = (query: unknown, extra: Record<string, unknown> = {}) =>
  req('POST', '/spans/_search', { query, ...extra });
const st = (term: string, field = 'text') => ({ span_term: { [field]: term } });
const near = (clauses: unknown[], extra: Record<string, unknown> = {}) => ({
  span_near: { clauses, ...extra },
});

beforeAll(async () => {
  node = await startTestNode();
  await req('PUT', '/spans', {
    settings: { number_of_shards: 1 },
    mappings: {
      _doc: {
        properties: {
          text: { type: 'text', index_prefixes: { min_chars: 1, max_chars: 10 } },
          tag: { type: 'keyword' },
        },
      },
    },
  });
  const docs = [
    { text: 'some short words and a stupendously long one', tag: 'a' },
    { text: 'the quick brown fox', tag: 'b' },
    { text: 'quick fox quick fox', tag: 'b' },
    { text: 'fox quick', tag: 'c' },
  ];
  const lines = docs.flatMap((d, i) => [
    { index: { _index: 'spans', _type: '_doc', _id: String(i + 1) } },
    d,
  ]);
  await req('POST', '/_bulk?refresh=true', lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
});
afterAll(async () => {
  await node.destroy();
});

describe('search', () => {
  it('span_near with a span_multi prefix on an index_prefixes field', async () => {
    const r = await search(
      near([st('short'), { span_multi: { match: { prefix: { text: 'word' } } } }]),
    );
    expect(r.status).toBe(200);
    expect(r.json.hits.total).toBe(1);
    expect(r.json.hits.hits[0]._id).toBe('1');
  });

  it('ranks by sloppy frequency', async () => {
    const r = await search(near([st('quick'), st('fox')], { slop: 1 }));
    expect(r.json.hits.hits.map((h: { _id: string }) => h._id)).toEqual(['3', '2']);
    const [a, b] = r.json.hits.hits.map((h: { _score: number }) => h._score);
    expect(a).toBeGreaterThan(b);
    const u = await search(near([st('quick'), st('fox')], { in_order: false }));
    expect(u.json.hits.hits.map((h: { _id: string }) => h._id).sort()).toEqual(['3', '4']);
  });

  it('works inside bool, named or not', async () => {
    const r = await search({
      bool: {
        must: [{ span_or: { clauses: [st('brown'), st('stupendously')], _name: 'or' } }],
        filter: [{ span_first: { match: st('the'), end: 1, _name: 'first' } }],
      },
    });
    expect(r.json.hits.total).toBe(1);
    expect(r.json.hits.hits[0]._id).toBe('2');
  });

  it('highlights span terms', async () => {
    const r = await search(near([st('brown'), st('fox')]), { highlight: { fields: { text: {} } } });
    expect(r.json.hits.hits[0].highlight.text).toEqual(['the quick <em>brown</em> <em>fox</em>']);
  });
});

describe('validate and explain', () => {
  it('_validate/query?explain prints the Lucene query', async () => {
    const r = await req('POST', '/spans/_validate/query?explain=true', {
      query: {
        span_not: {
          include: near([st('quick'), { span_multi: { match: { prefix: { text: 'fo' } } } }], {
            slop: 2,
            in_order: false,
          }),
          exclude: st('brown'),
          dist: 1,
          boost: 2,
        },
      },
    });
    expect(r.json.valid).toBe(true);
    expect(r.json.explanations[0].explanation).toBe(
      '(spanNot(spanNear([text:quick, mask(text._index_prefix:fo) as text], 2, false), text:brown, 1, 1))^2.0',
    );
  });

  it('_explain gives the span weight and its sloppy frequency', async () => {
    const r = await req('POST', '/spans/_doc/2/_explain', {
      query: near([st('quick'), st('fox')], { slop: 1 }),
    });
    expect(r.json.matched).toBe(true);
    const e = r.json.explanation;
    expect(e.description).toBe(
      'weight(spanNear([text:quick, text:fox], 1, true) in 1) [PerFieldSimilarity], result of:',
    );
    expect(e.details[0].description).toBe('score(doc=1,freq=0.5 = phraseFreq=0.5\n), product of:');
    expect(e.details[0].details[0].description).toBe('idf(), sum of:');
    const s = await search(near([st('quick'), st('fox')], { slop: 1 }));
    const hit = s.json.hits.hits.find((h: { _id: string }) => h._id === '2');
    // Lucene computes explanations apart from scores: equal up to float rounding
    expect(e.value).toBeCloseTo(hit._score, 6);
  });
});

describe('warnings and failures', () => {
  it('warns of boosts on inner span clauses', async () => {
    const r = await search(
      near([{ span_term: { text: { value: 'quick', boost: 2 } } }, st('fox')]),
    );
    expect(r.status).toBe(200);
    expect(r.headers.get('warning')).toContain(
      'setting boost on inner span queries is deprecated!',
    );
  });

  it('parse errors carry their location', async () => {
    const r = await node.req('POST', '/spans/_search', '{"query": {"span_near": {"slop": 1}}}', {
      'content-type': 'application/json',
    });
    expect(r.status).toBe(400);
    expect(r.json.error.root_cause[0]).toEqual({
      type: 'parsing_exception',
      reason: 'span_near must include [clauses]',
      line: 1,
      col: 35,
    });
  });

  it('construction failures are query_shard_exceptions', async () => {
    const r = await search(near([st('quick'), st('a', 'tag')]));
    expect(r.status).toBe(400);
    const cause = r.json.error.failed_shards[0].reason;
    expect(cause.type).toBe('query_shard_exception');
    expect(cause.reason).toMatch(/^failed to create query: \{\n {2}"span_near" : \{/);
    expect(cause.caused_by).toMatchObject({
      type: 'illegal_argument_exception',
      reason: 'Cannot add clause tag:a to SpanNearQuery for field text',
    });
  });

  it('a field without positions fails the search', async () => {
    const r = await search(st('a', 'tag'));
    expect(r.status).toBe(500);
    expect(r.json.error.root_cause[0]).toMatchObject({
      type: 'illegal_state_exception',
      reason: 'field "tag" was indexed without position data; cannot run SpanTermQuery (term=a)',
    });
  });
});
