/**
 * Suggest request parsing (ES SuggestBuilder, SuggestionBuilder and the term / phrase /
 * completion builders): named suggestions with a global `text`, the DirectSpellChecker settings
 * shared by term suggesters, and the phrase suggester's model options, with ES's parse errors.
 */
import { EsError, illegalArgument, parsingException } from '../../common/errors.js';
import type { SpellSettings } from './spell.js';
import type { SmoothingModel } from './phrase-model.js';
import { asDistance, parseFuzziness } from '../../search/automata/fuzziness.js';
import { DEFAULT_MAX_DETERMINIZED_STATES } from '../../search/automata/regexp.js';
import { REGEXP_FLAGS, resolveRegexpFlags } from '../../search/automata/regexp-syntax.js';

export type SuggestNode = TermSuggestNode | PhraseSuggestNode | CompletionSuggestNode;

interface CommonSuggest {
  name: string;
  field: string;
  text: string | null;
  prefix: string | null;
  /** Top-level `regex` (completion only: a Lucene RegExp the analyzed input must start with). */
  regex: string | null;
  analyzer: string | null;
  size: number;
  shardSize: number | null;
}

export interface TermSuggestNode extends CommonSuggest {
  type: 'term';
  spell: SpellSettings;
  sort: 'score' | 'frequency';
}

export interface PhraseSuggestNode extends CommonSuggest {
  type: 'phrase';
  confidence: number;
  maxErrors: number;
  realWordErrorLikelihood: number;
  separator: string;
  gramSize: number | null;
  /** force_unigrams (ES requireUnigram): shingles of the input are not corrected. */
  forceUnigrams: boolean;
  tokenLimit: number;
  /** null: the default stupid backoff. */
  smoothing: SmoothingModel | null;
  /** `direct_generator`s; none means one on the suggest field with default settings. */
  generators: DirectGeneratorNode[];
  highlight: { pre: string; post: string } | null;
  collate: PhraseCollate | null;
}

/** ES DirectCandidateGeneratorBuilder. */
export interface DirectGeneratorNode {
  field: string;
  spell: SpellSettings;
  size: number;
  preFilter: string | null;
  postFilter: string | null;
}

/** `collate`: a template query each correction must match (or is marked by, with prune). */
export interface PhraseCollate {
  /** The template script (`source`/`id`/`params` as given, or a query object). */
  query: unknown;
  params: Record<string, unknown> | null;
  prune: boolean;
}

export interface CompletionSuggestNode extends CommonSuggest {
  type: 'completion';
  skipDuplicates: boolean;
  /** `contexts` as given; read against the field's context mappings on each shard. */
  contexts: Record<string, unknown> | null;
  /** `fuzzy` (true or an object): FuzzyCompletionQuery on the prefix; null when not asked. */
  fuzzy: CompletionFuzzyOptions | null;
  /** `regex` options for the top-level `regex` (ES RegexOptions); null means the defaults. */
  regexOptions: CompletionRegexOptions | null;
}

/** ES FuzzyOptions (defaults: FuzzyCompletionQuery's). */
export interface CompletionFuzzyOptions {
  editDistance: number;
  transpositions: boolean;
  minLength: number;
  prefixLength: number;
  unicodeAware: boolean;
  maxDeterminizedStates: number;
}

/** ES RegexOptions: the RegExp syntax flags and Lucene's determinization budget. */
export interface CompletionRegexOptions {
  flags: number;
  maxDeterminizedStates: number;
}

export const DEFAULT_FUZZY: CompletionFuzzyOptions = {
  editDistance: 1,
  transpositions: true,
  minLength: 3,
  prefixLength: 1,
  unicodeAware: false,
  maxDeterminizedStates: DEFAULT_MAX_DETERMINIZED_STATES,
};

const TYPES = new Set(['term', 'phrase', 'completion']);

export const DEFAULT_SPELL: SpellSettings = {
  suggestMode: 'missing',
  accuracy: 0.5,
  maxEdits: 2,
  maxInspections: 5,
  maxTermFreq: 0.01,
  prefixLength: 1,
  minWordLength: 4,
  minDocFreq: 0,
};

const num = (owner: string, k: string, v: unknown): number => {
  const n = typeof v === 'string' ? Number(v) : v;
  if (typeof n !== 'number' || Number.isNaN(n))
    throw parsingException(`suggester[${owner}] doesn't support field [${k}]`);
  return n;
};

