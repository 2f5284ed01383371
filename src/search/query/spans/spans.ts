/**
 * Span enumeration (Lucene 7.7 Spans): per document, the matches of a span query in order of
 * start then end position. Every `nextDoc`/`advance` lands on a document that really matches,
 * with its positions not yet read (`startPosition()` -1), which is what Lucene's two-phase
 * iteration guarantees its parents. Term positions are read straight from the postings.
 */
import type { InvertedField, PackedInts } from '../../index/segment.js';
import { NO_MORE_DOCS } from '../scorer.js';
import { NO_MORE_POSITIONS } from './types.js';
import { gallop } from '../../index/gallop.js';

export { NO_MORE_POSITIONS };

export interface Spans {
  /** Current doc: -1 before the first nextDoc(), NO_MORE_DOCS when exhausted. */
  readonly doc: number;
  readonly cost: number;
  nextDoc(): number;
  /** First matching doc >= target (target > doc). */
  advance(target: number): number;
  /** Next match in the current doc, NO_MORE_POSITIONS after the last. */
  nextStartPosition(): number;
  startPosition(): number;
  endPosition(): number;
  /** Lucene Spans.width(): the slop of the current match (its sloppy frequency is 1/(w+1)). */
  width(): number;
}

/** Lucene TermSpans: one term's postings, each position a span [p, p + 1) of width 0. */
export class TermSpans implements Spans {
  doc = -1;
  readonly cost: number;
  private i: number;
  private readonly end: number;
  private readonly docs: Int32Array;
  private readonly freqs: PackedInts;
  private readonly positions: PackedInts;
  private freq = 0;
  private count = 0;
  private posBase = 0;
  private pos = -1;
  constructor(
    inv: InvertedField,
    ord: number,
    private readonly posOff: Int32Array,
  ) {
    const start = inv.termStart[ord]!;
    this.end = inv.termStart[ord + 1]!;
    this.i = start - 1;
    this.cost = this.end - start;
    this.docs = inv.docs;
    this.freqs = inv.freqs!;
    this.positions = inv.positions!;
  }
  private at(i: number): number {
    this.i = i;
    this.pos = -1;
    if (i >= this.end) return (this.doc = NO_MORE_DOCS);
    this.freq = this.freqs[i]!;
    this.count = 0;
    this.posBase = this.posOff[i]!;
    return (this.doc = this.docs[i]!);
  }
  nextDoc(): number {
    return this.at(this.i + 1);
  }
  advance(target: number): number {
    return this.at(gallop(this.docs, this.i + 1, this.end, target));
  }
  nextStartPosition(): number {
    if (this.count === this.freq) return (this.pos = NO_MORE_POSITIONS);
    return (this.pos = this.positions[this.posBase + this.count++]!);
  }
  startPosition(): number {
    return this.pos;
  }
  endPosition(): number {
    const p = this.pos;
    return p === -1 ? -1 : p === NO_MORE_POSITIONS ? NO_MORE_POSITIONS : p + 1;
  }
  width(): number {
    return 0;
  }
}

/**
 * SpanNearQuery.GapSpans (span_gap): matches at every position of every doc, `width` wide. Only
 * ordered near spans use it, which position it with skipToPosition.
 */
export class GapSpans implements Spans {
  doc = -1;
  readonly cost = 0;
  private pos = -1;
  constructor(private readonly gap: number) {}
  nextDoc(): number {
    this.pos = -1;
    return ++this.doc;
  }
  advance(target: number): number {
    this.pos = -1;
    return (this.doc = target);
  }
  nextStartPosition(): number {
    return ++this.pos;
  }
  skipToPosition(position: number): number {
    return (this.pos = position);
  }
  startPosition(): number {
    return this.pos;
  }
  endPosition(): number {
    return this.pos + this.gap;
  }
  width(): number {
    return this.gap;
  }
}

/**
 * Lucene's PriorityQueue (1-based binary heap, `lessThan` on the top) over the indexes of a fixed
 * set of items: same sift order, so ties resolve as they do in Lucene.
 */
