/**
 * Lowering (ES QueryBuilder.toQuery per query type): each node becomes an engine query with
 * ES's semantics for unmapped fields, filter context, boosts and `_name`. Full-text string
 * queries and function_score live in their own modules.
 */
import { lowerMoreLikeThis } from './more-like-this.js';
import { lowerGeoDistance } from './geo-distance.js';
import type { Query } from '../../../search/query/query.js';
import { EsError } from '../../../common/errors.js';
import { asDistance } from '../../../search/automata/fuzziness.js';
import { illegalArgument, illegalState } from '../errors.js';
import { JavaHashMap } from '../java-hash-map.js';
import type {
  BoolNode,
  ExistsNode,
  IdsNode,
  MatchNode,
  MultiMatchNode,
  NestedNode,
  QueryNode,
  RangeNode,
  TermsNode,
  TermValue,
} from '../nodes.js';
import {
  BoolBuilder,
  boosted,
  constantScore,
  disMax,
  matchAll,
  matchNone,
  withDisplay,
} from './build.js';
import { inFilter, type LowerState } from './context.js';
import { fieldMapper, shardError } from './fields.js';
import {
  defaultMatchSettings,
  matchQuery,
  maybeApplyMinimumShouldMatch,
  type MatchSettings,
} from './match-query.js';
import {
  isMatchAllPattern,
  isSimpleMatchPattern,
  multiMatchQuery,
  parseFieldsAndWeights,
  resolveMappingFields,
  typeTieBreaker,
} from './multi-match.js';
import {
  fuzzyQuery,
  fuzzyTermQuery,
  parseRewrite,
  prefixMultiTerm,
  prefixQuery,
  regexpMultiTerm,
  regexpQuery,
  wildcardQuery,
} from './multi-term.js';
import { valueText } from './numbers.js';
import {
  existsQuery,
  rangeQuery,
  rawTerm,
  termQuery,
  termRange,
  termsQuery,
} from './term-queries.js';
import { lowerSpan } from './spans.js';
import { lowerCommonTerms } from './common-terms.js';
import { lowerFunctionScore } from './function-score.js';
import { lowerQueryString, lowerSimpleQueryString } from './query-string.js';
import { lowerWrapper } from './wrapper.js';
import { constantKeywordQuery } from './constant-keyword.js';
import { lowerHasChild, lowerHasParent, lowerParentId } from './joining.js';
import { lowerPercolate } from './percolate.js';
import { parseQueryJson } from '../parse/index.js';

/** AbstractQueryBuilder.toQuery: doToQuery, then BoostQuery and the named query. */
export function toQuery(node: QueryNode, st: LowerState): Query | null {
  let q = doToQuery(node, st);
  if (q !== null) {
    if (node.boost !== 1) q = boosted(q, node.boost);
    // inside `nested` a query matches child docs, never the hits a name is looked up for
    if (node.queryName !== null && st.nestedPath === null) st.named.set(node.queryName, q);
  }
  return q;
}

/** AbstractQueryBuilder.toFilter. */
export const toFilter = (node: QueryNode, st: LowerState): Query | null =>
  toQuery(node, inFilter(st));

