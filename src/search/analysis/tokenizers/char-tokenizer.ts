/**
 * Lucene 7.7 CharTokenizer family: a token is a maximal run of "token chars", split every
 * `maxTokenLen` chars (default 255). WhitespaceTokenizer, LetterTokenizer, LowerCaseTokenizer.
 */
import { isLetter, isWhitespace, toLowerCp } from '../java-chars.js';
import { Tokenizer } from '../token-stream.js';

export const DEFAULT_MAX_WORD_LEN = 255;

export class CharTokenizer extends Tokenizer {
  private pos = 0;

  constructor(
    private readonly isTokenChar: (cp: number) => boolean,
    private readonly normalize: ((cp: number) => number) | null,
    private readonly maxTokenLen = DEFAULT_MAX_WORD_LEN,
  ) {
    super();
  }

  protected override onReset(): void {
    this.pos = 0;
  }

  next(): boolean {
    const text = this.text;
    const len = text.length;
    let i = this.pos;
    let start = -1;
    let length = 0; // UTF-16 length of the (normalized) term
    let term = '';
    while (i < len) {
      const cp = text.codePointAt(i)!;
      const n = cp > 0xffff ? 2 : 1;
      if (this.isTokenChar(cp)) {
        if (start < 0) start = i;
        const out = this.normalize === null ? cp : this.normalize(cp);
        term += String.fromCodePoint(out);
        length += out > 0xffff ? 2 : 1;
        i += n;
        if (length >= this.maxTokenLen) break;
      } else if (start >= 0) {
        break;
      } else {
        i += n;
      }
    }
    this.pos = i;
    if (start < 0) return false;
    const t = this.token;
    t.term = term;
    t.startOffset = this.correctOffset(start);
    t.endOffset = this.correctOffset(i);
    t.type = 'word';
    t.posInc = 1;
    t.posLen = 1;
    t.keyword = false;
    return true;
  }
}

const notWhitespace = (cp: number) => !isWhitespace(cp);

export const whitespaceTokenizer = (maxTokenLen = DEFAULT_MAX_WORD_LEN) =>
  new CharTokenizer(notWhitespace, null, maxTokenLen);
export const letterTokenizer = () => new CharTokenizer(isLetter, null);
export const lowerCaseTokenizer = () => new CharTokenizer(isLetter, toLowerCp);
