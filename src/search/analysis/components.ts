/**
 * Component types by ES name: `type` → factory from settings (ES AnalysisModule's tokenizer,
 * token filter and char filter providers for the types implemented here).
 */
import { illegalArgument } from '../../common/errors.js';
import type { CharFilterFactory, TokenFilterFactory, TokenizerFactory } from './analyzer.js';
import { COMMON_FILTERS, LANGUAGE_STEMMERS } from './common-filters.js';
import { deprecated } from './deprecations.js';
import { COMMON_TOKENIZERS } from './common-tokenizers.js';
import { HtmlStripCharFilter } from './char-filters/html-strip-char-filter.js';
import { MappingCharFilter } from './char-filters/mapping-char-filter.js';
import { PatternReplaceCharFilter } from './char-filters/pattern-replace-char-filter.js';
import { AsciiFoldingFilter } from './filters/ascii-folding.js';
import {
  EnglishPossessiveFilter,
  KeywordMarkerFilter,
  LengthFilter,
  LowerCaseFilter,
  ReverseFilter,
  TrimFilter,
  TruncateFilter,
  UniqueFilter,
  UpperCaseFilter,
} from './filters/basic-filters.js';
import { StemFilter, englishMinimalStem } from './filters/english-stemmers.js';
import { NGramTokenFilter } from './filters/ngram-filters.js';
import {
  TermMapFilter,
  greekLowerCase,
  irishLowerCase,
  turkishLowerCase,
} from './filters/language-filters.js';
import { porterStem } from './filters/porter-stemmer.js';
import {
  ENGLISH_STOP_WORDS,
  StopFilter,
  StopWords,
  parseStopWords,
} from './filters/stop-filter.js';
import { parseSynonymRules } from './filters/synonym-filter.js';
import { synonymStream } from './filters/synonym-graph-filter.js';
import { FlattenGraphFilter } from './filters/flatten-graph-filter.js';
import {
  boolParam,
  compileJavaRegex,
  intParam,
  listParam,
  strParam,
  type Params,
} from './settings-params.js';
import {
  letterTokenizer,
  lowerCaseTokenizer,
  whitespaceTokenizer,
} from './tokenizers/char-tokenizer.js';
import { KeywordTokenizer } from './tokenizers/keyword-tokenizer.js';
import {
  NGramTokenizer,
  tokenCharMatcher,
  type TokenCharClass,
} from './tokenizers/ngram-tokenizer.js';
import { PathHierarchyTokenizer } from './tokenizers/path-hierarchy-tokenizer.js';
import { PatternTokenizer, javaFlagsToJs } from './tokenizers/pattern-tokenizer.js';
import {
  DEFAULT_MAX_TOKEN_LENGTH,
  MAX_TOKEN_LENGTH_LIMIT,
  StandardTokenizer,
} from './tokenizers/standard-tokenizer.js';
import type { TokenStream } from './token-stream.js';

/** Index settings (beyond `index.analysis`) that change how components are built. */
export interface IndexAnalysisSettings {
  /** index.max_ngram_diff */
  readonly maxNgramDiff: number;
}

/** ES IndexSettings defaults (also what `_analyze` without an index uses). */
export const DEFAULT_INDEX_ANALYSIS: IndexAnalysisSettings = { maxNgramDiff: 1 };

export type TokenizerProvider = (
  name: string,
  p: Params,
  index?: IndexAnalysisSettings,
) => TokenizerFactory;
export type FilterProvider = (
  name: string,
  p: Params,
  index?: IndexAnalysisSettings,
) => TokenFilterFactory;
export type CharFilterProvider = (name: string, p: Params) => CharFilterFactory;

const tokenizer = (name: string, create: TokenizerFactory['create']): TokenizerFactory => ({
  name,
  create,
});

function standardTokenizer(name: string, p: Params): TokenizerFactory {
  const max = intParam(p, 'max_token_length', DEFAULT_MAX_TOKEN_LENGTH);
  if (max < 1) throw illegalArgument('maxTokenLength must be greater than zero');
  if (max > MAX_TOKEN_LENGTH_LIMIT) {
    throw illegalArgument(`maxTokenLength may not exceed ${MAX_TOKEN_LENGTH_LIMIT}`);
  }
  return { ...tokenizer(name, () => new StandardTokenizer(max)), standardMaxTokenLength: max };
}

const TOKEN_CHARS = new Set(['letter', 'digit', 'whitespace', 'punctuation', 'symbol']);