function doToQuery(node: QueryNode, st: LowerState): Query | null {
  const constant = constantKeywordQuery(node, st);
  if (constant !== undefined) return constant;
  switch (node.type) {
    case 'match_all':
      return matchAll();
    case 'match_none':
      return matchNone('User requested "match_none" query.');
    case 'term': {
      const f = fieldMapper(st.ctx, node.field);
      return f ? termQuery(st, f, node.value) : rawTerm(node.field, valueText(node.value));
    }
    case 'terms':
      return lowerTerms(node, st);
    case 'range':
      return lowerRange(node, st);
    case 'exists':
      return existsFilter(st, node.field);
    case 'prefix': {
      const rewrite = parseRewrite(st, node.rewrite);
      const f = fieldMapper(st.ctx, node.field);
      return f
        ? prefixQuery(st, f, node.value, rewrite)
        : prefixMultiTerm(node.field, node.value, rewrite);
    }
    case 'wildcard': {
      const f = fieldMapper(st.ctx, node.field);
      if (!f) return matchNone(`unknown field [${node.field}]`);
      return wildcardQuery(st, f, node.value, parseRewrite(st, node.rewrite));
    }
    case 'regexp': {
      const max = st.ctx.maxRegexLength;
      if (node.value.length > max) {
        throw illegalArgument(
          `The length of regex [${node.value.length}] used in the Regexp Query request has exceeded the allowed maximum of [${max}]. This maximum can be set by changing the [index.max_regex_length] index level setting.`,
        );
      }
      const rewrite = parseRewrite(st, node.rewrite);
      const f = fieldMapper(st.ctx, node.field);
      return f
        ? regexpQuery(st, f, node.value, node.flags, node.maxDeterminizedStates, rewrite)
        : regexpMultiTerm(node.field, node.value, node.flags, node.maxDeterminizedStates, rewrite);
    }
    case 'fuzzy': {
      const rewrite = parseRewrite(st, node.rewrite ?? (st.filter ? 'constant_score' : null));
      const f = fieldMapper(st.ctx, node.field);
      if (f) {
        return fuzzyQuery(
          st,
          f,
          node.value,
          node.fuzziness,
          node.prefixLength,
          node.maxExpansions,
          node.transpositions,
          rewrite,
        );
      }
      const text = valueText(node.value);
      return fuzzyTermQuery(
        node.field,
        text,
        asDistance(node.fuzziness, text),
        node.prefixLength,
        node.maxExpansions,
        node.transpositions,
        rewrite,
      );
    }
    case 'ids':
      return lowerIds(node, st);
    case 'type':
      return st.ctx.typeName === node.value ? matchAll() : matchNone();
    case 'match':
      return lowerMatch(node, st);
    case 'match_phrase':
      return matchQuery(st, 'phrase', node.field, node.query, {
        ...defaultMatchSettings(),
        analyzer: analyzerParam(st, 'match_phrase', node.analyzer),
        phraseSlop: node.slop,
        zeroTerms: node.zeroTermsQuery,
      });
    case 'match_phrase_prefix':
      return matchQuery(st, 'phrase_prefix', node.field, node.query, {
        ...defaultMatchSettings(),
        analyzer: analyzerParam(st, 'match_phrase_prefix', node.analyzer),
        phraseSlop: node.slop,
        maxExpansions: node.maxExpansions,
      });
    case 'multi_match':
      return lowerMultiMatch(node, st);
    case 'query_string':
      return lowerQueryString(node, st);
    case 'simple_query_string':
      return lowerSimpleQueryString(node, st);
    case 'bool':
      return lowerBool(node, st);
    case 'constant_score': {
      const inner = toFilter(node.filter, st);
      return constantScore(inner ?? matchNone());
    }
    case 'dis_max': {
      const qs = node.queries.map((q) => toQuery(q, st)).filter((q): q is Query => q !== null);
      if (qs.length === 0) return matchNone('no clauses for dismax query.');
      return disMax(qs, node.tieBreaker);
    }
    case 'boosting': {
      const positive = toQuery(node.positive, st) ?? matchNone();
      const negative = toQuery(node.negative, st) ?? matchNone();
      return { kind: 'Boosting', positive, negative, negativeBoost: node.negativeBoost, boost: 1 };
    }
    case 'function_score':
      return lowerFunctionScore(node, st);
    case 'nested':
      return lowerNested(node, st);
    case 'has_child':
      return lowerHasChild(node, st, toQuery);
    case 'has_parent':
      return lowerHasParent(node, st, toQuery);
    case 'parent_id':
      return lowerParentId(node, st);
    case 'percolate':
      return lowerPercolate(node, st, (json) => storedQueryLowering(json, st));
    case 'script': {
      const compile = st.ctx.compileScript;
      if (!compile) throw illegalArgument('script queries are not supported by this index context');
      const script = compile(node.script, 'filter');
      return withDisplay(
        {
          kind: 'Predicate',
          factory: {
            describe: `ScriptQuery(${node.script.source ?? node.script.id})`,
            forSegment: (ls) => {
              const run = script.forSegment(ls);
              return (doc) => run(doc, 0) === true;
            },
          },
          boost: 1,
        },
        `ScriptQuery(${node.script.source ?? node.script.id})`,
      );
    }
    case 'common':
      return lowerCommonTerms(node, st);
    case 'wrapper':
      return lowerWrapper(node, st);
    case 'more_like_this':
      return lowerMoreLikeThis(node, st);
    case 'geo_distance':
      return lowerGeoDistance(node, st);
    case 'geo_bounding_box':
      throw illegalArgument(`[${node.type}] queries are not supported`);
    case 'span_term':
    case 'span_multi':
    case 'span_near':
    case 'span_gap':
    case 'span_or':
    case 'span_not':
    case 'span_first':
    case 'span_containing':
    case 'span_within':
    case 'field_masking_span':
      return lowerSpan(node, st);
  }
}

