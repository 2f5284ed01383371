/**
 * Token filter types of ES 6.8's analysis-common module beyond the core ones in components.ts:
 * language normalisers and stemmers, elision, decompounding, pattern filters, selection filters,
 * common grams, CJK filters, word delimiters, stemmer override and the multiplexer.
 */
import { illegalArgument } from '../../common/errors.js';
import type { TokenFilterFactory } from './analyzer.js';
import { deprecated } from './deprecations.js';
import { CJK_SCRIPT_TYPES, CjkBigramFilter } from './filters/cjk-bigram-filter.js';
import { KeywordMarkerFilter } from './filters/basic-filters.js';
import { StemFilter } from './filters/english-stemmers.js';
import {
  CommonGramsFilter,
  DictionaryDecompounder,
  PatternCaptureFilter,
} from './filters/expanding-filters.js';
import { conditionFilter, multiplexer, predicateFilter } from './chain-aware-filters.js';
import { FingerprintFilter } from './filters/fingerprint-filter.js';
import { MinHashFilter } from './filters/min-hash-filter.js';
import {
  FRENCH_ARTICLES,
  TermMapFilter,
  elide,
  foldCjkWidth,
  foldDecimalDigits,
  stripApostrophe,
} from './filters/language-filters.js';
import {
  bengaliNormalize,
  hindiNormalize,
  hindiStem,
  indicNormalize,
  scandinavianFold,
  scandinavianNormalize,
  serbianNormalize,
  soraniNormalize,
} from './filters/script-normalizers.js';
import {
  DelimitedPayloadFilter,
  TypeAsPayloadFilter,
  type PayloadEncoding,
  KeepTypesFilter,
  KeepWordFilter,
  LimitFilter,
} from './filters/selection-filters.js';
import {
  KeywordRepeatFilter,
  RemoveDuplicatesFilter,
  ShingleFilter,
} from './filters/shingle-filter.js';
import { WORD_DELIMITER_TYPES, WordDelimiterFilter } from './filters/word-delimiter-filter.js';
import {
  boolParam,
  compileJavaRegex,
  intParam,
  listParam,
  strParam,
  type Params,
} from './settings-params.js';
import { arabicNormalize, arabicStem, persianNormalize } from './stemmers/arabic-persian.js';
import { bengaliStem } from './stemmers/bengali.js';
import { brazilianStem } from './stemmers/brazilian.js';
import { galicianMinimalStem, galicianStem } from './stemmers/galician.js';
import { kstem } from './stemmers/kstem.js';
import { finnishLightStem, hungarianLightStem, russianLightStem } from './stemmers/savoy-light.js';
import { frenchMinimalStem, germanMinimalStem } from './stemmers/savoy-minimal.js';
import {
  norwegianLightStem,
  norwegianMinimalStem,
  swedishLightStem,
} from './stemmers/scandinavian-light.js';
import { greekStem } from './stemmers/greek.js';
import { germanCaumannsStem, germanLightStem, germanNormalize } from './stemmers/german.js';
import { indonesianStem } from './stemmers/indonesian.js';
import {
  frenchLightStem,
  italianLightStem,
  portugueseLightStem,
  spanishLightStem,
} from './stemmers/romance-light.js';
import { bulgarianStem, czechStem, latvianStem } from './stemmers/slavic-baltic.js';
import { portugueseMinimalStem, portugueseRslpStem } from './stemmers/portuguese-rslp.js';
import { snowballStemmer } from './stemmers/snowball.js';
import { soraniStem } from './stemmers/sorani.js';
import { javaFlagsToJs } from './tokenizers/pattern-tokenizer.js';
import type { TokenStream } from './token-stream.js';

type FilterProvider = (name: string, p: Params) => TokenFilterFactory;

const filter = (
  name: string,
  create: (input: TokenStream) => TokenStream,
  extra: Partial<TokenFilterFactory> = {},
): TokenFilterFactory => ({ name, create, ...extra });

/** A normaliser: rewrites every term; usable in normalizers (Lucene MultiTermAwareComponent). */
const normalizer =
  (fn: (s: string) => string): FilterProvider =>
  (name) =>
    filter(name, (i) => new TermMapFilter(i, fn), { normalizerSafe: true });

