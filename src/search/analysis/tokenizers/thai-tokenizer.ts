/**
 * Lucene ThaiTokenizer: words by the dictionary-based Thai word break rules (here the ICU data
 * behind Intl.Segmenter), keeping segments that contain a letter or digit. Type `word`.
 */
import { Tokenizer } from '../token-stream.js';

const segmenter = new Intl.Segmenter('th', { granularity: 'word' });

/** A word that runs from Thai script into another (ICU joins `ต้องthe`; the JDK breaks it). */
const SCRIPT_RUNS = /\p{Script=Thai}+|[^\p{Script=Thai}]+/gu;

export class ThaiTokenizer extends Tokenizer {
  private segments: Iterator<Intl.SegmentData> | null = null;
  /** Script runs of the current segment still to emit: [text, offset]. */
  private pending: Array<[string, number]> = [];

  protected override onReset(): void {
    this.segments = segmenter.segment(this.text)[Symbol.iterator]();
    this.pending = [];
  }

  next(): boolean {
    if (this.segments === null) return false;
    for (;;) {
      const run = this.pending.shift();
      if (run !== undefined) {
        const [term, start] = run;
        if (!/[\p{L}\p{Nd}]/u.test(term)) continue;
        const t = this.token;
        t.term = term;
        t.startOffset = this.correctOffset(start);
        t.endOffset = this.correctOffset(start + term.length);
        t.type = 'word';
        t.posInc = 1;
        t.keyword = false;
        return true;
      }
      const r = this.segments.next();
      if (r.done === true) return false;
      const seg = r.value;
      for (const m of seg.segment.matchAll(SCRIPT_RUNS)) {
        this.pending.push([m[0], seg.index + m.index]);
      }
    }
  }
}
