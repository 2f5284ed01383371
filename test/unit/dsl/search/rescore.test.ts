/**
 * Query rescoring (ES QueryRescorerBuilder / QueryRescorer): parsing and its errors, score
 * combination per score_mode, the window and the re-sort, and the rescore explanation.
 */
import { describe, expect, it } from 'vitest';
import { EsError } from '../../../../src/common/errors.js';
import { createWeight } from '../../../../src/search/query/weights.js';
import { shardStats } from '../../../../src/search/query/stats.js';
import { collectTopDocs } from '../../../../src/search/collect/top-docs.js';
import { expl } from '../../../../src/search/query/explanation.js';
import {
  combineScores,
  explainRescore,
  parseRescore,
  rescoreShardHits,
  type RescoreSpec,
} from '../../../../src/dsl/search/rescore.js';
import { Bench } from '../query/harness.js';
import { collectOptions } from '../../../helpers/collect-options.js';

const err = (f: () => unknown): [string, string | null] => {
  try {
    f();
  } catch (e) {
    if (e instanceof EsError) return [e.type, e.reason];
    throw e;
  }
  throw new Error('expected an error');
};

describe('parseRescore', () => {
  it('reads one rescorer with ES defaults (window 10 at execution, weights 1, total)', () => {
    const [r] = parseRescore({ query: { rescore_query: { match_all: {} } } });
    expect(r).toEqual({
      windowSize: null,
      query: { match_all: {} },
      queryWeight: 1,
      rescoreQueryWeight: 1,
      scoreMode: 'total',
    });
  });

  it('reads an array, window_size, weights and score_mode in any case', () => {
    const rs = parseRescore([
      {
        window_size: 20,
        query: {
          rescore_query: { term: { a: 'b' } },
          query_weight: 0.7,
          rescore_query_weight: '1.2',
          score_mode: 'Multiply',
        },
      },
      { query: { rescore_query: { match_all: {} }, score_mode: 'max' } },
    ]);
    expect(rs.map((r) => [r.windowSize, r.queryWeight, r.rescoreQueryWeight, r.scoreMode])).toEqual(
      [
        [20, Math.fround(0.7), Math.fround(1.2), 'multiply'],
        [null, 1, 1, 'max'],
      ],
    );
  });

  it('rejects what ES rejects', () => {
    expect(err(() => parseRescore({ window_size: 5 }))).toEqual([
      'parsing_exception',
      'missing rescore type',
    ]);
    expect(err(() => parseRescore({ foo: 1, query: { rescore_query: {} } }))).toEqual([
      'parsing_exception',
      "rescore doesn't support [foo]",
    ]);
    expect(err(() => parseRescore({ query: { query_weight: 2 } }))).toEqual([
      'illegal_argument_exception',
      'rescore_query cannot be null',
    ]);
    expect(err(() => parseRescore({ query: { rescore_query: {}, score_mode: 'x' } }))).toEqual([
      'illegal_argument_exception',
      'illegal score_mode [x]',
    ]);
    expect(err(() => parseRescore({ query: { rescore_query: {}, boost: 1 } }))).toEqual([
      'x_content_parse_exception',
      '[query] unknown field [boost], parser not found',
    ]);
  });
});

describe('combineScores (QueryRescoreMode.combine)', () => {
  it('combines in float arithmetic', () => {
    expect(combineScores('total', 1.5, 2)).toBe(3.5);
    expect(combineScores('multiply', 1.5, 2)).toBe(3);
    expect(combineScores('avg', 1, 2)).toBe(1.5);
    expect(combineScores('max', 1, 2)).toBe(2);
    expect(combineScores('min', 1, 2)).toBe(1);
    expect(combineScores('total', 0.1, 0.2)).toBe(Math.fround(0.1 + 0.2));
  });
});

describe('rescoreShardHits', () => {
  // five docs: "a" in 0..4, "b" in docs 1 and 3 only
  const bench = new Bench({ properties: { t: { type: 'keyword' } } }).index([
    { t: ['a'] },
    { t: ['a', 'b'] },
    { t: ['a'] },
    { t: ['a', 'b'] },
    { t: ['a'] },
  ]);
  const snap = bench.shards[0]!.searcher();
  const stats = shardStats(snap);
  const top = (q: unknown) =>
    collectTopDocs(
      snap,
      createWeight(bench.lower(q), { stats, needsScores: true }),
      collectOptions(10),
    ).hits;
  const spec = (over: Partial<RescoreSpec>): RescoreSpec => ({
    windowSize: 3,
    query: null,
    queryWeight: 1,
    rescoreQueryWeight: 1,
    scoreMode: 'total',
    ...over,
  });
  const rescoreWith = (s: RescoreSpec) =>
    rescoreShardHits(top({ constant_score: { filter: { match_all: {} } } }), [
      {
        spec: s,
        weight: createWeight(
          bench.lower({ constant_score: { filter: { term: { t: 'b' } }, boost: 10 } }),
          {
            stats,
            needsScores: true,
          },
        ),
      },
    ]);

  it('rescores only the window; matches combine, the rest get query_weight', () => {
    const r = rescoreWith(spec({ windowSize: 3, queryWeight: 2, rescoreQueryWeight: 0.5 }));
    // window = docs 0,1,2 (ties by doc); doc 1 matches: 2*1 + 0.5*10 = 7; 0 and 2: 2; 3 and 4: 2
    expect(r.hits.map((h) => [h.doc, h.score])).toEqual([
      [1, 7],
      [0, 2],
      [2, 2],
      [3, 2],
      [4, 2],
    ]);
    expect([...r.rescored[0]!].sort()).toEqual([0, 1, 2]);
  });

  it('applies score_mode and chains rescorers', () => {
    const r = rescoreWith(spec({ windowSize: 5, scoreMode: 'multiply' }));
    expect(r.hits.map((h) => [h.doc, h.score])).toEqual([
      [1, 10],
      [3, 10],
      [0, 1],
      [2, 1],
      [4, 1],
    ]);
  });
});

describe('explainRescore', () => {
  const spec: RescoreSpec = {
    windowSize: 2,
    query: null,
    queryWeight: 5,
    rescoreQueryWeight: 10,
    scoreMode: 'total',
  };
  it('explains a rescored match as "sum of" primary and secondary products', () => {
    const e = explainRescore(expl(1, '*:*'), spec, true, {
      matched: true,
      explanation: expl(1, '*:*'),
    });
    expect(e).toEqual(
      expl(15, 'sum of:', [
        expl(5, 'product of:', [expl(1, '*:*'), expl(5, 'primaryWeight')]),
        expl(10, 'product of:', [expl(1, '*:*'), expl(10, 'secondaryWeight')]),
      ]),
    );
  });
  it('explains a hit outside the window by the primary product only', () => {
    expect(explainRescore(expl(1, '*:*'), spec, false, null)).toEqual(
      expl(5, 'product of:', [expl(1, '*:*'), expl(5, 'primaryWeight')]),
    );
  });
});
