/**
 * Span matching as Lucene 7.7 enumerates it: every match (start, end, width) per doc for ordered
 * and unordered near queries with slop, span_or, span_not (pre/post/dist), span_first, span_gap,
 * span_containing / span_within, nested spans, and NearSpansOrdered's lazy matching.
 */
import { describe, expect, it } from 'vitest';
import { EsError } from '../../../../src/common/errors.js';
import { ShardIndex } from '../../../../src/search/index/shard-index.js';
import { NO_MORE_DOCS } from '../../../../src/search/query/scorer.js';
import { NO_MORE_POSITIONS } from '../../../../src/search/query/spans/spans.js';
import type { SpanQuery } from '../../../../src/search/query/spans/types.js';
import { getSpans, rewrite } from '../../../../src/search/query/spans/weight.js';
import { shardStats } from '../../../../src/search/query/stats.js';
import { createWeight } from '../../../../src/search/query/weights.js';
import { doc, field, standardResolver } from '../../../helpers/fields.js';

const body = field('body', 'text');
const tag = field('tag', 'keyword');
const corpus = [
  'a b c d e', // 0
  'a x b', // 1
  'b a', // 2
  'a a b b', // 3
  'c b a x x a b', // 4
  'a b a b', // 5
  'a x y c z', // 6
];

const idx = new ShardIndex(standardResolver);
corpus.forEach((text, i) =>
  idx.add(
    String(i),
    doc([
      [body, text],
      [tag, 'k'],
    ]),
    i,
    1,
  ),
);
idx.refresh();

// ---- query builders
const t = (term: string, f = 'body'): SpanQuery => ({ kind: 'SpanTerm', field: f, term, boost: 1 });
const near = (clauses: SpanQuery[], slop: number, inOrder = true): SpanQuery => ({
  kind: 'SpanNear',
  field: 'body',
  clauses,
  slop,
  inOrder,
  boost: 1,
});
const or = (...clauses: SpanQuery[]): SpanQuery => ({ kind: 'SpanOr', clauses, boost: 1 });
const not = (include: SpanQuery, exclude: SpanQuery, pre: number, post: number): SpanQuery => ({
  kind: 'SpanNot',
  include,
  exclude,
  pre,
  post,
  boost: 1,
});
const gap = (width: number): SpanQuery => ({ kind: 'SpanGap', field: 'body', width, boost: 1 });

type Match = [start: number, end: number, width: number];

/** Every doc's matches, in the order the spans enumerate them. */
function matches(q: SpanQuery): Record<number, Match[]> {
  const snap = idx.searcher();
  const out: Record<number, Match[]> = {};
  const rewritten = rewrite(q, { stats: shardStats(snap), needsScores: false });
  for (const ls of snap.segments) {
    const spans = getSpans(rewritten, ls.segment);
    if (!spans) continue;
    for (let d = spans.nextDoc(); d !== NO_MORE_DOCS; d = spans.nextDoc()) {
      expect(spans.startPosition()).toBe(-1);
      const list: Match[] = [];
      while (spans.nextStartPosition() !== NO_MORE_POSITIONS) {
        list.push([spans.startPosition(), spans.endPosition(), spans.width()]);
      }
      expect(spans.startPosition()).toBe(NO_MORE_POSITIONS);
      out[Number(ls.segment.ids[d])] = list;
    }
  }
  return out;
}

const docs = (q: SpanQuery): number[] => Object.keys(matches(q)).map(Number);

describe('span_term', () => {
  it('is a span [p, p+1) of width 0 per position', () => {
    expect(matches(t('b'))).toEqual({
      0: [[1, 2, 0]],
      1: [[2, 3, 0]],
      2: [[0, 1, 0]],
      3: [
        [2, 3, 0],
        [3, 4, 0],
      ],
      4: [
        [1, 2, 0],
        [6, 7, 0],
      ],
      5: [
        [1, 2, 0],
        [3, 4, 0],
      ],
    });
  });

  it('fails on a field indexed without positions (SpanTermQuery)', () => {
    const snap = idx.searcher();
    const w = createWeight(t('k', 'tag'), { stats: shardStats(snap), needsScores: true });
    const e = (() => {
      try {
        w.scorer(snap.segments[0]!);
      } catch (x) {
        return x as EsError;
      }
      throw new Error('expected a failure');
    })();
    expect(e.type).toBe('illegal_state_exception');
    expect(e.status).toBe(500);
    expect(e.reason).toBe(
      'field "tag" was indexed without position data; cannot run SpanTermQuery (term=k)',
    );
    // an absent term has no postings to read: no failure
    expect(
      createWeight(t('nope', 'tag'), { stats: shardStats(snap), needsScores: true }).scorer(
        snap.segments[0]!,
      ),
    ).toBeNull();
  });
});

