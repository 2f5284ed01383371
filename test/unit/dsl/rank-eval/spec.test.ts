import { describe, expect, it } from 'vitest';
import { EsError } from '../../../../src/common/errors.js';
import { locateInJson, resolveErrorLocations } from '../../../../src/dsl/query/index.js';
import { parseSearchBody } from '../../../../src/dsl/search/request.js';
import { evaluatedQueryProblem, parseRankEvalSpec } from '../../../../src/dsl/rank-eval/spec.js';

const parseBody = (b: unknown) => ({ sreq: parseSearchBody(b) });
const parse = (body: unknown) => parseRankEvalSpec(body, parseBody);

/** The error a body fails with, its locations resolved against its JSON text. */
function failure(body: unknown): Record<string, unknown> {
  const text = JSON.stringify(body);
  try {
    parse(JSON.parse(text));
  } catch (e) {
    if (!(e instanceof EsError)) throw e;
    const err = resolveErrorLocations(e, (loc) => locateInJson(text, loc));
    return { ...err.toErrorObject(), status: err.status };
  }
  throw new Error('expected a failure');
}

const request = (over: Record<string, unknown> = {}) => ({
  id: 'q1',
  request: { query: { match_all: {} } },
  ratings: [{ _index: 'foo', _id: '1', rating: 1 }],
  ...over,
});

