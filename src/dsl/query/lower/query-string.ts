/**
 * query_string and simple_query_string lowering: the Lucene query-syntax AST (src/dsl/query-string)
 * turned into engine queries the way ES 6.8 QueryStringQueryParser / SimpleQueryStringQueryParser
 * build them per field: multi_match for terms and phrases, normalized prefix / wildcard / regexp
 * / fuzzy terms, typed ranges with time zones, `_exists_`, field patterns with boosts.
 */
import type { Analyzer } from '../../../search/analysis/index.js';
import type { MultiTermRewrite, Query } from '../../../search/query/query.js';
import { EsError } from '../../../common/errors.js';
import { asDistance } from '../../../search/automata/fuzziness.js';
import type { QsAnalyzedLeaf, QsNode } from '../../query-string/ast.js';
import { parseQueryStringCached, parseSimpleQueryStringCached } from '../../query-string/cache.js';
import { JavaHashMap } from '../java-hash-map.js';
import type { MultiMatchType, QueryStringNode, SimpleQueryStringNode } from '../nodes.js';
import { analyzeTokens, groupByPosition, indexSearchAnalyzer, normalizeWith } from './analysis.js';
import {
  BoolBuilder,
  boolClauses,
  boosted,
  disMax,
  matchAll,
  matchNone,
  withDisplay,
  type Occur,
} from './build.js';
import type { LowerState } from './context.js';
import { fieldMapper, isStringType, type MappedField } from './fields.js';
import { analyzerParam, existsFilter, fixNegativeQueryIfNeeded } from './lower.js';
import {
  defaultMatchSettings,
  isBoolean,
  keywordStandIn,
  lenientFieldQuery,
  maybeApplyMinimumShouldMatch,
  type MatchSettings,
} from './match-query.js';
import {
  isMatchAllPattern,
  isSimpleMatchPattern,
  multiMatchQuery,
  parseFieldsAndWeights,
  resolveMappingField,
  resolveMappingFields,
  typeTieBreaker,
} from './multi-match.js';
import {
  fuzzyQuery,
  parseRewrite,
  prefixMultiTerm,
  prefixQuery,
  regexpMultiTerm,
  wildcardMultiTerm,
} from './multi-term.js';
import { isLuceneTermQuery, rangeQuery } from './term-queries.js';
import { fuzzinessFromEdits } from '../parse/common.js';

/** The per-request state of ES QueryStringQueryParser. */
interface QsParser {
  readonly st: LowerState;
  /** The parser's default field (`this.field`): a field, `*`, or null with explicit `fields`. */
  readonly field: string | null;
  readonly fieldsAndWeights: JavaHashMap<number>;
  readonly lenient: boolean;
  readonly type: MultiMatchType;
  readonly tieBreaker: number;
  readonly forceAnalyzer: Analyzer | null;
  readonly forceQuoteAnalyzer: Analyzer | null;
  readonly quoteFieldSuffix: string | null;
  readonly analyzeWildcard: boolean;
  readonly timeZone: string | null;
  readonly phraseSlop: number;
  readonly node: { fuzziness: QueryStringNode['fuzziness'] } | null;
  readonly fuzzyPrefixLength: number;
  readonly fuzzyMaxExpansions: number;
  readonly fuzzyTranspositions: boolean;
  readonly multiTermRewrite: MultiTermRewrite | undefined;
  readonly maxDeterminizedStates: number;
  readonly match: MatchSettings;
  readonly occur: 'should' | 'must';
  /**
   * Lowered leaves, shared by the parser's emptiness checks and the lowering proper. Per request:
   * cached ASTs outlive a request, and a leaf lowers differently under other mappings/settings.
   */
  readonly leaves: Map<QsNode, Query | null>;
}

const unmapped = (field: string | null): Query => matchNone(`unmapped fields [${field}]`);

/** The analyzer ES's getSearchAnalyzer gives a field (or the forced one). */
function searchAnalyzerOf(p: QsParser, f: MappedField | null): Analyzer {
  if (p.forceAnalyzer) return p.forceAnalyzer;
  if (!f) return indexSearchAnalyzer(p.st.ctx);
  if (f.meta) return keywordStandIn;
  const m = f.mapping!;
  if (m.type === 'text' || !m.index) return p.st.ctx.searchAnalyzer(m, false);
  return keywordStandIn;
}

