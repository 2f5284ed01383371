/**
 * ES AnalysisRegistry / IndexAnalyzers: the built-in analyzers and components, and the ones an
 * index defines under `index.analysis.{analyzer,tokenizer,filter,char_filter,normalizer}`
 * (nested form; flat `index.analysis.x.y` keys are normalised by the caller).
 */
import { illegalArgument } from '../../common/errors.js';
import {
  ChainAnalyzer,
  ChainNormalizer,
  type CharFilterFactory,
  type TokenFilterFactory,
  type TokenizerFactory,
} from './analyzer.js';
import { ANALYZERS } from './builtin-analyzers.js';
import type { ChainAwareFilter } from './chain-aware-filters.js';
import {
  CHAR_FILTERS,
  DEFAULT_INDEX_ANALYSIS,
  FILTERS,
  TOKENIZERS,
  type IndexAnalysisSettings,
} from './components.js';
import { parseSynonymRules } from './filters/synonym-filter.js';
import { synonymStream } from './filters/synonym-graph-filter.js';
import { intParam, listParam, type Params } from './settings-params.js';
import type { Analyzer, Normalizer } from './types.js';

/** ES TextFieldMapper.Defaults.POSITION_INCREMENT_GAP */
export const DEFAULT_POSITION_INCREMENT_GAP = 100;

type Section = Record<string, Params>;

function section(settings: Record<string, unknown>, key: string): Section {
  const v = settings[key];
  if (v === undefined || v === null) return {};
  if (typeof v !== 'object' || Array.isArray(v))
    throw illegalArgument(`[index.analysis.${key}] must be an object`);
  const out: Section = {};
  for (const [name, def] of Object.entries(v as Record<string, unknown>)) {
    if (typeof def !== 'object' || def === null || Array.isArray(def)) {
      throw illegalArgument(`[index.analysis.${key}.${name}] must be an object`);
    }
    out[name] = def as Params;
  }
  return out;
}

export class AnalysisRegistry {
  static readonly builtin: AnalysisRegistry = new AnalysisRegistry(true);

  private readonly analyzers = new Map<string, ChainAnalyzer>();
  private readonly normalizers = new Map<string, ChainNormalizer>();
  private readonly tokenizers = new Map<string, TokenizerFactory>();
  private readonly filters = new Map<string, TokenFilterFactory>();
  private readonly charFilters = new Map<string, CharFilterFactory>();

  /** `global`: no index (the `_analyze` API without one; ES uses Lucene's gap of 0 there). */
  private constructor(
    readonly global: boolean,
    /** The index settings components are built with (also `_analyze`'s inline definitions). */
    readonly indexSettings: IndexAnalysisSettings = DEFAULT_INDEX_ANALYSIS,
  ) {}

  static fromIndexSettings(
    analysisSettings: unknown,
    indexSettings: IndexAnalysisSettings = DEFAULT_INDEX_ANALYSIS,
  ): AnalysisRegistry {
    const reg = new AnalysisRegistry(false, indexSettings);
    const s = (analysisSettings ?? {}) as Record<string, unknown>;
    if (typeof s !== 'object' || Array.isArray(s))
      throw illegalArgument('[index.analysis] must be an object');
    for (const [name, def] of Object.entries(section(s, 'tokenizer'))) {
      reg.tokenizers.set(name, componentOf('tokenizer', name, def, TOKENIZERS, indexSettings));
    }
    for (const [name, def] of Object.entries(section(s, 'char_filter'))) {
      reg.charFilters.set(name, componentOf('char_filter', name, def, CHAR_FILTERS));
    }
    for (const [name, def] of Object.entries(section(s, 'filter'))) {
      reg.filters.set(name, componentOf('filter', name, def, FILTERS, indexSettings));
    }
    for (const [name, def] of Object.entries(section(s, 'analyzer'))) {
      if (name.startsWith('_'))
        throw illegalArgument(`analyzer name must not start with '_'. got "${name}"`);
      reg.analyzers.set(name, reg.buildAnalyzer(name, def));
    }
    for (const [name, def] of Object.entries(section(s, 'normalizer'))) {
      reg.normalizers.set(name, reg.buildNormalizer(name, def));
    }
    return reg;
  }

  analyzer(name: string): Analyzer | undefined {
    return this.chainAnalyzer(name);
  }

  /** The index's `default` analyzer, else `standard`. */
  defaultAnalyzer(): Analyzer {
    return this.chainAnalyzer('default') ?? this.chainAnalyzer('standard')!;
  }

  normalizer(name: string): Normalizer | undefined {
    const own = this.normalizers.get(name);
    if (own !== undefined) return own;
    if (name === 'lowercase') return LOWERCASE_NORMALIZER;
    return undefined;
  }

