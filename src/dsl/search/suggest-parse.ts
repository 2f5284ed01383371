/**
 * Suggest request parsing (ES SuggestBuilder, SuggestionBuilder and the term / phrase /
 * completion builders): named suggestions with a global `text`, the DirectSpellChecker settings
 * shared by term suggesters, and the phrase suggester's model options, with ES's parse errors.
 */
import { EsError, illegalArgument, parsingException } from '../../common/errors.js';
import type { SpellSettings } from './spell.js';

export type SuggestNode = TermSuggestNode | PhraseSuggestNode | CompletionSuggestNode;

interface CommonSuggest {
  name: string;
  field: string;
  text: string | null;
  prefix: string | null;
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
  tokenLimit: number;
  discount: number;
  highlight: { pre: string; post: string } | null;
}

export interface CompletionSuggestNode extends CommonSuggest {
  type: 'completion';
  skipDuplicates: boolean;
  /** `contexts` as given; read against the field's context mappings on each shard. */
  contexts: Record<string, unknown> | null;
}

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
  for (const s of out) if (s.text === null && s.prefix === null) s.text = globalText;
  return out;
}

/** SuggestionBuilder.fromXContent. */
function parseSuggestion(name: string, o: Record<string, unknown>): SuggestNode {
  let text: string | null = null;
  let prefix: string | null = null;
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
    else if (k === 'regex') prefix = String(v);
    else throw parsingException(`suggestion does not support [${k}]`);
  }
  if (!node) throw new EsError('parse_exception', 'missing suggestion object', 400);
  if (text !== null) node.text = text;
  if (prefix !== null) node.prefix = prefix;
  return node;
}

function parseSuggester(name: string, type: string, o: Record<string, unknown>): SuggestNode {
  const common: CommonSuggest = {
    name,
    field: '',
    text: null,
    prefix: null,
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
    discount: 0.4,
    highlight: null,
  };
  const completion: CompletionSuggestNode = {
    ...common,
    type: 'completion',
    skipDuplicates: false,
    contexts: null,
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
      return true;
    case 'max_errors':
      p.maxErrors = Math.fround(num('phrase', k, v));
      return true;
    case 'real_word_error_likelihood':
      p.realWordErrorLikelihood = Math.fround(num('phrase', k, v));
      return true;
    case 'separator':
      p.separator = String(v);
      return true;
    case 'gram_size':
      p.gramSize = num('phrase', k, v);
      return true;
    case 'token_limit':
      p.tokenLimit = num('phrase', k, v);
      return true;
    case 'highlight': {
      const h = v as Record<string, unknown>;
      p.highlight = { pre: String(h.pre_tag ?? ''), post: String(h.post_tag ?? '') };
      return true;
    }
    case 'smoothing': {
      const sb = (v as Record<string, unknown>)?.stupid_backoff as
        Record<string, unknown> | undefined;
      if (!sb) throw illegalArgument('only the [stupid_backoff] smoothing model is supported');
      if (sb.discount !== undefined) p.discount = num('phrase', 'discount', sb.discount);
      return true;
    }
  }
  return false;
}