describe('span_near in order', () => {
  it('slop 0: adjacent, one match per first-clause position', () => {
    expect(matches(near([t('a'), t('b')], 0))).toEqual({
      0: [[0, 2, 0]],
      3: [[1, 3, 0]],
      4: [[5, 7, 0]],
      5: [
        [0, 2, 0],
        [2, 4, 0],
      ],
    });
  });

  it('slop counts the positions between the clauses (the width)', () => {
    const m = matches(near([t('a'), t('b')], 1));
    expect(m[1]).toEqual([[0, 3, 1]]);
    // overlapping matches: both a's reach the first b
    expect(m[3]).toEqual([
      [0, 3, 1],
      [1, 3, 0],
    ]);
    expect(m[2]).toBeUndefined();
    expect(docs(near([t('a'), t('b')], 3))).toEqual([0, 1, 3, 4, 5]);
  });

  it('a gap clause stands for `width` positions', () => {
    expect(matches(near([t('a'), gap(1), t('b')], 0))).toEqual({
      1: [[0, 3, 0]],
      3: [
        [0, 3, 0],
        [1, 4, 0],
      ],
    });
    expect(docs(near([t('a'), gap(2), t('b')], 0))).toEqual([3, 5]);
    // the clause after a gap starts at the gap's end or later: "a x b" has no room for 2
    expect(matches(near([t('a'), gap(2), t('b')], 1))).toEqual({
      3: [[0, 4, 0]],
      4: [[2, 7, 1]],
      5: [[0, 4, 0]],
    });
  });

  it('never moves a later clause back (NearSpansOrdered is lazy)', () => {
    // doc 6 "a x y c z": b = (x..z) spans [1, 5) and y spans [2, 3). With a at 0 the or's first
    // match [1, 5) is taken, c must then start at 5: no match, though "a y c" fits slop 1.
    const b = or(near([t('x'), t('z')], 2), t('y'));
    expect(matches(b)[6]).toEqual([
      [1, 5, 2],
      [2, 3, 0],
    ]);
    expect(docs(near([t('a'), b, t('c')], 1))).toEqual([]);
    expect(matches(near([t('a'), t('y'), t('c')], 1))).toEqual({ 6: [[0, 4, 1]] });
  });

  it('nests: a near of near queries', () => {
    expect(matches(near([near([t('a'), t('b')], 0), t('c')], 0))).toEqual({ 0: [[0, 3, 0]] });
    expect(matches(near([t('c'), near([t('b'), t('a')], 0, false)], 0))).toEqual({
      4: [[0, 3, 0]],
    });
  });
});

describe('span_near unordered', () => {
  it('matches in any order; the width is the whole window', () => {
    expect(matches(near([t('a'), t('b')], 0, false))).toEqual({
      0: [[0, 2, 2]],
      2: [[0, 2, 2]],
      3: [[1, 3, 2]],
      4: [
        [1, 3, 2],
        [5, 7, 2],
      ],
      5: [
        [0, 2, 2],
        [1, 3, 2],
        [2, 4, 2],
      ],
    });
  });

  it('slop bounds the positions in the window outside the clauses', () => {
    expect(matches(near([t('b'), t('a')], 1, false))[1]).toEqual([[0, 3, 3]]);
    expect(docs(near([t('b'), t('a')], 1, false))).toEqual([0, 1, 2, 3, 4, 5]);
    expect(docs(near([t('a'), t('c'), t('e')], 1, false))).toEqual([]);
    expect(matches(near([t('e'), t('a'), t('c')], 2, false))).toEqual({ 0: [[0, 5, 5]] });
  });
});

describe('span_or', () => {
  it('merges the clauses by start then end', () => {
    expect(matches(or(t('c'), t('a')))[4]).toEqual([
      [0, 1, 0],
      [2, 3, 0],
      [5, 6, 0],
    ]);
    expect(matches(or(near([t('a'), t('b')], 1), t('a')))[3]).toEqual([
      [0, 1, 0],
      [0, 3, 1],
      [1, 2, 0],
      [1, 3, 0],
    ]);
  });

  it('matches the docs of any clause', () => {
    expect(docs(or(t('x'), t('e')))).toEqual([0, 1, 4, 6]);
    expect(docs(or(t('nope'), t('e')))).toEqual([0]);
  });
});

