/**
 * A scoring disjunction (sum of the matching clauses' scores) with MaxScore pruning (Turtle &
 * Flood; Lucene 8's MaxScoreSumPropagator ideas): once the collector reports the score a doc must
 * beat, the clauses whose summed upper bounds cannot beat it stop driving iteration and are only
 * probed for candidates of the others. When every clause bounds its score per postings block
 * (term scorers), the bounds are those of the current window of docs (up to the nearest block
 * end, Lucene 9's block-max MaxScore): windows whose block bounds sum to at most the threshold
 * are skipped whole. Without a threshold it is a plain disjunction. Scores are the exact sums the
 * unpruned disjunction computes (added in clause order, as DisjunctionScorer does, so float
 * rounding is identical); only docs that cannot compete are skipped.
 */
import { NO_MORE_DOCS, type Scorer } from './scorer.js';

const f = Math.fround;

export class MaxScoreScorer implements Scorer {
  doc = -1;
  readonly cost: number;
  /** Clauses by ascending upper bound. */
  private readonly subs: Scorer[];
  private readonly maxes: Float64Array;
  /** Clause index (in the query) of subs[i], and per clause the score on the candidate. */
  private readonly clauseOf: Int32Array;
  private readonly clauseScore: Float64Array;
  /** clauseStamp[c] === stamp: clause c matches the candidate. */
  private readonly clauseStamp: Int32Array;
  private stamp = 0;
  /** prefix[i]: summed upper bounds of subs[0..i). */
  private readonly prefix: Float64Array;
  /** subs[essential..] drive iteration; the others cannot make a doc competitive alone. */
  private essential = 0;
  private minCompetitive = -Infinity;
  private current = 0;
  /** Block-max windows: every clause bounds its score per block (shallowAdvance/blockMax). */
  private readonly windowed: boolean;
  /** Last doc of the current window (-1: none yet). */
  private windowEnd = -1;
  /** Per subs index: score bound within the window; subs indices by ascending bound. */
  private readonly wMax: Float64Array;
  private readonly wOrder: Int32Array;
  /** wPrefix[k]: summed window bounds of subs[wOrder[0..k)]. */
  private readonly wPrefix: Float64Array;
  /** subs[wOrder[wEssential..]] drive iteration in the window. */
  private wEssential = 0;
  constructor(clauses: Scorer[]) {
    const withMax = clauses.map((s, c) => ({ s, c, m: s.maxScore!() }));
    withMax.sort((a, b) => a.m - b.m);
    this.subs = withMax.map((x) => x.s);
    this.clauseOf = Int32Array.from(withMax.map((x) => x.c));
    this.clauseScore = new Float64Array(clauses.length);
    this.clauseStamp = new Int32Array(clauses.length);
    this.maxes = Float64Array.from(withMax.map((x) => x.m));
    this.prefix = new Float64Array(this.subs.length + 1);
    let cost = 0;
    for (let i = 0; i < this.subs.length; i++) {
      this.prefix[i + 1] = this.prefix[i]! + this.maxes[i]!;
      cost += this.subs[i]!.cost;
    }
    this.cost = cost;
    const n = this.subs.length;
    this.windowed = this.subs.every((x) => x.shallowAdvance !== undefined);
    this.wMax = new Float64Array(n);
    this.wOrder = new Int32Array(n);
    this.wPrefix = new Float64Array(n + 1);
  }

  maxScore(): number {
    return this.prefix[this.subs.length]!;
  }

  setMinCompetitiveScore(min: number): void {
    if (!(min > this.minCompetitive)) return;
    this.minCompetitive = min;
    if (this.windowed) {
      // the window bounds are re-partitioned; the clauses are not told (windows subsume it)
      if (this.windowEnd >= 0) this.partition();
      return;
    }
    const n = this.subs.length;
    while (this.essential < n && this.prefix[this.essential + 1]! <= min) this.essential++;
    // A clause's doc cannot compete when its own score is at most `min` minus every other
    // clause's bound: let it skip such blocks.
    const total = this.prefix[n]!;
    for (let i = 0; i < n; i++) {
      const s = this.subs[i]!;
      if (s.setMinCompetitiveScore) s.setMinCompetitiveScore(min - (total - this.maxes[i]!));
    }
  }

  next(): number {
    return this.find(this.doc + 1);
  }

  advance(target: number): number {
    return this.find(target);
  }

  score(): number {
    return this.current;
  }

  /** Orders the clauses by their window bound and finds the essential ones. */
  private partition(): void {
    const n = this.subs.length;
    const { wMax, wOrder, wPrefix } = this;
    for (let i = 0; i < n; i++) {
      const m = wMax[i]!;
      let k = i;
      while (k > 0 && wMax[wOrder[k - 1]!]! > m) {
        wOrder[k] = wOrder[k - 1]!;
        k--;
      }
      wOrder[k] = i;
    }
    for (let k = 0; k < n; k++) wPrefix[k + 1] = wPrefix[k]! + wMax[wOrder[k]!]!;
    const min = this.minCompetitive;
    let e = 0;
    while (e < n && wPrefix[e + 1]! <= min) e++;
    this.wEssential = e;
  }

