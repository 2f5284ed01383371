/**
 * End to end: DSL JSON → engine query → hits with exact Lucene 7.7 scores (BM25 by hand), for the
 * scoring rules ES 6.8 applies: boosts in weights, filters without scores, dis_max tie breaking,
 * constant_score, function_score modes, cross_fields blended frequencies, nested score modes.
 */
import { describe, expect, it } from 'vitest';
import { Bench } from './harness.js';
import { bm25 } from './fixtures.js';

const f = Math.fround;

const mapping = {
  properties: {
    title: { type: 'text' },
    body: { type: 'text' },
    tag: { type: 'keyword' },
    n: { type: 'integer' },
    likes: { type: 'long' },
    when: { type: 'date' },
    kids: { type: 'nested', properties: { name: { type: 'keyword' }, n: { type: 'integer' } } },
  },
};

// title lengths: 4, 4, 2, 3; body lengths: 5, 0, 3, 3
const docs: Array<[string, Record<string, unknown>]> = [
  [
    '1',
    {
      title: 'the quick brown fox',
      body: 'jumps over the lazy dog',
      tag: 'a',
      n: 1,
      likes: 10,
      when: '2020-01-10',
      kids: [
        { name: 'x', n: 1 },
        { name: 'y', n: 2 },
      ],
    },
  ],
  [
    '2',
    {
      title: 'quick fox quick fox',
      tag: 'b',
      n: 2,
      likes: 100,
      when: '2020-01-01',
      kids: [{ name: 'x', n: 5 }],
    },
  ],
  ['3', { title: 'lazy dog', body: 'a quick dog', tag: 'a', n: 3, likes: 1 }],
  [
    '4',
    {
      title: 'brown dog again',
      body: 'the brown dog',
      tag: 'c',
      n: 4,
      kids: [{ name: 'z', n: 3 }],
    },
  ],
];

const bench = new Bench(mapping, { now: Date.UTC(2020, 0, 11) }).index(docs);
const TITLE_TTF = 4 + 4 + 2 + 3;
const BODY_TTF = 5 + 3 + 3;
const title = (tf: number, dl: number, df: number, boost = 1) =>
  bm25(tf, dl, df, 4, TITLE_TTF, boost);
const body = (tf: number, dl: number, df: number, boost = 1) =>
  bm25(tf, dl, df, 3, BODY_TTF, boost);

const scores = (q: unknown): Record<string, number> =>
  Object.fromEntries(bench.search(q).hits.map((h) => [h.id, h.score]));