export class IndexHeap {
  private readonly heap: Int32Array;
  size = 0;
  constructor(
    capacity: number,
    private readonly lessThan: (a: number, b: number) => boolean,
  ) {
    this.heap = new Int32Array(capacity + 1);
  }
  clear(): void {
    this.size = 0;
  }
  top(): number {
    return this.heap[1]!;
  }
  /** Heap slot `k` (1-based), for walking the items equal to the top. */
  at(k: number): number {
    return this.heap[k]!;
  }
  add(item: number): void {
    const h = this.heap;
    let i = ++this.size;
    let j = i >>> 1;
    while (j > 0 && this.lessThan(item, h[j]!)) {
      h[i] = h[j]!;
      i = j;
      j >>>= 1;
    }
    h[i] = item;
  }
  /** Restores the heap after the top item changed. */
  updateTop(): number {
    const h = this.heap;
    const size = this.size;
    const node = h[1]!;
    let i = 1;
    let j = 2;
    let k = 3;
    if (k <= size && this.lessThan(h[k]!, h[j]!)) j = k;
    while (j <= size && this.lessThan(h[j]!, node)) {
      h[i] = h[j]!;
      i = j;
      j = i << 1;
      k = j + 1;
      if (k <= size && this.lessThan(h[k]!, h[j]!)) j = k;
    }
    h[i] = node;
    return h[1]!;
  }
}

/**
 * SpanOrQuery's spans: the union of its clauses' docs, and at a doc the matches of every clause
 * there, merged by start then end position.
 */
export class OrSpans implements Spans {
  doc = -1;
  readonly cost: number;
  private readonly byDoc: IndexHeap;
  private readonly byPos: IndexHeap;
  /** Clause whose match is current (-1: positions not started in this doc). */
  private top = -1;
  private readonly stack: Int32Array;
  constructor(private readonly subs: Spans[]) {
    let cost = 0;
    for (const s of subs) cost += s.cost;
    this.cost = cost;
    this.byDoc = new IndexHeap(subs.length, (a, b) => subs[a]!.doc < subs[b]!.doc);
    this.byPos = new IndexHeap(subs.length, (a, b) => positionsOrdered(subs[a]!, subs[b]!));
    for (let i = 0; i < subs.length; i++) this.byDoc.add(i);
    this.stack = new Int32Array(subs.length + 1);
  }
  nextDoc(): number {
    this.top = -1;
    if (this.doc === NO_MORE_DOCS) return NO_MORE_DOCS;
    const subs = this.subs;
    const heap = this.byDoc;
    const current = subs[heap.top()]!.doc;
    let t: number;
    do {
      subs[heap.top()]!.nextDoc();
      t = heap.updateTop();
    } while (subs[t]!.doc === current);
    return (this.doc = subs[t]!.doc);
  }
  advance(target: number): number {
    this.top = -1;
    const subs = this.subs;
    const heap = this.byDoc;
    let t: number;
    do {
      subs[heap.top()]!.advance(target);
      t = heap.updateTop();
    } while (subs[t]!.doc < target);
    return (this.doc = subs[t]!.doc);
  }
  /** Starts every clause on the current doc (the heap slots holding it) and queues them. */
  private fill(): void {
    const subs = this.subs;
    const heap = this.byDoc;
    const doc = this.doc;
    const pos = this.byPos;
    const stack = this.stack;
    pos.clear();
    let n = 0;
    stack[n++] = 1;
    while (n > 0) {
      const k = stack[--n]!;
      if (k > heap.size) continue;
      const i = heap.at(k);
      const s = subs[i]!;
      if (s.doc !== doc) continue;
      s.nextStartPosition();
      pos.add(i);
      stack[n++] = 2 * k + 1;
      stack[n++] = 2 * k;
    }
  }
  nextStartPosition(): number {
    if (this.top < 0) {
      this.fill();
      this.top = this.byPos.top();
    } else {
      this.subs[this.top]!.nextStartPosition();
      this.top = this.byPos.updateTop();
    }
    return this.subs[this.top]!.startPosition();
  }
  startPosition(): number {
    return this.top < 0 ? -1 : this.subs[this.top]!.startPosition();
  }
  endPosition(): number {
    return this.top < 0 ? -1 : this.subs[this.top]!.endPosition();
  }
  width(): number {
    return this.subs[this.top]!.width();
  }
}

