/**
 * The language analyzers of ES 6.8's analysis-common module, each the chain Lucene 7.7's
 * analyzer for that language builds: standard tokenizer, the language's normalisers, its default
 * stop words (`stopwords` overrides), a keyword marker for `stem_exclusion`, and its stemmer.
 */
import { illegalArgument } from '../../common/errors.js';
import { ChainAnalyzer, type TokenFilterFactory, type TokenizerFactory } from './analyzer.js';
import {
  EnglishPossessiveFilter,
  KeywordMarkerFilter,
  LowerCaseFilter,
} from './filters/basic-filters.js';
import { CJK_SCRIPT_TYPES, CjkBigramFilter } from './filters/cjk-bigram-filter.js';
import { StemFilter } from './filters/english-stemmers.js';
import {
  CATALAN_ARTICLES,
  FRENCH_ARTICLES,
  IRISH_ARTICLES,
  ITALIAN_ARTICLES,
  TermMapFilter,
  elide,
  foldCjkWidth,
  foldDecimalDigits,
  greekLowerCase,
  irishLowerCase,
  stripApostrophe,
  turkishLowerCase,
} from './filters/language-filters.js';
import {
  ENGLISH_STOP_WORDS,
  StopFilter,
  StopWords,
  parseStopWords,
} from './filters/stop-filter.js';
import { boolParam, listParam, strParam, type Params } from './settings-params.js';
import { arabicNormalize, arabicStem, persianNormalize } from './stemmers/arabic-persian.js';
import { bengaliStem } from './stemmers/bengali.js';
import { brazilianStem } from './stemmers/brazilian.js';
import { galicianStem } from './stemmers/galician.js';
import { greekStem } from './stemmers/greek.js';
import { germanLightStem, germanNormalize } from './stemmers/german.js';
import { indonesianStem } from './stemmers/indonesian.js';
import {
  frenchLightStem,
  italianLightStem,
  portugueseLightStem,
  spanishLightStem,
} from './stemmers/romance-light.js';
import { snowballStemmer } from './stemmers/snowball.js';
import { soraniStem } from './stemmers/sorani.js';
import {
  bengaliNormalize,
  hindiNormalize,
  hindiStem,
  indicNormalize,
  soraniNormalize,
} from './filters/script-normalizers.js';
import { bulgarianStem, czechStem, latvianStem } from './stemmers/slavic-baltic.js';
import { PatternReplaceCharFilter } from './char-filters/pattern-replace-char-filter.js';
import { ThaiTokenizer } from './tokenizers/thai-tokenizer.js';
import { StandardTokenizer } from './tokenizers/standard-tokenizer.js';
import type { TokenStream } from './token-stream.js';
import * as WORDS from './words/stopwords.js';

type AnalyzerProvider = (name: string, p: Params, gap: number) => ChainAnalyzer;

const standardTokenizer: TokenizerFactory = {
  name: 'standard',
  create: () => new StandardTokenizer(),
};
const thaiTokenizer: TokenizerFactory = { name: 'thai', create: () => new ThaiTokenizer() };

const tf = (
  name: string,
  create: (i: TokenStream) => TokenStream,
  keywordAware = false,
): TokenFilterFactory => ({ name, create, keywordAware });

const termMap = (name: string, fn: (s: string) => string): TokenFilterFactory =>
  tf(name, (i) => new TermMapFilter(i, fn));

const LOWERCASE: TokenFilterFactory = {
  ...tf('lowercase', (i) => new LowerCaseFilter(i)),
  role: 'lowercase',
};
const DECIMAL_DIGIT = termMap('decimal_digit', foldDecimalDigits);

function elision(articles: readonly string[]): TokenFilterFactory {
  const set = new Set(articles);
  return termMap('elision', (s) => elide(s, set, true));
}

function stem(name: string, fn: (s: string) => string): TokenFilterFactory {
  return tf(name, (i) => new StemFilter(i, fn), true);
}