describe('BM25 scores of full-text queries', () => {
  it('match: a term, and a disjunction summed in double then rounded', () => {
    expect(scores({ match: { title: 'fox' } })).toEqual({
      '1': title(1, 4, 2),
      '2': title(2, 4, 2),
    });
    expect(scores({ match: { title: 'quick dog' } })).toEqual({
      '1': title(1, 4, 2),
      '2': title(2, 4, 2),
      '3': title(1, 2, 2),
      '4': title(1, 3, 2),
    });
    expect(scores({ match: { title: 'brown fox' } })['1']).toBe(f(title(1, 4, 2) + title(1, 4, 2)));
  });

  it('boosts multiply into the weight, at every level', () => {
    expect(scores({ match: { title: { query: 'fox', boost: 2 } } })['2']).toBe(title(2, 4, 2, 2));
    expect(
      scores({ bool: { must: { match: { title: { query: 'fox', boost: 2 } } }, boost: 3 } })['2'],
    ).toBe(title(2, 4, 2, 6));
  });

  it('filters and must_not do not score; bool sums the scoring clauses', () => {
    const r = scores({
      bool: {
        must: { match: { title: 'dog' } },
        filter: { term: { tag: 'a' } },
        must_not: { term: { n: 4 } },
      },
    });
    expect(r).toEqual({ '3': title(1, 2, 2) });
    const s = scores({
      bool: { should: [{ match: { title: 'dog' } }, { match: { body: 'dog' } }] },
    });
    expect(s['3']).toBe(f(title(1, 2, 2) + body(1, 3, 3)));
    expect(s['1']).toBe(body(1, 5, 3));
  });

  it('common: low-frequency terms required, high-frequency ones only score', () => {
    // maxDoc 4: cutoff 0.25 → high frequency when df > ceil(1.0) = 1 (quick, fox, dog, brown)
    const q = (query: string, extra: Record<string, unknown> = {}) =>
      scores({ common: { title: { query, cutoff_frequency: 0.25, ...extra } } });
    const quickFox = f(title(1, 4, 2) + title(1, 4, 2));
    expect(q('the quick fox')).toEqual({ '1': f(title(1, 4, 1) + quickFox) });
    // only high-frequency terms: a conjunction (Lucene CommonTermsQuery)
    expect(q('quick fox')).toEqual({ '1': quickFox, '2': f(title(2, 4, 2) + title(2, 4, 2)) });
    expect(q('quick dog', { minimum_should_match: { high_freq: 1 } })).toEqual({
      '1': title(1, 4, 2),
      '2': title(2, 4, 2),
      '3': title(1, 2, 2),
      '4': title(1, 3, 2),
    });
    // low_freq_operator and: every rare term required
    expect(q('the lazy dog', { low_freq_operator: 'and' })).toEqual({});
    expect(q('the lazy dog')).toEqual({
      '1': title(1, 4, 1),
      '3': f(title(1, 2, 1) + title(1, 2, 2)),
    });
    // the default cutoff 0.01 gives the same split on 4 docs; a high cutoff makes all terms rare
    expect(scores({ common: { title: 'the quick fox' } })).toEqual(q('the quick fox'));
    expect(
      Object.keys(scores({ common: { title: { query: 'the dog', cutoff_frequency: 0.9 } } })),
    ).toEqual(['1', '3', '4']);
  });

  it('match_phrase sums the idf of its terms', () => {
    // PhraseWeight: idf = sum of term idfs, freq = number of phrase matches
    const idfSum = f(
      f(Math.log(1 + (4 - 2 + 0.5) / (2 + 0.5))) + f(Math.log(1 + (4 - 2 + 0.5) / (2 + 0.5))),
    );
    const s = scores({ match_phrase: { title: 'quick fox' } });
    expect(Object.keys(s)).toEqual(['2']);
    const k1 = f(1.2);
    const avgdl = f(TITLE_TTF / 4);
    const norm = f(k1 * f(f(1 - f(0.75)) + f(f(f(0.75) * 4) / avgdl)));
    expect(s['2']).toBe(f(f(f(idfSum * f(k1 + 1)) * 2) / f(2 + norm)));
  });

  it('dis_max: max plus tie_breaker times the others', () => {
    const s = scores({
      dis_max: {
        queries: [{ match: { title: 'dog' } }, { match: { body: 'dog' } }],
        tie_breaker: 0.3,
      },
    });
    const t = title(1, 2, 2);
    const bd = body(1, 3, 3);
    expect(s['3']).toBe(f(Math.max(t, bd) + Math.min(t, bd) * f(0.3)));
  });

  it('multi_match best_fields and most_fields', () => {
    const best = scores({ multi_match: { query: 'dog', fields: ['title', 'body^2'] } });
    expect(best['3']).toBe(Math.max(title(1, 2, 2), body(1, 3, 3, 2)));
    const most = scores({
      multi_match: { query: 'dog', fields: ['title', 'body'], type: 'most_fields' },
    });
    expect(most['3']).toBe(f(title(1, 2, 2) + body(1, 3, 3)));
  });

  it('multi_match cross_fields scores with blended document frequencies', () => {
    // "brown": df title 2, body 1 -> blended: title 2, body 3 (ES BlendedTermQuery bias)
    const s = scores({
      multi_match: { query: 'brown', fields: ['title', 'body'], type: 'cross_fields' },
    });
    expect(s['4']).toBe(Math.max(title(1, 3, 2), body(1, 3, 3)));
    expect(s['1']).toBe(title(1, 4, 2));
  });

  it('constant_score, terms and range score their boost', () => {
    expect(scores({ constant_score: { filter: { match: { title: 'dog' } }, boost: 2.5 } })).toEqual(
      {
        '3': 2.5,
        '4': 2.5,
      },
    );
    expect(scores({ terms: { tag: ['a', 'c'] } })).toEqual({ '1': 1, '3': 1, '4': 1 });
    expect(scores({ range: { n: { gt: 2, boost: 3 } } })).toEqual({ '3': 3, '4': 3 });
  });

  it('prefix and wildcard score constantly; scoring_boolean rewrite scores BM25', () => {
    expect(scores({ prefix: { title: 'qu' } })).toEqual({ '1': 1, '2': 1 });
    expect(scores({ prefix: { title: { value: 'qu', rewrite: 'scoring_boolean' } } })).toEqual({
      '1': title(1, 4, 2),
      '2': title(2, 4, 2),
    });
  });
});