function ngramTokenizer(edges: boolean): TokenizerProvider {
  return (name, p, index = DEFAULT_INDEX_ANALYSIS) => {
    const min = intParam(p, 'min_gram', 1);
    const max = intParam(p, 'max_gram', 2);
    const chars = listParam(p, 'token_chars') ?? [];
    for (const c of chars) {
      if (!TOKEN_CHARS.has(c)) {
        throw illegalArgument(
          `Unknown token type: '${c}', must be one of [symbol, private_use, paragraph_separator, start_punctuation, unassigned, enclosing_mark, connector_punctuation, letter_number, other_number, math_symbol, lowercase_letter, space_separator, surrogate, initial_quote_punctuation, decimal_digit_number, digit, other_punctuation, dash_punctuation, currency_symbol, non_spacing_mark, format, modifier_letter, control, uppercase_letter, other_symbol, whitespace, line_separator, titlecase_letter, other_letter, letter, punctuation, combining_spacing_mark, final_quote_punctuation, modifier_symbol, end_punctuation]`,
        );
      }
    }
    checkGrams(min, max, edges);
    // ES NGramTokenizerFactory: index.max_ngram_diff (default 1) is only a deprecation in 6.x
    if (!edges) checkNgramDiff(min, max, index);
    const match = tokenCharMatcher(chars as TokenCharClass[]);
    return tokenizer(name, () => new NGramTokenizer(min, max, edges, match));
  };
}

/**
 * ES 6.8 NGramTokenizerFactory / NGramTokenFilterFactory: a gram range wider than
 * index.max_ngram_diff is deprecated (an error from 7.0); both report the tokenizer's wording.
 */
function checkNgramDiff(min: number, max: number, index: IndexAnalysisSettings): void {
  if (max - min > index.maxNgramDiff) {
    deprecated(
      `Deprecated big difference between max_gram and min_gram in NGram Tokenizer,expected difference must be less than or equal to: [${index.maxNgramDiff}]`,
    );
  }
}

function checkGrams(min: number, max: number, edges: boolean): void {
  if (min < 1) throw illegalArgument('minGram must be greater than zero');
  if (min > max) throw illegalArgument('minGram must not be greater than maxGram');
  void edges;
}

function patternTokenizer(name: string, p: Params): TokenizerFactory {
  const source = strParam(p, 'pattern', '\\W+');
  const re = compileJavaRegex(source, javaFlagsToJs(strParam(p, 'flags')));
  const group = intParam(p, 'group', -1);
  return tokenizer(name, () => new PatternTokenizer(re, group));
}

export const TOKENIZERS: Record<string, TokenizerProvider> = {
  ...COMMON_TOKENIZERS,
  standard: standardTokenizer,
  whitespace: (name, p) => {
    const max = intParam(p, 'max_token_length', 255);
    return tokenizer(name, () => whitespaceTokenizer(max));
  },
  keyword: (name) => tokenizer(name, () => new KeywordTokenizer()),
  letter: (name) => tokenizer(name, letterTokenizer),
  lowercase: (name) => tokenizer(name, lowerCaseTokenizer),
  pattern: patternTokenizer,
  simple_pattern: (name, p) => {
    const re = compileJavaRegex(strParam(p, 'pattern', ''), '');
    return tokenizer(name, () => new PatternTokenizer(re, 0));
  },
  simple_pattern_split: (name, p) => {
    const re = compileJavaRegex(strParam(p, 'pattern', ''), '');
    return tokenizer(name, () => new PatternTokenizer(re, -1));
  },
  ngram: ngramTokenizer(false),
  nGram: ngramTokenizer(false),
  edge_ngram: ngramTokenizer(true),
  edgeNGram: ngramTokenizer(true),
  path_hierarchy: pathHierarchy,
  PathHierarchy: pathHierarchy,
};

function pathHierarchy(name: string, p: Params): TokenizerFactory {
  const delimiter = strParam(p, 'delimiter', '/');
  const replacement = strParam(p, 'replacement', delimiter);
  if (delimiter.length !== 1) throw illegalArgument('delimiter must be a one char value');
  if (replacement.length !== 1) throw illegalArgument('replacement must be a one char value');
  const skip = intParam(p, 'skip', 0);
  return tokenizer(name, () => new PathHierarchyTokenizer(delimiter, replacement, skip));
}

// ---------------------------------------------------------------------------------------------

const filter = (
  name: string,
  create: (input: TokenStream) => TokenStream,
  extra: Partial<TokenFilterFactory> = {},
): TokenFilterFactory => ({ name, create, ...extra });

