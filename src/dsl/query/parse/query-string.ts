/**
 * `query_string` and `simple_query_string` parameter parsing (ES 6.8 QueryStringQueryBuilder /
 * SimpleQueryStringBuilder.fromXContent). The query text itself is parsed at lowering time, as ES
 * does in `doToQuery`.
 */
import { resolveSimpleQueryStringFlags } from '../../query-string/simple.js';
import { parsingError } from '../errors.js';
import type {
  FieldBoosts,
  Fuzziness,
  MultiMatchType,
  Operator,
  QueryStringNode,
  SimpleQueryStringNode,
} from '../nodes.js';
import { is, isValueToken, type XParser } from '../xcontent.js';
import {
  AUTO,
  parseFuzziness,
  parseMultiMatchType,
  parseOperator,
  putField,
  splitFieldBoost,
} from './common.js';
import { timeZone as jodaTimeZone } from '../../../common/dates/index.js';

function fieldList(p: XParser): FieldBoosts {
  const out: Array<[string, number]> = [];
  while (p.nextToken() !== 'END_ARRAY') {
    const [f, b] = splitFieldBoost(p.text());
    putField(out, f, b);
  }
  return out;
}

export function parseQueryString(p: XParser): QueryStringNode {
  let current: string | null = null;
  let token;
  let queryString: string | null = null;
  let defaultField: string | null = null;
  let analyzer: string | null = null;
  let quoteAnalyzer: string | null = null;
  let queryName: string | null = null;
  let boost = 1;
  let maxDeterminizedStates = 10000;
  let enablePositionIncrements = true;
  let escape = false;
  let fuzzyPrefixLength = 0;
  let fuzzyMaxExpansions = 50;
  let phraseSlop = 0;
  let matchType: MultiMatchType = 'best_fields';
  let tieBreaker: number | null = null;
  let analyzeWildcard: boolean | null = null;
  let allowLeadingWildcard: boolean | null = null;
  let minimumShouldMatch: string | null = null;
  let quoteFieldSuffix: string | null = null;
  let lenient: boolean | null = null;
  let defaultOperator: Operator = 'OR';
  let timeZone: string | null = null;
  let fuzziness: Fuzziness = AUTO;
  let fuzzyRewrite: string | null = null;
  let rewrite: string | null = null;
  let fields: FieldBoosts | null = null;
  let autoGenerateSynonymsPhraseQuery = true;
  let fuzzyTranspositions = true;
  while ((token = p.nextToken()) !== 'END_OBJECT') {
    if (token === 'FIELD_NAME') {
      current = p.currentName();
    } else if (token === 'START_ARRAY') {
      if (is(current, 'fields')) fields = fieldList(p);
      else throw parsingError(`[query_string] query does not support [${current}]`, p.location());
    } else if (isValueToken(token)) {
      switch (current) {
        case 'query':
          queryString = p.text();
          break;
        case 'default_field':
          defaultField = p.text();
          break;
        case 'default_operator':
          defaultOperator = parseOperator(p.text());
          break;
        case 'analyzer':
          analyzer = p.text();
          break;
        case 'quote_analyzer':
          quoteAnalyzer = p.text();
          break;
        case 'allow_leading_wildcard':
          allowLeadingWildcard = p.booleanValue();
          break;
        case 'max_determinized_states':
          maxDeterminizedStates = p.intValue();
          break;
        case 'enable_position_increments':
          enablePositionIncrements = p.booleanValue();
          break;
        case 'escape':
          escape = p.booleanValue();
          break;
        case 'fuzzy_prefix_length':
          fuzzyPrefixLength = p.intValue();
          break;
        case 'fuzzy_max_expansions':
          fuzzyMaxExpansions = p.intValue();
          break;
        case 'fuzzy_rewrite':
          fuzzyRewrite = p.textOrNull();
          break;
        case 'phrase_slop':
          phraseSlop = p.intValue();
          break;
        case 'fuzziness':
          fuzziness = parseFuzziness(p);
          break;
        case 'boost':
          boost = p.floatValue();
          break;
        case 'type':
          matchType = parseMultiMatchType(p.text());
          break;
        case 'tie_breaker':
          tieBreaker = p.floatValue();
          break;
        case 'analyze_wildcard':
          analyzeWildcard = p.booleanValue();
          break;
        case 'rewrite':
          rewrite = p.textOrNull();
          break;
        case 'minimum_should_match':
          minimumShouldMatch = p.textOrNull();
          break;
        case 'quote_field_suffix':
          quoteFieldSuffix = p.textOrNull();
          break;
        case 'lenient':
          lenient = p.booleanValue();
          break;
        case 'all_fields':
          defaultField = '*';
          break;
        case 'time_zone':
          timeZone = p.text();
          break;
        case '_name':
          queryName = p.text();
          break;
        case 'auto_generate_synonyms_phrase_query':
          autoGenerateSynonymsPhraseQuery = p.booleanValue();
          break;
        case 'fuzzy_transpositions':
          fuzzyTranspositions = p.booleanValue();
          break;
        // deprecated and ignored
        case 'auto_generate_phrase_queries':
        case 'lowercase_expanded_terms':
        case 'locale':
        case 'use_dis_max':
        case 'split_on_whitespace':
          break;
        default:
          throw parsingError(`[query_string] query does not support [${current}]`, p.location());
      }
    } else {
      throw parsingError(
        `[query_string] unknown token [${token}] after [${current}]`,
        p.location(),
      );
    }
  }
  if (queryString === null) {
    throw parsingError('[query_string] must be provided with a [query]', p.location());
  }
  if (timeZone !== null) jodaTimeZone(timeZone);
  return {
    type: 'query_string',
    query: queryString,
    fields,
    defaultField,
    defaultOperator,
    analyzer,
    quoteAnalyzer,
    allowLeadingWildcard,
    maxDeterminizedStates,
    enablePositionIncrements,
    escape,
    fuzzyPrefixLength,
    fuzzyMaxExpansions,
    fuzzyRewrite,
    phraseSlop,
    fuzziness,
    matchType,
    tieBreaker,
    analyzeWildcard,
    rewrite,
    minimumShouldMatch,
    quoteFieldSuffix,
    lenient,
    timeZone,
    autoGenerateSynonymsPhraseQuery,
    fuzzyTranspositions,
    boost,
    queryName,
  };
}