  /** @internal the chain behind an analyzer name (index-defined first, then built-in). */
  chainAnalyzer(name: string): ChainAnalyzer | undefined {
    const own = this.analyzers.get(name);
    if (own !== undefined) return own;
    const provider = ANALYZERS[name];
    if (provider === undefined) return undefined;
    let a = this.global ? GLOBAL_PREBUILT.get(name) : INDEX_PREBUILT.get(name);
    if (a === undefined) {
      a = provider(name, {}, this.global ? 0 : DEFAULT_POSITION_INCREMENT_GAP);
      (this.global ? GLOBAL_PREBUILT : INDEX_PREBUILT).set(name, a);
    }
    return a;
  }

  /** @internal */
  chainNormalizer(name: string): ChainNormalizer | undefined {
    const n = this.normalizer(name);
    return n instanceof ChainNormalizer ? n : undefined;
  }

  tokenizer(name: string): TokenizerFactory | undefined {
    return this.tokenizers.get(name) ?? prebuilt(name, TOKENIZERS, PREBUILT_TOKENIZERS);
  }

  filter(name: string): TokenFilterFactory | undefined {
    const own = this.filters.get(name);
    if (own !== undefined) return own;
    if (name === 'common_grams') return PREBUILT_COMMON_GRAMS;
    return prebuilt(name, FILTERS, PREBUILT_FILTERS);
  }

  charFilter(name: string): CharFilterFactory | undefined {
    return this.charFilters.get(name) ?? prebuilt(name, CHAR_FILTERS, PREBUILT_CHAR_FILTERS);
  }

  private buildAnalyzer(name: string, def: Params): ChainAnalyzer {
    const type = def['type'] === undefined ? undefined : String(def['type']);
    if (type === undefined || type === 'custom') {
      if (type === undefined && def['tokenizer'] === undefined) {
        throw illegalArgument(
          `analyzer [${name}] must specify either an analyzer type, or a tokenizer`,
        );
      }
      return this.buildCustom(name, def);
    }
    const provider = ANALYZERS[type];
    if (provider === undefined)
      throw illegalArgument(`Unknown analyzer type [${type}] for [${name}]`);
    return provider(
      name,
      def,
      intParam(def, 'position_increment_gap', DEFAULT_POSITION_INCREMENT_GAP),
    );
  }

  /** ES CustomAnalyzerProvider. */
  private buildCustom(name: string, def: Params): ChainAnalyzer {
    const tokenizerName = def['tokenizer'] === undefined ? undefined : String(def['tokenizer']);
    if (tokenizerName === undefined) {
      throw illegalArgument(`Custom Analyzer [${name}] must be configured with a tokenizer`);
    }
    const tokenizer = this.tokenizer(tokenizerName);
    if (tokenizer === undefined) {
      throw illegalArgument(
        `Custom Analyzer [${name}] failed to find tokenizer under name [${tokenizerName}]`,
      );
    }
    const charFilters = (listParam(def, 'char_filter') ?? []).map((cf) => {
      const f = this.charFilter(cf);
      if (f === undefined) {
        throw illegalArgument(
          `Custom Analyzer [${name}] failed to find char_filter under name [${cf}]`,
        );
      }
      return f;
    });
    const filters: TokenFilterFactory[] = [];
    for (const fname of listParam(def, 'filter') ?? []) {
      const f = this.filter(fname);
      if (f === undefined) {
        throw illegalArgument(
          `Custom Analyzer [${name}] failed to find filter under name [${fname}]`,
        );
      }
      filters.push(chainAware(f, tokenizer, charFilters, filters, (n) => this.filter(n)));
    }
    const gap = intParam(def, 'position_increment_gap', DEFAULT_POSITION_INCREMENT_GAP);
    return new ChainAnalyzer(name, tokenizer, charFilters, filters, gap, true);
  }

  /** ES CustomNormalizerProvider. */
  private buildNormalizer(name: string, def: Params): ChainNormalizer {
    if (def['tokenizer'] !== undefined) {
      throw illegalArgument(`Custom normalizer [${name}] cannot configure a tokenizer`);
    }
    const charFilters = (listParam(def, 'char_filter') ?? []).map((cf) => {
      const f = this.charFilter(cf);
      if (f === undefined) {
        throw illegalArgument(
          `Custom normalizer [${name}] failed to find char_filter under name [${cf}]`,
        );
      }
      if (f.normalizerSafe !== true)
        throw illegalArgument(`Custom normalizer [${name}] may not use char filter [${cf}]`);
      return f;
    });
    const filters = (listParam(def, 'filter') ?? []).map((fname) => {
      const f = this.filter(fname);
      if (f === undefined) {
        throw illegalArgument(
          `Custom Analyzer [${name}] failed to find filter under name [${fname}]`,
        );
      }
      if (f.normalizerSafe !== true)
        throw illegalArgument(`Custom normalizer [${name}] may not use filter [${fname}]`);
      return f;
    });
    return new ChainNormalizer(
      name,
      new ChainAnalyzer(name, KEYWORD_TOKENIZER, charFilters, filters, 0, true),
    );
  }
}

