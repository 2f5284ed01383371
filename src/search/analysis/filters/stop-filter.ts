/** Lucene StopFilter (positions of removed words carry over) and the predefined ES stop lists. */
import { FilteringTokenFilter, type TokenStream } from '../token-stream.js';

/** Lucene StandardAnalyzer/EnglishAnalyzer ENGLISH_STOP_WORDS_SET (`_english_`). */
export const ENGLISH_STOP_WORDS: readonly string[] = [
  'a',
  'an',
  'and',
  'are',
  'as',
  'at',
  'be',
  'but',
  'by',
  'for',
  'if',
  'in',
  'into',
  'is',
  'it',
  'no',
  'not',
  'of',
  'on',
  'or',
  'such',
  'that',
  'the',
  'their',
  'then',
  'there',
  'these',
  'they',
  'this',
  'to',
  'was',
  'will',
  'with',
];

const PREDEFINED: Record<string, readonly string[]> = {
  _english_: ENGLISH_STOP_WORDS,
  _none_: [],
};

/**
 * ES Analysis.parseWords: a predefined list name (`_english_`), an array of words (which may
 * include predefined names), or `defaults` when absent.
 */
export function parseStopWords(value: unknown, defaults: readonly string[]): string[] {
  if (value === undefined || value === null) return [...defaults];
  if (value === '_none_') return [];
  const items = Array.isArray(value)
    ? value
    : String(value)
        .split(',')
        .map((s) => s.trim());
  const out: string[] = [];
  for (const item of items) {
    const w = String(item);
    const pre = PREDEFINED[w];
    if (pre !== undefined) out.push(...pre);
    else out.push(w); // ES resolveNamedWords: unknown names are plain words
  }
  return out;
}

export class StopWords {
  private readonly set: Set<string>;
  constructor(
    words: readonly string[],
    readonly ignoreCase: boolean,
  ) {
    this.set = new Set(ignoreCase ? words.map((w) => w.toLowerCase()) : words);
  }
  has(term: string): boolean {
    return this.set.has(this.ignoreCase ? term.toLowerCase() : term);
  }
  get size(): number {
    return this.set.size;
  }
}

export class StopFilter extends FilteringTokenFilter {
  constructor(
    input: TokenStream,
    private readonly stop: StopWords,
  ) {
    super(input);
  }
  protected accept(): boolean {
    return !this.stop.has(this.token.term);
  }
}
