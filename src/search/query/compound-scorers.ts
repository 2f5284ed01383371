/**
 * Scorers that reshape other scorers' scores: function_score (ES FunctionScoreQuery with its
 * score_mode/boost_mode/max_boost/min_score), nested (block join from child docs to parents),
 * and boosting (demote docs matching a negative query).
 */
import type { LiveSegment } from '../index/live-segment.js';
import type { Query } from './query.js';
import { NO_MORE_DOCS, type Scorer } from './scorer.js';

const f = Math.fround;

export class FunctionScoreScorer implements Scorer {
  doc = -1;
  readonly cost: number;
  private readonly fns: Array<((doc: number, score: number) => number) | null>;
  private cached = NaN;
  constructor(
    private readonly inner: Scorer,
    private readonly q: Extract<Query, { kind: 'FunctionScore' }>,
    ls: LiveSegment,
    private readonly filters: Array<Scorer | null>,
    private readonly boost: number,
  ) {
    this.cost = inner.cost;
    this.fns = q.functions.map((fn) => (fn.factory ? fn.factory(ls) : null));
  }
  private compute(doc: number): number {
    const sub = this.inner.score();
    const q = this.q;
    let factor: number;
    let any = false;
    let total = q.scoreMode === 'multiply' ? 1 : 0;
    let weightSum = 0;
    let first = true;
    for (let i = 0; i < q.functions.length; i++) {
      const fs = this.filters[i];
      if (fs) {
        let d = fs.doc;
        if (d < doc) d = fs.advance(doc);
        if (d !== doc) continue;
      } else if (q.functions[i]!.filter) continue;
      const spec = q.functions[i]!;
      const fn = this.fns[i];
      const v = fn ? spec.weight * fn(doc, sub) : spec.weight;
      any = true;
      switch (q.scoreMode) {
        case 'multiply':
          total *= v;
          break;
        case 'sum':
          total += v;
          break;
        case 'avg':
          total += v;
          weightSum += spec.weight;
          break;
        case 'first':
          if (first) total = v;
          break;
        case 'max':
          total = first ? v : Math.max(total, v);
          break;
        case 'min':
          total = first ? v : Math.min(total, v);
          break;
      }
      first = false;
      if (q.scoreMode === 'first') break;
    }
    if (!any) factor = 1;
    else if (q.scoreMode === 'avg') factor = weightSum === 0 ? 1 : total / weightSum;
    else factor = total;
    factor = Math.min(factor, q.maxBoost);
    let score: number;
    switch (q.boostMode) {
      case 'multiply':
        score = sub * factor;
        break;
      case 'replace':
        score = factor;
        break;
      case 'sum':
        score = sub + factor;
        break;
      case 'avg':
        score = (sub + factor) / 2;
        break;
      case 'max':
        score = Math.max(sub, factor);
        break;
      case 'min':
        score = Math.min(sub, factor);
        break;
    }
    return f(f(score) * this.boost);
  }
  private settle(doc: number): number {
    while (doc !== NO_MORE_DOCS) {
      this.cached = this.compute(doc);
      if (this.q.minScore === null || this.cached >= this.q.minScore) return (this.doc = doc);
      doc = this.inner.next();
    }
    return (this.doc = NO_MORE_DOCS);
  }
  next(): number {
    return this.settle(this.inner.next());
  }
  advance(target: number): number {
    return this.settle(this.inner.advance(target));
  }
  score(): number {
    return this.cached;
  }
}

/** Parent docs with the aggregated scores of their matching nested children. */
export class NestedScorer implements Scorer {
  doc = -1;
  private i = -1;
  readonly cost: number;
  private constructor(
    private readonly parents: Int32Array,
    private readonly scores: Float32Array,
  ) {
    this.cost = parents.length;
  }

  static build(
    child: Scorer,
    parentOf: Int32Array,
    mode: string,
    boost: number,
  ): NestedScorer | null {
    const parents: number[] = [];
    const scores: number[] = [];
    let cur = -1;
    let sum = 0;
    let n = 0;
    let min = Infinity;
    let max = -Infinity;
    const flush = () => {
      if (cur < 0) return;
      let s: number;
      switch (mode) {
        case 'sum':
          s = sum;
          break;
        case 'min':
          s = min;
          break;
        case 'max':
          s = max;
          break;
        case 'none':
          // Lucene ToParentBlockJoinQuery, ScoreMode.None: parents score 0
          s = 0;
          break;
        default:
          s = sum / n;
      }
      parents.push(cur);
      scores.push(f(f(s) * boost));
    };
    for (let c = child.next(); c !== NO_MORE_DOCS; c = child.next()) {
      const p = parentOf[c]!;
      const sc = child.score();
      if (p !== cur) {
        flush();
        cur = p;
        sum = 0;
        n = 0;
        min = Infinity;
        max = -Infinity;
      }
      sum += sc;
      n++;
      if (sc < min) min = sc;
      if (sc > max) max = sc;
    }
    flush();
    if (!parents.length) return null;
    // Children are stored in parent order, but sort defensively.
    const order = parents.map((_, k) => k).sort((a, b) => parents[a]! - parents[b]!);
    return new NestedScorer(
      Int32Array.from(order.map((k) => parents[k]!)),
      Float32Array.from(order.map((k) => scores[k]!)),
    );
  }

  next(): number {
    return (this.doc = ++this.i < this.parents.length ? this.parents[this.i]! : NO_MORE_DOCS);
  }
  advance(target: number): number {
    while (++this.i < this.parents.length)
      if (this.parents[this.i]! >= target) return (this.doc = this.parents[this.i]!);
    return (this.doc = NO_MORE_DOCS);
  }
  score(): number {
    return this.scores[this.i]!;
  }
}

export class BoostingScorer implements Scorer {
  doc = -1;
  readonly cost: number;
  constructor(
    private readonly pos: Scorer,
    private readonly neg: Scorer | null,
    private readonly negativeBoost: number,
  ) {
    this.cost = pos.cost;
  }
  next(): number {
    return (this.doc = this.pos.next());
  }
  advance(target: number): number {
    return (this.doc = this.pos.advance(target));
  }
  score(): number {
    const s = this.pos.score();
    if (!this.neg) return s;
    let d = this.neg.doc;
    if (d < this.doc) d = this.neg.advance(this.doc);
    return d === this.doc ? f(s * this.negativeBoost) : s;
  }
}