/** SuggestBuilder.fromXContent: a global `text` and named suggestions of one type each. */
export function parseSuggest(v: unknown): SuggestNode[] {
  const o = v as Record<string, unknown>;
  let globalText: string | null = null;
  const out: SuggestNode[] = [];
  for (const [name, def] of Object.entries(o)) {
    if (def === null || typeof def !== 'object') {
      if (name === 'text') {
        globalText = String(def);
        continue;
      }
      throw illegalArgument(`[suggest] does not support [${name}]`);
    }
    if (Array.isArray(def))
      throw parsingException(`unexpected token [START_ARRAY] after [${name}]`);
    out.push(parseSuggestion(name, def as Record<string, unknown>));
  }
  // SuggestBuilder.build: the global text stands in for a suggestion with none of its own
  for (const s of out)
    if (s.text === null && s.prefix === null && s.regex === null) s.text = globalText;
  return out;
}

/** SuggestionBuilder.fromXContent. */
function parseSuggestion(name: string, o: Record<string, unknown>): SuggestNode {
  let text: string | null = null;
  let prefix: string | null = null;
  let regex: string | null = null;
  let node: SuggestNode | null = null;
  for (const [k, v] of Object.entries(o)) {
    if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
      if (!TYPES.has(k))
        throw new EsError(
          'x_content_parse_exception',
          `unable to parse SuggestionBuilder with name [${k}]: parser not found`,
          400,
        );
      node = parseSuggester(name, k, v as Record<string, unknown>);
    } else if (k === 'text') text = String(v);
    else if (k === 'prefix') prefix = String(v);
    else if (k === 'regex') regex = String(v);
    else throw parsingException(`suggestion does not support [${k}]`);
  }
  if (!node) throw new EsError('parse_exception', 'missing suggestion object', 400);
  if (text !== null) node.text = text;
  if (prefix !== null) node.prefix = prefix;
  if (regex !== null) node.regex = regex;
  return node;
}

function parseSuggester(name: string, type: string, o: Record<string, unknown>): SuggestNode {
  const common: CommonSuggest = {
    name,
    field: '',
    text: null,
    prefix: null,
    regex: null,
    analyzer: null,
    size: 5,
    shardSize: null,
  };
  const spell: SpellSettings = { ...DEFAULT_SPELL };
  const term: TermSuggestNode = { ...common, type: 'term', spell, sort: 'score' };
  const phrase: PhraseSuggestNode = {
    ...common,
    type: 'phrase',
    confidence: 1,
    maxErrors: 0.5,
    realWordErrorLikelihood: 0.95,
    separator: ' ',
    gramSize: null,
    tokenLimit: 10,
    forceUnigrams: true,
    smoothing: null,
    generators: [],
    highlight: null,
    collate: null,
  };
  const completion: CompletionSuggestNode = {
    ...common,
    type: 'completion',
    skipDuplicates: false,
    contexts: null,
    fuzzy: null,
    regexOptions: null,
  };
  const node: SuggestNode = type === 'term' ? term : type === 'phrase' ? phrase : completion;
  for (const [k, v] of Object.entries(o)) {
    switch (k) {
      case 'field':
        node.field = String(v);
        continue;
      case 'analyzer':
        node.analyzer = String(v);
        continue;
      case 'size':
        node.size = num(type, k, v);
        if (node.size <= 0) throw illegalArgument('size must be positive');
        continue;
      case 'shard_size':
        node.shardSize = num(type, k, v);
        continue;
    }
    if (node.type === 'term' && parseSpellOption(spell, k, v, type)) continue;
    if (node.type === 'term' && k === 'sort') {
      if (v !== 'score' && v !== 'frequency')
        throw illegalArgument(`Illegal suggest sort ${String(v)}`);
      node.sort = v;
      continue;
    }
    if (node.type === 'phrase') {
      if (parsePhraseOption(node, k, v)) continue;
    }
    if (node.type === 'completion' && k === 'skip_duplicates') {
      node.skipDuplicates = v === true || v === 'true';
      continue;
    }
    if (node.type === 'completion' && k === 'contexts') {
      if (v === null || typeof v !== 'object' || Array.isArray(v))
        throw new EsError(
          'x_content_parse_exception',
          `[completion] contexts doesn't support values of type: ${Array.isArray(v) ? 'START_ARRAY' : 'VALUE'}`,
          400,
        );
      node.contexts = v as Record<string, unknown>;
      continue;
    }
    if (node.type === 'completion' && k === 'fuzzy') {
      if (typeof v === 'boolean') {
        if (v) node.fuzzy = { ...DEFAULT_FUZZY };
        continue;
      }
      node.fuzzy = parseFuzzyOptions(objectField('completion', k, v));
      continue;
    }
    if (node.type === 'completion' && k === 'regex') {
      node.regexOptions = parseRegexOptions(objectField('completion', k, v));
      continue;
    }
    throw parsingException(`suggester[${type}] doesn't support field [${k}]`);
  }
  if (node.field === '')
    throw new EsError('parse_exception', 'the required field option [field] is missing', 400);
  return node;
}