/** The `analyzer` parameter: QueryShardException when the index does not know it. */
export function analyzerParam(st: LowerState, query: string, name: string | null) {
  if (name === null) return null;
  const a = st.ctx.analyzer(name);
  if (!a) throw shardError(st, `[${query}] analyzer [${name}] not found`);
  return a;
}

function lowerTerms(node: TermsNode, st: LowerState): Query {
  let values: readonly TermValue[] | null = node.values;
  if (node.lookup) {
    const l = node.lookup;
    if (!st.ctx.termsLookup)
      throw illegalArgument('terms lookup is not supported by this index context');
    const got = st.ctx.termsLookup(l.index, l.type, l.id, l.path, l.routing) ?? [];
    values = got.filter(
      (v): v is TermValue =>
        typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean',
    );
  }
  if (values === null || values.length === 0)
    return matchNone('No terms supplied for "terms" query.');
  const max = st.ctx.maxTermsCount;
  if (values.length > max) {
    st.ctx.deprecation?.(
      `Deprecated: the number of terms [${values.length}] used in the Terms Query request has exceeded the allowed maximum of [${max}]. This maximum can be set by changing the [index.max_terms_count] index level setting.`,
    );
  }
  const f = fieldMapper(st.ctx, node.field);
  if (f) return termsQuery(st, f, values);
  const terms = [...new Set(values.map(valueText))].sort();
  return withDisplay(
    { kind: 'TermSet', field: node.field, terms, boost: 1 },
    terms.map((t) => `${node.field}:${t}`).join(' '),
  );
}

/**
 * RangeQueryBuilder.doToQuery. `rewritten`: after RangeQueryBuilder.doRewrite, which turns a range
 * over an unmapped field into match_none; span_multi does not rewrite its range, which then is a
 * TermRangeQuery over the unmapped field.
 */
export function lowerRange(node: RangeNode, st: LowerState, rewritten = true): Query {
  const f = fieldMapper(st.ctx, node.field);
  if (!f && rewritten) return matchNone();
  if (node.from === null && node.to === null && st.ctx.fieldNamesEnabled !== false) {
    return existsFilter(st, node.field);
  }
  if (!f) {
    if (node.timeZone !== null) {
      throw shardError(
        st,
        `[range] time_zone can not be applied to non unmapped field [${node.field}]`,
      );
    }
    return termRange(
      node.field,
      node.from === null ? null : valueText(node.from),
      node.to === null ? null : valueText(node.to),
      node.includeLower,
      node.includeUpper,
    );
  }
  return rangeQuery(
    st,
    f,
    node.from,
    node.to,
    node.includeLower,
    node.includeUpper,
    node.timeZone,
    node.format,
    node.relation,
  );
}

