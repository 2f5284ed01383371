/**
 * Analyzer types (ES analyzer providers): standard, simple, whitespace, keyword, stop, english,
 * pattern, fingerprint. Each is a chain of the same components custom analyzers use.
 */
import { illegalArgument } from '../../common/errors.js';
import { ChainAnalyzer, type TokenFilterFactory, type TokenizerFactory } from './analyzer.js';
import { AsciiFoldingFilter } from './filters/ascii-folding.js';
import {
  EnglishPossessiveFilter,
  KeywordMarkerFilter,
  LowerCaseFilter,
} from './filters/basic-filters.js';
import { StemFilter } from './filters/english-stemmers.js';
import { FingerprintFilter } from './filters/fingerprint-filter.js';
import { LANGUAGE_ANALYZERS } from './language-analyzers.js';
import { porterStem } from './filters/porter-stemmer.js';
import {
  ENGLISH_STOP_WORDS,
  StopFilter,
  StopWords,
  parseStopWords,
} from './filters/stop-filter.js';
import {
  boolParam,
  compileJavaRegex,
  intParam,
  listParam,
  strParam,
  type Params,
} from './settings-params.js';
import { lowerCaseTokenizer, whitespaceTokenizer } from './tokenizers/char-tokenizer.js';
import { KeywordTokenizer } from './tokenizers/keyword-tokenizer.js';
import { PatternTokenizer, javaFlagsToJs } from './tokenizers/pattern-tokenizer.js';
import { DEFAULT_MAX_TOKEN_LENGTH, StandardTokenizer } from './tokenizers/standard-tokenizer.js';
import type { TokenStream } from './token-stream.js';

export type AnalyzerProvider = (name: string, p: Params, gap: number) => ChainAnalyzer;

const tk = (name: string, create: TokenizerFactory['create']): TokenizerFactory => ({
  name,
  create,
});
const tf = (
  name: string,
  create: (i: TokenStream) => TokenStream,
  keywordAware = false,
): TokenFilterFactory => ({
  name,
  create,
  keywordAware,
});

const lowercase: TokenFilterFactory = {
  ...tf('lowercase', (i) => new LowerCaseFilter(i)),
  role: 'lowercase',
};

function stopFactory(p: Params, defaults: readonly string[]): TokenFilterFactory | null {
  const words = parseStopWords(p['stopwords'], defaults);
  if (words.length === 0) return null;
  const set = new StopWords(words, boolParam(p, 'ignore_case', false));
  return tf('stop', (i) => new StopFilter(i, set));
}

function compact<T>(xs: Array<T | null>): T[] {
  return xs.filter((x): x is T => x !== null);
}

/** ES StandardAnalyzerProvider: standard tokenizer, lowercase, stop (default `_none_`). */
const standard: AnalyzerProvider = (name, p, gap) => {
  const max = intParam(p, 'max_token_length', DEFAULT_MAX_TOKEN_LENGTH);
  if (max < 1) throw illegalArgument('maxTokenLength must be greater than zero');
  const filters = compact([lowercase, stopFactory(p, [])]);
  return new ChainAnalyzer(
    name,
    { ...tk('standard', () => new StandardTokenizer(max)), standardMaxTokenLength: max },
    [],
    filters,
    gap,
    false,
  );
};

/** Lucene EnglishAnalyzer: possessive, lowercase, stop `_english_`, keyword marker, Porter. */
const english: AnalyzerProvider = (name, p, gap) => {
  const exclusions = listParam(p, 'stem_exclusion') ?? [];
  const filters: Array<TokenFilterFactory | null> = [
    tf('english_possessive', (i) => new EnglishPossessiveFilter(i)),
    lowercase,
    stopFactory(p, ENGLISH_STOP_WORDS),
    exclusions.length > 0
      ? tf(
          'keyword_marker',
          (i) => new KeywordMarkerFilter(i, new Set(exclusions), false, null),
          true,
        )
      : null,
    tf('porter_stem', (i) => new StemFilter(i, porterStem), true),
  ];
  return new ChainAnalyzer(
    name,
    tk('standard', () => new StandardTokenizer()),
    [],
    compact(filters),
    gap,
    false,
  );
};

/** ES PatternAnalyzer: pattern tokenizer (split), lowercase (default true), stop (default none). */
const pattern: AnalyzerProvider = (name, p, gap) => {
  const re = compileJavaRegex(strParam(p, 'pattern', '\\W+'), javaFlagsToJs(strParam(p, 'flags')));
  const filters = compact([boolParam(p, 'lowercase', true) ? lowercase : null, stopFactory(p, [])]);
  return new ChainAnalyzer(
    name,
    tk('pattern', () => new PatternTokenizer(re, -1)),
    [],
    filters,
    gap,
    false,
  );
};

/** ES FingerprintAnalyzer: standard, lowercase, asciifolding, stop, fingerprint. */
const fingerprint: AnalyzerProvider = (name, p, gap) => {
  const separator = strParam(p, 'separator', ' ');
  const maxOutput = intParam(p, 'max_output_size', 255);
  const filters = compact([
    lowercase,
    tf('asciifolding', (i) => new AsciiFoldingFilter(i, false)),
    stopFactory(p, []),
    tf('fingerprint', (i) => new FingerprintFilter(i, separator, maxOutput)),
  ]);
  return new ChainAnalyzer(
    name,
    tk('standard', () => new StandardTokenizer()),
    [],
    filters,
    gap,
    false,
  );
};

export const ANALYZERS: Record<string, AnalyzerProvider> = {
  ...LANGUAGE_ANALYZERS,
  standard,
  english,
  pattern,
  fingerprint,
  simple: (name, _p, gap) =>
    new ChainAnalyzer(name, tk('lowercase', lowerCaseTokenizer), [], [], gap, false),
  whitespace: (name, p, gap) => {
    const max = intParam(p, 'max_token_length', 255);
    return new ChainAnalyzer(
      name,
      tk('whitespace', () => whitespaceTokenizer(max)),
      [],
      [],
      gap,
      false,
    );
  },
  keyword: (name, _p, gap) =>
    new ChainAnalyzer(
      name,
      tk('keyword', () => new KeywordTokenizer()),
      [],
      [],
      gap,
      false,
    ),
  stop: (name, p, gap) =>
    new ChainAnalyzer(
      name,
      tk('lowercase', lowerCaseTokenizer),
      [],
      compact([stopFactory(p, ENGLISH_STOP_WORDS)]),
      gap,
      false,
    ),
};

/** Names every ES node knows without settings (PreBuiltAnalyzers we implement). */
export const PREBUILT_ANALYZERS = Object.keys(ANALYZERS);

// Names come from users ("analyzer": "valueOf"): no inherited Object.prototype members.
Object.setPrototypeOf(ANALYZERS, null);