/** Analyzer.normalize with a keyword field's normalizer taking part. */
function normalize(p: QsParser, f: MappedField | null, text: string): string {
  const a = searchAnalyzerOf(p, f);
  if (a === keywordStandIn) {
    if (f?.mapping?.type === 'keyword' && f.mapping.normalizer)
      return p.st.ctx.normalize(f.mapping, text);
    return text;
  }
  return normalizeWith(a, text);
}

function lenientOr(p: QsParser, field: string, run: () => Query | null): Query | null {
  try {
    return run();
  } catch (e) {
    if (p.lenient && e instanceof EsError) return lenientFieldQuery(field, e);
    throw e;
  }
}

/** QueryStringQueryParser.extractMultiFields. */
function extractMultiFields(
  p: QsParser,
  field: string | null,
  quoted: boolean,
): JavaHashMap<number> {
  if (field !== null) {
    const allFields = isMatchAllPattern(field);
    if (allFields && p.field !== null && p.field === field) return p.fieldsAndWeights;
    const multi = isSimpleMatchPattern(field);
    return resolveMappingField(
      p.st,
      field,
      1,
      !allFields,
      !multi,
      quoted ? p.quoteFieldSuffix : null,
    );
  }
  if (quoted && p.quoteFieldSuffix !== null) {
    return resolveMappingFields(p.st, p.fieldsAndWeights, p.quoteFieldSuffix);
  }
  return p.fieldsAndWeights;
}

const applyBoost = (q: Query, boost: number): Query => (boost !== 1 ? boosted(q, boost) : q);

function combine(p: QsParser, queries: Query[]): Query {
  return queries.length === 1 ? queries[0]! : disMax(queries, p.tieBreaker);
}

/** getFieldQuery(field, text, quoted=false) / getFieldQuery(field, text, slop). */
function fieldQuery(
  p: QsParser,
  field: string | null,
  text: string,
  phraseSlop: number | null,
): Query | null {
  const quoted = phraseSlop !== null;
  const fields = extractMultiFields(p, field, quoted);
  if (fields.size === 0) return unmapped(field);
  const s: MatchSettings = {
    ...p.match,
    analyzer: quoted ? (p.forceQuoteAnalyzer ?? p.forceAnalyzer) : p.forceAnalyzer,
    phraseSlop: quoted ? phraseSlop : p.phraseSlop,
  };
  return multiMatchQuery(p.st, quoted ? 'phrase' : p.type, fields, text, null, s, p.tieBreaker);
}

function fuzzyTermQueries(
  p: QsParser,
  field: string | null,
  text: string,
  edits: number,
): Query | null {
  const fields = extractMultiFields(p, field, false);
  if (fields.size === 0) return unmapped(field);
  const queries: Query[] = [];
  for (const [name, weight] of fields.entries()) {
    const f = fieldMapper(p.st.ctx, name);
    const q: Query = f
      ? (lenientOr(p, name, () =>
          fuzzyQuery(
            p.st,
            f,
            normalize(p, f, text),
            fuzzinessFromEdits(edits),
            p.fuzzyPrefixLength,
            p.fuzzyMaxExpansions,
            p.fuzzyTranspositions,
            undefined,
          ),
        ) as Query)
      : unmapped(name);
    queries.push(applyBoost(q, weight));
  }
  return combine(p, queries);
}

/** getPossiblyAnalyzedPrefixQuery (analyze_wildcard). */
function analyzedPrefix(p: QsParser, f: MappedField, termStr: string, occur: Occur): Query | null {
  const analyzer = searchAnalyzerOf(p, f);
  const groups = groupByPosition(analyzeTokens(analyzer, termStr)).map((g) => g.map((t) => t.term));
  if (groups.length === 0) return null;
  const name = f.name;
  if (groups.length === 1 && groups[0]!.length === 1) {
    return prefixMultiTerm(name, normalizeWith(analyzer, groups[0]![0]!), p.multiTermRewrite);
  }
  const b = new BoolBuilder(p.st.ctx.maxClauseCount);
  groups.forEach((plist, pos) => {
    const last = pos === groups.length - 1;
    let q: Query;
    if (plist.length === 1) {
      q = last
        ? prefixMultiTerm(name, normalizeWith(analyzer, plist[0]!), p.multiTermRewrite)
        : withDisplay(
            { kind: 'Term', field: name, term: plist[0]!, boost: 1 },
            `${name}:${plist[0]}`,
          );
    } else if (!last) {
      q = withDisplay(
        { kind: 'Synonym', field: name, terms: plist, boost: 1 },
        `Synonym(${plist.map((t) => `${name}:${t}`).join(' ')})`,
      );
    } else {
      const inner = new BoolBuilder(p.st.ctx.maxClauseCount);
      for (const t of plist)
        inner.add(prefixMultiTerm(name, normalizeWith(analyzer, t), p.multiTermRewrite), 'should');
      q = fixNegativeQueryIfNeeded(p.st, inner.build());
    }
    b.add(q, occur);
  });
  return fixNegativeQueryIfNeeded(p.st, b.build());
}

