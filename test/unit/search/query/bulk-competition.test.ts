/**
 * Bulk scoring under a top-k competition (bulk-scorers.ts): impact blocks and windows of docs
 * that cannot beat the worst kept hit are only counted, and the scorers' buffers are reused from
 * one run to the next. Over corpora large enough for many blocks and windows per segment, with
 * deletions and range filters, the collector must give exactly what the unpruned collector gives
 * (hits, float32 scores, totals, max score), also when runs of different queries alternate and
 * after a run stopped by a timeout in the middle of a window.
 */
import { describe, expect, it } from 'vitest';
import { collectTopDocs, type ShardTopDocs } from '../../../../src/search/collect/top-docs.js';
import { Deadline } from '../../../../src/search/deadline.js';
import type { ShardSnapshot } from '../../../../src/search/index/live-segment.js';
import { ShardIndex } from '../../../../src/search/index/shard-index.js';
import { K1 } from '../../../../src/search/query/bm25.js';
import { NO_NORM_K1, type Competition } from '../../../../src/search/query/bulk-scorers.js';
import { boolQuery, termQuery, type Query } from '../../../../src/search/query/query.js';
import { shardStats } from '../../../../src/search/query/stats.js';
import { createWeight } from '../../../../src/search/query/weights.js';
import { collectOptions } from '../../../helpers/collect-options.js';
import { doc, field, standardResolver } from '../../../helpers/fields.js';

const body = field('body', 'text');
const num = field('num', 'long');
/** Skewed vocabulary: the first words are in most docs, the last in a few. */
const VOCAB = ['alpha', 'beta', 'gamma', 'delta', 'eps', 'zeta', 'eta', 'theta', 'iota'];

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

/** `nDocs` docs in about `segments` segments, a fraction `deleteRate` of them deleted. */
function corpus(seed: number, nDocs: number, segments: number, deleteRate: number): ShardSnapshot {
  const r = mulberry32(seed);
  const idx = new ShardIndex(standardResolver);
  for (let i = 0; i < nDocs; i++) {
    const len = 1 + Math.floor(r() * r() * 40);
    const t: string[] = [];
    for (let k = 0; k < len; k++) t.push(VOCAB[Math.floor(VOCAB.length * r() * r() * r())]!);
    idx.add(
      String(i),
      doc([
        [body, t.join(' ')],
        [num, Math.floor(r() * 1000)],
      ]),
      i,
      1,
    );
    if (r() < segments / nDocs) idx.refresh();
  }
  idx.refresh();
  for (let i = 0; i < nDocs; i++) if (r() < deleteRate) idx.delete(String(i));
  idx.refresh();
  return idx.searcher();
}

const range = (lo: number, hi: number): Query => ({
  kind: 'NumericRange',
  field: 'num',
  lo,
  hi,
  includeLo: true,
  includeHi: false,
  boost: 1,
});

function flat(t: ShardTopDocs) {
  return {
    total: t.totalHits,
    maxScore: t.maxScore,
    hits: t.hits.map((h) => [h.globalDoc, h.score]),
  };
}

function collect(snap: ShardSnapshot, q: Query, k: number, plain = false): ShardTopDocs {
  const w = createWeight(q, { stats: shardStats(snap), needsScores: true });
  // an onMatch hook forces the unpruned per-doc collector
  return collectTopDocs(snap, w, collectOptions(k, plain ? { onMatch: () => {} } : {}));
}

/** The workload's shapes: a term, OR of terms, and either under a range filter. */
function shapes(): Query[] {
  const t = (w: string, b = 1) => termQuery('body', w, b);
  return [
    t('alpha'),
    t('eta'),
    boolQuery({ should: [t('alpha'), t('theta')] }),
    boolQuery({ should: [t('beta', 2), t('iota'), t('gamma', 0.5)] }),
    boolQuery({ must: [t('beta')], filter: [range(100, 700)] }),
    boolQuery({ must: [boolQuery({ should: [t('alpha'), t('zeta')] })], filter: [range(0, 400)] }), // prettier-ignore
    boolQuery({ must: [t('eta')], filter: [range(990, 1000)] }),
  ];
}

describe('bulk scoring under a top-k competition', () => {
  it('equals the unpruned collector over many blocks and windows, with deletions', () => {
    for (const [seed, deleteRate] of [
      [1, 0],
      [2, 0.2],
      [3, 0.6],
    ] as const) {
      const snap = corpus(seed, 9000, 3, deleteRate);
      for (const q of shapes()) {
        for (const k of [1, 3, 10, 100]) {
          expect(flat(collect(snap, q, k))).toEqual(flat(collect(snap, q, k, true)));
        }
      }
    }
  });

  it('reuses its buffers without carrying anything from one query to the next', () => {
    const snap = corpus(7, 6000, 2, 0.1);
    const qs = shapes();
    const want = qs.map((q) => flat(collect(snap, q, 10, true)));
    // alternating queries and sizes: each run starts from the previous run's buffers
    for (let round = 0; round < 3; round++)
      for (let i = 0; i < qs.length; i++) {
        const j = (i * 5 + round) % qs.length;
        expect(flat(collect(snap, qs[j]!, 10))).toEqual(want[j]);
      }
  });

  it('is exact after a run stopped by a timeout in the middle of a window', () => {
    const snap = corpus(11, 8000, 1, 0);
    const q = boolQuery({ should: [termQuery('body', 'alpha'), termQuery('body', 'beta')] });
    const want = flat(collect(snap, q, 10, true));
    let reads = 0;
    // the clock passes the deadline after a few batches: the sink throws inside the scorer
    const dl = new Deadline(3, () => reads++);
    const w = createWeight(q, { stats: shardStats(snap), needsScores: true });
    const cut = collectTopDocs(snap, w, collectOptions(10, { deadline: dl }));
    expect(dl.failedChecks).toBeGreaterThan(0);
    expect(cut.totalHits).toBeLessThan(want.total);
    expect(flat(collect(snap, q, 10))).toEqual(want);
  });

  it('counts what cannot compete and hands over the rest', () => {
    const snap = corpus(5, 7000, 2, 0.3);
    for (const q of shapes()) {
      const w = createWeight(q, { stats: shardStats(snap), needsScores: true });
      const plain = collect(snap, q, 10, true);
      let handed = 0;
      let counted = 0;
      for (const ls of snap.segments) {
        // nothing beats +Infinity: every live match is counted, none scored
        const all: Competition = { floor: Infinity, counted: 0, live: ls.live };
        w.bulk!(ls)!.run(() => handed++, all);
        counted += all.counted;
        const none: Competition = { floor: -Infinity, counted: 0, live: ls.live };
        w.bulk!(ls)!.run(() => {}, none);
        expect(none.counted).toBe(0);
      }
      expect(handed).toBe(0);
      expect(counted).toBe(plain.totalHits);
    }
  });

  it('writes BM25 k1 as the literal the scorers use', () => {
    expect(NO_NORM_K1).toBe(K1);
  });
});