/** A normaliser that, like Lucene's Hindi and Bengali ones, leaves keyword tokens alone. */
const keywordAwareNormalizer =
  (fn: (s: string) => string): FilterProvider =>
  (name) =>
    filter(name, (i) => new StemFilter(i, fn), { normalizerSafe: true, keywordAware: true });

const stemmer =
  (fn: (s: string) => string): FilterProvider =>
  (name) =>
    filter(name, (i) => new StemFilter(i, fn), { keywordAware: true });

function snowballFn(language: string): (s: string) => string {
  const fn = snowballStemmer(language);
  if (fn === undefined) throw new Error(`no Snowball stemmer for ${language}`);
  return fn;
}

/** ES StemmerTokenFilterFactory language names implemented here (beyond the English ones). */
export const LANGUAGE_STEMMERS: Record<string, () => (s: string) => string> = {
  arabic: () => arabicStem,
  armenian: () => snowballFn('armenian'),
  basque: () => snowballFn('basque'),
  bengali: () => bengaliStem,
  brazilian: () => brazilianStem,
  bulgarian: () => bulgarianStem,
  catalan: () => snowballFn('catalan'),
  czech: () => czechStem,
  danish: () => snowballFn('danish'),
  dutch: () => snowballFn('dutch'),
  dutch_kp: () => snowballFn('kp'),
  porter2: () => snowballFn('english'),
  finnish: () => snowballFn('finnish'),
  light_finnish: () => finnishLightStem,
  french: () => snowballFn('french'),
  light_french: () => frenchLightStem,
  minimal_french: () => frenchMinimalStem,
  galician: () => galicianStem,
  minimal_galician: () => galicianMinimalStem,
  german: () => snowballFn('german'),
  german2: () => snowballFn('german2'),
  light_german: () => germanLightStem,
  minimal_german: () => germanMinimalStem,
  greek: () => greekStem,
  hindi: () => hindiStem,
  hungarian: () => snowballFn('hungarian'),
  light_hungarian: () => hungarianLightStem,
  indonesian: () => (s) => indonesianStem(s, true),
  irish: () => snowballFn('irish'),
  kstem: () => kstem,
  italian: () => snowballFn('italian'),
  light_italian: () => italianLightStem,
  latvian: () => latvianStem,
  lovins: () => snowballFn('lovins'),
  lithuanian: () => snowballFn('lithuanian'),
  norwegian: () => snowballFn('norwegian'),
  light_norwegian: () => (s) => norwegianLightStem(s, 'bokmaal'),
  minimal_norwegian: () => (s) => norwegianMinimalStem(s, 'bokmaal'),
  light_nynorsk: () => (s) => norwegianLightStem(s, 'nynorsk'),
  minimal_nynorsk: () => (s) => norwegianMinimalStem(s, 'nynorsk'),
  portuguese: () => snowballFn('portuguese'),
  light_portuguese: () => portugueseLightStem,
  minimal_portuguese: () => portugueseMinimalStem,
  portuguese_rslp: () => portugueseRslpStem,
  romanian: () => snowballFn('romanian'),
  russian: () => snowballFn('russian'),
  light_russian: () => russianLightStem,
  sorani: () => soraniStem,
  spanish: () => snowballFn('spanish'),
  light_spanish: () => spanishLightStem,
  swedish: () => snowballFn('swedish'),
  light_swedish: () => swedishLightStem,
  turkish: () => snowballFn('turkish'),
};
Object.setPrototypeOf(LANGUAGE_STEMMERS, null);

/** ES SnowballTokenFilterFactory: `language` (default English) names a Snowball stemmer. */
function snowballFilter(name: string, p: Params): TokenFilterFactory {
  const lang = strParam(p, 'language', 'English');
  const fn = snowballStemmer(lang.toLowerCase());
  if (fn === undefined) throw illegalArgument(`Unknown Snowball language [${lang}]`);
  return filter(name, (i) => new StemFilter(i, fn), { keywordAware: true });
}