function prefixQueries(p: QsParser, field: string | null, termStr: string): Query | null {
  const fields = extractMultiFields(p, field, false);
  if (fields.size === 0) return unmapped(termStr);
  const queries: Query[] = [];
  for (const [name, weight] of fields.entries()) {
    const f = fieldMapper(p.st.ctx, name);
    const q = !f
      ? unmapped(name)
      : lenientOr(p, name, () => {
          if (!isStringType(f)) return prefixQuery(p.st, f, termStr, p.multiTermRewrite);
          if (p.analyzeWildcard) return analyzedPrefix(p, f, termStr, p.occur);
          return prefixMultiTerm(f.name, normalize(p, f, termStr), p.multiTermRewrite);
        });
    if (q !== null) queries.push(applyBoost(q, weight));
  }
  if (queries.length === 0) return null;
  return combine(p, queries);
}

/** Lucene QueryParserBase.analyzeWildcard: normalize the text between wildcards and escapes. */
function analyzeWildcardText(p: QsParser, f: MappedField | null, termStr: string): string {
  const re = /(\\.)|([?*]+)/g;
  let out = '';
  let last = 0;
  for (let m = re.exec(termStr); m !== null; m = re.exec(termStr)) {
    if (m.index > 0) out += normalize(p, f, termStr.slice(last, m.index));
    out += m[0];
    last = m.index + m[0].length;
  }
  if (last < termStr.length) out += normalize(p, f, termStr.slice(last));
  return out;
}

function wildcardQueries(p: QsParser, field: string | null, termStr: string): Query | null {
  const fields = extractMultiFields(p, field, false);
  if (fields.size === 0) return unmapped(termStr);
  if (fields.has('_all')) return matchAll();
  const queries: Query[] = [];
  for (const [name, weight] of fields.entries()) {
    let q: Query;
    if (termStr === '*') {
      q = existsFilter(p.st, name);
    } else {
      const f = fieldMapper(p.st.ctx, name);
      const indexed = f ? f.name : name;
      q = lenientOr(p, name, () => {
        if (indexed === '*' && termStr === '*') return matchAll();
        return wildcardMultiTerm(indexed, analyzeWildcardText(p, f, termStr), p.multiTermRewrite);
      })!;
    }
    queries.push(applyBoost(q, weight));
  }
  return combine(p, queries);
}

function regexpQueries(p: QsParser, field: string | null, termStr: string): Query | null {
  const fields = extractMultiFields(p, field, false);
  if (fields.size === 0) return unmapped(termStr);
  const queries: Query[] = [];
  for (const [name, weight] of fields.entries()) {
    const f = fieldMapper(p.st.ctx, name);
    const q = !f
      ? unmapped(name)
      : lenientOr(p, name, () =>
          regexpMultiTerm(
            name,
            normalize(p, f, termStr),
            0xffff,
            p.maxDeterminizedStates,
            p.multiTermRewrite,
          ),
        )!;
    queries.push(applyBoost(q, weight));
  }
  return combine(p, queries);
}

function rangeQueries(
  p: QsParser,
  field: string | null,
  lower: string | null,
  upper: string | null,
  incLo: boolean,
  incHi: boolean,
): Query {
  const fields = extractMultiFields(p, field, false);
  if (fields.size === 0) return unmapped(field);
  const queries: Query[] = [];
  for (const [name, weight] of fields.entries()) {
    const f = fieldMapper(p.st.ctx, name);
    const q = !f
      ? unmapped(name)
      : lenientOr(p, name, () =>
          rangeQuery(
            p.st,
            f,
            lower === null ? null : normalize(p, f, lower),
            upper === null ? null : normalize(p, f, upper),
            incLo,
            incHi,
            p.timeZone,
            null,
          ),
        )!;
    queries.push(applyBoost(q, weight));
  }
  return combine(p, queries);
}