/** DirectSpellcheckerSettings fields shared by the term suggester and phrase generators. */
function parseSpellOption(s: SpellSettings, k: string, v: unknown, owner: string): boolean {
  switch (k) {
    case 'suggest_mode': {
      const m = String(v).toLowerCase();
      if (m !== 'missing' && m !== 'popular' && m !== 'always')
        throw illegalArgument(`Illegal suggest mode ${String(v)}`);
      s.suggestMode = m;
      return true;
    }
    case 'accuracy':
      s.accuracy = Math.fround(num(owner, k, v));
      return true;
    case 'max_edits':
      s.maxEdits = num(owner, k, v);
      if (s.maxEdits < 1 || s.maxEdits > 2)
        throw illegalArgument('Illegal max_edits value ' + s.maxEdits);
      return true;
    case 'max_inspections':
      s.maxInspections = num(owner, k, v);
      return true;
    case 'max_term_freq':
      s.maxTermFreq = Math.fround(num(owner, k, v));
      return true;
    case 'prefix_length':
    case 'prefix_len':
      s.prefixLength = num(owner, k, v);
      return true;
    case 'min_word_length':
    case 'min_word_len':
      s.minWordLength = num(owner, k, v);
      return true;
    case 'min_doc_freq':
      s.minDocFreq = Math.fround(num(owner, k, v));
      return true;
    case 'string_distance':
      if (String(v) !== 'internal')
        throw illegalArgument(`string_distance [${String(v)}] is not supported`);
      return true;
  }
  return false;
}

function parsePhraseOption(p: PhraseSuggestNode, k: string, v: unknown): boolean {
  switch (k) {
    case 'confidence':
      p.confidence = Math.fround(num('phrase', k, v));
      if (p.confidence < 0) throw illegalArgument('confidence must be >= 0.0');
      return true;
    case 'max_errors':
      p.maxErrors = Math.fround(num('phrase', k, v));
      if (p.maxErrors <= 0) throw illegalArgument('max_error must be > 0.0');
      return true;
    case 'real_word_error_likelihood':
      p.realWordErrorLikelihood = Math.fround(num('phrase', k, v));
      if (p.realWordErrorLikelihood <= 0)
        throw illegalArgument('real_word_error_likelihood must be > 0.0');
      return true;
    case 'separator':
      p.separator = String(v);
      return true;
    case 'gram_size':
      p.gramSize = Math.trunc(num('phrase', k, v));
      if (p.gramSize < 1) throw illegalArgument('gramSize must be >= 1');
      return true;
    case 'force_unigrams':
      p.forceUnigrams = bool('phrase', k, v);
      return true;
    case 'token_limit':
      p.tokenLimit = Math.trunc(num('phrase', k, v));
      if (p.tokenLimit <= 0) throw illegalArgument('token_limit must be >= 1');
      return true;
    case 'highlight': {
      const h = objectOf(k, v);
      let pre: string | null = null;
      let post: string | null = null;
      for (const [hk, hv] of Object.entries(h)) {
        if (hk === 'pre_tag') pre = String(hv);
        else if (hk === 'post_tag') post = String(hv);
        else throw parsingException(`suggester[phrase][highlight] doesn't support field [${hk}]`);
      }
      if ((pre === null) !== (post === null))
        throw illegalArgument('Pre and post tag must both be null or both not be null.');
      p.highlight = pre === null ? null : { pre, post: post! };
      return true;
    }
    case 'smoothing':
      if (p.smoothing !== null) throw illegalArgument('only one smoothing model supported');
      p.smoothing = parseSmoothing(objectOf(k, v));
      return true;
    case 'direct_generator':
      if (!Array.isArray(v))
        throw parsingException(`suggester[phrase] doesn't support field [${k}]`);
      for (const g of v) {
        if (g === null || typeof g !== 'object' || Array.isArray(g)) break;
        p.generators.push(parseGenerator(g as Record<string, unknown>));
      }
      return true;
    case 'collate':
      p.collate = parseCollate(objectOf(k, v));
      return true;
  }
  return false;
}