describe('parseRankEvalSpec', () => {
  it('reads requests, metric defaults, templates and max_concurrent_searches', () => {
    const spec = parse({
      requests: [
        request({ summary_fields: ['title'] }),
        { id: 'q2', template_id: 't', params: { q: 'x' }, ratings: [] },
      ],
      templates: [{ id: 't', template: { source: { query: { match: { f: '{{q}}' } } } } }],
      metric: { precision: { ignore_unlabeled: 'true' } },
      max_concurrent_searches: '3',
    });
    expect(spec.metric).toEqual({
      kind: 'precision',
      relevantRatingThreshold: 1,
      ignoreUnlabeled: true,
      k: 10,
    });
    expect(spec.maxConcurrentSearches).toBe(3);
    expect(spec.requests.map((r) => r.id)).toEqual(['q1', 'q2']);
    expect(spec.requests[0]?.summaryFields).toEqual(['title']);
    expect(spec.requests[0]?.ratings).toEqual([{ index: 'foo', id: '1', rating: 1 }]);
    expect(spec.requests[1]?.request).toBeNull();
    expect(spec.templates.get('t')).toEqual({
      kind: 'inline',
      source: '{"query":{"match":{"f":"{{q}}"}}}',
      lang: 'mustache',
    });
  });

  it('reads every metric with its parameters', () => {
    const metric = (m: unknown) => parse({ requests: [request()], metric: m }).metric;
    expect(metric({ mean_reciprocal_rank: { k: 5, relevant_rating_threshold: 2 } })).toEqual({
      kind: 'mean_reciprocal_rank',
      relevantRatingThreshold: 2,
      k: 5,
    });
    expect(metric({ dcg: { normalize: true, unknown_doc_rating: 1 } })).toEqual({
      kind: 'dcg',
      normalize: true,
      unknownDocRating: 1,
      k: 10,
    });
    expect(metric({ expected_reciprocal_rank: { maximum_relevance: 3, k: 4 } })).toEqual({
      kind: 'expected_reciprocal_rank',
      maximumRelevance: 3,
      unknownDocRating: null,
      k: 4,
    });
  });

  it('refuses an unknown metric with its root cause located', () => {
    const e = failure({ requests: [request()], metric: { recall: {} } });
    expect(e.type).toBe('x_content_parse_exception');
    expect(e.reason).toMatch(/^\[1:\d+\] \[rank_eval\] failed to parse field \[metric\]$/);
    expect(e.status).toBe(400);
    expect(e.root_cause).toEqual([
      {
        type: 'named_object_not_found_exception',
        reason: expect.stringMatching(
          /^\[1:\d+\] unable to parse EvaluationMetric with name \[recall\]: parser not found$/,
        ),
      },
    ]);
  });

  it('refuses an empty metric and two metrics', () => {
    expect(failure({ requests: [request()], metric: {} }).root_cause).toEqual([
      expect.objectContaining({
        type: 'parsing_exception',
        reason:
          'Failed to parse object: expecting token of type [FIELD_NAME] but found [END_OBJECT]',
      }),
    ]);
    const two = failure({ requests: [request()], metric: { dcg: {}, precision: {} } });
    expect((two.caused_by as Record<string, unknown>).reason).toBe(
      'Failed to parse object: expecting token of type [END_OBJECT] but found [FIELD_NAME]',
    );
  });

  it('wraps metric constructor checks', () => {
    const e = failure({ requests: [request()], metric: { precision: { k: 0 } } });
    expect(e.caused_by).toEqual({
      type: 'x_content_parse_exception',
      reason: 'Failed to build [precision] after last required field arrived',
      caused_by: { type: 'illegal_argument_exception', reason: 'Window size k must be positive.' },
    });
    expect((e.root_cause as unknown[])[0]).toMatchObject({
      reason: 'Failed to build [precision] after last required field arrived',
    });
    const err = failure({ requests: [request()], metric: { expected_reciprocal_rank: {} } });
    expect(err.caused_by).toEqual({
      type: 'illegal_argument_exception',
      reason: 'Required [maximum_relevance]',
    });
  });

  it('requires requests and metric', () => {
    expect(failure({})).toMatchObject({
      type: 'illegal_argument_exception',
      reason: 'Required [requests, metric]',
      status: 400,
    });
    expect(failure({ requests: [], metric: { dcg: {} } })).toMatchObject({
      type: 'x_content_parse_exception',
      reason: 'Failed to build [rank_eval] after last required field arrived',
      caused_by: {
        type: 'illegal_argument_exception',
        reason:
          'Cannot evaluate ranking if no search requests with rated results are provided. Seen: []',
      },
    });
  });

  it('refuses unknown fields and wrong value types', () => {
    expect(failure({ requests: [request()], metric: { dcg: {} }, foo: 1 }).reason).toMatch(
      /^\[1:\d+\] \[rank_eval\] unknown field \[foo\], parser not found$/,
    );
    const e = failure({ requests: [request({ id: 5 })], metric: { dcg: {} } });
    expect(e.root_cause).toEqual([
      {
        type: 'x_content_parse_exception',
        reason: expect.stringMatching(
          /\[request\] id doesn't support values of type: VALUE_NUMBER$/,
        ),
      },
    ]);
  });

  it('checks each rated request as ES does', () => {
    const cause = (r: unknown) =>
      (
        (failure({ requests: [r], metric: { dcg: {} } }).caused_by as Record<string, unknown>)
          .caused_by as Record<string, unknown>
      ).reason;
    expect(cause(request({ template_id: 't' }))).toBe(
      'Ambiguous rated request: Set both, verbatim test request and test request template parameters.',
    );
    expect(cause({ id: 'x', ratings: [] })).toBe(
      'Need to set at least test request or test request template parameters.',
    );
    expect(cause({ id: 'x', ratings: [], params: { a: 1 } })).toBe(
      'If template parameters are supplied need to set id of template to apply them to too.',
    );
    expect(cause(request({ request: { aggs: { a: { avg: { field: 'f' } } } } }))).toBe(
      'Query in rated requests should not contain aggregations.',
    );
    expect(
      cause(
        request({
          ratings: [
            { _index: 'foo', _id: '1', rating: 1 },
            { _index: 'foo', _id: '1', rating: 2 },
          ],
        }),
      ),
    ).toBe(
      'Found duplicate rated document key [{"_index":"foo","_id":"1"}] in evaluation request [q1]',
    );
    const missing = failure({ requests: [{ request: {} }], metric: { dcg: {} } });
    expect(missing.caused_by).toEqual({
      type: 'illegal_argument_exception',
      reason: 'Required [id, ratings]',
    });
  });

  it('needs a request or a template', () => {
    const e = failure({ requests: [{ id: 'x', ratings: [], template_id: 't', params: { a: 1 } }], metric: { dcg: {} } }); // prettier-ignore
    expect(e.caused_by).toEqual({
      type: 'illegal_state_exception',
      reason:
        'Cannot evaluate ranking if neither template nor evaluation request is provided. Seen for request id: x',
    });
  });

  it('checks rated documents', () => {
    const e = failure({
      requests: [request({ ratings: [{ _index: '', _id: '1', rating: 1 }] })],
      metric: { dcg: {} },
    });
    expect(JSON.stringify(e)).toContain('Index must be set for each rated document');
    const r = failure({ requests: [request({ ratings: [{ _index: 'a', _id: '1' }] })], metric: { dcg: {} } }); // prettier-ignore
    expect(JSON.stringify(r)).toContain('Required [rating]');
  });
});

describe('evaluatedQueryProblem', () => {
  it('names the parts a rated search may not have', () => {
    expect(evaluatedQueryProblem(parseSearchBody({ query: { match_all: {} } }))).toBeNull();
    expect(evaluatedQueryProblem(parseSearchBody({ explain: true }))).toBe(
      'Query in rated requests should not use explain.',
    );
    expect(evaluatedQueryProblem(parseSearchBody({ profile: 'true' }))).toBe(
      'Query in rated requests should not use profile.',
    );
  });
});