export function parseSimpleQueryString(p: XParser): SimpleQueryStringNode {
  let current: string | null = null;
  let queryBody: string | null = null;
  let boost = 1;
  let queryName: string | null = null;
  let minimumShouldMatch: string | null = null;
  let fields: FieldBoosts = [];
  let defaultOperator: Operator | null = null;
  let analyzer: string | null = null;
  let flags = -1;
  let lenient: boolean | null = null;
  let analyzeWildcard = false;
  let quoteFieldSuffix: string | null = null;
  let autoGenerateSynonymsPhraseQuery = true;
  let fuzzyPrefixLength = 0;
  let fuzzyMaxExpansions = 50;
  let fuzzyTranspositions = true;
  let token;
  while ((token = p.nextToken()) !== 'END_OBJECT') {
    if (token === 'FIELD_NAME') {
      current = p.currentName();
    } else if (token === 'START_ARRAY') {
      if (is(current, 'fields')) fields = fieldList(p);
      else
        throw parsingError(
          `[simple_query_string] query does not support [${current}]`,
          p.location(),
        );
    } else if (isValueToken(token)) {
      switch (current) {
        case 'query':
          queryBody = p.text();
          break;
        case 'boost':
          boost = p.floatValue();
          break;
        case 'analyzer':
          analyzer = p.text();
          break;
        case 'default_operator':
          defaultOperator = parseOperator(p.text());
          break;
        case 'flags':
          if (p.currentToken() !== 'VALUE_NUMBER') {
            flags = resolveSimpleQueryStringFlags(p.text());
          } else {
            flags = p.intValue();
            if (flags < 0) flags = -1;
          }
          break;
        case 'locale':
        case 'lowercase_expanded_terms':
        case 'all_fields':
          break;
        case 'lenient':
          lenient = p.booleanValue();
          break;
        case 'analyze_wildcard':
          analyzeWildcard = p.booleanValue();
          break;
        case '_name':
          queryName = p.text();
          break;
        case 'minimum_should_match':
          minimumShouldMatch = p.textOrNull();
          break;
        case 'quote_field_suffix':
          quoteFieldSuffix = p.textOrNull();
          break;
        case 'auto_generate_synonyms_phrase_query':
          autoGenerateSynonymsPhraseQuery = p.booleanValue();
          break;
        case 'fuzzy_prefix_length':
          fuzzyPrefixLength = p.intValue();
          break;
        case 'fuzzy_max_expansions':
          fuzzyMaxExpansions = p.intValue();
          break;
        case 'fuzzy_transpositions':
          fuzzyTranspositions = p.booleanValue();
          break;
        default:
          throw parsingError(
            `[simple_query_string] unsupported field [${p.currentName()}]`,
            p.location(),
          );
      }
    } else {
      throw parsingError(
        `[simple_query_string] unknown token [${token}] after [${current}]`,
        p.location(),
      );
    }
  }
  if (queryBody === null) {
    throw parsingError('[simple_query_string] query text missing', p.location());
  }
  return {
    type: 'simple_query_string',
    query: queryBody,
    fields,
    analyzer,
    defaultOperator: defaultOperator ?? 'OR',
    flags,
    lenient,
    analyzeWildcard,
    minimumShouldMatch,
    quoteFieldSuffix,
    autoGenerateSynonymsPhraseQuery,
    fuzzyPrefixLength,
    fuzzyMaxExpansions,
    fuzzyTranspositions,
    boost,
    queryName,
  };
}