function snowball(language: string): TokenFilterFactory {
  const fn = snowballStemmer(language);
  if (fn === undefined) throw new Error(`no Snowball stemmer for ${language}`);
  return stem('snowball', fn);
}

/** The stop filter from `stopwords` (default: the language's list), or none when empty. */
function stopFilter(p: Params, defaults: readonly string[]): TokenFilterFactory | null {
  const words = parseStopWords(p['stopwords'], defaults);
  if (words.length === 0) return null;
  const set = new StopWords(words, boolParam(p, 'ignore_case', false));
  return tf('stop', (i) => new StopFilter(i, set));
}

/** Lucene SetKeywordMarkerFilter over `stem_exclusion`, when set. */
function stemExclusion(p: Params): TokenFilterFactory | null {
  const words = listParam(p, 'stem_exclusion') ?? [];
  if (words.length === 0) return null;
  const set = new Set(words);
  return tf('keyword_marker', (i) => new KeywordMarkerFilter(i, set, false, null), true);
}

interface LanguageChain {
  tokenizer?: TokenizerFactory;
  /** Filters before the stop filter. */
  pre: readonly TokenFilterFactory[];
  stopwords: readonly string[];
  /** Filters between the stop filter and the keyword marker (normalisers Lucene runs late). */
  mid?: readonly TokenFilterFactory[];
  /** The stemmer (after the keyword marker), if the language has one. */
  stemmer?: TokenFilterFactory;
  /** Filters between the keyword marker and the stemmer (they see keyword tokens too). */
  post?: readonly TokenFilterFactory[];
  /** False when ES's provider ignores `stem_exclusion` (Greek). */
  stemExclusion?: boolean;
  /** Lucene places the keyword marker before `mid` and the stop filter after it (Hindi). */
  markerFirst?: boolean;
  charFilters?: ChainAnalyzer['charFilters'];
}

function language(build: () => LanguageChain): AnalyzerProvider {
  let chain: LanguageChain | undefined;
  return (name, p, gap) => {
    chain ??= build();
    const marker =
      chain.stemmer === undefined || chain.stemExclusion === false ? null : stemExclusion(p);
    const filters: Array<TokenFilterFactory | null> = chain.markerFirst
      ? [
          ...chain.pre,
          marker,
          ...(chain.mid ?? []),
          stopFilter(p, chain.stopwords),
          chain.stemmer ?? null,
        ]
      : [
          ...chain.pre,
          stopFilter(p, chain.stopwords),
          ...(chain.mid ?? []),
          marker,
          ...(chain.post ?? []),
          chain.stemmer ?? null,
        ];
    return new ChainAnalyzer(
      name,
      chain.tokenizer ?? standardTokenizer,
      chain.charFilters ?? [],
      filters.filter((f): f is TokenFilterFactory => f !== null),
      gap,
      false,
    );
  };
}

/** The common shape: standard tokenizer, lowercase, stop, keyword marker, a stemmer. */
const simple = (stopwords: readonly string[], stemmer: TokenFilterFactory) =>
  language(() => ({ pre: [LOWERCASE], stopwords, stemmer }));

const snowballLanguage = (lang: string, stopwords: readonly string[] = []) =>
  language(() => ({ pre: [LOWERCASE], stopwords, stemmer: snowball(lang) }));

/** ES SnowballAnalyzer: standard, (English) possessive, lowercase (Turkish rules for Turkish), stop, Snowball. */
const SNOWBALL_DEFAULT_STOP: Record<string, readonly string[]> = {
  English: ENGLISH_STOP_WORDS,
  Dutch: WORDS.DUTCH,
  German: WORDS.GERMAN,
  German2: WORDS.GERMAN,
};

