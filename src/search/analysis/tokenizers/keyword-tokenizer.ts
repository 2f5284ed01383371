/** Lucene KeywordTokenizer: the whole input as one token (also for empty input). */
import { Tokenizer } from '../token-stream.js';

export class KeywordTokenizer extends Tokenizer {
  private done = false;

  protected override onReset(): void {
    this.done = false;
  }

  next(): boolean {
    if (this.done) return false;
    this.done = true;
    const t = this.token;
    t.term = this.text;
    t.startOffset = this.correctOffset(0);
    t.endOffset = this.correctOffset(this.text.length);
    t.type = 'word';
    t.posInc = 1;
    t.posLen = 1;
    t.keyword = false;
    return true;
  }
}