function objectOf(k: string, v: unknown): Record<string, unknown> {
  if (v === null || typeof v !== 'object' || Array.isArray(v))
    throw parsingException(`suggester[phrase] doesn't support field [${k}]`);
  return v as Record<string, unknown>;
}

function bool(owner: string, k: string, v: unknown): boolean {
  if (v === true || v === 'true') return true;
  if (v === false || v === 'false') return false;
  throw parsingException(`suggester[${owner}] doesn't support field [${k}]`);
}

/** SmoothingModel.fromXContent. */
function parseSmoothing(o: Record<string, unknown>): SmoothingModel | null {
  let model: SmoothingModel | null = null;
  for (const [name, def] of Object.entries(o)) {
    if (def === null || typeof def !== 'object' || Array.isArray(def))
      throw parsingException(`[smoothing] unknown token [VALUE] after [${name}]`);
    const d = def as Record<string, unknown>;
    const dbl = (key: string, dflt: number) =>
      d[key] === undefined ? dflt : num('phrase', key, d[key]);
    if (name === 'stupid_backoff')
      model = { kind: 'stupid_backoff', discount: dbl('discount', 0.4) };
    else if (name === 'laplace') model = { kind: 'laplace', alpha: dbl('alpha', 0.5) };
    else if (name === 'linear_interpolation') {
      const l = { trigram_lambda: 0, bigram_lambda: 0, unigram_lambda: 0 };
      for (const [lk, lv] of Object.entries(d)) {
        if (!(lk in l))
          throw illegalArgument(
            `suggester[phrase][smoothing][linear] doesn't support field [${lk}]`,
          );
        const x = num('phrase', lk, lv);
        if (x < 0) throw illegalArgument(`${lk} must be positive`);
        l[lk as keyof typeof l] = x;
      }
      if (Math.abs(l.trigram_lambda + l.bigram_lambda + l.unigram_lambda - 1) > 0.001)
        throw illegalArgument('linear smoothing lambdas must sum to 1');
      model = {
        kind: 'linear_interpolation',
        trigramLambda: l.trigram_lambda,
        bigramLambda: l.bigram_lambda,
        unigramLambda: l.unigram_lambda,
      };
    } else throw illegalArgument(`suggester[phrase] doesn't support object field [${name}]`);
  }
  return model;
}

/** DirectCandidateGeneratorBuilder.PARSER. */
function parseGenerator(o: Record<string, unknown>): DirectGeneratorNode {
  const g: DirectGeneratorNode = {
    field: '',
    spell: { ...DEFAULT_SPELL },
    size: 5,
    preFilter: null,
    postFilter: null,
  };
  for (const [k, v] of Object.entries(o)) {
    if (k === 'field') g.field = String(v);
    else if (k === 'pre_filter') g.preFilter = String(v);
    else if (k === 'post_filter') g.postFilter = String(v);
    else if (k === 'size') {
      g.size = Math.trunc(num('direct_generator', k, v));
      if (g.size <= 0) throw illegalArgument('Size must be positive');
    } else if (k === 'sort') {
      if (v !== 'score' && v !== 'frequency')
        throw illegalArgument(`Illegal suggest sort ${String(v)}`);
    } else if (!parseSpellOption(g.spell, k, v, 'direct_generator'))
      throw new EsError(
        'x_content_parse_exception',
        `[direct_generator] unknown field [${k}], parser not found`,
        400,
      );
  }
  if (g.field === '') throw illegalArgument('Required [field]');
  return g;
}

/** The `collate` object: `query` (a template), `params`, `prune`. */
function parseCollate(o: Record<string, unknown>): PhraseCollate {
  const c: PhraseCollate = { query: null, params: null, prune: false };
  for (const [k, v] of Object.entries(o)) {
    if (k === 'query') {
      if (c.query !== null)
        throw parsingException(
          `suggester[phrase][collate] query already set, doesn't support additional [${k}]`,
        );
      c.query = v;
    } else if (k === 'params') c.params = objectOf(k, v);
    else if (k === 'prune') {
      if (typeof v !== 'boolean' && v !== 'true' && v !== 'false')
        throw parsingException("suggester[phrase][collate] prune must be either 'true' or 'false'");
      c.prune = v === true || v === 'true';
    } else throw parsingException(`suggester[phrase][collate] doesn't support field [${k}]`);
  }
  return c;
}