/** NearSpansUnordered.positionsOrdered: a starts before b, or at the same place and ends first. */
export function positionsOrdered(a: Spans, b: Spans): boolean {
  const s1 = a.startPosition();
  const s2 = b.startPosition();
  return s1 === s2 ? a.endPosition() < b.endPosition() : s1 < s2;
}

/** FilterSpans.AcceptStatus. */
export const Accept = { YES: 0, NO: 1, NO_MORE_IN_CURRENT_DOC: 2 } as const;
export type Accept = (typeof Accept)[keyof typeof Accept];

/**
 * Lucene FilterSpans: the matches of `inner` a check accepts; a doc matches when one does.
 * span_not (SpanNotQuery) and span_first (SpanPositionCheckQuery) are filters.
 */
export class FilterSpans implements Spans {
  private atFirst = false;
  private startPos = -1;
  readonly cost: number;
  constructor(
    private readonly inner: Spans,
    private readonly accept: (candidate: Spans) => Accept,
  ) {
    this.cost = inner.cost;
  }
  get doc(): number {
    return this.inner.doc;
  }
  nextDoc(): number {
    for (;;) {
      const d = this.inner.nextDoc();
      if (d === NO_MORE_DOCS || this.currentDocMatches()) return d;
    }
  }
  advance(target: number): number {
    let d = this.inner.advance(target);
    while (d !== NO_MORE_DOCS && !this.currentDocMatches()) d = this.inner.nextDoc();
    return d;
  }
  private currentDocMatches(): boolean {
    this.atFirst = false;
    this.startPos = this.inner.nextStartPosition();
    for (;;) {
      switch (this.accept(this.inner)) {
        case Accept.YES:
          this.atFirst = true;
          return true;
        case Accept.NO:
          this.startPos = this.inner.nextStartPosition();
          if (this.startPos !== NO_MORE_POSITIONS) break;
          this.startPos = -1;
          return false;
        case Accept.NO_MORE_IN_CURRENT_DOC:
          this.startPos = -1;
          return false;
      }
    }
  }
  nextStartPosition(): number {
    if (this.atFirst) {
      this.atFirst = false;
      return this.startPos;
    }
    for (;;) {
      this.startPos = this.inner.nextStartPosition();
      if (this.startPos === NO_MORE_POSITIONS) return NO_MORE_POSITIONS;
      switch (this.accept(this.inner)) {
        case Accept.YES:
          return this.startPos;
        case Accept.NO:
          break;
        case Accept.NO_MORE_IN_CURRENT_DOC:
          return (this.startPos = NO_MORE_POSITIONS);
      }
    }
  }
  startPosition(): number {
    return this.atFirst ? -1 : this.startPos;
  }
  endPosition(): number {
    if (this.atFirst) return -1;
    return this.startPos !== NO_MORE_POSITIONS ? this.inner.endPosition() : NO_MORE_POSITIONS;
  }
  width(): number {
    return this.inner.width();
  }
}

/** SpanNotQuery's check: no `exclude` match within `pre` positions before to `post` after. */
export function notAccept(exclude: Spans, pre: number, post: number): (c: Spans) => Accept {
  return (c) => {
    const doc = c.doc;
    if (doc > exclude.doc) exclude.advance(doc);
    if (doc !== exclude.doc) return Accept.YES;
    if (exclude.startPosition() === -1) exclude.nextStartPosition();
    while (exclude.endPosition() <= c.startPosition() - pre) {
      if (exclude.nextStartPosition() === NO_MORE_POSITIONS) return Accept.YES;
    }
    return exclude.startPosition() - post >= c.endPosition() ? Accept.YES : Accept.NO;
  };
}

/** SpanFirstQuery's check: matches ending at or before `end`; none after one starting at it. */
export function firstAccept(end: number): (c: Spans) => Accept {
  return (c) => {
    if (c.startPosition() >= end) return Accept.NO_MORE_IN_CURRENT_DOC;
    return c.endPosition() <= end ? Accept.YES : Accept.NO;
  };
}