describe('function_score', () => {
  it('field_value_factor with boost_mode and the query boost inside the sub query', () => {
    const s = scores({
      function_score: {
        query: { match: { title: 'fox' } },
        field_value_factor: { field: 'likes', modifier: 'log1p', factor: 2 },
        boost_mode: 'sum',
        boost: 2,
      },
    });
    expect(s['2']).toBe(f(title(2, 4, 2, 2) + Math.log10(100 * 2 + 1)));
    expect(s['1']).toBe(f(title(1, 4, 2, 2) + Math.log10(10 * 2 + 1)));
  });

  it('filtered weights with score_mode sum/avg/max and max_boost', () => {
    const fns = [
      { filter: { term: { tag: 'a' } }, weight: 2 },
      { filter: { range: { n: { gte: 3 } } }, weight: 5 },
    ];
    const q = (extra: object) => ({
      function_score: { query: { match_all: {} }, functions: fns, ...extra },
    });
    expect(scores(q({ score_mode: 'sum' }))).toEqual({ '1': 2, '2': 1, '3': 7, '4': 5 });
    // avg divides the weighted sum by the weights: weights alone average to 1
    expect(scores(q({ score_mode: 'avg' }))).toEqual({ '1': 1, '2': 1, '3': 1, '4': 1 });
    expect(scores(q({ score_mode: 'max', max_boost: 4 }))).toEqual({
      '1': 2,
      '2': 1,
      '3': 4,
      '4': 4,
    });
    expect(scores(q({ score_mode: 'multiply', boost_mode: 'replace' }))).toEqual({
      '1': 2,
      '2': 1,
      '3': 10,
      '4': 5,
    });
  });

  it('decay functions over numbers and dates; min_score', () => {
    const g = scores({
      function_score: { gauss: { n: { origin: 2, scale: 1, decay: 0.5 } }, boost_mode: 'replace' },
    });
    expect(g['2']).toBe(1);
    expect(g['1']).toBe(f(0.5));
    expect(g['4']).toBe(f(Math.pow(0.5, 4)));
    const lin = scores({
      function_score: { linear: { when: { origin: 'now', scale: '10d' } }, boost_mode: 'replace' },
    });
    // now = 2020-01-11: 1 day and 10 days away; docs without a date score 1
    expect(lin).toEqual({ '1': f(0.95), '2': f(0.5), '3': 1, '4': 1 });
    expect(
      bench.ids({
        function_score: {
          exp: { n: { origin: 0, scale: 1, offset: 1 } },
          boost_mode: 'replace',
          min_score: 0.4,
        },
      }),
    ).toEqual(['1', '2']);
  });

  it('random_score is deterministic per seed and field, in [0, 1)', () => {
    const q = { function_score: { random_score: { seed: 42, field: '_id' } } };
    const a = scores(q);
    const b = scores(q);
    expect(a).toEqual(b);
    for (const v of Object.values(a)) expect(v >= 0 && v < 1).toBe(true);
    expect(scores({ function_score: { random_score: { seed: 43, field: '_id' } } })).not.toEqual(a);
  });
});