  private find(target: number): number {
    return this.windowed && this.minCompetitive !== -Infinity
      ? this.findWindowed(target)
      : this.findGlobal(target);
  }

  /** As findGlobal, with the clause bounds of the window (of block bounds) holding each doc. */
  private findWindowed(target: number): number {
    const subs = this.subs;
    const n = subs.length;
    const { wOrder, wPrefix, clauseOf, clauseScore, clauseStamp } = this;
    for (;;) {
      if (target > this.windowEnd) {
        // A new window: up to the first block end of any clause at or after target.
        let end = NO_MORE_DOCS;
        for (let i = 0; i < n; i++) {
          const last = subs[i]!.shallowAdvance!(target);
          if (last < end) end = last;
        }
        if (end === NO_MORE_DOCS) return (this.doc = NO_MORE_DOCS);
        for (let i = 0; i < n; i++) this.wMax[i] = subs[i]!.blockMax!();
        this.windowEnd = end;
        this.partition();
      }
      const min = this.minCompetitive;
      const ess = this.wEssential;
      if (ess >= n) {
        target = this.windowEnd + 1;
        continue;
      }
      let cand = NO_MORE_DOCS;
      for (let k = ess; k < n; k++) {
        const s = subs[wOrder[k]!]!;
        let d = s.doc;
        if (d < target) d = s.advance(target);
        if (d < cand) cand = d;
      }
      if (cand > this.windowEnd) {
        if (cand === NO_MORE_DOCS && ess === 0) return (this.doc = NO_MORE_DOCS);
        target = this.windowEnd + 1;
        continue;
      }
      const stamp = ++this.stamp;
      let sum = 0;
      for (let k = n - 1; k >= ess; k--) {
        const i = wOrder[k]!;
        const s = subs[i]!;
        if (s.doc === cand) {
          const sc = s.score();
          sum += sc;
          clauseScore[clauseOf[i]!] = sc;
          clauseStamp[clauseOf[i]!] = stamp;
        }
      }
      let competitive = true;
      for (let k = ess - 1; k >= 0; k--) {
        if (sum + wPrefix[k + 1]! <= min) {
          competitive = false;
          break;
        }
        const i = wOrder[k]!;
        const s = subs[i]!;
        let d = s.doc;
        if (d < cand) d = s.advance(cand);
        if (d === cand) {
          const sc = s.score();
          sum += sc;
          clauseScore[clauseOf[i]!] = sc;
          clauseStamp[clauseOf[i]!] = stamp;
        }
      }
      if (competitive) {
        let ordered = 0;
        for (let c = 0; c < n; c++) if (clauseStamp[c] === stamp) ordered += clauseScore[c]!;
        const score = f(ordered);
        if (score > min) {
          this.current = score;
          return (this.doc = cand);
        }
      }
      target = cand + 1;
    }
  }

  /** The first doc >= target that the essential clauses match and that can still compete. */
  private findGlobal(target: number): number {
    const subs = this.subs;
    const n = subs.length;
    const min = this.minCompetitive;
    const ess = this.essential;
    if (ess >= n) return (this.doc = NO_MORE_DOCS);
    for (;;) {
      let cand = NO_MORE_DOCS;
      for (let i = ess; i < n; i++) {
        const s = subs[i]!;
        let d = s.doc;
        if (d < target) d = s.advance(target);
        if (d < cand) cand = d;
      }
      if (cand === NO_MORE_DOCS) return (this.doc = NO_MORE_DOCS);
      const stamp = ++this.stamp;
      const { clauseOf, clauseScore, clauseStamp } = this;
      // `sum` bounds the score from below while clauses are probed; the reported score is re-added
      // in clause order.
      let sum = 0;
      for (let i = n - 1; i >= ess; i--) {
        const s = subs[i]!;
        if (s.doc === cand) {
          const sc = s.score();
          sum += sc;
          clauseScore[clauseOf[i]!] = sc;
          clauseStamp[clauseOf[i]!] = stamp;
        }
      }
      let competitive = true;
      for (let i = ess - 1; i >= 0; i--) {
        if (sum + this.prefix[i + 1]! <= min) {
          competitive = false;
          break;
        }
        const s = subs[i]!;
        let d = s.doc;
        if (d < cand) d = s.advance(cand);
        if (d === cand) {
          const sc = s.score();
          sum += sc;
          clauseScore[clauseOf[i]!] = sc;
          clauseStamp[clauseOf[i]!] = stamp;
        }
      }
      if (competitive) {
        let ordered = 0;
        for (let c = 0; c < n; c++) if (clauseStamp[c] === stamp) ordered += clauseScore[c]!;
        const score = f(ordered);
        if (score > min) {
          this.current = score;
          return (this.doc = cand);
        }
      }
      target = cand + 1;
    }
  }
}
