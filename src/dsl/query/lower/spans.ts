/**
 * Span queries (ES 6.8 Span*QueryBuilder.doToQuery) lowered to the engine's span queries, with
 * Lucene 7.7's construction checks (clauses of one field, gaps only in ordered near queries) and
 * ES's span_multi rules: a prefix on a field with `index_prefixes` is a span term of the hidden
 * `._index_prefix` field masked as the field; other multi-term queries are wrapped and expanded
 * when the search runs.
 */
import { EsError } from '../../../common/errors.js';
import type { Query } from '../../../search/query/query.js';
import { spanWithBoost } from '../../../search/query/spans/describe.js';
import {
  isSpanQuery,
  spanField,
  type SpanExpansion,
  type SpanMultiTermInner,
  type SpanQuery,
} from '../../../search/query/spans/types.js';
import { describeQuery } from '../describe.js';
import { illegalArgument } from '../errors.js';
import type {
  MultiTermNode,
  SpanMultiNode,
  SpanNearNode,
  SpanQueryNode,
  SpanTermNode,
} from '../nodes.js';
import { boosted, displayOf } from './build.js';
import type { LowerState } from './context.js';
import { failIfNotIndexed, fieldMapper, type MappedField } from './fields.js';
import { lowerRange, toQuery } from './lower.js';
import { parseRewrite } from './multi-term.js';
import { valueText } from './numbers.js';
import { isPointTerm, termQuery } from './term-queries.js';

/** SpanQueryBuilder.doToQuery of a span node (its boost and `_name` are toQuery's business). */
export function lowerSpan(node: SpanQueryNode, st: LowerState): Query | null {
  switch (node.type) {
    case 'span_term':
      return spanTerm(node, st);
    case 'span_multi':
      return spanMulti(node, st);
    case 'span_near':
      return spanNear(node, st);
    case 'span_gap':
      // SpanGapQueryBuilder.toQuery: a gap is only a span_near clause
      throw new EsError('unsupported_operation_exception', null, 500);
    case 'span_or': {
      const clauses = node.clauses.map((c) => clause(c, st, true));
      let field: string | null = null;
      for (const c of clauses) {
        const f = spanField(c);
        if (field === null) field = f;
        else if (f !== null && f !== field) throw illegalArgument('Clauses must have same field.');
      }
      return { kind: 'SpanOr', clauses, boost: 1 };
    }
    case 'span_not': {
      const include = clause(node.include, st, true);
      const exclude = clause(node.exclude, st, true);
      const fi = spanField(include);
      const fe = spanField(exclude);
      if (fi !== null && fe !== null && fi !== fe) {
        throw illegalArgument('Clauses must have same field.');
      }
      return { kind: 'SpanNot', include, exclude, pre: node.pre, post: node.post, boost: 1 };
    }
    case 'span_first':
      return { kind: 'SpanFirst', match: clause(node.match, st, true), end: node.end, boost: 1 };
    case 'span_containing':
    case 'span_within': {
      const big = clause(node.big, st, true);
      const little = clause(node.little, st, true);
      if (spanField(big) !== spanField(little)) {
        throw illegalArgument('big and little not same field');
      }
      const kind = node.type === 'span_containing' ? 'SpanContaining' : 'SpanWithin';
      return { kind, big, little, boost: 1 };
    }
    case 'field_masking_span': {
      const field = fieldMapper(st.ctx, node.field)?.name ?? node.field;
      return { kind: 'SpanMask', inner: clause(node.query, st, false), field, boost: 1 };
    }
  }
}

const INNER_BOOST_DEPRECATION = 'setting boost on inner span queries is deprecated!';

/**
 * A clause's span query (its toQuery: SpanBoostQuery, named query). `checkBoost`: the parent's
 * parser warned of a boost on it (SpanQueryBuilderUtil.checkNoBoost).
 */
function clause(node: SpanQueryNode, st: LowerState, checkBoost: boolean): SpanQuery {
  if (checkBoost && node.type !== 'span_gap' && node.boost !== 1) {
    st.ctx.deprecation?.(INNER_BOOST_DEPRECATION);
  }
  const q = toQuery(node, st);
  // a span_near of one span_gap has no query: Lucene's constructors then fail on the null clause
  if (q === null || !isSpanQuery(q)) throw new EsError('null_pointer_exception', null, 500);
  return q;
}

// ---- span_term -------------------------------------------------------------------------------

/**
 * The Java class ES names in "Cannot extract a term" / "unsupported inner query" failures.
 * `range`: built by rangeQuery (numbers and dates then use IndexOrDocValuesQuery over doc values).
 */
