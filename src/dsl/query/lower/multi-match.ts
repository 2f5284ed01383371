/**
 * ES 6.8 MultiMatchQuery and QueryParserHelper: field pattern resolution into Java HashMap order,
 * best_fields / most_fields / phrase / phrase_prefix as a dis_max of per-field match queries, and
 * cross_fields as per-analyzer groups whose terms are blended across fields (BlendedTermQuery).
 */
import type { Analyzer } from '../../../search/analysis/index.js';
import type { Query } from '../../../search/query/query.js';
import { EsError } from '../../../common/errors.js';
import { JavaHashMap } from '../java-hash-map.js';
import type { MultiMatchType, TermValue } from '../nodes.js';
import type { QueryToken } from './analysis.js';
import { boosted, disMax, isMatchNone, matchNone, withDisplay } from './build.js';
import type { LowerState } from './context.js';
import { fieldMapper, type MappedField } from './fields.js';
import {
  analyzerFor,
  FieldQueryBuilder,
  keywordStandIn,
  matchQuery,
  maybeApplyMinimumShouldMatch,
  parseInternal,
  zeroTermsQuery,
  type MatchSettings,
  type MatchType,
} from './match-query.js';
import { termQuery } from './term-queries.js';
import { javaFloatToString, javaParseFloat } from '../java.js';
import { valueText } from './numbers.js';

export const isSimpleMatchPattern = (s: string): boolean => s.includes('*');
export const isMatchAllPattern = (s: string): boolean => s === '*';

const NOT_TERM_SEARCHABLE = new Set(['geo_point', 'geo_shape', 'shape', 'binary']);

/** QueryParserHelper.resolveMappingField. */
export function resolveMappingField(
  st: LowerState,
  pattern: string,
  weight: number,
  acceptAllTypes: boolean,
  acceptMetadata: boolean,
  suffix: string | null = null,
): JavaHashMap<number> {
  const names = isSimpleMatchPattern(pattern)
    ? JavaHashMap.of(st.ctx.expandFields(pattern).map((n) => [n, 1] as [string, number])).keys()
    : [pattern];
  const out = new JavaHashMap<number>();
  for (let name of names) {
    if (suffix !== null && fieldMapper(st.ctx, name + suffix)) name = name + suffix;
    const f = fieldMapper(st.ctx, name);
    if (!f) {
      out.set(name, weight);
      continue;
    }
    if (!acceptMetadata && f.name.startsWith('_')) continue;
    if (!acceptAllTypes && NOT_TERM_SEARCHABLE.has(f.typeName)) continue;
    out.set(name, weight);
  }
  checkTooManyFields(st, out);
  return out;
}

/** QueryParserHelper.resolveMappingFields. */
export function resolveMappingFields(
  st: LowerState,
  fields: JavaHashMap<number>,
  suffix: string | null = null,
): JavaHashMap<number> {
  const out = new JavaHashMap<number>();
  for (const [pattern, weight] of fields.entries()) {
    out.setAll(
      resolveMappingField(
        st,
        pattern,
        weight,
        !isSimpleMatchPattern(pattern),
        !isMatchAllPattern(pattern),
        suffix,
      ),
    );
  }
  checkTooManyFields(st, out);
  return out;
}

function checkTooManyFields(st: LowerState, fields: JavaHashMap<number>): void {
  const limit = st.ctx.maxClauseCount;
  if (fields.size > limit) {
    st.ctx.deprecation?.(
      `Field expansion matches too many fields, got: ${fields.size}. This will be limited starting with version 7.0 of Elasticsearch. The limit will be detemined by the \`indices.query.bool.max_clause_count\` setting which is currently set to ${limit}. You should look at lowering the maximum number of fields targeted by a query or increase the above limit while being aware that this can negatively affect your clusters performance.`,
    );
  }
}

/** QueryParserHelper.parseFieldsAndWeights (`field^boost` specs). */
export function parseFieldsAndWeights(specs: readonly string[]): JavaHashMap<number> {
  const out = new JavaHashMap<number>();
  for (const spec of specs) {
    const i = spec.indexOf('^');
    if (i < 0) out.set(spec, 1);
    else out.set(spec.slice(0, i), javaParseFloat(spec.slice(i + 1)));
  }
  return out;
}

