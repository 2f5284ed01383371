/**
 * The search fast paths give exactly what the plain evaluation gives: top-k collection with
 * MaxScore/block pruning and totals from counts equals the unpruned collector (same hits, same
 * float32 scores, same totals), MaxScore equals a plain disjunction, and counts, range filters
 * (points or doc-value checks) and phrases equal brute force over the generated documents.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  collectTopDocs,
  countDocs,
  type ShardTopDocs,
} from '../../../../src/search/collect/top-docs.js';
import type { LiveSegment, ShardSnapshot } from '../../../../src/search/index/live-segment.js';
import { ShardIndex } from '../../../../src/search/index/shard-index.js';
import { DisjunctionScorer } from '../../../../src/search/query/boolean-scorers.js';
import { intersectionCount, unionCount } from '../../../../src/search/query/doc-counts.js';
import { MaxScoreScorer } from '../../../../src/search/query/max-score.js';
import { boolQuery, matchAll, termQuery, type Query } from '../../../../src/search/query/query.js';
import { NO_MORE_DOCS, type Scorer } from '../../../../src/search/query/scorer.js';
import { shardStats } from '../../../../src/search/query/stats.js';
import { createWeight, type Weight } from '../../../../src/search/query/weights.js';
import { doc, field, standardResolver } from '../../../helpers/fields.js';
import type { NumericColumn } from '../../../../src/search/index/segment.js';
import { collectOptions } from '../../../helpers/collect-options.js';

const body = field('body', 'text');
const num = field('num', 'long');
const multi = field('multi', 'long');
const key = field('key', 'long');
/** Skewed vocabulary: the first words fill many 128-posting blocks, the last are rare. */
const VOCAB = ['alpha', 'beta', 'gamma', 'delta', 'eps', 'zeta', 'eta', 'theta'];

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Corpus {
  idx: ShardIndex;
  tokens: string[][];
  nums: number[];
  multis: number[][];
  live: boolean[];
}

function buildCorpus(seed: number, nDocs: number, segments: number, deleteRate: number): Corpus {
  const r = mulberry32(seed);
  const idx = new ShardIndex(standardResolver);
  const tokens: string[][] = [];
  const nums: number[] = [];
  const multis: number[][] = [];
  const live: boolean[] = [];
  for (let i = 0; i < nDocs; i++) {
    const len = 1 + Math.floor(r() * r() * 30);
    const t: string[] = [];
    for (let k = 0; k < len; k++) t.push(VOCAB[Math.floor(VOCAB.length * r() * r())]!);
    tokens.push(t);
    nums.push(Math.floor(r() * 100));
    const m = Array.from({ length: Math.floor(r() * 3) }, () => Math.floor(r() * 50));
    multis.push(m);
    live.push(true);
    const values: Array<[typeof body, string | number]> = [
      [body, t.join(' ')],
      [num, nums[i]!],
      [key, i],
    ];
    for (const v of m) values.push([multi, v]);
    idx.add(String(i), doc(values), i, 1);
    if (r() < segments / nDocs) idx.refresh();
  }
  idx.refresh();
  for (let i = 0; i < nDocs; i++) {
    if (r() < deleteRate) {
      idx.delete(String(i));
      live[i] = false;
    }
  }
  idx.refresh();
  return { idx, tokens, nums, multis, live };
}

const opts = (numHits: number, onMatch?: () => void) =>
  collectOptions(numHits, onMatch ? { onMatch } : {});

/** The corpus index of a hit's document (from the `key` doc values). */
function keyOf(ls: LiveSegment, d: number): number {
  return (ls.segment.fields.get('key')!.docValues as NumericColumn).single![d]!;
}

/** Hits, scores, total and (with hits kept: size 0 reports 0 upstream) the max score. */
function flat(t: ShardTopDocs, k: number) {
  return {
    total: t.totalHits,
    hits: t.hits.map((h) => [h.globalDoc, h.score]),
    maxScore: k > 0 ? t.maxScore : null,
  };
}

function weightOf(snap: ShardSnapshot, q: Query, needsScores = true): Weight {
  return createWeight(q, { stats: shardStats(snap), needsScores });
}

/** Fast collector vs the plain one (an onMatch hook forces the unpruned path). */
function expectSameAsPlain(snap: ShardSnapshot, q: Query, k: number): ShardTopDocs {
  const fast = collectTopDocs(snap, weightOf(snap, q), opts(k));
  const plain = collectTopDocs(
    snap,
    weightOf(snap, q),
    opts(k, () => {}),
  );
  expect(flat(fast, k)).toEqual(flat(plain, k));
  expect(countDocs(snap, weightOf(snap, q, false))).toBe(plain.totalHits);
  return fast;
}