function javaClass(q: Query, f: MappedField | null, range: boolean): string {
  const type = f?.mapping?.type;
  if (type === 'ip' && (q.kind === 'Term' || q.kind === 'TermRange')) {
    return 'org.apache.lucene.document.InetAddressPoint$1';
  }
  switch (q.kind) {
    case 'MatchAll':
      return 'org.apache.lucene.search.MatchAllDocsQuery';
    case 'MatchNone':
      return 'org.apache.lucene.search.MatchNoDocsQuery';
    case 'Term':
      return 'org.apache.lucene.search.TermQuery';
    case 'TermRange':
      return 'org.apache.lucene.search.TermRangeQuery';
    case 'TermSet':
      return 'org.apache.lucene.search.TermInSetQuery';
    case 'Bool':
      return 'org.apache.lucene.search.BooleanQuery';
    case 'ConstantScore':
      return 'org.apache.lucene.search.ConstantScoreQuery';
    case 'NumericRange':
    case 'NumericSet':
      if ((range || type === 'date') && f?.mapping?.docValues) {
        return 'org.apache.lucene.search.IndexOrDocValuesQuery';
      }
      return pointClass(type);
    case 'Predicate': {
      const d = q.factory.describe;
      if (d.startsWith('NormsFieldExistsQuery')) {
        return 'org.apache.lucene.search.NormsFieldExistsQuery';
      }
      if (d.startsWith('DocValuesFieldExistsQuery')) {
        return 'org.apache.lucene.search.DocValuesFieldExistsQuery';
      }
      return 'org.apache.lucene.search.Query';
    }
    default:
      return 'org.apache.lucene.search.Query';
  }
}

/** The point type's range query (an anonymous PointRangeQuery of LongPoint, IntPoint...). */
function pointClass(type: string | undefined): string {
  switch (type) {
    case 'integer':
    case 'short':
    case 'byte':
      return 'org.apache.lucene.document.IntPoint$1';
    case 'double':
      return 'org.apache.lucene.document.DoublePoint$1';
    case 'float':
      return 'org.apache.lucene.document.FloatPoint$1';
    case 'half_float':
      return 'org.apache.lucene.document.HalfFloatPoint$1';
    default:
      return 'org.apache.lucene.document.LongPoint$1';
  }
}

/** MappedFieldType.extractTerm: the term of a (boosted) TermQuery or one-term TermInSetQuery. */
function extractTerm(q: Query, f: MappedField): { field: string; term: string } {
  if (q.kind === 'Term' && !isPointTerm(q) && f.mapping?.type !== 'ip') {
    return { field: q.field, term: q.term };
  }
  if (q.kind === 'TermSet' && q.terms.length === 1) return { field: q.field, term: q.terms[0]! };
  if (q.kind === 'Ids' && q.ids.length === 1) return { field: '_id', term: q.ids[0]! };
  throw illegalArgument(
    `Cannot extract a term from a query of type class ${javaClass(q, f, false)}: ${describeQuery(q)}`,
  );
}

function spanTerm(node: SpanTermNode, st: LowerState): SpanQuery {
  const f = fieldMapper(st.ctx, node.field);
  if (!f) return { kind: 'SpanTerm', field: node.field, term: valueText(node.value), boost: 1 };
  const { field, term } = extractTerm(termQuery(st, f, node.value), f);
  return { kind: 'SpanTerm', field, term, boost: 1 };
}

// ---- span_multi ------------------------------------------------------------------------------

/** MultiTermQuery rewrite of the wrapped query → the wrapper's span rewrite method. */
function expansionOf(st: LowerState, rewrite: string | null): SpanExpansion {
  const r = parseRewrite(st, rewrite);
  if (r && r.method.startsWith('top_terms')) {
    return { kind: 'top_terms', size: r.size ?? st.ctx.maxClauseCount };
  }
  return { kind: 'max_clause', max: st.ctx.maxClauseCount };
}

/** TextFieldType.spanPrefixQuery (MappedFieldType's fails on every other type). */
function spanPrefix(st: LowerState, f: MappedField, prefix: string, rewrite: string | null) {
  const m = f.mapping;
  if (!m || m.type !== 'text') {
    throw illegalArgument(
      `Can only use span prefix queries on text fields - not on [${f.name}] which is of type [${f.typeName}]`,
    );
  }
  failIfNotIndexed(f);
  const ip = m.indexPrefixes;
  const positions = m.indexOptions === 'positions' || m.indexOptions === 'offsets';
  if (ip && prefix.length >= ip.minChars && prefix.length <= ip.maxChars && positions) {
    const inner: SpanQuery = {
      kind: 'SpanPrefixTerm',
      field: `${f.name}._index_prefix`,
      source: f.name,
      prefix,
      minChars: ip.minChars,
      boost: 1,
    };
    return { kind: 'SpanMask', inner, field: f.name, boost: 1 } as const;
  }
  const inner: SpanMultiTermInner = {
    kind: 'MultiTerm',
    field: f.name,
    matcher: { prefix, test: (t) => t.startsWith(prefix) },
    describe: `${f.name}:${prefix}*`,
    boost: 1,
  };
  return {
    kind: 'SpanMultiTerm',
    field: f.name,
    inner,
    display: inner.describe,
    expansion: expansionOf(st, rewrite),
    boost: 1,
  } as const;
}

