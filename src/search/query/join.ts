/**
 * The join of module parent-join within one shard (Lucene JoinUtil.createJoinQuery over global
 * ordinals): the `from` docs of every segment of the shard yield join keys with their scores,
 * then the `to` docs of a segment match when their key was yielded. Children are routed to
 * their parent's shard, so one shard holds both sides of every join.
 */
import { isLive, type LiveSegment } from '../index/live-segment.js';
import type { Segment } from '../index/segment.js';
import { expl, noMatch } from './explanation.js';
import type { JoinQuery, Query } from './query.js';
import { NO_MORE_DOCS, type Scorer } from './scorer.js';
import type { Weight, WeightContext } from './weights.js';

const f = Math.fround;

/** A single-valued keyword doc value of `field` (the join key), null when the doc has none. */
export function joinKeyOf(seg: Segment, field: string, doc: number): string | null {
  const dv = seg.fields.get(field)?.docValues;
  if (!dv || dv.kind !== 'ordinal') return null;
  if (dv.single) {
    const o = dv.single[doc]!;
    return o < 0 ? null : dv.dict[o]!;
  }
  const s = dv.offsets![doc]!;
  return s < dv.offsets![doc + 1]! ? dv.dict[dv.ords![s]!]! : null;
}

interface KeyMatches {
  score: number;
  count: number;
}

/** Every key the `from` side yields over the shard, with its aggregated score and count. */
function collectKeys(
  q: JoinQuery,
  from: Weight,
  segments: readonly LiveSegment[],
): Map<string, KeyMatches> {
  const keys = new Map<string, KeyMatches>();
  for (const ls of segments) {
    const s = from.scorer(ls);
    if (!s) continue;
    for (let d = s.next(); d !== NO_MORE_DOCS; d = s.next()) {
      if (!isLive(ls, d)) continue;
      const key = joinKeyOf(ls.segment, q.field, d);
      if (key === null) continue;
      const score = q.scoreMode === 'none' ? 1 : f(s.score());
      const m = keys.get(key);
      if (!m) keys.set(key, { score, count: 1 });
      else {
        m.count++;
        switch (q.scoreMode) {
          case 'max':
            m.score = Math.max(m.score, score);
            break;
          case 'min':
            m.score = Math.min(m.score, score);
            break;
          case 'sum':
          case 'avg':
            m.score = f(m.score + score);
            break;
        }
      }
    }
  }
  return keys;
}

/** Docs with a score each, in doc order. */
class ScoredDocsScorer implements Scorer {
  doc = -1;
  private i = -1;
  readonly cost: number;
  constructor(
    private readonly docs: Int32Array,
    private readonly scores: Float64Array,
  ) {
    this.cost = docs.length;
  }
  next(): number {
    return (this.doc = ++this.i < this.docs.length ? this.docs[this.i]! : NO_MORE_DOCS);
  }
  advance(target: number): number {
    while (++this.i < this.docs.length) if (this.docs[this.i]! >= target) break;
    return (this.doc = this.i < this.docs.length ? this.docs[this.i]! : NO_MORE_DOCS);
  }
  score(): number {
    return this.scores[this.i]!;
  }
}

export function joinWeight(
  q: JoinQuery,
  ctx: WeightContext,
  boost: number,
  create: (q: Query, ctx: WeightContext) => Weight,
): Weight {
  const b = f(q.boost * boost);
  const from = create(q.from, { ...ctx, needsScores: ctx.needsScores && q.scoreMode !== 'none' });
  const to = create(q.to, { ...ctx, needsScores: false });
  let keys: Map<string, KeyMatches> | null = null;
  const keysOf = (): Map<string, KeyMatches> => {
    if (keys) return keys;
    // the join reads the whole shard: without its segments it cannot be right
    if (!ctx.segments) throw new Error('a join query needs the segments of its shard');
    return (keys = collectKeys(q, from, ctx.segments));
  };
  const scoreOf = (m: KeyMatches): number =>
    f((q.scoreMode === 'avg' ? f(m.score / m.count) : m.score) * b);
  const accepts = (m: KeyMatches | undefined): m is KeyMatches =>
    m !== undefined && m.count >= q.minMatches && m.count <= q.maxMatches;
  const matches = (ls: LiveSegment) => {
    const ks = keysOf();
    const docs: number[] = [];
    const scores: number[] = [];
    if (ks.size === 0) return null;
    const s = to.scorer(ls);
    if (!s) return null;
    for (let d = s.next(); d !== NO_MORE_DOCS; d = s.next()) {
      const key = joinKeyOf(ls.segment, q.field, d);
      const m = key === null ? undefined : ks.get(key);
      if (!accepts(m)) continue;
      docs.push(d);
      scores.push(scoreOf(m));
    }
    return docs.length ? { docs: Int32Array.from(docs), scores: Float64Array.from(scores) } : null;
  };
  return {
    scorer(ls) {
      const m = matches(ls);
      return m ? new ScoredDocsScorer(m.docs, m.scores) : null;
    },
    explain(ls, doc) {
      const key = joinKeyOf(ls.segment, q.field, doc);
      const m = key === null ? undefined : keysOf().get(key);
      const s = to.scorer(ls);
      const isTo = s !== null && (s.doc < doc ? s.advance(doc) : s.doc) === doc;
      if (!isTo || !accepts(m)) return noMatch('Not a match');
      return expl(scoreOf(m), `A match, join value ${key}`);
    },
  };
}