function componentOf<T>(
  kind: string,
  name: string,
  def: Params,
  providers: Record<string, (n: string, p: Params, index?: IndexAnalysisSettings) => T>,
  index?: IndexAnalysisSettings,
): T {
  const type = def['type'] === undefined ? undefined : String(def['type']);
  if (type === undefined)
    throw illegalArgument(`${kind} [${name}] must specify either an analyzer type, or a tokenizer`);
  const provider = providers[type];
  if (provider === undefined) throw illegalArgument(`Unknown ${kind} type [${type}] for [${name}]`);
  return provider(name, def, index);
}

/** ES's pre-configured common_grams has no common words: it passes tokens through. */
const PREBUILT_COMMON_GRAMS: TokenFilterFactory = { name: 'common_grams', create: (i) => i };

const PREBUILT_TOKENIZERS = new Map<string, TokenizerFactory>();
const PREBUILT_FILTERS = new Map<string, TokenFilterFactory>();
const PREBUILT_CHAR_FILTERS = new Map<string, CharFilterFactory>();
const GLOBAL_PREBUILT = new Map<string, ChainAnalyzer>();
const INDEX_PREBUILT = new Map<string, ChainAnalyzer>();

/** Filters that need settings have no pre-configured instance in ES. */
const REQUIRES_SETTINGS = new Set([
  'keyword_marker',
  'stemmer_override',
  'dictionary_decompounder',
  'pattern_capture',
  'keep',
  'keep_types',
  'multiplexer',
  'condition',
  'predicate_token_filter',
  'synonym',
  'synonym_graph',
  'mapping',
  'pattern_replace',
  'simple_pattern',
  'simple_pattern_split',
]);

function prebuilt<T>(
  name: string,
  providers: Record<string, (n: string, p: Params) => T>,
  cache: Map<string, T>,
): T | undefined {
  if (REQUIRES_SETTINGS.has(name)) return undefined;
  const hit = cache.get(name);
  if (hit !== undefined) return hit;
  const provider = providers[name];
  if (provider === undefined) return undefined;
  // ES pre-configured edge_ngram filter is EdgeNGramTokenFilter(1, 1); the factory default agrees.
  const made = provider(name, {});
  cache.set(name, made);
  return made;
}

const KEYWORD_TOKENIZER = TOKENIZERS['keyword']!('keyword', {});

const LOWERCASE_NORMALIZER = new ChainNormalizer(
  'lowercase',
  new ChainAnalyzer(
    'lowercase',
    KEYWORD_TOKENIZER,
    [],
    [FILTERS['lowercase']!('lowercase', {})],
    0,
    true,
  ),
);

/**
 * ES 6 synonym filters analyze their rules with the tokenizer and the filters before them
 * (SynonymTokenFilterFactory.getChainAwareTokenFilterFactory).
 */
export function chainAware(
  f: TokenFilterFactory,
  tokenizer: TokenizerFactory,
  charFilters: readonly CharFilterFactory[],
  previous: readonly TokenFilterFactory[],
  resolve?: (name: string) => TokenFilterFactory | undefined,
): TokenFilterFactory {
  const withFilters = (f as Partial<ChainAwareFilter>).withFilters;
  if (withFilters !== undefined) return withFilters(resolve ?? (() => undefined));
  const spec = (f as TokenFilterFactory & { synonymSpec?: SynonymSpec }).synonymSpec;
  if (spec === undefined) return f;
  const chain = new ChainAnalyzer('_synonym_rules', tokenizer, charFilters, [...previous], 0, true);
  const analyzeRule = (text: string) => {
    const out: string[] = [];
    chain.visit(text, (t) => out.push(t.term));
    return out;
  };
  const map = parseSynonymRules(spec.rules, spec.expand, spec.ignoreCase, analyzeRule);
  return { name: f.name, create: (i) => synonymStream(i, map, spec.ignoreCase, spec.graph) };
}

export interface SynonymSpec {
  rules: string[];
  expand: boolean;
  ignoreCase: boolean;
  /** synonym_graph (Lucene SynonymGraphFilter) rather than synonym. */
  graph: boolean;
}