/** The wrapped query's toQuery (a range is not rewritten first: see lowerRange). */
function innerQuery(m: MultiTermNode, st: LowerState): Query | null {
  if (m.type !== 'range') return toQuery(m, st);
  let q = lowerRange(m, st, false);
  if (m.boost !== 1) q = boosted(q, m.boost);
  if (m.queryName !== null) st.named.set(m.queryName, q);
  return q;
}

function spanMulti(node: SpanMultiNode, st: LowerState): SpanQuery {
  const m = node.match;
  if (m.type === 'prefix') {
    const f = fieldMapper(st.ctx, m.field);
    if (!f) return { kind: 'SpanNone', field: m.field, reason: 'unknown field', boost: 1 };
    return spanPrefix(st, f, m.value, m.rewrite);
  }
  let q = innerQuery(m, st);
  // ConstantScoreQuery and BoostQuery wrappers are dropped
  while (q !== null && q.kind === 'ConstantScore') q = q.inner;
  if (q === null || q.kind === 'MatchNone') {
    const reason = q === null ? 'null' : describeQuery(q);
    return { kind: 'SpanNone', field: m.field, reason, boost: 1 };
  }
  const f = fieldMapper(st.ctx, m.field);
  const ipRange = q.kind === 'TermRange' && f?.mapping?.type === 'ip';
  if ((q.kind !== 'MultiTerm' && q.kind !== 'TermRange' && q.kind !== 'Fuzzy') || ipRange) {
    throw new EsError(
      'unsupported_operation_exception',
      `unsupported inner query, should be org.apache.lucene.search.MultiTermQuery but was ${javaClass(q, f, true)}`,
      500,
    );
  }
  const display = displayOf(q) ?? describeQuery({ ...q, boost: 1 });
  const inner = { ...q, boost: 1 } as SpanMultiTermInner;
  let expansion: SpanExpansion;
  if (q.kind === 'Fuzzy' && q.rewrite === undefined) {
    // FuzzyQuery's own rewrite is TopTermsBlendedFreqScoringRewrite(maxExpansions)
    expansion = { kind: 'top_terms', size: q.maxExpansions };
  } else if (q.kind !== 'TermRange' && q.rewrite?.method.startsWith('top_terms')) {
    expansion = { kind: 'top_terms', size: q.rewrite.size ?? st.ctx.maxClauseCount };
  } else {
    expansion = { kind: 'max_clause', max: st.ctx.maxClauseCount };
  }
  return { kind: 'SpanMultiTerm', field: q.field, inner, display, expansion, boost: 1 };
}

// ---- span_near -------------------------------------------------------------------------------

/** SpanNearQueryBuilder.doToQuery through Lucene's SpanNearQuery.Builder. */
function spanNear(node: SpanNearNode, st: LowerState): Query | null {
  const gapField = (name: string) => fieldMapper(st.ctx, name)?.name ?? name;
  const first = node.clauses[0]!;
  const firstQuery = first.type === 'span_gap' ? null : clause(first, st, true);
  if (node.clauses.length === 1) return firstQuery;
  const field = first.type === 'span_gap' ? gapField(first.field) : spanField(firstQuery!);
  const clauses: SpanQuery[] = [];
  const addGap = (width: number) => {
    if (!node.inOrder) throw illegalArgument('Gaps can only be added to ordered near queries');
    clauses.push({ kind: 'SpanGap', field: field!, width, boost: 1 });
  };
  const addClause = (c: SpanQuery) => {
    if (spanField(c) !== field) {
      throw illegalArgument(
        `Cannot add clause ${spanWithBoost(c)} to SpanNearQuery for field ${field}`,
      );
    }
    clauses.push(c);
  };
  if (first.type === 'span_gap') addGap(first.width);
  else addClause(firstQuery!);
  for (const c of node.clauses.slice(1)) {
    if (c.type === 'span_gap') {
      if (gapField(c.field) !== field)
        throw illegalArgument('[span_near] clauses must have same field');
      addGap(c.width);
    } else addClause(clause(c, st, true));
  }
  return { kind: 'SpanNear', field, clauses, slop: node.slop, inOrder: node.inOrder, boost: 1 };
}