/** Lowers one query-string AST node (null: vanished, as Lucene's null queries). */
function lowerQs(p: QsParser, n: QsNode): Query | null {
  if (n.kind === 'Term' || n.kind === 'Phrase' || n.kind === 'Prefix') {
    const hit = p.leaves.get(n);
    if (hit !== undefined) return hit;
    const q = lowerQsNode(p, n);
    p.leaves.set(n, q);
    return q;
  }
  return lowerQsNode(p, n);
}

function lowerQsNode(p: QsParser, n: QsNode): Query | null {
  const field = 'field' in n ? (n.field ?? p.field) : null;
  let q: Query | null;
  switch (n.kind) {
    case 'Term':
      if (n.fuzzy) {
        const edits =
          n.fuzzy.edits === 'AUTO' ? asDistance(p.node!.fuzziness, n.text) : n.fuzzy.edits;
        q = fuzzyTermQueries(p, field, n.text, edits);
      } else {
        q = fieldQuery(p, field, n.text, null);
      }
      break;
    case 'Phrase':
      q = fieldQuery(p, field, n.text, n.slop ?? p.phraseSlop);
      break;
    case 'Prefix':
      q = prefixQueries(p, field, n.text);
      break;
    case 'Wildcard':
      q = wildcardQueries(p, field, n.text);
      break;
    case 'Regexp':
      q = regexpQueries(p, field, n.text);
      break;
    case 'Range':
      q = rangeQueries(p, field, n.lower, n.upper, n.includeLower, n.includeUpper);
      break;
    case 'Exists':
      q =
        p.st.ctx.fieldNamesEnabled === false
          ? wildcardMultiTerm(n.field, '*')
          : existsFilter(p.st, n.field);
      break;
    case 'MatchAll':
      q = matchAll();
      break;
    case 'MatchNone':
      return matchNone('Matching no documents because no terms present');
    case 'Bool': {
      const b = new BoolBuilder(p.st.ctx.maxClauseCount);
      for (const c of n.clauses) {
        const cq = lowerQs(p, c.node);
        if (cq === null) continue;
        if (c.splice && isBoolean(cq)) {
          const subs = boolClauses(cq);
          if (subs.every(([, s]) => isLuceneTermQuery(s))) {
            for (const [o, s] of subs) b.add(s, o);
            continue;
          }
        }
        b.add(cq, c.occur);
      }
      q = b.size === 0 ? null : fixNegativeQueryIfNeeded(p.st, b.build());
      break;
    }
  }
  if (q !== null && 'boost' in n && n.boost !== undefined) q = boosted(q, n.boost);
  return q;
}

/** Whether a leaf lowers to nothing for every target field (ES builds a null query). */
function vanishes(p: QsParser, leaf: QsAnalyzedLeaf): boolean {
  try {
    return lowerQs(p, leaf) === null;
  } catch {
    return false;
  }
}