/** ES StemmerTokenFilterFactory languages implemented here. */
const STEMMERS: Record<string, (s: string) => string> = {
  english: porterStem,
  porter: porterStem,
  minimal_english: englishMinimalStem,
  plural_english: englishMinimalStem,
};

/** ES StemmerTokenFilterFactory's other spellings of a language name. */
const STEMMER_ALIASES: Record<string, string> = {
  light_english: 'kstem',
  light_finish: 'light_finnish',
  kp: 'dutch_kp',
};

function stemmerFilter(name: string, p: Params): TokenFilterFactory {
  const given = strParam(p, 'language') ?? strParam(p, 'name', 'porter');
  // ES compares names ignoring case and also accepts camelCase (`lightGerman`)
  const snake = given.replace(/([a-z])([A-Z])/g, '$1_$2').toLowerCase();
  const language = Object.hasOwn(STEMMER_ALIASES, snake) ? STEMMER_ALIASES[snake]! : snake;
  if (language === 'possessive_english') {
    return filter(name, (i) => new EnglishPossessiveFilter(i));
  }
  const stem = STEMMERS[language] ?? LANGUAGE_STEMMERS[language]?.();
  if (stem === undefined) throw illegalArgument(`stemmer language [${given}] is not supported`);
  return filter(name, (i) => new StemFilter(i, stem), { keywordAware: true });
}

function stopFilter(name: string, p: Params): TokenFilterFactory {
  const ignoreCase = boolParam(p, 'ignore_case', false);
  const words = new StopWords(parseStopWords(p['stopwords'], ENGLISH_STOP_WORDS), ignoreCase);
  return filter(name, (i) => new StopFilter(i, words));
}

function ngramFilter(edges: boolean): FilterProvider {
  return (name, p, index = DEFAULT_INDEX_ANALYSIS) => {
    const min = intParam(p, 'min_gram', 1);
    // ES EdgeNGramTokenFilterFactory defaults max_gram to 1, NGramTokenFilterFactory to 2
    const max = intParam(p, 'max_gram', edges ? 1 : 2);
    checkGrams(min, max, edges);
    if (!edges) checkNgramDiff(min, max, index);
    if (edges && strParam(p, 'side', 'front') === 'back') {
      return filter(name, (i) => new ReverseEdges(i, min, max));
    }
    return filter(name, (i) => new NGramTokenFilter(i, min, max, edges));
  };
}

/** edge_ngram with side=back: grams of the reversed term, reversed back. */
class ReverseEdges extends NGramTokenFilter {
  constructor(input: TokenStream, min: number, max: number) {
    super(new ReverseFilter(input), min, max, true);
  }
  override next(): boolean {
    if (!super.next()) return false;
    this.token.term = Array.from(this.token.term).reverse().join('');
    return true;
  }
}

function keywordMarker(name: string, p: Params): TokenFilterFactory {
  const keywords = listParam(p, 'keywords');
  const pattern = strParam(p, 'keywords_pattern');
  const ignoreCase = boolParam(p, 'ignore_case', false);
  if (keywords !== undefined && pattern !== undefined) {
    throw illegalArgument(
      'cannot specify both `keywords_pattern` and `keywords` or `keywords_path`',
    );
  }
  if (keywords === undefined && pattern === undefined) {
    throw illegalArgument(
      'keyword filter requires either `keywords`, `keywords_path`, or `keywords_pattern` to be configured',
    );
  }
  const set =
    keywords === undefined
      ? null
      : new Set(ignoreCase ? keywords.map((k) => k.toLowerCase()) : keywords);
  const re = pattern === undefined ? null : compileJavaRegex(pattern, '');
  return filter(name, (i) => new KeywordMarkerFilter(i, set, ignoreCase, re), {
    keywordAware: true,
  });
}

function synonymFilter(graph: boolean): FilterProvider {
  return (name, p) => {
    const rules = listParam(p, 'synonyms');
    if (rules === undefined) {
      throw illegalArgument(
        'synonym requires either `synonyms` or `synonyms_path` to be configured',
      );
    }
    const expand = boolParam(p, 'expand', true);
    const ignoreCase = boolParam(p, 'ignore_case', false);
    const map = parseSynonymRules(rules, expand, ignoreCase);
    // `synonymSpec` lets custom analyzers re-parse the rules through their own chain (registry.ts)
    return Object.assign(
      filter(name, (i) => synonymStream(i, map, ignoreCase, graph)),
      { synonymSpec: { rules, expand, ignoreCase, graph } },
    );
  };
}

