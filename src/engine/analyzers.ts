/**
 * Which analyzer a field uses at index and search time (ES MappedFieldType indexAnalyzer /
 * searchAnalyzer / searchQuoteAnalyzer, falling back to the index's `default` analyzer), and
 * keyword normalisation.
 */
import type { FieldMapping } from '../mapping/types.js';
import type { Analyzer } from '../search/analysis/index.js';
import type { IndexService } from './index-service.js';

export function searchAnalyzer(idx: IndexService, field: FieldMapping, quoted: boolean): Analyzer {
  const reg = idx.analysis;
  const name =
    (quoted ? field.searchQuoteAnalyzer : undefined) ?? field.searchAnalyzer ?? field.analyzer;
  const a = name ? reg.analyzer(name) : undefined;
  if (a) return a;
  return reg.analyzer('default_search') ?? reg.defaultAnalyzer();
}

export function indexAnalyzer(idx: IndexService, field: FieldMapping): Analyzer {
  const a = field.analyzer ? idx.analysis.analyzer(field.analyzer) : undefined;
  return a ?? idx.analysis.defaultAnalyzer();
}

export function normalizeKeyword(idx: IndexService, field: FieldMapping, value: string): string {
  if (!field.normalizer) return value;
  const n = idx.analysis.normalizer(field.normalizer);
  return n ? n.normalize(value) : value;
}