function wordSet(p: Params, key: string, ignoreCase: boolean): Set<string> | undefined {
  const words = listParam(p, key);
  if (words === undefined) return undefined;
  return new Set(ignoreCase ? words.map((w) => w.toLowerCase()) : words);
}

/** ES ElisionTokenFilterFactory: `articles` (default Lucene's French articles), `articles_case`. */
function elisionFilter(name: string, p: Params): TokenFilterFactory {
  const ignoreCase = boolParam(p, 'articles_case', false);
  const articles = wordSet(p, 'articles', ignoreCase) ?? new Set(FRENCH_ARTICLES);
  return filter(name, (i) => new TermMapFilter(i, (s) => elide(s, articles, ignoreCase)), {
    normalizerSafe: true,
  });
}

/** ES StemmerOverrideTokenFilterFactory: `rules` of the form `word[, word…] => stem`. */
function stemmerOverride(name: string, p: Params): TokenFilterFactory {
  const rules = listParam(p, 'rules');
  if (rules === undefined) {
    throw illegalArgument(
      'stemmer override filter requires either `rules` or `rules_path` to be configured',
    );
  }
  const map = new Map<string, string>();
  for (const rule of Array.isArray(p['rules']) ? (p['rules'] as unknown[]).map(String) : rules) {
    const sides = rule.split('=>');
    const keys = (sides[0] ?? '').split(',').map((k) => k.trim());
    const stem = (sides[1] ?? '').trim();
    if (sides.length !== 2 || stem === '' || keys.some((k) => k === '')) {
      throw illegalArgument(`Invalid Keyword override Rule:${rule}`);
    }
    for (const k of keys) if (!map.has(k)) map.set(k, stem);
  }
  return filter(name, (i) => new StemmerOverrideFilter(i, map), { keywordAware: true });
}

/** Lucene StemmerOverrideFilter: a dictionary stem, marked as a keyword so stemmers skip it. */
class StemmerOverrideFilter extends TermMapFilter {
  constructor(input: TokenStream, map: ReadonlyMap<string, string>) {
    super(input, (s) => s);
    this.map = map;
  }
  private readonly map: ReadonlyMap<string, string>;
  override next(): boolean {
    if (!this.input.next()) return false;
    const t = this.token;
    if (!t.keyword) {
      const stem = this.map.get(t.term);
      if (stem !== undefined) {
        t.term = stem;
        t.keyword = true;
      }
    }
    return true;
  }
}

function decompounder(name: string, p: Params): TokenFilterFactory {
  const ignoreCase = false;
  const words = wordSet(p, 'word_list', ignoreCase);
  if (words === undefined) {
    throw illegalArgument(
      `word_list must be provided for [${name}], either as a path to a file, or directly`,
    );
  }
  const o = {
    minWordSize: intParam(p, 'min_word_size', 5),
    minSubwordSize: intParam(p, 'min_subword_size', 2),
    maxSubwordSize: intParam(p, 'max_subword_size', 15),
    onlyLongestMatch: boolParam(p, 'only_longest_match', false),
  };
  return filter(name, (i) => new DictionaryDecompounder(i, words, o));
}

function patternCapture(name: string, p: Params): TokenFilterFactory {
  const patterns = listParam(p, 'patterns');
  if (patterns === undefined) {
    throw illegalArgument(`required setting 'patterns' is missing for token filter [${name}]`);
  }
  // a string value is one pattern (commas are regex syntax here)
  const sources = Array.isArray(p['patterns'])
    ? (p['patterns'] as unknown[]).map(String)
    : [String(p['patterns'])];
  const res = sources.map((s) => compileJavaRegex(s, 'u'));
  const preserve = boolParam(p, 'preserve_original', true);
  return filter(name, (i) => new PatternCaptureFilter(i, res, preserve));
}

function patternReplace(name: string, p: Params): TokenFilterFactory {
  const source = strParam(p, 'pattern');
  if (source === undefined) {
    throw illegalArgument(
      `pattern is missing for [${name}] token filter of type 'pattern_replace'`,
    );
  }
  const all = boolParam(p, 'all', true);
  const re = compileJavaRegex(source, javaFlagsToJs(strParam(p, 'flags')) + (all ? 'g' : ''));
  // Java replacement syntax: "\$" is a literal dollar; JS writes it "$$"
  const replacement = strParam(p, 'replacement', '').replace(/\\\$/g, '$$$$');
  return filter(name, (i) => new TermMapFilter(i, (s) => s.replace(re, replacement)), {
    normalizerSafe: true,
  });
}