const snowballAnalyzer: AnalyzerProvider = (name, p, gap) => {
  const lang = strParam(p, 'language', 'English');
  const fn = snowballStemmer(lang === 'German2' ? 'german' : lang.toLowerCase());
  if (fn === undefined) throw illegalArgument(`Unknown Snowball language [${lang}]`);
  const filters: Array<TokenFilterFactory | null> = [
    // the English stemmers expect the possessive 's removed
    lang === 'English' || lang === 'Porter' || lang === 'Lovins'
      ? tf('english_possessive', (i) => new EnglishPossessiveFilter(i))
      : null,
    lang === 'Turkish' ? termMap('turkish_lowercase', turkishLowerCase) : LOWERCASE,
    stopFilter(p, SNOWBALL_DEFAULT_STOP[lang] ?? []),
    stem('snowball', fn),
  ];
  return new ChainAnalyzer(
    name,
    standardTokenizer,
    [],
    filters.filter((f): f is TokenFilterFactory => f !== null),
    gap,
    false,
  );
};

/** Lucene PersianCharFilter: zero-width non-joiners separate words. */
const PERSIAN_ZWNJ = new PatternReplaceCharFilter('persian_char_filter', /\u200C/g, ' ');

export const LANGUAGE_ANALYZERS: Record<string, AnalyzerProvider> = {
  arabic: language(() => ({
    pre: [LOWERCASE, DECIMAL_DIGIT],
    stopwords: WORDS.ARABIC,
    mid: [termMap('arabic_normalization', arabicNormalize)],
    stemmer: stem('arabic_stem', arabicStem),
  })),
  armenian: snowballLanguage('armenian', WORDS.ARMENIAN),
  basque: snowballLanguage('basque', WORDS.BASQUE),
  bengali: language(() => ({
    pre: [LOWERCASE, DECIMAL_DIGIT],
    markerFirst: true,
    mid: [
      termMap('indic_normalization', indicNormalize),
      stem('bengali_normalization', bengaliNormalize),
    ],
    stopwords: WORDS.BENGALI,
    stemmer: stem('bengali_stem', bengaliStem),
  })),
  brazilian: simple(WORDS.BRAZILIAN, stem('brazilian_stem', brazilianStem)),
  bulgarian: simple(WORDS.BULGARIAN, stem('bulgarian_stem', bulgarianStem)),
  catalan: language(() => ({
    pre: [elision(CATALAN_ARTICLES), LOWERCASE],
    stopwords: WORDS.CATALAN,
    stemmer: snowball('catalan'),
  })),
  // ES 6.8: the chinese analyzer is the standard analyzer with English stop words
  chinese: language(() => ({ pre: [LOWERCASE], stopwords: ENGLISH_STOP_WORDS })),
  cjk: language(() => ({
    pre: [
      termMap('cjk_width', foldCjkWidth),
      LOWERCASE,
      tf(
        'cjk_bigram',
        (i) => new CjkBigramFilter(i, new Set(Object.values(CJK_SCRIPT_TYPES)), false),
      ),
    ],
    stopwords: WORDS.CJK,
  })),
  czech: simple(WORDS.CZECH, stem('czech_stem', czechStem)),
  danish: snowballLanguage('danish', WORDS.DANISH),
  dutch: language(() => ({
    pre: [LOWERCASE],
    stopwords: WORDS.DUTCH,
    stemmer: stem('snowball', dutchWithOverrides(snowballStemmer('dutch')!)),
  })),
  finnish: snowballLanguage('finnish', WORDS.FINNISH),
  french: language(() => ({
    pre: [elision(FRENCH_ARTICLES), LOWERCASE],
    stopwords: WORDS.FRENCH,
    stemmer: stem('french_light_stem', frenchLightStem),
  })),
  galician: simple(WORDS.GALICIAN, stem('galician_stem', galicianStem)),
  german: language(() => ({
    pre: [LOWERCASE],
    stopwords: WORDS.GERMAN,
    post: [termMap('german_normalization', germanNormalize)],
    stemmer: stem('german_light_stem', germanLightStem),
  })),
  // ES 6.8's greek analyzer takes no stem_exclusion
  greek: language(() => ({
    pre: [termMap('greek_lowercase', greekLowerCase)],
    stopwords: WORDS.GREEK,
    stemmer: stem('greek_stem', greekStem),
    stemExclusion: false,
  })),
  hindi: language(() => ({
    pre: [LOWERCASE, DECIMAL_DIGIT],
    markerFirst: true,
    mid: [
      termMap('indic_normalization', indicNormalize),
      stem('hindi_normalization', hindiNormalize),
    ],
    stopwords: WORDS.HINDI,
    stemmer: stem('hindi_stem', hindiStem),
  })),
  hungarian: snowballLanguage('hungarian', WORDS.HUNGARIAN),
  indonesian: simple(
    WORDS.INDONESIAN,
    stem('indonesian_stem', (s) => indonesianStem(s, true)),
  ),
  irish: language(() => ({
    pre: [
      tf('stop', (i) => new StopFilter(i, new StopWords(['h', 'n', 't'], true))),
      elision(IRISH_ARTICLES),
      termMap('irish_lowercase', irishLowerCase),
    ],
    stopwords: WORDS.IRISH,
    stemmer: snowball('irish'),
  })),
  italian: language(() => ({
    pre: [elision(ITALIAN_ARTICLES), LOWERCASE],
    stopwords: WORDS.ITALIAN,
    stemmer: stem('italian_light_stem', italianLightStem),
  })),
  latvian: simple(WORDS.LATVIAN, stem('latvian_stem', latvianStem)),
  lithuanian: snowballLanguage('lithuanian', WORDS.LITHUANIAN),
  norwegian: snowballLanguage('norwegian', WORDS.NORWEGIAN),
  persian: language(() => ({
    pre: [
      LOWERCASE,
      DECIMAL_DIGIT,
      termMap('arabic_normalization', arabicNormalize),
      termMap('persian_normalization', persianNormalize),
    ],
    stopwords: WORDS.PERSIAN,
    charFilters: [PERSIAN_ZWNJ],
  })),
  portuguese: simple(WORDS.PORTUGUESE, stem('portuguese_light_stem', portugueseLightStem)),
  romanian: snowballLanguage('romanian', WORDS.ROMANIAN),
  russian: snowballLanguage('russian', WORDS.RUSSIAN),
  sorani: language(() => ({
    pre: [termMap('sorani_normalization', soraniNormalize), LOWERCASE, DECIMAL_DIGIT],
    stopwords: WORDS.SORANI,
    stemmer: stem('sorani_stem', soraniStem),
  })),
  spanish: simple(WORDS.SPANISH, stem('spanish_light_stem', spanishLightStem)),
  swedish: snowballLanguage('swedish', WORDS.SWEDISH),
  turkish: language(() => ({
    pre: [termMap('apostrophe', stripApostrophe), termMap('turkish_lowercase', turkishLowerCase)],
    stopwords: WORDS.TURKISH,
    stemmer: snowball('turkish'),
  })),
  thai: language(() => ({
    tokenizer: thaiTokenizer,
    pre: [LOWERCASE, DECIMAL_DIGIT],
    stopwords: WORDS.THAI,
  })),
  snowball: snowballAnalyzer,
};

/** Lucene DutchAnalyzer's default stem dictionary, applied before the Snowball Dutch stemmer. */
const DUTCH_OVERRIDES: Record<string, string> = {
  fiets: 'fiets',
  bromfiets: 'bromfiets',
  ei: 'eier',
  kind: 'kinder',
};
function dutchWithOverrides(stemFn: (s: string) => string): (s: string) => string {
  return (s) => (Object.hasOwn(DUTCH_OVERRIDES, s) ? DUTCH_OVERRIDES[s]! : stemFn(s));
}

Object.setPrototypeOf(LANGUAGE_ANALYZERS, null);