/** XContent token names ObjectParser reports for a value of the wrong kind. */
function tokenName(v: unknown): string {
  if (Array.isArray(v)) return 'START_ARRAY';
  if (v === null) return 'VALUE_NULL';
  if (typeof v === 'string') return 'VALUE_STRING';
  if (typeof v === 'number') return 'VALUE_NUMBER';
  if (typeof v === 'boolean') return 'VALUE_BOOLEAN';
  return 'START_OBJECT';
}

function objectField(owner: string, k: string, v: unknown): Record<string, unknown> {
  if (v === null || typeof v !== 'object' || Array.isArray(v))
    throw new EsError(
      'x_content_parse_exception',
      `[${owner}] ${k} doesn't support values of type: ${tokenName(v)}`,
      400,
    );
  return v as Record<string, unknown>;
}

function intOption(owner: string, k: string, v: unknown): number {
  const n = typeof v === 'string' ? Number(v.trim()) : v;
  if (typeof n !== 'number' || !Number.isFinite(n))
    throw new EsError(
      'x_content_parse_exception',
      `[${owner}] ${k} doesn't support values of type: ${tokenName(v)}`,
      400,
    );
  return Math.trunc(n);
}

function nonNegative(n: number, what: string): number {
  if (n < 0) throw illegalArgument(`${what} must not be negative`);
  return n;
}

/** FuzzyOptions.PARSER: `fuzziness` (ES Fuzziness, as a distance), lengths and flags. */
function parseFuzzyOptions(o: Record<string, unknown>): CompletionFuzzyOptions {
  const f: CompletionFuzzyOptions = { ...DEFAULT_FUZZY };
  for (const [k, v] of Object.entries(o)) {
    switch (k) {
      case 'fuzziness': {
        if (typeof v !== 'string' && typeof v !== 'number')
          throw new EsError(
            'x_content_parse_exception',
            `[fuzzy] fuzziness doesn't support values of type: ${tokenName(v)}`,
            400,
          );
        // FuzzyOptions.Builder.setFuzziness(Fuzziness): asDistance() with no text (AUTO is 1)
        const d = asDistance(parseFuzziness(v));
        if (d < 0 || d > 2) throw illegalArgument('fuzziness must be between 0 and 2');
        f.editDistance = d;
        continue;
      }
      case 'transpositions':
        f.transpositions = bool('fuzzy', k, v);
        continue;
      case 'unicode_aware':
        f.unicodeAware = bool('fuzzy', k, v);
        continue;
      case 'min_length':
        f.minLength = nonNegative(intOption('fuzzy', k, v), 'fuzzyMinLength');
        continue;
      case 'prefix_length':
        f.prefixLength = nonNegative(intOption('fuzzy', k, v), 'fuzzyPrefixLength');
        continue;
      case 'max_determinized_states':
        f.maxDeterminizedStates = nonNegative(intOption('fuzzy', k, v), 'maxDeterminizedStates');
        continue;
    }
    throw new EsError(
      'x_content_parse_exception',
      `[fuzzy] unknown field [${k}], parser not found`,
      400,
    );
  }
  return f;
}

/** RegexOptions.PARSER: `flags` (names or `flags_value`) and `max_determinized_states`. */
function parseRegexOptions(o: Record<string, unknown>): CompletionRegexOptions {
  const r: CompletionRegexOptions = {
    flags: REGEXP_FLAGS.ALL,
    maxDeterminizedStates: DEFAULT_MAX_DETERMINIZED_STATES,
  };
  for (const [k, v] of Object.entries(o)) {
    if (k === 'flags' || k === 'flags_value') {
      if (typeof v === 'string') r.flags = resolveRegexpFlags(v);
      else if (typeof v === 'number') r.flags = Math.trunc(v);
      else throw new EsError('parse_exception', 'regex flags supports string or number', 400);
    } else if (k === 'max_determinized_states')
      r.maxDeterminizedStates = nonNegative(intOption('regex', k, v), 'maxDeterminizedStates');
    else
      throw new EsError(
        'x_content_parse_exception',
        `[regex] unknown field [${k}], parser not found`,
        400,
      );
  }
  return r;
}
