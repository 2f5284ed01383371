/**
 * Combining scorers as Lucene 7's BooleanWeight does: conjunctions (leap-frog from the cheapest
 * clause), disjunctions with minimum-should-match (a heap ordered by doc), required-excluded and
 * required-optional. Sums are accumulated in double and rounded to float at the end, as Lucene.
 */
import { NO_MORE_DOCS, type Scorer } from './scorer.js';

const f = Math.fround;

export class ConjunctionScorer implements Scorer {
  doc = -1;
  readonly cost: number;
  private readonly lead: Scorer;
  private readonly others: Scorer[] = [];
  /** Clauses checked per candidate instead of iterated (IndexOrDocValuesQuery's choice). */
  private readonly checks: Scorer[] = [];
  constructor(
    required: Scorer[],
    /** The subset that contributes to the score. */
    private readonly scoring: Scorer[],
  ) {
    const sorted = [...required].sort((a, b) => a.cost - b.cost);
    this.lead = sorted[0]!;
    // Lucene IndexOrDocValuesQuery picks doc values when the index would visit more than 8x the
    // lead's docs; here the index side also sorts its doc ids (points are in value order), so
    // checking doc values wins as soon as the range holds more docs than the lead.
    for (let i = 1; i < sorted.length; i++) {
      const s = sorted[i]!;
      if (s.verify && s.cost > this.lead.cost) this.checks.push(s);
      else this.others.push(s);
    }
    this.cost = this.lead.cost;
  }
  private align(target: number): number {
    let doc = target;
    const others = this.others;
    const checks = this.checks;
    outer: while (doc !== NO_MORE_DOCS) {
      for (let i = 0; i < others.length; i++) {
        const s = others[i]!;
        let d = s.doc;
        if (d < doc) d = s.advance(doc);
        if (d > doc) {
          doc = this.lead.advance(d);
          continue outer;
        }
      }
      for (let i = 0; i < checks.length; i++) {
        if (!checks[i]!.verify!(doc)) {
          doc = this.lead.next();
          continue outer;
        }
      }
      return (this.doc = doc);
    }
    return (this.doc = NO_MORE_DOCS);
  }
  next(): number {
    return this.align(this.lead.next());
  }
  advance(target: number): number {
    return this.align(this.lead.advance(target));
  }
  score(): number {
    let sum = 0;
    const scoring = this.scoring;
    for (let i = 0; i < scoring.length; i++) sum += scoring[i]!.score();
    return f(sum);
  }
}

/** Union of scorers; with minShouldMatch > 1 only docs matching that many clauses. */
export class DisjunctionScorer implements Scorer {
  doc = -1;
  readonly cost: number;
  private readonly heap: Scorer[];
  private matched = 0;
  constructor(
    private readonly subs: Scorer[],
    private readonly minShouldMatch = 1,
    /** Score by max (+ tieBreaker × others) instead of sum: dis_max. */
    private readonly disMax: { tieBreaker: number } | null = null,
  ) {
    this.cost = subs.reduce((a, s) => a + s.cost, 0);
    this.heap = [...subs];
  }
  private siftDown(i: number): void {
    const h = this.heap;
    const n = h.length;
    const x = h[i]!;
    while (true) {
      let c = 2 * i + 1;
      if (c >= n) break;
      if (c + 1 < n && h[c + 1]!.doc < h[c]!.doc) c++;
      if (h[c]!.doc >= x.doc) break;
      h[i] = h[c]!;
      i = c;
    }
    h[i] = x;
  }
  private heapify(): void {
    for (let i = (this.heap.length >>> 1) - 1; i >= 0; i--) this.siftDown(i);
  }
  private started = false;
  /** Moves to the next candidate >= target that satisfies minShouldMatch. */
  private settle(): number {
    const h = this.heap;
    while (h.length > 0) {
      const top = h[0]!.doc;
      if (top === NO_MORE_DOCS) return (this.doc = NO_MORE_DOCS);
      let count = 0;
      for (const s of this.subs) if (s.doc === top) count++;
      if (count >= this.minShouldMatch) {
        this.matched = count;
        return (this.doc = top);
      }
      // Not enough clauses: advance every scorer on `top`.
      for (const s of this.subs) if (s.doc === top) s.next();
      this.heapify();
    }
    return (this.doc = NO_MORE_DOCS);
  }
  next(): number {
    if (!this.started) {
      this.started = true;
      for (const s of this.subs) s.next();
      this.heapify();
      return this.settle();
    }
    const cur = this.doc;
    for (const s of this.subs) if (s.doc === cur) s.next();
    this.heapify();
    return this.settle();
  }
  advance(target: number): number {
    this.started = true;
    for (const s of this.subs) if (s.doc < target) s.advance(target);
    this.heapify();
    return this.settle();
  }
  score(): number {
    const d = this.doc;
    if (this.disMax) {
      let max = 0;
      let sum = 0;
      for (const s of this.subs) {
        if (s.doc !== d) continue;
        const sc = s.score();
        sum += sc;
        if (sc > max) max = sc;
      }
      return f(max + (sum - max) * this.disMax.tieBreaker);
    }
    let sum = 0;
    for (const s of this.subs) if (s.doc === d) sum += s.score();
    return f(sum);
  }
  /** Number of clauses matching the current doc. */
  matches(): number {
    return this.matched;
  }
}

export class ReqExclScorer implements Scorer {
  doc = -1;
  readonly cost: number;
  constructor(
    private readonly req: Scorer,
    private readonly excl: Scorer,
  ) {
    this.cost = req.cost;
  }
  private check(doc: number): number {
    while (doc !== NO_MORE_DOCS) {
      let e = this.excl.doc;
      if (e < doc) e = this.excl.advance(doc);
      if (e !== doc) return (this.doc = doc);
      doc = this.req.next();
    }
    return (this.doc = NO_MORE_DOCS);
  }
  next(): number {
    return this.check(this.req.next());
  }
  advance(target: number): number {
    return this.check(this.req.advance(target));
  }
  score(): number {
    return this.req.score();
  }
}

export class ReqOptScorer implements Scorer {
  doc = -1;
  readonly cost: number;
  constructor(
    private readonly req: Scorer,
    private readonly opt: Scorer,
  ) {
    this.cost = req.cost;
  }
  next(): number {
    return (this.doc = this.req.next());
  }
  advance(target: number): number {
    return (this.doc = this.req.advance(target));
  }
  score(): number {
    const s = this.req.score();
    let o = this.opt.doc;
    if (o < this.doc) o = this.opt.advance(this.doc);
    // Lucene ReqOptSumScorer adds two floats.
    return o === this.doc ? f(s + this.opt.score()) : s;
  }
}

export class EmptyScorer implements Scorer {
  doc = -1;
  readonly cost = 0;
  next(): number {
    return (this.doc = NO_MORE_DOCS);
  }
  advance(): number {
    return (this.doc = NO_MORE_DOCS);
  }
  score(): number {
    return 0;
  }
}