const matchTypeOf = (t: MultiMatchType): MatchType =>
  t === 'phrase' ? 'phrase' : t === 'phrase_prefix' ? 'phrase_prefix' : 'boolean';

export const typeTieBreaker = (t: MultiMatchType): number => (t === 'most_fields' ? 1 : 0);

/** MultiMatchQuery.parse. */
export function multiMatchQuery(
  st: LowerState,
  type: MultiMatchType,
  fields: JavaHashMap<number>,
  value: TermValue,
  msm: string | null,
  s: MatchSettings,
  groupTieBreaker: number | null,
): Query | null {
  const names = fields.keys();
  if (!names.some((n) => fieldMapper(st.ctx, n) !== null)) {
    return matchNone(`unmapped fields [${names.join(', ')}]`);
  }
  const tieBreaker = groupTieBreaker ?? typeTieBreaker(type);
  const queries =
    type === 'cross_fields'
      ? crossFieldQueries(st, fields, value, msm, s, tieBreaker)
      : fieldQueries(st, type, fields, value, msm, s);
  if (queries.length === 0) return zeroTermsQuery(s.zeroTerms);
  if (queries.length === 1) return queries[0]!;
  return disMax(queries, tieBreaker);
}

function fieldQueries(
  st: LowerState,
  type: MultiMatchType,
  fields: JavaHashMap<number>,
  value: TermValue,
  msm: string | null,
  s: MatchSettings,
): Query[] {
  const out: Query[] = [];
  for (const [name, boost] of fields.entries()) {
    if (!fieldMapper(st.ctx, name)) continue;
    let q = matchQuery(st, matchTypeOf(type), name, value, s);
    q = maybeApplyMinimumShouldMatch(st, q, msm);
    if (q !== null && boost !== 1 && !isMatchNone(q)) q = boosted(q, boost);
    if (q !== null) out.push(q);
  }
  return out;
}

interface FieldAndBoost {
  readonly field: MappedField;
  readonly boost: number;
}

function crossFieldQueries(
  st: LowerState,
  fields: JavaHashMap<number>,
  value: TermValue,
  msm: string | null,
  s: MatchSettings,
  tieBreaker: number,
): Query[] {
  // grouped by analyzer (ES keys a HashMap by analyzer identity; we keep first-seen order)
  const groups = new Map<Analyzer, FieldAndBoost[]>();
  for (const [name, boost] of fields.entries()) {
    const f = fieldMapper(st.ctx, name);
    if (!f) continue;
    const analyzer = s.analyzer ?? groupAnalyzer(st, f);
    let list = groups.get(analyzer);
    if (!list) groups.set(analyzer, (list = []));
    list.push({ field: f, boost });
  }
  const out: Query[] = [];
  for (const [analyzer, group] of groups) {
    const builder =
      group.length === 1
        ? new FieldQueryBuilder(st, analyzer, group[0]!.field, s)
        : new BlendedQueryBuilder(st, analyzer, group, tieBreaker, s);
    let q = parseInternal(st, 'boolean', builder, valueText(value), s);
    q = maybeApplyMinimumShouldMatch(st, q, msm);
    if (q !== null) {
      if (group.length === 1 && group[0]!.boost !== 1) q = boosted(q, group[0]!.boost);
      out.push(q);
    }
  }
  return out;
}

/** The analyzer of a field for grouping: text fields by search analyzer, others by keyword. */
function groupAnalyzer(st: LowerState, f: MappedField): Analyzer {
  if (f.mapping && f.mapping.type === 'text') return analyzerFor(st, f, false);
  if (f.mapping && f.mapping.type === 'keyword' && f.mapping.normalizer) {
    return normalizerAnalyzer(st, f);
  }
  return keywordStandIn;
}

const normalizerAnalyzers = new Map<string, Analyzer>();