/** Live docs matching `pred`, by brute force. */
function bruteCount(c: Corpus, pred: (i: number) => boolean): number {
  let n = 0;
  for (let i = 0; i < c.tokens.length; i++) if (c.live[i] && pred(i)) n++;
  return n;
}

const corpusArb = fc.record({
  seed: fc.integer(),
  nDocs: fc.integer({ min: 1, max: 900 }),
  segments: fc.integer({ min: 0, max: 5 }),
  deleteRate: fc.constantFrom(0, 0, 0.1, 0.5),
});
const wordArb = fc.constantFrom(...VOCAB, 'missing');

describe('top-k fast path', () => {
  it('equals the plain collector for terms, disjunctions, match_all and filters', () => {
    fc.assert(
      fc.property(
        corpusArb,
        fc.array(fc.tuple(wordArb, fc.constantFrom(1, 1, 2, 0.5)), { minLength: 1, maxLength: 5 }),
        fc.integer({ min: 0, max: 40 }),
        fc.tuple(fc.integer({ min: 0, max: 100 }), fc.integer({ min: 0, max: 100 })),
        (cfg, terms, k, [lo, hi]) => {
          const c = buildCorpus(cfg.seed, cfg.nDocs, cfg.segments, cfg.deleteRate);
          const snap = c.idx.searcher();
          const should = terms.map(([t, b]) => termQuery('body', t, b));
          const has = (i: number, t: string) => c.tokens[i]!.includes(t);
          const anyTerm = (i: number) => terms.some(([t]) => has(i, t));
          const inRange = (i: number) => c.nums[i]! >= lo && c.nums[i]! <= hi;
          const range: Query = {
            kind: 'NumericRange',
            field: 'num',
            lo,
            hi,
            includeLo: true,
            includeHi: true,
            boost: 1,
          };
          const t0 = terms[0]![0];
          expect(expectSameAsPlain(snap, should[0]!, k).totalHits).toBe(
            bruteCount(c, (i) => has(i, t0)),
          );
          expect(expectSameAsPlain(snap, boolQuery({ should }), k).totalHits).toBe(
            bruteCount(c, anyTerm),
          );
          expect(expectSameAsPlain(snap, matchAll(), k).totalHits).toBe(bruteCount(c, () => true));
          expect(
            expectSameAsPlain(
              snap,
              boolQuery({ must: [boolQuery({ should })], filter: [range] }),
              k,
            ).totalHits,
          ).toBe(bruteCount(c, (i) => anyTerm(i) && inRange(i)));
          expect(
            expectSameAsPlain(snap, boolQuery({ should: [...should, range] }), k).totalHits,
          ).toBe(bruteCount(c, (i) => anyTerm(i) || inRange(i)));
          expect(expectSameAsPlain(snap, boolQuery({ filter: [range] }), k).totalHits).toBe(
            bruteCount(c, inRange),
          );
        },
      ),
      { numRuns: 40 },
    );
  });

  it('returns the same top hits with ties broken by doc id', () => {
    // Identical documents all tie: the lowest doc ids must win, across segments.
    const idx = new ShardIndex(standardResolver);
    for (let i = 0; i < 300; i++) {
      idx.add(String(i), doc([[body, i % 3 === 0 ? 'alpha beta' : 'alpha gamma']]), i, 1);
      if (i % 97 === 96) idx.refresh();
    }
    idx.refresh();
    const snap = idx.searcher();
    const q = boolQuery({ should: [termQuery('body', 'alpha'), termQuery('body', 'beta')] });
    const top = expectSameAsPlain(snap, q, 5);
    expect(top.hits.map((h) => h.globalDoc)).toEqual([0, 3, 6, 9, 12]);
    expect(top.totalHits).toBe(300);
  });
});