describe('span_not', () => {
  it('removes include matches overlapping an exclude match', () => {
    expect(docs(not(near([t('a'), t('b')], 0), t('b'), 0, 0))).toEqual([]);
    expect(docs(not(t('a'), t('b'), 0, 0))).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });

  it('dist (pre = post): no exclude match within that many positions', () => {
    expect(matches(not(t('a'), t('b'), 1, 1))).toEqual({
      1: [[0, 1, 0]],
      3: [[0, 1, 0]],
      6: [[0, 1, 0]],
    });
  });

  it('pre looks before the include match, post after it', () => {
    expect(docs(not(t('a'), t('b'), 0, 1))).toEqual([1, 2, 3, 4, 6]);
    expect(docs(not(t('a'), t('b'), 1, 0))).toEqual([0, 1, 3, 4, 5, 6]);
  });

  it('an exclude with no match in the segment keeps every include match', () => {
    expect(docs(not(t('a'), t('nope'), 5, 5))).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });
});

describe('span_first', () => {
  it('keeps matches ending at or before end', () => {
    const first = (match: SpanQuery, end: number): SpanQuery => ({
      kind: 'SpanFirst',
      match,
      end,
      boost: 1,
    });
    expect(matches(first(t('a'), 1))).toEqual({
      0: [[0, 1, 0]],
      1: [[0, 1, 0]],
      3: [[0, 1, 0]],
      5: [[0, 1, 0]],
      6: [[0, 1, 0]],
    });
    expect(docs(first(near([t('a'), t('b')], 0), 2))).toEqual([0, 5]);
    expect(matches(first(t('a'), 3))[4]).toEqual([[2, 3, 0]]);
  });
});

describe('span_containing / span_within', () => {
  const big = near([t('a'), t('b')], 1);
  it('containing: big matches that contain a little match', () => {
    const q: SpanQuery = { kind: 'SpanContaining', big, little: t('x'), boost: 1 };
    expect(matches(q)).toEqual({ 1: [[0, 3, 1]] });
    const q2: SpanQuery = { kind: 'SpanContaining', big, little: t('a'), boost: 1 };
    expect(matches(q2)[3]).toEqual([
      [0, 3, 1],
      [1, 3, 0],
    ]);
  });

  it('within: little matches inside a big match', () => {
    const q: SpanQuery = { kind: 'SpanWithin', big, little: t('x'), boost: 1 };
    expect(matches(q)).toEqual({ 1: [[1, 2, 0]] });
    const q2: SpanQuery = { kind: 'SpanWithin', big, little: t('b'), boost: 1 };
    expect(matches(q2)[3]).toEqual([[2, 3, 0]]);
    expect(docs(q2)).toEqual([0, 1, 3, 4, 5]);
  });
});

describe('field masking and wrapped multi-term queries', () => {
  it('a masked clause joins a near query of another field', () => {
    const masked: SpanQuery = { kind: 'SpanMask', inner: t('b'), field: 'body', boost: 1 };
    expect(docs(near([t('a'), masked], 0))).toEqual([0, 3, 4, 5]);
  });

  it('expands a wrapped prefix query to the matching terms', () => {
    const q: SpanQuery = {
      kind: 'SpanMultiTerm',
      field: 'body',
      inner: {
        kind: 'MultiTerm',
        field: 'body',
        matcher: { prefix: '', test: (x) => x === 'x' || x === 'y' },
        describe: 'body:/[xy]/',
        boost: 1,
      },
      display: 'body:/[xy]/',
      expansion: { kind: 'max_clause', max: 1024 },
      boost: 1,
    };
    expect(matches(near([t('a'), q], 0))).toEqual({
      1: [[0, 2, 0]],
      4: [[2, 4, 0]],
      6: [[0, 2, 0]],
    });
    const capped = { ...q, expansion: { kind: 'max_clause', max: 1 } } as SpanQuery;
    expect(() => matches(capped)).toThrow(
      '[body:/[xy]/ ] exceeds maxClauseCount [ Boolean maxClauseCount is set to 1]',
    );
  });
});