function keepFilter(name: string, p: Params): TokenFilterFactory {
  const ignoreCase = boolParam(p, 'keep_words_case', false);
  if (p['keep_words_path'] !== undefined && p['keep_words'] !== undefined) {
    throw illegalArgument('cannot specify both `keep_words` and `keep_words_path`');
  }
  const words = wordSet(p, 'keep_words', ignoreCase);
  if (words === undefined) {
    throw illegalArgument(
      'keep requires either `keep_words` or `keep_words_path` to be configured',
    );
  }
  return filter(name, (i) => new KeepWordFilter(i, words, ignoreCase));
}

function keepTypes(name: string, p: Params): TokenFilterFactory {
  const types = listParam(p, 'types');
  if (types === undefined) throw illegalArgument('keep_types requires `types` to be configured');
  const mode = strParam(p, 'mode', 'include');
  if (mode !== 'include' && mode !== 'exclude') {
    throw illegalArgument(
      `\`keep_types\` tokenfilter mode can only be [include] or [exclude] but was [${mode}].`,
    );
  }
  const set = new Set(types);
  return filter(name, (i) => new KeepTypesFilter(i, set, mode === 'include'));
}

function commonGrams(name: string, p: Params): TokenFilterFactory {
  const ignoreCase = boolParam(p, 'ignore_case', false);
  const words = wordSet(p, 'common_words', ignoreCase);
  if (words === undefined || words.size === 0) {
    throw illegalArgument(
      'missing or empty [common_words] or [common_words_path] configuration for common grams token filter',
    );
  }
  const queryMode = boolParam(p, 'query_mode', false);
  return filter(name, (i) => new CommonGramsFilter(i, words, ignoreCase, queryMode));
}

function cjkBigram(name: string, p: Params): TokenFilterFactory {
  const ignored = new Set(listParam(p, 'ignored_scripts') ?? []);
  const types = new Set(
    Object.entries(CJK_SCRIPT_TYPES)
      .filter(([script]) => !ignored.has(script))
      .map(([, type]) => type),
  );
  const unigrams = boolParam(p, 'output_unigrams', false);
  return filter(name, (i) => new CjkBigramFilter(i, types, unigrams));
}

function delimitedPayload(name: string, p: Params): TokenFilterFactory {
  const delimiter = strParam(p, 'delimiter', '|');
  if (delimiter.length !== 1) throw illegalArgument('delimiter must be a one char value');
  const encoding = strParam(p, 'encoding', 'float');
  if (!['float', 'int', 'identity'].includes(encoding)) {
    throw illegalArgument(`Unknown encoding [${encoding}]`);
  }
  return filter(name, (i) => new DelimitedPayloadFilter(i, delimiter, encoding as PayloadEncoding));
}

const LEGACY_PAYLOAD_WARNING =
  'Deprecated [delimited_payload_filter] used, replaced by [delimited_payload]';

/**
 * ES 6.8 LegacyDelimitedPayloadTokenFilterFactory: the old name, deprecated since 6.2. ES reports
 * it when the filter is built (an index's own definition) and when its pre-configured instance
 * is used; `_analyze` rebuilds an index's filter, so reporting on use covers both.
 */
function legacyDelimitedPayload(name: string, p: Params): TokenFilterFactory {
  deprecated(LEGACY_PAYLOAD_WARNING);
  const f = delimitedPayload(name, p);
  return {
    ...f,
    create: (i) => {
      deprecated(LEGACY_PAYLOAD_WARNING);
      return f.create(i);
    },
  };
}