describe('MaxScoreScorer', () => {
  it('yields exactly the docs a plain disjunction scores above the threshold, same scores', () => {
    fc.assert(
      fc.property(
        corpusArb,
        fc.array(fc.tuple(wordArb, fc.constantFrom(1, 3, 0.25)), { minLength: 2, maxLength: 5 }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (cfg, terms, frac) => {
          const c = buildCorpus(cfg.seed, cfg.nDocs, cfg.segments, 0);
          const snap = c.idx.searcher();
          const weights = terms.map(([t, b]) => weightOf(snap, termQuery('body', t, b)));
          for (const ls of snap.segments) {
            const subs = () => weights.map((w) => w.scorer(ls)).filter((s): s is Scorer => !!s);
            if (subs().length < 2) continue;
            const plain = new DisjunctionScorer(subs());
            const all: Array<[number, number]> = [];
            for (let d = plain.next(); d !== NO_MORE_DOCS; d = plain.next())
              all.push([d, plain.score()]);
            const pruned = new MaxScoreScorer(subs());
            // Thresholds at real scores put docs right on the boundary.
            const min =
              frac < 0.2
                ? Math.fround(frac * 5 * pruned.maxScore())
                : all[Math.floor(frac * all.length) % all.length]![1];
            pruned.setMinCompetitiveScore(min);
            const got: Array<[number, number]> = [];
            for (let d = pruned.next(); d !== NO_MORE_DOCS; d = pruned.next())
              got.push([d, pruned.score()]);
            expect(got).toEqual(all.filter(([, s]) => s > min));
            for (const [, s] of all) expect(s).toBeLessThanOrEqual(pruned.maxScore());
          }
        },
      ),
      { numRuns: 40 },
    );
  });
});

describe('range filters', () => {
  it('match brute force through points, bitsets and doc-value checks (multi-valued too)', () => {
    fc.assert(
      fc.property(
        corpusArb,
        wordArb,
        fc.integer({ min: -5, max: 105 }),
        fc.integer({ min: 0, max: 110 }),
        fc.boolean(),
        fc.boolean(),
        (cfg, word, lo, width, includeLo, includeHi) => {
          const c = buildCorpus(cfg.seed, cfg.nDocs, cfg.segments, cfg.deleteRate);
          const snap = c.idx.searcher();
          const hi = lo + width;
          const ok = (v: number) =>
            (includeLo ? v >= lo : v > lo) && (includeHi ? v <= hi : v < hi);
          for (const fieldName of ['num', 'multi']) {
            const range: Query = {
              kind: 'NumericRange',
              field: fieldName,
              lo,
              hi,
              includeLo,
              includeHi,
              boost: 1,
            };
            const values = (i: number) => (fieldName === 'num' ? [c.nums[i]!] : c.multis[i]!);
            const inRange = (i: number) => values(i).some(ok);
            // Led by a (possibly much cheaper) term: the range may be checked by doc values.
            for (const needsScores of [true, false]) {
              const q = boolQuery({ must: [termQuery('body', word)], filter: [range] });
              const w = weightOf(snap, q, needsScores);
              const matched: number[] = [];
              for (const ls of snap.segments) {
                const s = w.scorer(ls);
                if (!s) continue;
                for (let d = s.next(); d !== NO_MORE_DOCS; d = s.next())
                  if (ls.live === null || ls.live.get(d)) matched.push(keyOf(ls, d));
              }
              const want: number[] = [];
              for (let i = 0; i < c.tokens.length; i++)
                if (c.live[i] && c.tokens[i]!.includes(word) && inRange(i)) want.push(i);
              expect(matched.sort((a, b) => a - b)).toEqual(want);
            }
            expect(countDocs(snap, weightOf(snap, range, false))).toBe(bruteCount(c, inRange));
            expectSameAsPlain(snap, range, 10);
          }
        },
      ),
      { numRuns: 40 },
    );
  });
});

describe('phrases', () => {
  it('match brute force (exact phrases, repeated terms) with totals and hits as plain', () => {
    fc.assert(
      fc.property(
        corpusArb,
        fc.array(fc.constantFrom(...VOCAB.slice(0, 4)), { minLength: 2, maxLength: 3 }),
        (cfg, words) => {
          const c = buildCorpus(cfg.seed, cfg.nDocs, cfg.segments, cfg.deleteRate);
          const snap = c.idx.searcher();
          const q: Query = {
            kind: 'Phrase',
            field: 'body',
            terms: words.map((w) => [w]),
            positions: words.map((_, i) => i),
            slop: 0,
            boost: 1,
          };
          const contains = (i: number) => {
            const t = c.tokens[i]!;
            for (let p = 0; p + words.length <= t.length; p++)
              if (words.every((w, k) => t[p + k] === w)) return true;
            return false;
          };
          expect(expectSameAsPlain(snap, q, 10).totalHits).toBe(bruteCount(c, contains));
        },
      ),
      { numRuns: 30 },
    );
  });
});

describe('doc counts', () => {
  const sortedSet = fc
    .uniqueArray(fc.integer({ min: 0, max: 300 }), { maxLength: 120 })
    .map((a) => Int32Array.from(a.sort((x, y) => x - y)));
  it('intersection and union sizes equal set arithmetic', () => {
    fc.assert(
      fc.property(fc.array(sortedSet, { minLength: 1, maxLength: 4 }), (sets) => {
        const lists = sets.map((docs) => ({ docs, start: 0, end: docs.length }));
        const union = new Set(sets.flatMap((s) => [...s]));
        expect(unionCount(lists, 301, null)).toBe(union.size);
        if (sets.length >= 2) {
          const b = new Set(sets[1]);
          expect(intersectionCount(lists[0]!, lists[1]!)).toBe(
            [...sets[0]!].filter((d) => b.has(d)).length,
          );
        }
      }),
    );
  });
});