/** ES LowerCaseTokenFilterFactory: `language` picks Lucene's Greek, Irish or Turkish rules. */
const LANGUAGE_LOWERCASE: Record<string, (s: string) => string> = {
  greek: greekLowerCase,
  irish: irishLowerCase,
  turkish: turkishLowerCase,
};

function lowercaseFilter(name: string, p: Params): TokenFilterFactory {
  const language = strParam(p, 'language');
  if (language === undefined) {
    return filter(name, (i) => new LowerCaseFilter(i), {
      normalizerSafe: true,
      role: 'lowercase',
    });
  }
  const fn = LANGUAGE_LOWERCASE[language.toLowerCase()];
  if (fn === undefined) throw illegalArgument(`language [${language}] not support for lower case`);
  return filter(name, (i) => new TermMapFilter(i, fn), { normalizerSafe: true });
}

export const FILTERS: Record<string, FilterProvider> = {
  ...COMMON_FILTERS,
  lowercase: lowercaseFilter,
  uppercase: (name) => filter(name, (i) => new UpperCaseFilter(i), { normalizerSafe: true }),
  asciifolding: (name, p) => {
    const keep = boolParam(p, 'preserve_original', false);
    return filter(name, (i) => new AsciiFoldingFilter(i, keep), { normalizerSafe: true });
  },
  stop: stopFilter,
  stemmer: stemmerFilter,
  porter_stem: (name) => filter(name, (i) => new StemFilter(i, porterStem), { keywordAware: true }),
  length: (name, p) => {
    const min = intParam(p, 'min', 0);
    const max = intParam(p, 'max', 2147483647);
    return filter(name, (i) => new LengthFilter(i, min, max));
  },
  trim: (name) => filter(name, (i) => new TrimFilter(i), { normalizerSafe: true }),
  truncate: (name, p) => {
    const length = intParam(p, 'length', 10);
    if (length <= 0) throw illegalArgument(`length parameter must be provided`);
    return filter(name, (i) => new TruncateFilter(i, length));
  },
  reverse: (name) => filter(name, (i) => new ReverseFilter(i)),
  unique: (name, p) => {
    const same = boolParam(p, 'only_on_same_position', false);
    return filter(name, (i) => new UniqueFilter(i, same));
  },
  ngram: ngramFilter(false),
  nGram: ngramFilter(false),
  edge_ngram: ngramFilter(true),
  edgeNGram: ngramFilter(true),
  keyword_marker: keywordMarker,
  synonym: synonymFilter(false),
  synonym_graph: synonymFilter(true),
  flatten_graph: (name) => filter(name, (i) => new FlattenGraphFilter(i)),
  standard: (name) => filter(name, (i) => i, { role: 'noop' }), // Lucene 7 StandardFilter is a no-op
};

// ---------------------------------------------------------------------------------------------

export const CHAR_FILTERS: Record<string, CharFilterProvider> = {
  html_strip: (name, p) => new HtmlStripCharFilter(name, listParam(p, 'escaped_tags') ?? []),
  htmlStrip: (name, p) => {
    const f = new HtmlStripCharFilter(name, listParam(p, 'escaped_tags') ?? []);
    // ES reports the camel-case name when the filter is used, not when it is defined
    return Object.assign(Object.create(f) as HtmlStripCharFilter, {
      apply(text: string) {
        deprecated(
          'The [htmpStrip] char filter name is deprecated and will be removed in a future version. Please change the filter name to [html_strip] instead.',
        );
        return f.apply(text);
      },
    });
  },
  mapping: (name, p) => {
    const rules = listParam(p, 'mappings');
    if (rules === undefined) {
      throw illegalArgument(
        'mapping requires either `mappings` or `mappings_path` to be configured',
      );
    }
    return withNormalizerSafe(new MappingCharFilter(name, rules));
  },
  pattern_replace: (name, p) => {
    const source = strParam(p, 'pattern');
    if (source === undefined)
      throw illegalArgument(
        'pattern is missing for [' + name + "] char filter of type 'pattern_replace'",
      );
    const re = compileJavaRegex(source, javaFlagsToJs(strParam(p, 'flags')));
    return withNormalizerSafe(
      new PatternReplaceCharFilter(name, re, strParam(p, 'replacement', '')),
    );
  },
};

function withNormalizerSafe<T extends object>(f: T): T & { normalizerSafe: true } {
  return Object.assign(f, { normalizerSafe: true as const });
}

// Names come from users ("type": "constructor"): no inherited Object.prototype members.
Object.setPrototypeOf(TOKENIZERS, null);
Object.setPrototypeOf(FILTERS, null);
Object.setPrototypeOf(CHAR_FILTERS, null);