/** HashSet order of expanded names (MapperService.simpleMatchToFullName). */
function expand(st: LowerState, pattern: string): string[] {
  if (!isSimpleMatchPattern(pattern)) return [pattern];
  return JavaHashMap.of(st.ctx.expandFields(pattern).map((n) => [n, 1] as [string, number])).keys();
}

/** ExistsQueryBuilder.newFilter. */
export function existsFilter(st: LowerState, pattern: string): Query {
  const isObject = st.ctx.objectMapping?.(pattern) !== undefined;
  const fields = isObject ? [pattern] : expand(st, pattern);
  if (fields.length === 1) return fieldExists(st, fields[0]!);
  const b = new BoolBuilder(st.ctx.maxClauseCount);
  for (const f of fields) b.add(fieldExists(st, f), 'should');
  return constantScore(b.build());
}

function fieldExists(st: LowerState, field: string): Query {
  const f = fieldMapper(st.ctx, field);
  if (!f) {
    if (st.ctx.objectMapping?.(field) !== undefined) {
      const b = new BoolBuilder(st.ctx.maxClauseCount);
      for (const name of expand(st, `${field}.*`)) {
        const sub = fieldMapper(st.ctx, name);
        if (sub) b.add(existsQuery(st, sub), 'should');
      }
      return constantScore(b.build());
    }
    return matchNone(`No field "${field}" exists in mappings.`);
  }
  return constantScore(existsQuery(st, f));
}

function lowerIds(node: IdsNode, st: LowerState): Query {
  if (node.ids.length === 0) return matchNone('Missing ids in "ids" query.');
  const type = st.ctx.typeName;
  const types = node.types;
  const typeMatches =
    types.length === 0 ||
    (types.length === 1 && types[0] === '_all') ||
    (type !== undefined && types.includes(type));
  const ids = typeMatches ? [...new Set(node.ids)] : [];
  return withDisplay({ kind: 'Ids', ids, boost: 1 }, `_id:(${[...ids].sort().join(' ')})`);
}

function lowerMatch(node: MatchNode, st: LowerState): Query | null {
  const s: MatchSettings = {
    ...defaultMatchSettings(),
    occur: node.operator === 'AND' ? 'must' : 'should',
    analyzer: analyzerParam(st, 'match', node.analyzer),
    fuzziness: node.fuzziness,
    fuzzyPrefixLength: node.prefixLength,
    maxExpansions: node.maxExpansions,
    transpositions: node.fuzzyTranspositions,
    fuzzyRewrite: parseRewrite(st, node.fuzzyRewrite),
    lenient: node.lenient,
    cutoffFrequency: node.cutoffFrequency,
    zeroTerms: node.zeroTermsQuery,
  };
  const q = matchQuery(st, 'boolean', node.field, node.query, s);
  return maybeApplyMinimumShouldMatch(st, q, node.minimumShouldMatch);
}

function lowerMultiMatch(node: MultiMatchNode, st: LowerState): Query | null {
  const analyzer = analyzerParam(st, 'multi_match', node.analyzer);
  let tieBreaker = node.tieBreaker;
  if (node.useDisMax !== null) {
    // backwards compatibility of use_dis_max
    const typeUsesDismax = typeTieBreaker(node.matchType) !== 1;
    if (typeUsesDismax !== node.useDisMax) {
      tieBreaker = node.useDisMax && node.tieBreaker === null ? 0 : 1;
    }
  }
  let lenient = node.lenient ?? false;
  let fields: JavaHashMap<number>;
  if (node.fields.length === 0) {
    const defaults = st.ctx.defaultFields;
    if (defaults.length === 1 && isMatchAllPattern(defaults[0]!) && node.lenient === null)
      lenient = true;
    fields = resolveMappingFields(st, parseFieldsAndWeights(defaults));
  } else {
    fields = resolveMappingFields(
      st,
      JavaHashMap.of(node.fields.map((e) => [e[0], e[1]] as [string, number])),
    );
  }
  const s: MatchSettings = {
    ...defaultMatchSettings(),
    occur: node.operator === 'AND' ? 'must' : 'should',
    analyzer,
    phraseSlop: node.slop,
    fuzziness: node.fuzziness,
    fuzzyPrefixLength: node.prefixLength,
    maxExpansions: node.maxExpansions,
    transpositions: node.fuzzyTranspositions,
    fuzzyRewrite: parseRewrite(st, node.fuzzyRewrite),
    lenient,
    cutoffFrequency: node.cutoffFrequency,
    zeroTerms: node.zeroTermsQuery,
  };
  return multiMatchQuery(
    st,
    node.matchType,
    fields,
    node.query,
    node.minimumShouldMatch,
    s,
    tieBreaker,
  );
}