/** One stand-in analyzer per normalizer name, so keyword fields sharing it group together. */
function normalizerAnalyzer(st: LowerState, f: MappedField): Analyzer {
  const key = `${st.ctx.index}\u0000${f.mapping!.normalizer}`;
  let a = normalizerAnalyzers.get(key);
  if (!a) {
    const m = f.mapping!;
    a = {
      name: `normalizer:${m.normalizer}`,
      positionIncrementGap: 0,
      analyze(text, sink, positionBase = 0, offsetBase = 0) {
        sink(st.ctx.normalize(m, text), positionBase, offsetBase, offsetBase + text.length, 'word');
        return positionBase + 1;
      },
    };
    if (normalizerAnalyzers.size > 1000) normalizerAnalyzers.clear();
    normalizerAnalyzers.set(key, a);
  }
  return a;
}

/** ES MultiMatchQuery.BlendedQueryBuilder. */
class BlendedQueryBuilder extends FieldQueryBuilder {
  constructor(
    st: LowerState,
    analyzer: Analyzer,
    private readonly blended: FieldAndBoost[],
    private readonly tieBreaker: number,
    s: MatchSettings,
  ) {
    super(st, analyzer, blended[0]!.field, s);
  }

  override newTermQuery(term: string): Query {
    return blendTerms(this.st, [term], this.s, this.tieBreaker, this.blended);
  }

  override newSynonymQuery(terms: string[]): Query {
    return blendTerms(this.st, terms, this.s, this.tieBreaker, this.blended);
  }

  override analyzePhrase(tokens: readonly QueryToken[], slop: number): Query {
    const queries = this.blended.map(({ field, boost }) => {
      const q = new FieldQueryBuilder(this.st, this.analyzer, field, this.s).analyzePhrase(
        tokens,
        slop,
      );
      return boost !== 1 ? boosted(q, boost) : q;
    });
    return disMax(queries, this.tieBreaker);
  }
}

/** Exceptions blendTerms skips a field for: IllegalArgumentException, or a parse failure caused by one. */
function skipsField(e: EsError): boolean {
  const iae = (x: EsError) =>
    x.type === 'illegal_argument_exception' || x.type === 'number_format_exception';
  if (iae(e)) return true;
  if (e.type === 'parse_exception') {
    let cause: EsError = e;
    while (cause.causedBy) cause = cause.causedBy;
    return iae(cause);
  }
  return false;
}

/** MultiMatchQuery.blendTerms. */
function blendTerms(
  st: LowerState,
  values: readonly string[],
  s: MatchSettings,
  tieBreaker: number,
  fields: readonly FieldAndBoost[],
): Query {
  const queries: Query[] = [];
  const terms: Array<{ field: string; term: string; boost: number; omitTf: boolean }> = [];
  for (const { field, boost } of fields) {
    for (const value of values) {
      let q: Query;
      try {
        q = termQuery(st, field, value);
      } catch (e) {
        if (e instanceof EsError && skipsField(e)) continue;
        throw e;
      }
      const m = field.mapping;
      const isTermQuery =
        q.kind === 'Term' &&
        m !== null &&
        (m.type === 'text' || m.type === 'keyword' || m.type === 'boolean');
      if (isTermQuery) {
        const t = q as Extract<Query, { kind: 'Term' }>;
        terms.push({
          field: t.field,
          term: t.term,
          boost: Math.fround(boost * t.boost),
          omitTf: m.type !== 'text' || m.indexOptions === 'docs',
        });
      } else {
        queries.push(boost !== 1 && !isMatchNone(q) ? boosted(q, boost) : q);
      }
    }
  }
  if (terms.length > 0) {
    const b: Query = {
      kind: 'Blended',
      terms,
      tieBreaker,
      cutoff: s.cutoffFrequency,
      boost: 1,
    };
    queries.push(
      withDisplay(
        b,
        `blended(terms:[${terms
          .map(
            (t) => `${t.field}:${t.term}${t.boost !== 1 ? `^${javaFloatToString(t.boost)}` : ''}`,
          )
          .join(', ')}])`,
      ),
    );
  }
  if (queries.length === 1) return queries[0]!;
  return disMax(queries, tieBreaker);
}
