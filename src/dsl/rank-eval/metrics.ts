/**
 * The ranking evaluation metrics of ES 6.8's rank-eval module, as pure functions: one query's
 * hits joined with its rated documents give a score, the ratings per hit and the metric's
 * details; the request's score is the mean of the queries' scores.
 */

export type RankMetric =
  | {
      readonly kind: 'precision';
      readonly relevantRatingThreshold: number;
      readonly ignoreUnlabeled: boolean;
      readonly k: number;
    }
  | {
      readonly kind: 'mean_reciprocal_rank';
      readonly relevantRatingThreshold: number;
      readonly k: number;
    }
  | {
      readonly kind: 'dcg';
      readonly normalize: boolean;
      readonly unknownDocRating: number | null;
      readonly k: number;
    }
  | {
      readonly kind: 'expected_reciprocal_rank';
      readonly maximumRelevance: number;
      readonly unknownDocRating: number | null;
      readonly k: number;
    };

/** A document as a hit names it: its concrete index and id. */
export interface DocKey {
  readonly index: string;
  readonly id: string;
}

export interface RatedDocument extends DocKey {
  readonly rating: number;
}

export interface QueryEvaluation {
  readonly score: number;
  /** The rating of each hit the metric looked at, in hit order (null: unrated). */
  readonly ratings: readonly (number | null)[];
  /** `metric_details`: the metric's name and its fields, in ES's order. */
  readonly details: Readonly<Record<string, Readonly<Record<string, number>>>>;
}

export const DEFAULT_K = 10;

const keyOf = (d: DocKey) => JSON.stringify([d.index, d.id]);

/** Each hit's rating, by `_index` and `_id` (EvaluationMetric.joinHitsWithRatings). */
export function joinRatings(
  hits: readonly DocKey[],
  rated: readonly RatedDocument[],
): (number | null)[] {
  const byKey = new Map<string, number>();
  for (const r of rated) byKey.set(keyOf(r), r.rating);
  return hits.map((h) => byKey.get(keyOf(h)) ?? null);
}

/** Evaluates one query's hits against its rated documents. */
export function evaluateQuery(
  metric: RankMetric,
  hits: readonly DocKey[],
  rated: readonly RatedDocument[],
): QueryEvaluation {
  const ratings = joinRatings(hits, rated);
  switch (metric.kind) {
    case 'precision':
      return precision(metric, ratings);
    case 'mean_reciprocal_rank':
      return reciprocalRank(metric, ratings);
    case 'dcg':
      return dcg(metric, ratings, rated);
    case 'expected_reciprocal_rank':
      return expectedReciprocalRank(metric, ratings);
  }
}

function precision(
  m: Extract<RankMetric, { kind: 'precision' }>,
  ratings: (number | null)[],
): QueryEvaluation {
  let relevant = 0;
  let retrieved = 0;
  for (const r of ratings) {
    if (r !== null) {
      retrieved++;
      if (r >= m.relevantRatingThreshold) relevant++;
    } else if (!m.ignoreUnlabeled) {
      // an unrated hit counts as a false positive unless told to ignore it
      retrieved++;
    }
  }
  return {
    score: retrieved > 0 ? relevant / retrieved : 0,
    ratings,
    details: { precision: { relevant_docs_retrieved: relevant, docs_retrieved: retrieved } },
  };
}

function reciprocalRank(
  m: Extract<RankMetric, { kind: 'mean_reciprocal_rank' }>,
  ratings: (number | null)[],
): QueryEvaluation {
  const at = ratings.findIndex((r) => r !== null && r >= m.relevantRatingThreshold);
  const firstRelevant = at < 0 ? -1 : at + 1;
  return {
    score: firstRelevant < 0 ? 0 : 1 / firstRelevant,
    ratings,
    details: { mean_reciprocal_rank: { first_relevant: firstRelevant } },
  };
}

/** Sum of (2^rating - 1) / log2(rank + 1); null ratings only take up their rank. */
export function discountedCumulativeGain(ratings: readonly (number | null)[]): number {
  let sum = 0;
  ratings.forEach((r, i) => {
    if (r !== null) sum += (2 ** r - 1) / (Math.log(i + 2) / Math.LN2);
  });
  return sum;
}

function dcg(
  m: Extract<RankMetric, { kind: 'dcg' }>,
  ratings: (number | null)[],
  rated: readonly RatedDocument[],
): QueryEvaluation {
  const gains = ratings.map((r) => r ?? m.unknownDocRating);
  const unrated = ratings.filter((r) => r === null).length;
  const value = discountedCumulativeGain(gains);
  let score = value;
  let ideal = 0;
  if (m.normalize) {
    // the best ranking of all rated documents, cut to as many as the hits
    const best = rated.map((d) => d.rating).sort((a, b) => b - a);
    ideal = discountedCumulativeGain(best.slice(0, Math.min(gains.length, best.length)));
    score = ideal !== 0 ? value / ideal : 0;
  }
  const detail: Record<string, number> = { dcg: value };
  if (ideal !== 0) {
    detail.ideal_dcg = ideal;
    detail.normalized_dcg = value / ideal;
  }
  detail.unrated_docs = unrated;
  return { score, ratings, details: { dcg: detail } };
}

function expectedReciprocalRank(
  m: Extract<RankMetric, { kind: 'expected_reciprocal_rank' }>,
  joined: (number | null)[],
): QueryEvaluation {
  const ratings = joined.slice(0, m.k);
  const maxGain = 2 ** m.maximumRelevance;
  let notYetSatisfied = 1;
  let err = 0;
  ratings.forEach((r, i) => {
    const rating = r ?? m.unknownDocRating;
    if (rating === null) return;
    const probRelevant = (2 ** rating - 1) / maxGain;
    err += (notYetSatisfied * probRelevant) / (i + 1);
    notYetSatisfied *= 1 - probRelevant;
  });
  const unrated = ratings.filter((r) => r === null).length;
  return {
    score: err,
    ratings,
    details: { expected_reciprocal_rank: { unrated_docs: unrated } },
  };
}

/** The request's score: the mean of its queries' scores (NaN when none was evaluated). */
export function combineScores(scores: readonly number[]): number {
  return scores.reduce((a, b) => a + b, 0) / scores.length;
}