/** BoolQueryBuilder.doToQuery (clause order must, must_not, should, filter). */
function lowerBool(node: BoolNode, st: LowerState): Query {
  const b = new BoolBuilder(st.ctx.maxClauseCount);
  const add = (nodes: readonly QueryNode[], occur: 'must' | 'must_not' | 'should' | 'filter') => {
    for (const n of nodes) {
      const q = occur === 'must' || occur === 'should' ? toQuery(n, st) : toFilter(n, st);
      if (q === null) throw illegalArgument('Query must not be null');
      b.add(q, occur);
    }
  };
  add(node.must, 'must');
  add(node.mustNot, 'must_not');
  add(node.should, 'should');
  add(node.filter, 'filter');
  if (b.size === 0) return matchAll();
  let msm = node.minimumShouldMatch;
  if (st.filter && msm === null && node.should.length > 0) {
    if (node.must.length > 0 || node.mustNot.length > 0 || node.filter.length > 0) {
      st.ctx.deprecation?.(
        'Should clauses in the filter context will no longer automatically set the minimum should match to 1 in the next major version. You should group them in a [filter] clause or explicitly set [minimum_should_match] to 1 to restore this behavior in the next major version.',
      );
    }
    msm = '1';
  }
  const q = maybeApplyMinimumShouldMatch(st, b.build(), msm)!;
  return node.adjustPureNegative ? fixNegativeQueryIfNeeded(st, q) : q;
}

/** Queries.fixNegativeQueryIfNeeded: a bool of only must_not clauses also requires match_all. */
export function fixNegativeQueryIfNeeded(st: LowerState, q: Query): Query {
  if (q.kind !== 'Bool' || q.boost !== 1) return q;
  const order = BoolBuilder.from(q, Number.MAX_SAFE_INTEGER);
  const clauses = order.entries;
  if (clauses.length === 0 || clauses.some(([o]) => o !== 'must_not')) return q;
  return order.add(matchAll(), 'must').build();
}

function lowerNested(node: NestedNode, st: LowerState): Query {
  const obj = st.ctx.objectMapping?.(node.path);
  if (!obj) {
    if (node.ignoreUnmapped) return matchNone();
    throw illegalState(`[nested] failed to find nested object under path [${node.path}]`);
  }
  if (obj.type !== 'nested') {
    throw illegalState(`[nested] nested object under path [${node.path}] is not of nested type`);
  }
  const inner = toQuery(node.query, { ...st, nestedPath: node.path }) ?? matchNone();
  const q: Query = { kind: 'Nested', path: node.path, inner, scoreMode: node.scoreMode, boost: 1 };
  return q;
}

/** QueryShardContext.toQuery: wraps unexpected failures in "failed to create query". */
export function wrapFailure(e: unknown, st: LowerState, render: () => string): never {
  if (e instanceof EsError) {
    if (e.type === 'query_shard_exception' || e.type === 'parsing_exception') throw e;
    throw shardError(st, `failed to create query: ${render()}`, e);
  }
  throw e;
}

/** A percolator's stored query, lowered on its own (no filter context, no names kept). */
function storedQueryLowering(json: unknown, st: LowerState): Query {
  const fresh: LowerState = { ctx: st.ctx, filter: false, nestedPath: null, named: new Map() };
  return toQuery(parseQueryJson(json), fresh) ?? matchNone();
}