/** ES MinHashTokenFilterFactory (Lucene MinHashFilterFactory's defaults and checks). */
function minHash(name: string, p: Params): TokenFilterFactory {
  const hashCount = intParam(p, 'hash_count', 1);
  const bucketCount = intParam(p, 'bucket_count', 512);
  const hashSetSize = intParam(p, 'hash_set_size', 1);
  const withRotation = boolParam(p, 'with_rotation', bucketCount > 1);
  if (hashCount <= 0) throw illegalArgument('hashCount must be greater than zero');
  if (bucketCount <= 0) throw illegalArgument('bucketCount must be greater than zero');
  if (hashSetSize <= 0) throw illegalArgument('hashSetSize must be greater than zero');
  const o = { hashCount, bucketCount, hashSetSize, withRotation };
  return filter(name, (i) => new MinHashFilter(i, o));
}

/** ES BrazilianStemTokenFilterFactory: `stem_exclusion` words are marked as keywords first. */
function brazilianStemFilter(name: string, p: Params): TokenFilterFactory {
  const excluded = new Set(listParam(p, 'stem_exclusion') ?? []);
  return filter(
    name,
    (i) => {
      const marked = excluded.size === 0 ? i : new KeywordMarkerFilter(i, excluded, false, null);
      return new StemFilter(marked, brazilianStem);
    },
    { keywordAware: true },
  );
}

function wordDelimiter(graph: boolean): FilterProvider {
  return (name, p) => {
    const o = {
      generateWordParts: boolParam(p, 'generate_word_parts', true),
      generateNumberParts: boolParam(p, 'generate_number_parts', true),
      catenateWords: boolParam(p, 'catenate_words', false),
      catenateNumbers: boolParam(p, 'catenate_numbers', false),
      catenateAll: boolParam(p, 'catenate_all', false),
      splitOnCaseChange: boolParam(p, 'split_on_case_change', true),
      splitOnNumerics: boolParam(p, 'split_on_numerics', true),
      preserveOriginal: boolParam(p, 'preserve_original', false),
      stemEnglishPossessive: boolParam(p, 'stem_english_possessive', true),
      protectedWords: new Set(listParam(p, 'protected_words') ?? []),
      graph,
    };
    const rules = listParam(p, 'type_table');
    const typeTable = rules === undefined ? undefined : parseTypeTable(rules);
    return filter(name, (i) => new WordDelimiterFilter(i, { ...o, typeTable }));
  };
}

export const COMMON_FILTERS: Record<string, FilterProvider> = {
  snowball: snowballFilter,
  elision: elisionFilter,
  stemmer_override: stemmerOverride,
  dictionary_decompounder: decompounder,
  pattern_capture: patternCapture,
  pattern_replace: patternReplace,
  limit: (name, p) => {
    const max = intParam(p, 'max_token_count', 1);
    const all = boolParam(p, 'consume_all_tokens', false);
    return filter(name, (i) => new LimitFilter(i, max, all));
  },
  common_grams: commonGrams,
  keep: keepFilter,
  keep_types: keepTypes,
  delimited_payload: delimitedPayload,
  delimited_payload_filter: legacyDelimitedPayload,
  type_as_payload: (name) => filter(name, (i) => new TypeAsPayloadFilter(i)),
  min_hash: minHash,
  cjk_width: normalizer(foldCjkWidth),
  cjk_bigram: cjkBigram,
  decimal_digit: normalizer(foldDecimalDigits),
  apostrophe: (name) => filter(name, (i) => new TermMapFilter(i, stripApostrophe)),
  arabic_normalization: normalizer(arabicNormalize),
  bengali_normalization: keywordAwareNormalizer(bengaliNormalize),
  german_normalization: normalizer(germanNormalize),
  hindi_normalization: keywordAwareNormalizer(hindiNormalize),
  indic_normalization: normalizer(indicNormalize),
  persian_normalization: normalizer(persianNormalize),
  scandinavian_normalization: normalizer(scandinavianNormalize),
  scandinavian_folding: normalizer(scandinavianFold),
  serbian_normalization: normalizer(serbianNormalize),
  sorani_normalization: normalizer(soraniNormalize),
  arabic_stem: stemmer(arabicStem),
  czech_stem: stemmer(czechStem),
  brazilian_stem: brazilianStemFilter,
  kstem: stemmer(kstem),
  // ES 6.8 builds these three on Lucene's Snowball stemmers for the language
  dutch_stem: (name) => stemmer(snowballFn('dutch'))(name, {}),
  french_stem: (name) => stemmer(snowballFn('french'))(name, {}),
  russian_stem: (name) => stemmer(snowballFn('russian'))(name, {}),
  german_stem: stemmer(germanCaumannsStem),
  word_delimiter: wordDelimiter(false),
  word_delimiter_graph: wordDelimiter(true),
  multiplexer,
  predicate_token_filter: predicateFilter,
  condition: conditionFilter,
  fingerprint: (name, p) => {
    const separator = strParam(p, 'separator', ' ');
    const max = intParam(p, 'max_output_size', 255);
    return filter(name, (i) => new FingerprintFilter(i, separator, max));
  },
};

