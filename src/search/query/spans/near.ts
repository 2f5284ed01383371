/**
 * Spans over docs where every clause matches (Lucene 7.7 ConjunctionSpans): span_near ordered
 * (NearSpansOrdered: lazy, each later clause only moves forward) and unordered
 * (NearSpansUnordered: a window over the clauses' current matches), span_containing and
 * span_within (ContainSpans).
 */
import { NO_MORE_DOCS } from '../scorer.js';
import { GapSpans, IndexHeap, NO_MORE_POSITIONS, positionsOrdered, type Spans } from './spans.js';

abstract class ConjunctionSpans implements Spans {
  doc = -1;
  readonly cost: number;
  /** Clauses that lead the doc iteration, cheapest first (gaps match every doc). */
  private readonly lead: Spans[];
  private readonly gaps: GapSpans[];
  /** A first match is ready in the current doc (positions report -1 until it is taken). */
  protected atFirst = true;
  protected oneExhausted = false;

  constructor(protected readonly subs: Spans[]) {
    this.lead = subs.filter((s) => !(s instanceof GapSpans)).sort((a, b) => a.cost - b.cost);
    this.gaps = subs.filter((s): s is GapSpans => s instanceof GapSpans);
    this.cost = this.lead.length > 0 ? this.lead[0]!.cost : 0;
  }

  /** First doc >= target every clause matches (ConjunctionDISI leap-frogging). */
  private align(target: number): number {
    const lead = this.lead;
    let doc = target;
    for (let i = 0; i < lead.length;) {
      const s = lead[i]!;
      const d = s.doc < doc ? s.advance(doc) : s.doc;
      if (d === NO_MORE_DOCS) return NO_MORE_DOCS;
      if (d > doc) {
        doc = d;
        i = 0;
      } else i++;
    }
    for (const g of this.gaps) g.advance(doc);
    return doc;
  }

  private toMatch(doc: number): number {
    while (doc !== NO_MORE_DOCS) {
      this.doc = doc;
      this.oneExhausted = false;
      if (this.currentDocMatches()) return doc;
      doc = this.align(doc + 1);
    }
    return (this.doc = NO_MORE_DOCS);
  }

  nextDoc(): number {
    if (this.doc === NO_MORE_DOCS) return NO_MORE_DOCS;
    return this.toMatch(this.align(this.doc + 1));
  }

  advance(target: number): number {
    return this.toMatch(this.align(target));
  }

  /** Lucene twoPhaseCurrentDocMatches: the clauses are on the doc, positions unread. */
  protected abstract currentDocMatches(): boolean;
  abstract nextStartPosition(): number;
  abstract startPosition(): number;
  abstract endPosition(): number;
  abstract width(): number;
}

/**
 * NearSpansOrdered: clause matches in clause order, not overlapping, with at most `slop`
 * positions between them in all (the match width). For each match of the first clause the
 * others are moved forward just far enough, never back, so later matches can be missed.
 */
export class NearOrderedSpans extends ConjunctionSpans {
  private matchStart = -1;
  private matchEnd = -1;
  private matchWidth = -1;

  constructor(
    subs: Spans[],
    private readonly slop: number,
  ) {
    super(subs);
  }

  protected currentDocMatches(): boolean {
    this.oneExhausted = false;
    return (this.atFirst = this.nextMatch());
  }

  private nextMatch(): boolean {
    const first = this.subs[0]!;
    while (first.nextStartPosition() !== NO_MORE_POSITIONS && !this.oneExhausted) {
      if (this.stretchToOrder() && this.matchWidth <= this.slop) return true;
    }
    return false;
  }

  private stretchToOrder(): boolean {
    const subs = this.subs;
    let prev = subs[0]!;
    this.matchStart = prev.startPosition();
    this.matchWidth = 0;
    for (let i = 1; i < subs.length; i++) {
      const s = subs[i]!;
      const prevEnd = prev.endPosition();
      let start: number;
      if (s instanceof GapSpans) start = s.skipToPosition(prevEnd);
      else {
        while (s.startPosition() < prevEnd) s.nextStartPosition();
        start = s.startPosition();
      }
      if (start === NO_MORE_POSITIONS) {
        this.oneExhausted = true;
        return false;
      }
      this.matchWidth += start - prevEnd;
      prev = s;
    }
    this.matchEnd = subs[subs.length - 1]!.endPosition();
    return true;
  }

  nextStartPosition(): number {
    if (this.atFirst) {
      this.atFirst = false;
      return this.matchStart;
    }
    this.oneExhausted = false;
    if (this.nextMatch()) return this.matchStart;
    return (this.matchStart = this.matchEnd = NO_MORE_POSITIONS);
  }

  startPosition(): number {
    return this.atFirst ? -1 : this.matchStart;
  }

  endPosition(): number {
    return this.atFirst ? -1 : this.matchEnd;
  }

  width(): number {
    return this.matchWidth;
  }
}

/**
 * NearSpansUnordered: the clauses' current matches form a window from the smallest start to the
 * largest end; it matches when the window minus the matches' lengths is at most `slop`. The
 * match width is the whole window (end - start), as Lucene 7 reports it.
 */
export class NearUnorderedSpans extends ConjunctionSpans {
  private readonly window: IndexHeap;
  private totalSpanLength = 0;
  private maxEndPosition = -1;

