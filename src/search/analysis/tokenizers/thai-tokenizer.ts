/**
 * Lucene ThaiTokenizer: words by the dictionary-based Thai word break rules (here the ICU data
 * behind Intl.Segmenter), keeping segments that contain a letter or digit. Type `word`.
 */
import { Tokenizer } from '../token-stream.js';

const segmenter = new Intl.Segmenter('th', { granularity: 'word' });

export class ThaiTokenizer extends Tokenizer {
  private segments: Iterator<Intl.SegmentData> | null = null;

  protected override onReset(): void {
    this.segments = segmenter.segment(this.text)[Symbol.iterator]();
  }

  next(): boolean {
    if (this.segments === null) return false;
    for (;;) {
      const r = this.segments.next();
      if (r.done === true) return false;
      const seg = r.value;
      if (!/[\p{L}\p{Nd}]/u.test(seg.segment)) continue;
      const t = this.token;
      t.term = seg.segment;
      t.startOffset = this.correctOffset(seg.index);
      t.endOffset = this.correctOffset(seg.index + seg.segment.length);
      t.type = 'word';
      t.posInc = 1;
      t.keyword = false;
      return true;
    }
  }
}
