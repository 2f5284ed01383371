/**
 * A scoring disjunction (sum of the matching clauses' scores) with MaxScore pruning (Turtle &
 * Flood; Lucene 8's MaxScoreSumPropagator ideas): once the collector reports the score a doc must
 * beat, the clauses whose summed upper bounds cannot beat it stop driving iteration and are only
 * probed for candidates of the others. Without a threshold it is a plain disjunction. Scores are
 * the exact sums the unpruned disjunction computes (added in clause order, as DisjunctionScorer
 * does, so float rounding is identical); only docs that cannot compete are skipped.
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
  }

  maxScore(): number {
    return this.prefix[this.subs.length]!;
  }

  setMinCompetitiveScore(min: number): void {
    if (!(min > this.minCompetitive)) return;
    this.minCompetitive = min;
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

  /** The first doc >= target that the essential clauses match and that can still compete. */
  private find(target: number): number {
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