export function lowerQueryString(node: QueryStringNode, st: LowerState): Query | null {
  if (node.fields !== null && node.fields.length > 0 && node.defaultField !== null) {
    throw new EsError(
      'query_validation_exception',
      'Validation Failed: 1: [query_string] cannot use [fields] parameter in conjunction with [default_field];',
      400,
    );
  }
  const ctx = st.ctx;
  const queryLenient = node.lenient ?? ctx.queryStringLenient ?? false;
  let field: string | null;
  let fieldsAndWeights: JavaHashMap<number>;
  let lenient: boolean;
  const allFields = () => {
    field = '*';
    fieldsAndWeights = resolveMappingField(st, '*', 1, false, false);
    lenient = node.lenient ?? true;
  };
  if (node.defaultField !== null) {
    if (isMatchAllPattern(node.defaultField)) allFields();
    else {
      field = node.defaultField;
      fieldsAndWeights = new JavaHashMap();
      lenient = queryLenient;
    }
  } else if (node.fields !== null && node.fields.length > 0) {
    field = null;
    fieldsAndWeights = resolveMappingFields(
      st,
      JavaHashMap.of(node.fields.map((e) => [e[0], e[1]] as [string, number])),
    );
    lenient = queryLenient;
  } else {
    let defaults = ctx.defaultFields;
    if (defaults.length === 1 && defaults[0] === '_all') defaults = ['*'];
    if (defaults.length === 1 && isMatchAllPattern(defaults[0]!)) allFields();
    else {
      field = null;
      fieldsAndWeights = resolveMappingFields(st, parseFieldsAndWeights(defaults));
      lenient = queryLenient;
    }
  }
  const occur = node.defaultOperator === 'AND' ? 'must' : 'should';
  const p: QsParser = {
    st,
    field: field!,
    fieldsAndWeights: fieldsAndWeights!,
    lenient: lenient!,
    type: node.matchType,
    tieBreaker: node.tieBreaker ?? typeTieBreaker(node.matchType),
    forceAnalyzer: analyzerParam(st, 'query_string', node.analyzer),
    forceQuoteAnalyzer: quoteAnalyzerParam(st, node.quoteAnalyzer),
    quoteFieldSuffix: node.quoteFieldSuffix,
    analyzeWildcard: node.analyzeWildcard ?? ctx.analyzeWildcard ?? false,
    timeZone: node.timeZone,
    phraseSlop: node.phraseSlop,
    node,
    fuzzyPrefixLength: node.fuzzyPrefixLength,
    fuzzyMaxExpansions: node.fuzzyMaxExpansions,
    fuzzyTranspositions: node.fuzzyTranspositions,
    multiTermRewrite: parseRewrite(st, node.rewrite),
    maxDeterminizedStates: node.maxDeterminizedStates,
    match: {
      ...defaultMatchSettings(),
      occur,
      lenient: lenient!,
      zeroTerms: 'null',
    },
    occur,
    leaves: new Map(),
  };
  parseRewrite(st, node.fuzzyRewrite);
  const ast = parseQueryStringCached(node.query, {
    defaultOperator: node.defaultOperator,
    allowLeadingWildcard: node.allowLeadingWildcard ?? ctx.allowLeadingWildcard ?? true,
    lenient: p.lenient,
    defaultField: p.field,
    escape: node.escape,
    maxRegexLength: ctx.maxRegexLength,
    maxClauseCount: ctx.maxClauseCount,
    isEmpty: (leaf) => vanishes(p, leaf),
    index: { name: ctx.index, uuid: ctx.indexUuid },
  });
  let q = lowerQs(p, ast);
  if (q === null) return null;
  // the top-level boost survives the negative fix and minimum_should_match
  const boost = 'boost' in q ? (q as { boost: number }).boost : 1;
  if (boost !== 1) q = { ...q, boost: 1 } as Query;
  q = fixNegativeQueryIfNeeded(st, q);
  q = maybeApplyMinimumShouldMatch(st, q, node.minimumShouldMatch)!;
  return boost !== 1 ? boosted(q, boost) : q;
}

function quoteAnalyzerParam(st: LowerState, name: string | null): Analyzer | null {
  if (name === null) return null;
  const a = st.ctx.analyzer(name);
  if (!a) {
    throw new EsError(
      'query_shard_exception',
      `[query_string] quote_analyzer [${name}] not found`,
      400,
      {
        meta: { index_uuid: st.ctx.indexUuid, index: st.ctx.index },
      },
    );
  }
  return a;
}

// ---- simple_query_string -------------------------------------------------------------------------

