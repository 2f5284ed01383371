/**
 * Lucene PatternTokenizer (group -1: split on matches, dropping empty tokens; group >= 0: each
 * match's group is a token) and the simple_pattern / simple_pattern_split tokenizers. Java regex
 * syntax is taken as JavaScript RegExp syntax, which agrees for the common subset.
 */
import { Tokenizer } from '../token-stream.js';

export class PatternTokenizer extends Tokenizer {
  private pos = 0;
  private readonly re: RegExp;
  private finished = false;

  /** `group` -1 splits on the pattern; `group` >= 0 emits that group of every match. */
  constructor(
    pattern: RegExp,
    private readonly group: number,
  ) {
    super();
    this.re = new RegExp(
      pattern.source,
      pattern.flags.includes('g') ? pattern.flags : pattern.flags + 'g',
    );
  }

  protected override onReset(): void {
    this.pos = 0;
    this.finished = false;
    this.re.lastIndex = 0;
  }

  next(): boolean {
    const text = this.text;
    if (this.finished) return false;
    if (this.group >= 0) {
      for (;;) {
        const m = this.re.exec(text);
        if (m === null) {
          this.finished = true;
          return false;
        }
        if (m[0].length === 0) this.re.lastIndex++;
        const g = m[this.group];
        if (g === undefined || g.length === 0) continue;
        const start = this.groupStart(m, g);
        return this.emit(g, start, start + g.length);
      }
    }
    for (;;) {
      const from = this.pos;
      const m = this.re.exec(text);
      if (m === null) {
        this.finished = true;
        if (from < text.length) return this.emit(text.slice(from), from, text.length);
        return false;
      }
      if (m[0].length === 0) {
        this.re.lastIndex++;
        if (m.index >= text.length) {
          this.finished = true;
          if (from < text.length) return this.emit(text.slice(from), from, text.length);
          return false;
        }
        continue;
      }
      this.pos = m.index + m[0].length;
      if (m.index > from) return this.emit(text.slice(from, m.index), from, m.index);
    }
  }

  private groupStart(m: RegExpExecArray, g: string): number {
    if (this.group === 0) return m.index;
    const i = m[0].indexOf(g);
    return m.index + (i < 0 ? 0 : i);
  }

  private emit(term: string, start: number, end: number): boolean {
    const t = this.token;
    t.term = term;
    t.startOffset = this.correctOffset(start);
    t.endOffset = this.correctOffset(end);
    t.type = 'word';
    t.posInc = 1;
    t.posLen = 1;
    t.keyword = false;
    return true;
  }
}

/** Java Pattern flag names (ES `flags: "CASE_INSENSITIVE|COMMENTS"`) to RegExp flags. */
export function javaFlagsToJs(flags: string | undefined): string {
  let out = '';
  for (const f of (flags ?? '').split('|').map((s) => s.trim())) {
    if (f === 'CASE_INSENSITIVE') out += 'i';
    else if (f === 'MULTILINE') out += 'm';
    else if (f === 'DOTALL') out += 's';
    else if (f === 'UNICODE_CASE' || f === 'UNICODE_CHARACTER_CLASS') out += 'u';
  }
  return [...new Set(out)].join('');
}
