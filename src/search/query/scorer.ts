/**
 * Doc-at-a-time iteration (Lucene DocIdSetIterator + Scorer): every matching query yields doc ids
 * of one segment in increasing order, with a score for the current doc. Deleted docs are skipped
 * by the collector, not here.
 */
import type { Bitset } from '../index/bitset.js';
import { gallop } from '../index/gallop.js';

export const NO_MORE_DOCS = 0x7fffffff;

export interface Scorer {
  /** Current doc: -1 before the first next(), NO_MORE_DOCS when exhausted. */
  doc: number;
  next(): number;
  /** First doc >= target (target > doc). */
  advance(target: number): number;
  score(): number;
  /** Estimated number of matches (for ordering conjunctions). */
  readonly cost: number;
  /**
   * Top-k pruning (Lucene 8 Scorer.getMaxScore/setMinCompetitiveScore, used here only where the
   * hit total comes from elsewhere): an upper bound of score() over every doc...
   */
  maxScore?(): number;
  /** ...and permission to skip docs whose score cannot exceed `min`. */
  setMinCompetitiveScore?(min: number): void;
  /**
   * Block-max pruning (Lucene advanceShallow/getMaxScore(upTo)): the last doc of the block
   * holding the first match >= target (NO_MORE_DOCS when none), without moving the iterator...
   */
  shallowAdvance?(target: number): number;
  /** ...and a bound of score() over every doc of that block. */
  blockMax?(): number;
  /**
   * Random-access check (Lucene TwoPhaseIterator over doc values, IndexOrDocValuesQuery): a
   * conjunction led by a much cheaper clause asks `verify(doc)` instead of iterating this
   * scorer; on true the scorer is positioned on `doc`.
   */
  verify?(doc: number): boolean;
}

/** Relative safety margin for score upper bounds (float rounding in monotone formulas). */
export const BOUND_MARGIN = 1 + 2 ** -16;

/** Iterates a sorted doc id array with a constant score. */
export class ArrayScorer implements Scorer {
  doc = -1;
  private i = -1;
  readonly cost: number;
  constructor(
    private readonly docs: Int32Array,
    private readonly value: number,
    private readonly start = 0,
    private readonly end = docs.length,
  ) {
    this.cost = end - start;
    this.i = start - 1;
  }
  next(): number {
    return (this.doc = ++this.i < this.end ? this.docs[this.i]! : NO_MORE_DOCS);
  }
  advance(target: number): number {
    const lo = gallop(this.docs, this.i + 1, this.end, target);
    this.i = lo;
    return (this.doc = lo < this.end ? this.docs[lo]! : NO_MORE_DOCS);
  }
  score(): number {
    return this.value;
  }
}

export class BitsetScorer implements Scorer {
  doc = -1;
  readonly cost: number;
  constructor(
    private readonly bits: Bitset,
    private readonly value: number,
    cost?: number,
  ) {
    this.cost = cost ?? bits.size;
  }
  next(): number {
    const n = this.bits.nextSetBit(this.doc + 1);
    return (this.doc = n < 0 ? NO_MORE_DOCS : n);
  }
  advance(target: number): number {
    const n = this.bits.nextSetBit(target);
    return (this.doc = n < 0 ? NO_MORE_DOCS : n);
  }
  score(): number {
    return this.value;
  }
}

export class AllDocsScorer implements Scorer {
  doc = -1;
  readonly cost: number;
  constructor(
    private readonly maxDoc: number,
    private readonly value: number,
  ) {
    this.cost = maxDoc;
  }
  next(): number {
    return (this.doc = this.doc + 1 < this.maxDoc ? this.doc + 1 : NO_MORE_DOCS);
  }
  advance(target: number): number {
    return (this.doc = target < this.maxDoc ? target : NO_MORE_DOCS);
  }
  score(): number {
    return this.value;
  }
}

/** Wraps a scorer to report a fixed score (constant_score, filters). */
export class ConstantScorer implements Scorer {
  doc = -1;
  readonly cost: number;
  constructor(
    private readonly inner: Scorer,
    private readonly value: number,
  ) {
    this.cost = inner.cost;
    const check = inner.verify;
    if (check) {
      this.verify = (doc) => {
        if (!check.call(inner, doc)) return false;
        this.doc = doc;
        return true;
      };
    }
  }
  verify?: (doc: number) => boolean;
  next(): number {
    return (this.doc = this.inner.next());
  }
  advance(target: number): number {
    return (this.doc = this.inner.advance(target));
  }
  score(): number {
    return this.value;
  }
}

/** Scorer over docs matching a predicate over all docs of a segment (scripts, doc-value checks). */
export class PredicateScorer implements Scorer {
  doc = -1;
  readonly cost: number;
  constructor(
    private readonly maxDoc: number,
    private readonly test: (doc: number) => boolean,
    private readonly value: number,
  ) {
    this.cost = maxDoc;
  }
  next(): number {
    return this.advance(this.doc + 1);
  }
  advance(target: number): number {
    for (let d = target; d < this.maxDoc; d++) if (this.test(d)) return (this.doc = d);
    return (this.doc = NO_MORE_DOCS);
  }
  score(): number {
    return this.value;
  }
}

/** Materialises any scorer's docs into a sorted array (for caching filters). */
export function collectDocs(s: Scorer): Int32Array {
  const out: number[] = [];
  for (let d = s.next(); d !== NO_MORE_DOCS; d = s.next()) out.push(d);
  return Int32Array.from(out);
}
