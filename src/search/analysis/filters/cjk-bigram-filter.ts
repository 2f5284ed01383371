/**
 * Lucene CJKBigramFilter: runs of adjacent Han/Hiragana/Katakana/Hangul tokens (as the standard
 * tokenizer types them) become overlapping bigrams typed <DOUBLE>; a lone character stays a
 * unigram typed <SINGLE>. With `outputUnigrams`, unigrams are emitted too (bigrams stacked on
 * them). Other tokens pass through and break a run.
 */
import { Token, TokenFilter, type TokenStream } from '../token-stream.js';

export const CJK_SCRIPT_TYPES = {
  han: '<IDEOGRAPHIC>',
  hiragana: '<HIRAGANA>',
  katakana: '<KATAKANA>',
  hangul: '<HANGUL>',
} as const;

interface Char {
  c: string;
  start: number;
  end: number;
}

export class CjkBigramFilter extends TokenFilter {
  private readonly out: Token[] = [];
  private run: Char[] = [];
  private runPosInc = 1;
  private pending: Token | null = null;
  private done = false;

  constructor(
    input: TokenStream,
    private readonly types: ReadonlySet<string>,
    private readonly outputUnigrams: boolean,
  ) {
    super(input);
  }

  next(): boolean {
    while (this.out.length === 0) {
      if (this.pending !== null) {
        this.out.push(this.pending);
        this.pending = null;
        break;
      }
      if (this.done) return false;
      if (!this.input.next()) {
        this.done = true;
        this.flush();
        continue;
      }
      const t = this.token;
      if (this.types.has(t.type)) {
        const last = this.run[this.run.length - 1];
        if (last !== undefined && last.end !== t.startOffset) this.flush();
        if (this.run.length === 0) this.runPosInc = t.posInc;
        const chars = Array.from(t.term);
        // a multi-char token (Hangul words) spreads its offsets over its chars
        chars.forEach((c, i) =>
          this.run.push({
            c,
            start: i === 0 ? t.startOffset : Math.min(t.startOffset + i, t.endOffset),
            end:
              i === chars.length - 1 ? t.endOffset : Math.min(t.startOffset + i + 1, t.endOffset),
          }),
        );
      } else {
        const copy = new Token();
        copy.copyFrom(t);
        this.flush();
        this.pending = copy;
      }
    }
    this.token.copyFrom(this.out.shift()!);
    return true;
  }

  private flush(): void {
    const run = this.run;
    if (run.length === 0) return;
    this.run = [];
    const make = (term: string, start: number, end: number, type: string, posInc: number) => {
      const t = new Token();
      t.term = term;
      t.startOffset = start;
      t.endOffset = end;
      t.type = type;
      t.posInc = posInc;
      this.out.push(t);
    };
    if (run.length === 1) {
      make(run[0]!.c, run[0]!.start, run[0]!.end, '<SINGLE>', this.runPosInc);
      return;
    }
    for (let i = 0; i < run.length; i++) {
      const first = i === 0 ? this.runPosInc : 1;
      if (this.outputUnigrams) {
        make(run[i]!.c, run[i]!.start, run[i]!.end, '<SINGLE>', first);
        if (i + 1 < run.length) {
          make(run[i]!.c + run[i + 1]!.c, run[i]!.start, run[i + 1]!.end, '<DOUBLE>', 0);
        }
      } else if (i + 1 < run.length) {
        make(run[i]!.c + run[i + 1]!.c, run[i]!.start, run[i + 1]!.end, '<DOUBLE>', first);
      }
    }
  }
}