/** Lucene ClassicFilter: drops the 's of <APOSTROPHE> tokens and the dots of <ACRONYM>s. */
class ClassicFilter extends TermMapFilter {
  override next(): boolean {
    if (!this.input.next()) return false;
    const t = this.token;
    if (t.type === '<APOSTROPHE>' && /'[sS]$/.test(t.term)) t.term = t.term.slice(0, -2);
    else if (t.type === '<ACRONYM>') t.term = t.term.replace(/\./g, '');
    return true;
  }
}
COMMON_FILTERS['classic'] = (name) => filter(name, (i) => new ClassicFilter(i, (s) => s));

/** ES ShingleTokenFilterFactory (Lucene ShingleFilter's size checks). */
function shingle(name: string, p: Params): TokenFilterFactory {
  const max = intParam(p, 'max_shingle_size', 2);
  const min = intParam(p, 'min_shingle_size', 2);
  if (max < 2) throw illegalArgument('Max shingle size must be >= 2');
  if (min < 2) throw illegalArgument('Min shingle size must be >= 2');
  if (min > max) throw illegalArgument('Min shingle size must be <= max shingle size');
  const o = {
    min,
    max,
    outputUnigrams: boolParam(p, 'output_unigrams', true),
    outputUnigramsIfNoShingles: boolParam(p, 'output_unigrams_if_no_shingles', false),
    separator: strParam(p, 'token_separator', ' '),
    filler: strParam(p, 'filler_token', '_'),
  };
  return filter(name, (i) => new ShingleFilter(i, o), {
    shingle: { min, max, outputUnigrams: o.outputUnigrams },
  });
}
COMMON_FILTERS['shingle'] = shingle;
COMMON_FILTERS['keyword_repeat'] = (name) =>
  filter(name, (i) => new KeywordRepeatFilter(i), { keywordAware: true });
COMMON_FILTERS['remove_duplicates'] = (name) => filter(name, (i) => new RemoveDuplicatesFilter(i));

/** ES WordDelimiterTokenFilterFactory.parseTypes: `char => TYPE` rules (Java escapes allowed). */
function parseTypeTable(rules: readonly string[]): Map<string, number> {
  const table = new Map<string, number>();
  for (const rule of rules) {
    const m = /^(.*)\s*=>\s*(.*)\s*$/.exec(rule);
    if (m === null) throw illegalArgument(`Invalid Mapping Rule : [${rule}]`);
    const lhs = unescapeJava(m[1]!.trim());
    if (lhs.length !== 1) {
      throw illegalArgument(
        `Invalid Mapping Rule : [${rule}], only a single character is allowed.`,
      );
    }
    const type = Object.hasOwn(WORD_DELIMITER_TYPES, m[2]!.trim())
      ? WORD_DELIMITER_TYPES[m[2]!.trim()]
      : undefined;
    if (type === undefined) throw illegalArgument(`Invalid Mapping Rule : [${rule}]`);
    table.set(lhs, type);
  }
  return table;
}

function unescapeJava(s: string): string {
  return s.replace(/\\(u[0-9a-fA-F]{4}|.)/g, (_, e: string) => {
    if (e.startsWith('u') && e.length === 5) return String.fromCharCode(parseInt(e.slice(1), 16));
    return { n: '\n', t: '\t', r: '\r', b: '\b', f: '\f' }[e] ?? e;
  });
}