describe('nested', () => {
  const q = (mode: string) => ({
    nested: {
      path: 'kids',
      score_mode: mode,
      query: { range: { 'kids.n': { gte: 2, boost: 2 } } },
    },
  });
  it('joins children to parents with each score mode', () => {
    expect(scores(q('avg'))).toEqual({ '1': 2, '2': 2, '4': 2 });
    expect(scores(q('none'))).toEqual({ '1': 0, '2': 0, '4': 0 });
    expect(
      scores({
        nested: { path: 'kids', score_mode: 'sum', query: { terms: { 'kids.name': ['x', 'y'] } } },
      }),
    ).toEqual({ '1': 2, '2': 1 });
  });

  it('nested queries filter parents in bool clauses', () => {
    expect(
      bench.ids({
        bool: {
          filter: [
            { nested: { path: 'kids', query: { term: { 'kids.name': 'x' } } } },
            { term: { tag: 'b' } },
          ],
        },
      }),
    ).toEqual(['2']);
  });
});

describe('hits of term-level queries', () => {
  it('match only the expected documents', () => {
    expect(bench.ids({ term: { tag: 'a' } }).sort()).toEqual(['1', '3']);
    expect(bench.ids({ range: { when: { gte: '2020-01-05' } } })).toEqual(['1']);
    expect(bench.ids({ exists: { field: 'body' } }).sort()).toEqual(['1', '3', '4']);
    expect(bench.ids({ bool: { must_not: { exists: { field: 'likes' } } } })).toEqual(['4']);
    expect(bench.ids({ ids: { values: ['2', '4', '9'] } }).sort()).toEqual(['2', '4']);
    expect(bench.ids({ wildcard: { tag: '?' } }).length).toBe(4);
    expect(bench.ids({ regexp: { tag: '[ab]' } }).sort()).toEqual(['1', '2', '3']);
    expect(bench.ids({ fuzzy: { title: 'quack' } }).sort()).toEqual(['1', '2']);
    // transpositions are off by default for the fuzzy query
    expect(bench.ids({ fuzzy: { title: 'quikc' } })).toEqual([]);
    expect(
      bench.ids({ fuzzy: { title: { value: 'quikc', transpositions: true } } }).sort(),
    ).toEqual(['1', '2']);
    expect(bench.ids({ match_phrase_prefix: { title: 'quick f' } })).toEqual(['2']);
    expect(bench.ids({ match_phrase_prefix: { title: 'brown f' } })).toEqual(['1']);
    expect(bench.ids({ match_phrase_prefix: { title: { query: 'brown f', slop: 1 } } })).toEqual([
      '1',
    ]);
    expect(bench.ids({ query_string: { query: 'title:(brown AND NOT fox)' } })).toEqual(['4']);
    // with the default OR, "-lazy" is an optional "not lazy" clause (ES's famous surprise)
    expect(bench.ids({ simple_query_string: { query: 'dog -lazy', fields: ['title'] } })).toEqual([
      '4',
      '1',
      '2',
      '3',
    ]);
    expect(
      bench.ids({
        simple_query_string: { query: 'dog -lazy', fields: ['title'], default_operator: 'and' },
      }),
    ).toEqual(['4']);
    expect(
      bench.ids({ match: { title: { query: 'quick brown dog', minimum_should_match: 2 } } }).sort(),
    ).toEqual(['1', '4']);
  });

  it('match_all and match_none', () => {
    expect(bench.search({ match_all: { boost: 1.5 } }).hits.map((h) => h.score)).toEqual([
      1.5, 1.5, 1.5, 1.5,
    ]);
    expect(bench.search({ match_none: {} }).total).toBe(0);
  });
});
