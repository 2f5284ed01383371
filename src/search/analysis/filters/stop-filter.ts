/** Lucene StopFilter (positions of removed words carry over) and the predefined ES stop lists. */
import * as WORDS from '../words/stopwords.js';
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

/** ES Analysis.NAMED_STOP_WORDS: each language analyzer's default list, by `_language_`. */
const PREDEFINED: Record<string, readonly string[]> = {
  _arabic_: WORDS.ARABIC,
  _armenian_: WORDS.ARMENIAN,
  _basque_: WORDS.BASQUE,
  _bengali_: WORDS.BENGALI,
  _brazilian_: WORDS.BRAZILIAN,
  _bulgarian_: WORDS.BULGARIAN,
  _catalan_: WORDS.CATALAN,
  _czech_: WORDS.CZECH,
  _danish_: WORDS.DANISH,
  _dutch_: WORDS.DUTCH,
  _english_: ENGLISH_STOP_WORDS,
  _finnish_: WORDS.FINNISH,
  _french_: WORDS.FRENCH,
  _galician_: WORDS.GALICIAN,
  _german_: WORDS.GERMAN,
  _greek_: WORDS.GREEK,
  _hindi_: WORDS.HINDI,
  _hungarian_: WORDS.HUNGARIAN,
  _indonesian_: WORDS.INDONESIAN,
  _irish_: WORDS.IRISH,
  _italian_: WORDS.ITALIAN,
  _latvian_: WORDS.LATVIAN,
  _lithuanian_: WORDS.LITHUANIAN,
  _norwegian_: WORDS.NORWEGIAN,
  _persian_: WORDS.PERSIAN,
  _portuguese_: WORDS.PORTUGUESE,
  _romanian_: WORDS.ROMANIAN,
  _russian_: WORDS.RUSSIAN,
  _sorani_: WORDS.SORANI,
  _spanish_: WORDS.SPANISH,
  _swedish_: WORDS.SWEDISH,
  _thai_: WORDS.THAI,
  _turkish_: WORDS.TURKISH,
  _none_: [],
};
Object.setPrototypeOf(PREDEFINED, null);

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
