/**
 * Lucene 7.7 NGramTokenFilter / EdgeNGramTokenFilter: grams of each token (by code point), all
 * with the original token's offsets; the first gram keeps the token's position increment, the
 * rest get 0. Tokens shorter than min_gram are dropped and their increments carried forward.
 */
import { TokenFilter, type TokenStream } from '../token-stream.js';

export class NGramTokenFilter extends TokenFilter {
  private cps: string[] = [];
  private pos = 0;
  private size = 0;
  private active = false;
  private carryPosInc = 0;
  private first = true;

  constructor(
    input: TokenStream,
    private readonly minGram: number,
    private readonly maxGram: number,
    private readonly edges: boolean,
  ) {
    super(input);
  }

  next(): boolean {
    for (;;) {
      if (!this.active) {
        if (!this.input.next()) return false;
        this.cps = Array.from(this.token.term);
        this.pos = 0;
        this.size = this.minGram;
        this.active = true;
        this.first = true;
        this.carryPosInc += this.token.posInc;
      }
      const n = this.cps.length;
      if (this.size > this.maxGram || this.pos + this.size > n) {
        this.pos++;
        this.size = this.minGram;
        if (this.edges || this.pos + this.minGram > n) {
          this.active = false;
          continue;
        }
      }
      const t = this.token;
      t.term = this.cps.slice(this.pos, this.pos + this.size).join('');
      this.size++;
      t.posInc = this.first ? this.carryPosInc : 0;
      if (this.first) this.carryPosInc = 0;
      this.first = false;
      return true;
    }
  }
}