  constructor(
    subs: Spans[],
    private readonly slop: number,
  ) {
    super(subs);
    this.window = new IndexHeap(subs.length, (a, b) => positionsOrdered(subs[a]!, subs[b]!));
  }

  private startDocument(): void {
    const w = this.window;
    w.clear();
    this.totalSpanLength = 0;
    this.maxEndPosition = -1;
    const subs = this.subs;
    for (let i = 0; i < subs.length; i++) {
      const s = subs[i]!;
      s.nextStartPosition();
      w.add(i);
      const end = s.endPosition();
      if (end > this.maxEndPosition) this.maxEndPosition = end;
      this.totalSpanLength += end - s.startPosition();
    }
  }

  private nextPosition(): boolean {
    const top = this.subs[this.window.top()]!;
    const before = top.endPosition() - top.startPosition();
    if (top.nextStartPosition() === NO_MORE_POSITIONS) return false;
    const end = top.endPosition();
    this.totalSpanLength += end - top.startPosition() - before;
    if (end > this.maxEndPosition) this.maxEndPosition = end;
    this.window.updateTop();
    return true;
  }

  private atMatch(): boolean {
    const start = this.subs[this.window.top()]!.startPosition();
    return this.maxEndPosition - start - this.totalSpanLength <= this.slop;
  }

  protected currentDocMatches(): boolean {
    this.startDocument();
    for (;;) {
      if (this.atMatch()) {
        this.atFirst = true;
        this.oneExhausted = false;
        return true;
      }
      if (!this.nextPosition()) return false;
    }
  }

  nextStartPosition(): number {
    if (this.atFirst) {
      this.atFirst = false;
      return this.subs[this.window.top()]!.startPosition();
    }
    for (;;) {
      if (!this.nextPosition()) {
        this.oneExhausted = true;
        return NO_MORE_POSITIONS;
      }
      if (this.atMatch()) return this.subs[this.window.top()]!.startPosition();
    }
  }

  startPosition(): number {
    if (this.atFirst) return -1;
    return this.oneExhausted ? NO_MORE_POSITIONS : this.subs[this.window.top()]!.startPosition();
  }

  endPosition(): number {
    if (this.atFirst) return -1;
    return this.oneExhausted ? NO_MORE_POSITIONS : this.maxEndPosition;
  }

  width(): number {
    return this.maxEndPosition - this.subs[this.window.top()]!.startPosition();
  }
}

/** ContainSpans: big and little on the same doc; the matches reported are `source`'s. */
abstract class ContainSpans extends ConjunctionSpans {
  constructor(
    protected readonly big: Spans,
    protected readonly little: Spans,
    private readonly source: Spans,
  ) {
    super([big, little]);
  }
  startPosition(): number {
    if (this.atFirst) return -1;
    return this.oneExhausted ? NO_MORE_POSITIONS : this.source.startPosition();
  }
  endPosition(): number {
    if (this.atFirst) return -1;
    return this.oneExhausted ? NO_MORE_POSITIONS : this.source.endPosition();
  }
  width(): number {
    return this.source.width();
  }
}

/** SpanContainingQuery: matches of big that contain a match of little. */
export class ContainingSpans extends ContainSpans {
  constructor(big: Spans, little: Spans) {
    super(big, little, big);
  }
  /** The next big match containing a little one (little only moves forward). */
  private nextContaining(): boolean {
    const big = this.big;
    const little = this.little;
    while (big.nextStartPosition() !== NO_MORE_POSITIONS) {
      while (little.startPosition() < big.startPosition()) {
        if (little.nextStartPosition() === NO_MORE_POSITIONS) {
          this.oneExhausted = true;
          return false;
        }
      }
      if (big.endPosition() >= little.endPosition()) return true;
    }
    this.oneExhausted = true;
    return false;
  }
  protected currentDocMatches(): boolean {
    this.oneExhausted = false;
    if (!this.nextContaining()) return false;
    this.atFirst = true;
    return true;
  }
  nextStartPosition(): number {
    if (this.atFirst) {
      this.atFirst = false;
      return this.big.startPosition();
    }
    return this.nextContaining() ? this.big.startPosition() : NO_MORE_POSITIONS;
  }
}

/** SpanWithinQuery: matches of little inside a match of big. */
export class WithinSpans extends ContainSpans {
  constructor(big: Spans, little: Spans) {
    super(big, little, little);
  }
  /** The next little match inside a big one (big only moves forward). */
  private nextWithin(): boolean {
    const big = this.big;
    const little = this.little;
    while (little.nextStartPosition() !== NO_MORE_POSITIONS) {
      while (big.endPosition() < little.endPosition()) {
        if (big.nextStartPosition() === NO_MORE_POSITIONS) {
          this.oneExhausted = true;
          return false;
        }
      }
      if (big.startPosition() <= little.startPosition()) return true;
    }
    this.oneExhausted = true;
    return false;
  }
  protected currentDocMatches(): boolean {
    this.oneExhausted = false;
    if (!this.nextWithin()) return false;
    this.atFirst = true;
    return true;
  }
  nextStartPosition(): number {
    if (this.atFirst) {
      this.atFirst = false;
      return this.little.startPosition();
    }
    return this.nextWithin() ? this.little.startPosition() : NO_MORE_POSITIONS;
  }
}
