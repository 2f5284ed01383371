/**
 * Lucene 7.7 NGramTokenizer and EdgeNGramTokenizer (ES `ngram`/`edge_ngram`, `token_chars`).
 * Grams are emitted by start position then length; without token_chars the whole input is one
 * run (spaces included), as in Lucene.
 */
import { Tokenizer } from '../token-stream.js';

export type TokenCharClass = 'letter' | 'digit' | 'whitespace' | 'punctuation' | 'symbol';

const CLASS_RE: Record<TokenCharClass, RegExp> = {
  letter: /^\p{L}$/u,
  digit: /^\p{Nd}$/u,
  whitespace: /^\s$/u,
  punctuation: /^\p{P}$/u,
  symbol: /^\p{S}$/u,
};

export function tokenCharMatcher(
  classes: readonly TokenCharClass[],
): ((cp: number) => boolean) | null {
  if (classes.length === 0) return null;
  const res = classes.map((c) => CLASS_RE[c]);
  return (cp) => {
    const s = String.fromCodePoint(cp);
    return res.some((r) => r.test(s));
  };
}

export class NGramTokenizer extends Tokenizer {
  private cps: number[] = [];
  private offs: number[] = [];
  private runStart = 0;
  private runEnd = 0;
  private gramStart = 0;
  private gramSize = 0;

  constructor(
    private readonly minGram: number,
    private readonly maxGram: number,
    private readonly edges: boolean,
    private readonly isTokenChar: ((cp: number) => boolean) | null,
  ) {
    super();
  }

  protected override onReset(): void {
    this.cps = [];
    this.offs = [];
    for (let i = 0; i < this.text.length;) {
      const cp = this.text.codePointAt(i)!;
      this.cps.push(cp);
      this.offs.push(i);
      i += cp > 0xffff ? 2 : 1;
    }
    this.offs.push(this.text.length);
    this.runStart = this.runEnd = 0;
    this.gramStart = 0;
    this.gramSize = this.minGram;
  }

  private nextRun(): boolean {
    const n = this.cps.length;
    let i = this.runEnd;
    if (this.isTokenChar === null) {
      if (i > 0 || n === 0) return false;
      this.runStart = 0;
      this.runEnd = n;
    } else {
      while (i < n && !this.isTokenChar(this.cps[i]!)) i++;
      if (i >= n) return false;
      let j = i;
      while (j < n && this.isTokenChar(this.cps[j]!)) j++;
      this.runStart = i;
      this.runEnd = j;
    }
    this.gramStart = this.runStart;
    this.gramSize = this.minGram;
    return true;
  }

  next(): boolean {
    for (;;) {
      if (this.runEnd === 0 || this.gramStart >= this.runEnd) {
        if (!this.nextRun()) return false;
      }
      const lastStart = this.edges ? this.runStart : this.runEnd - 1;
      if (this.gramStart > lastStart) {
        this.gramStart = this.runEnd;
        continue;
      }
      if (this.gramSize > this.maxGram || this.gramStart + this.gramSize > this.runEnd) {
        this.gramStart++;
        this.gramSize = this.minGram;
        if (this.edges || this.gramStart + this.minGram > this.runEnd) this.gramStart = this.runEnd;
        continue;
      }
      const s = this.offs[this.gramStart]!;
      const e = this.offs[this.gramStart + this.gramSize]!;
      this.gramSize++;
      const t = this.token;
      t.term = this.text.slice(s, e);
      t.startOffset = this.correctOffset(s);
      t.endOffset = this.correctOffset(e);
      t.type = 'word';
      t.posInc = 1;
      t.posLen = 1;
      t.keyword = false;
      return true;
    }
  }
}
