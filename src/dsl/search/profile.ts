/**
 * The `profile` section of a search response (ES SearchProfileShardResults) for `profile: true`:
 * per shard that ran the query phase, the query tree as Lucene would name it and the collectors.
 * Timings are not measured per query node here, so they read zero.
 */
import { describeQuery } from '../query/describe.js';
import type { Query } from '../../search/query/query.js';

/** Lucene class names of engine query kinds (what ES prints as a profiled query's `type`). */
const LUCENE_TYPES: Record<string, string> = {
  Bool: 'BooleanQuery',
  Term: 'TermQuery',
  MatchAll: 'MatchAllDocsQuery',
  MatchNone: 'MatchNoDocsQuery',
  Phrase: 'PhraseQuery',
  PhrasePrefix: 'MultiPhrasePrefixQuery',
  DisMax: 'DisjunctionMaxQuery',
  ConstantScore: 'ConstantScoreQuery',
  FunctionScore: 'FunctionScoreQuery',
  TermRange: 'TermRangeQuery',
  NumericRange: 'IndexOrDocValuesQuery',
  TermSet: 'TermInSetQuery',
  Synonym: 'SynonymQuery',
  Fuzzy: 'FuzzyQuery',
  Nested: 'ESToParentBlockJoinQuery',
  Boosting: 'FunctionScoreQuery',
  Blended: 'BlendedTermQuery',
};

const BREAKDOWN_KEYS = [
  'score',
  'build_scorer_count',
  'match_count',
  'create_weight',
  'next_doc',
  'match',
  'create_weight_count',
  'next_doc_count',
  'score_count',
  'build_scorer',
  'advance',
  'advance_count',
] as const;

/** One profiled query: its type, Lucene description, time and (unmeasured) breakdown. */
export function profileQuery(q: Query): Record<string, unknown> {
  return {
    type: LUCENE_TYPES[q.kind] ?? `${q.kind}Query`,
    description: describeQuery(q),
    time_in_nanos: 0,
    breakdown: Object.fromEntries(BREAKDOWN_KEYS.map((k) => [k, 0])),
  };
}

/** One shard's profile, `id` as ES prints it: `[node][index][shard]`. */
export function profileShard(
  nodeId: string,
  index: string,
  shard: number,
  q: Query,
): Record<string, unknown> {
  return {
    id: `[${nodeId}][${index}][${shard}]`,
    searches: [
      {
        query: [profileQuery(q)],
        rewrite_time: 0,
        collector: [
          {
            name: 'CancellableCollector',
            reason: 'search_cancelled',
            time_in_nanos: 0,
            children: [
              { name: 'SimpleTopScoreDocCollector', reason: 'search_top_hits', time_in_nanos: 0 },
            ],
          },
        ],
      },
    ],
    aggregations: [],
  };
}
