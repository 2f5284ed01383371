/**
 * The `common` terms query (ES CommonTermsQueryBuilder.doToQuery): every token of the analysed
 * text becomes a term of an ExtendedCommonTermsQuery, which the engine splits into low- and
 * high-frequency groups by `cutoff_frequency` at search time (rewriteCommonTerms).
 */
import type { Analyzer } from '../../../search/analysis/index.js';
import type { Query } from '../../../search/query/query.js';
import { minShouldMatch } from '../../min-should-match.js';
import type { CommonTermsNode } from '../nodes.js';
import { analyzeTokens, indexSearchAnalyzer } from './analysis.js';
import { withDisplay } from './build.js';
import type { LowerState } from './context.js';
import { fieldMapper, type MappedField } from './fields.js';
import { analyzerParam } from './lower.js';
import { commonTermsDisplay, keywordStandIn } from './match-query.js';
import { valueText } from './numbers.js';

/** Character.isWhitespace (Lucene WhitespaceTokenizer): no-break spaces are not separators. */
const JAVA_WHITESPACE =
  /[\t\n\v\f\r\u001c-\u001f \u1680\u2000-\u2006\u2008-\u200a\u2028\u2029\u205f\u3000]+/u;

export function lowerCommonTerms(node: CommonTermsNode, st: LowerState): Query {
  const f = fieldMapper(st.ctx, node.field);
  const field = f ? f.name : node.field;
  const text = valueText(node.query);
  const analyzer = analyzerParam(st, 'common', node.analyzer);
  const terms = analyzer
    ? analyzeTokens(analyzer, text).map((t) => t.term)
    : fieldTerms(st, f, text);
  const spec = (s: string | null) => (n: number) => (s === null ? 0 : minShouldMatch(s, n));
  const q: Query = {
    kind: 'CommonTerms',
    field,
    terms,
    cutoff: node.cutoffFrequency,
    highFreqOccur: node.highFreqOperator === 'AND' ? 'must' : 'should',
    lowFreqOccur: node.lowFreqOperator === 'AND' ? 'must' : 'should',
    lowFreqMinShouldMatch: spec(node.lowFreqMinimumShouldMatch),
    highFreqMinShouldMatch: spec(node.highFreqMinimumShouldMatch),
    boost: 1,
  };
  return withDisplay(q, commonTermsDisplay(q));
}

/**
 * Tokens from QueryShardContext.getSearchAnalyzer: a text field's search analyzer, a keyword's
 * normalizer (or the whole text; whitespace-split first with split_queries_on_whitespace), the
 * keyword analyzer for metadata and boolean fields, and the index default search analyzer for
 * unmapped fields and types without a search analyzer of their own (numbers, dates, IPs).
 */
function fieldTerms(st: LowerState, f: MappedField | null, text: string): string[] {
  if (f?.meta) return [text];
  const m = f?.mapping;
  if (m?.type === 'keyword') {
    const norm = (t: string) => (m.normalizer ? st.ctx.normalize(m, t) : t);
    if (!m.splitQueriesOnWhitespace) return [norm(text)];
    return text
      .split(JAVA_WHITESPACE)
      .filter((t) => t !== '')
      .map(norm);
  }
  if (m?.type === 'boolean') return [text];
  const analyzer: Analyzer =
    m?.type === 'text' ? st.ctx.searchAnalyzer(m, false) : indexSearchAnalyzer(st.ctx);
  return analyzer === keywordStandIn ? [text] : analyzeTokens(analyzer, text).map((t) => t.term);
}
