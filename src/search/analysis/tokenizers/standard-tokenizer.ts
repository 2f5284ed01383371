/**
 * Lucene 7.7 StandardTokenizer: UAX#29 word boundaries per StandardTokenizerImpl.jflex (see
 * standard-grammar.ts). Input that is entirely ASCII takes a dedicated scanner with identical
 * output. `maxTokenLength` is the JFlex buffer size: longer runs are split at that length.
 */
import { Tokenizer } from '../token-stream.js';
import { scanAscii, scanUnicode, type ScanResult } from './standard-grammar.js';

export const DEFAULT_MAX_TOKEN_LENGTH = 255;
/** Lucene StandardTokenizer.MAX_TOKEN_LENGTH_LIMIT */
export const MAX_TOKEN_LENGTH_LIMIT = 1024 * 1024;

// eslint-disable-next-line no-control-regex
const NON_ASCII = /[^\x00-\x7f]/;

export class StandardTokenizer extends Tokenizer {
  private pos = 0;
  private ascii = true;
  private readonly scan: ScanResult = { start: 0, end: 0, type: '' };

  constructor(readonly maxTokenLength = DEFAULT_MAX_TOKEN_LENGTH) {
    super();
  }

  protected override onReset(): void {
    this.pos = 0;
    this.ascii = !NON_ASCII.test(this.text);
  }

  next(): boolean {
    const s = this.scan;
    const found = this.ascii
      ? scanAscii(this.text, this.pos, this.maxTokenLength, s)
      : scanUnicode(this.text, this.pos, this.maxTokenLength, s);
    if (!found) {
      this.pos = this.text.length;
      return false;
    }
    this.pos = s.end;
    const t = this.token;
    t.term = this.text.slice(s.start, s.end);
    t.startOffset = this.correctOffset(s.start);
    t.endOffset = this.correctOffset(s.end);
    t.type = s.type;
    t.posInc = 1;
    t.posLen = 1;
    t.keyword = false;
    return true;
  }
}