export function lowerSimpleQueryString(node: SimpleQueryStringNode, st: LowerState): Query | null {
  const ctx = st.ctx;
  let lenient = node.lenient ?? false;
  let weights: JavaHashMap<number>;
  if (node.fields.length > 0) {
    weights = resolveMappingFields(
      st,
      JavaHashMap.of(node.fields.map((e) => [e[0], e[1]] as [string, number])),
    );
  } else {
    let defaults = ctx.defaultFields;
    if (defaults.length === 1 && defaults[0] === '_all') defaults = ['*'];
    if (defaults.length === 1 && isMatchAllPattern(defaults[0]!)) lenient = node.lenient ?? true;
    weights = resolveMappingFields(st, parseFieldsAndWeights(defaults));
  }
  const analyzer = analyzerParam(st, 'simple_query_string', node.analyzer);
  const occur = node.defaultOperator === 'AND' ? 'must' : 'should';
  const s: MatchSettings = {
    ...defaultMatchSettings(),
    occur,
    analyzer,
    lenient,
    zeroTerms: 'null',
  };
  const rethrow = (e: unknown): Query => {
    if (lenient && e instanceof EsError) return matchNone(`failed query, caused by ${e.reason}`);
    throw e;
  };
  const sqAnalyzer = (f: MappedField): Analyzer => {
    if (analyzer) return analyzer;
    if (f.meta || f.mapping!.type !== 'text') return keywordStandIn;
    return ctx.searchAnalyzer(f.mapping!, false);
  };
  const sqNormalize = (f: MappedField, text: string): string => {
    const a = sqAnalyzer(f);
    if (a === keywordStandIn) {
      return f.mapping?.type === 'keyword' && f.mapping.normalizer
        ? ctx.normalize(f.mapping, text)
        : text;
    }
    return normalizeWith(a, text);
  };
  const wrap = (q: Query, boost: number): Query =>
    q.kind === 'MatchNone' || boost === 1 ? q : boosted(q, boost);
  const perField = (build: (f: MappedField) => Query | null): Query => {
    const disjuncts: Query[] = [];
    for (const [name, weight] of weights.entries()) {
      const f = fieldMapper(ctx, name);
      if (!f) {
        disjuncts.push(unmapped(name));
        continue;
      }
      try {
        const q = build(f);
        if (q !== null) disjuncts.push(wrap(q, weight));
      } catch (e) {
        disjuncts.push(rethrow(e));
      }
    }
    return disjuncts.length === 1 ? disjuncts[0]! : disMax(disjuncts, 1);
  };
  const lower = (n: QsNode): Query | null => {
    switch (n.kind) {
      case 'Term':
        if (n.fuzzy) {
          const edits = n.fuzzy.edits === 'AUTO' ? 0 : n.fuzzy.edits;
          return perField((f) =>
            fuzzyQuery(
              st,
              f,
              sqNormalize(f, n.text),
              fuzzinessFromEdits(edits),
              node.fuzzyPrefixLength,
              node.fuzzyMaxExpansions,
              node.fuzzyTranspositions,
              undefined,
            ),
          );
        }
        return multiMatchQuery(st, 'most_fields', weights, n.text, null, s, null);
      case 'Phrase': {
        const pw =
          node.quoteFieldSuffix !== null
            ? resolveMappingFields(st, weights, node.quoteFieldSuffix)
            : weights;
        return multiMatchQuery(
          st,
          'phrase',
          pw,
          n.text,
          null,
          { ...s, phraseSlop: n.slop ?? 0 },
          null,
        );
      }
      case 'Prefix':
        return perField((f) => {
          if (node.analyzeWildcard) return sqAnalyzedPrefix(st, f, n.text, sqAnalyzer(f), occur);
          return prefixQuery(st, f, sqNormalize(f, n.text), undefined);
        });
      case 'MatchAll':
        return matchAll();
      case 'MatchNone':
        return matchNone('empty string passed to query parser');
      case 'Bool': {
        const b = new BoolBuilder(ctx.maxClauseCount);
        for (const c of n.clauses) {
          const cq = lower(c.node);
          if (cq !== null) b.add(cq, c.occur);
        }
        return b.build();
      }
      default:
        return null;
    }
  };
  const ast = parseSimpleQueryStringCached(node.query, {
    defaultOperator: node.defaultOperator,
    flags: node.flags,
    isEmpty: (leaf) => {
      try {
        return lower(leaf) === null;
      } catch {
        return false;
      }
    },
  });
  const q = lower(ast) ?? matchNone('empty string passed to query parser');
  return maybeApplyMinimumShouldMatch(st, q, node.minimumShouldMatch);
}

/** SimpleQueryStringQueryParser.newPossiblyAnalyzedQuery. */
function sqAnalyzedPrefix(
  st: LowerState,
  f: MappedField,
  text: string,
  analyzer: Analyzer,
  occur: Occur,
): Query | null {
  const groups = groupByPosition(analyzeTokens(analyzer, text)).map((g) =>
    g.map((t) => normalizeWith(analyzer, t.term)),
  );
  if (groups.length === 0) return null;
  const name = f.name;
  if (groups.length === 1 && groups[0]!.length === 1) return prefixMultiTerm(name, groups[0]![0]!);
  const b = new BoolBuilder(st.ctx.maxClauseCount);
  groups.forEach((plist, pos) => {
    const last = pos === groups.length - 1;
    let q: Query;
    if (plist.length === 1) {
      q = last
        ? prefixMultiTerm(name, plist[0]!)
        : withDisplay(
            { kind: 'Term', field: name, term: plist[0]!, boost: 1 },
            `${name}:${plist[0]}`,
          );
    } else if (!last) {
      q = withDisplay(
        { kind: 'Synonym', field: name, terms: plist, boost: 1 },
        `Synonym(${plist.map((t) => `${name}:${t}`).join(' ')})`,
      );
    } else {
      const inner = new BoolBuilder(st.ctx.maxClauseCount);
      for (const t of plist) inner.add(prefixMultiTerm(name, t), 'should');
      q = inner.build();
    }
    b.add(q, occur);
  });
  return b.build();
}
