import { describe, expect, it } from 'vitest';
import {
  combineScores,
  discountedCumulativeGain,
  evaluateQuery,
  joinRatings,
  type RankMetric,
  type RatedDocument,
} from '../../../../src/dsl/rank-eval/metrics.js';

const hits = (...ids: string[]) => ids.map((id) => ({ index: 'foo', id }));
const rated = (...pairs: [string, number][]): RatedDocument[] =>
  pairs.map(([id, rating]) => ({ index: 'foo', id, rating }));

const precision = (over: Partial<Extract<RankMetric, { kind: 'precision' }>> = {}): RankMetric => ({
  kind: 'precision',
  relevantRatingThreshold: 1,
  ignoreUnlabeled: false,
  k: 10,
  ...over,
});

describe('joinRatings', () => {
  it('rates hits by index and id, null when unrated', () => {
    const ratings = joinRatings(
      [...hits('a', 'b'), { index: 'bar', id: 'a' }],
      rated(['a', 2], ['c', 1]),
    );
    expect(ratings).toEqual([2, null, null]);
  });
});

describe('precision', () => {
  it('counts unrated hits as false positives by default', () => {
    const e = evaluateQuery(precision(), hits('a', 'b', 'c', 'd'), rated(['a', 1], ['b', 0]));
    expect(e.score).toBe(0.25);
    expect(e.details).toEqual({ precision: { relevant_docs_retrieved: 1, docs_retrieved: 4 } });
    expect(e.ratings).toEqual([1, 0, null, null]);
  });
  it('ignores unrated hits with ignore_unlabeled', () => {
    const e = evaluateQuery(
      precision({ ignoreUnlabeled: true }),
      hits('a', 'b', 'c'),
      rated(['a', 1], ['b', 1]),
    );
    expect(e.score).toBe(1);
    expect(e.details.precision).toEqual({ relevant_docs_retrieved: 2, docs_retrieved: 2 });
  });
  it('applies the relevant rating threshold', () => {
    const e = evaluateQuery(
      precision({ relevantRatingThreshold: 2 }),
      hits('a', 'b'),
      rated(['a', 1], ['b', 2]),
    );
    expect(e.score).toBe(0.5);
  });
  it('scores 0 without retrieved documents', () => {
    const e = evaluateQuery(precision({ ignoreUnlabeled: true }), hits('x'), []);
    expect(e.score).toBe(0);
    expect(e.details.precision).toEqual({ relevant_docs_retrieved: 0, docs_retrieved: 0 });
  });
});

describe('mean reciprocal rank', () => {
  const mrr: RankMetric = { kind: 'mean_reciprocal_rank', relevantRatingThreshold: 1, k: 10 };
  it('is one over the rank of the first relevant hit', () => {
    const e = evaluateQuery(mrr, hits('a', 'b', 'c'), rated(['a', 0], ['c', 1]));
    expect(e.score).toBeCloseTo(1 / 3, 15);
    expect(e.details).toEqual({ mean_reciprocal_rank: { first_relevant: 3 } });
  });
  it('is 0 with first_relevant -1 when nothing relevant is found', () => {
    const e = evaluateQuery(mrr, hits('a', 'b'), rated(['a', 0]));
    expect(e.score).toBe(0);
    expect(e.details.mean_reciprocal_rank).toEqual({ first_relevant: -1 });
  });
});

describe('discounted cumulative gain', () => {
  const docs = rated(['1', 3], ['2', 2], ['3', 3], ['4', 0], ['5', 1], ['6', 2]);
  const dcg = (normalize: boolean, unknownDocRating: number | null = null): RankMetric => ({
    kind: 'dcg',
    normalize,
    unknownDocRating,
    k: 10,
  });
  it('sums (2^rating - 1) / log2(rank + 1)', () => {
    const e = evaluateQuery(dcg(false), hits('1', '2', '3', '4', '5', '6'), docs);
    expect(e.score).toBeCloseTo(13.84826362927298, 12);
    expect(e.details.dcg).toEqual({ dcg: e.score, unrated_docs: 0 });
    const reverse = evaluateQuery(dcg(false), hits('6', '5', '4', '3', '2', '1'), docs);
    expect(reverse.score).toBeCloseTo(10.29967439154499, 12);
  });
  it('normalizes by the ideal ordering of all ratings, cut to the hit count', () => {
    const e = evaluateQuery(dcg(true), hits('1', '2', '3', '4', '5', '6'), docs);
    const ideal = discountedCumulativeGain([3, 3, 2, 2, 1, 0]);
    expect(e.score).toBeCloseTo(13.84826362927298 / ideal, 12);
    expect(e.details.dcg).toMatchObject({ ideal_dcg: ideal, normalized_dcg: e.score });
    const two = evaluateQuery(dcg(true), hits('4', '5'), docs);
    expect(two.details.dcg?.ideal_dcg).toBe(discountedCumulativeGain([3, 3]));
  });
  it('skips unrated hits but keeps their rank, or rates them unknown_doc_rating', () => {
    const skipped = evaluateQuery(dcg(false), hits('x', '1'), docs);
    expect(skipped.score).toBeCloseTo(7 / Math.log2(3), 12);
    expect(skipped.details.dcg).toEqual({ dcg: skipped.score, unrated_docs: 1 });
    const filled = evaluateQuery(dcg(false, 1), hits('x', '1'), docs);
    expect(filled.score).toBeCloseTo(1 + 7 / Math.log2(3), 12);
  });
  it('leaves ideal and normalized dcg out when the ideal is 0', () => {
    const e = evaluateQuery(dcg(true), hits('x'), rated(['y', 0]));
    expect(e.score).toBe(0);
    expect(e.details.dcg).toEqual({ dcg: 0, unrated_docs: 1 });
  });
});

describe('expected reciprocal rank', () => {
  const err = (maximumRelevance: number, k = 10, unknownDocRating: number | null = null) =>
    ({
      kind: 'expected_reciprocal_rank',
      maximumRelevance,
      unknownDocRating,
      k,
    }) satisfies RankMetric;
  it('follows the cascade model', () => {
    // ratings 3, 2, 0 with max 3: R = 7/8, 3/8, 0
    const e = evaluateQuery(err(3), hits('a', 'b', 'c'), rated(['a', 3], ['b', 2], ['c', 0]));
    expect(e.score).toBeCloseTo(7 / 8 + ((1 / 8) * (3 / 8)) / 2, 15);
    expect(e.details).toEqual({ expected_reciprocal_rank: { unrated_docs: 0 } });
  });
  it('counts unrated hits, skipping them in the sum', () => {
    const e = evaluateQuery(err(1), hits('a', 'b', 'c'), rated(['c', 1]));
    expect(e.score).toBeCloseTo(1 / 6, 15);
    expect(e.details.expected_reciprocal_rank).toEqual({ unrated_docs: 2 });
  });
  it('looks at the first k hits only', () => {
    const e = evaluateQuery(err(1, 2), hits('a', 'b', 'c'), rated(['c', 1]));
    expect(e.score).toBe(0);
    expect(e.ratings).toEqual([null, null]);
  });
});

describe('combineScores', () => {
  it('averages the query scores', () => {
    expect(combineScores([1 / 3, 1 / 2])).toBeCloseTo(5 / 12, 15);
  });
  it('is NaN without queries', () => {
    expect(combineScores([])).toBeNaN();
  });
});
