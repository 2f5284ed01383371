/**
 * Query-time analysis: token streams as (term, position) lists, and Lucene `Analyzer.normalize`
 * (char filters and token filters that are multi-term aware, applied to the whole text as one
 * token), which query_string / simple_query_string use for prefix, wildcard, fuzzy and ranges.
 */
import type { FieldMapping } from '../../../mapping/types.js';
import type { Analyzer } from '../../../search/analysis/index.js';
import { ChainAnalyzer, ChainNormalizer } from '../../../search/analysis/analyzer.js';
import { TOKENIZERS } from '../../../search/analysis/components.js';
import type { IndexQueryContext } from './context.js';

export interface QueryToken {
  readonly term: string;
  /** Absolute position (Lucene: sum of position increments, starting at -1). */
  readonly position: number;
}

export function analyzeTokens(analyzer: Analyzer, text: string): QueryToken[] {
  const out: QueryToken[] = [];
  analyzer.analyze(text, (term, position) => {
    out.push({ term, position });
  });
  return out;
}

/** Groups tokens by position (synonyms share one), in stream order. */
export function groupByPosition(tokens: readonly QueryToken[]): QueryToken[][] {
  const groups: QueryToken[][] = [];
  let last = Number.NaN;
  for (const t of tokens) {
    if (t.position !== last) groups.push([t]);
    else groups[groups.length - 1]!.push(t);
    last = t.position;
  }
  return groups;
}

const normalizers = new WeakMap<Analyzer, (text: string) => string>();

/** Lucene Analyzer.normalize(field, text). */
export function normalizeWith(analyzer: Analyzer, text: string): string {
  let f = normalizers.get(analyzer);
  if (!f) {
    f = buildNormalizer(analyzer);
    normalizers.set(analyzer, f);
  }
  return f(text);
}

/**
 * Token filters of the built-in analyzers that their Lucene `normalize()` applies (Standard,
 * Simple, Stop, English, Pattern analyzers normalize with LowerCaseFilter).
 */
const BUILTIN_NORMALIZING = new Set(['lowercase']);

function buildNormalizer(analyzer: Analyzer): (text: string) => string {
  if (!(analyzer instanceof ChainAnalyzer)) return (t) => t;
  const keyword = TOKENIZERS['keyword']!('keyword', {});
  const chain = new ChainAnalyzer(
    `${analyzer.name}_normalizer`,
    keyword,
    analyzer.charFilters.filter((c) => c.normalizerSafe === true),
    analyzer.tokenFilters.filter(
      (t) => t.normalizerSafe === true || (!analyzer.custom && BUILTIN_NORMALIZING.has(t.name)),
    ),
    0,
    false,
  );
  const n = new ChainNormalizer(chain.name, chain);
  return (t) => n.normalize(t);
}

/** A stand-in text mapping: the context then answers with the index default search analyzer. */
const DEFAULT_TEXT_FIELD = {
  kind: 'field',
  type: 'text',
  path: '',
  name: '',
  index: true,
  docValues: false,
  store: false,
  indexOptions: 'positions',
  norms: true,
  boost: 1,
  copyTo: [],
  fields: new Map(),
  json: {},
} as const as FieldMapping;

/** ES MapperService.searchAnalyzer(): the index default search analyzer. */
export const indexSearchAnalyzer = (ctx: IndexQueryContext): Analyzer =>
  ctx.searchAnalyzer(DEFAULT_TEXT_FIELD, false);
