/**
 * Full-text query parsers, ports of ES 6.8 `fromXContent`: match, match_phrase,
 * match_phrase_prefix, multi_match (with `field^boost` specs and the fuzziness/type check) and
 * common.
 */
import { illegalArgument, parsingError } from '../errors.js';
import type {
  CommonTermsNode,
  Fuzziness,
  MatchNode,
  MatchPhraseNode,
  MatchPhrasePrefixNode,
  MultiMatchNode,
  MultiMatchType,
  Operator,
  TermValue,
  ZeroTermsQuery,
} from '../nodes.js';
import { is, isValueToken, type XParser } from '../xcontent.js';
import {
  checkSingleField,
  parseFuzziness,
  parseMultiMatchType,
  parseOperator,
  parseZeroTerms,
  putField,
  splitFieldBoost,
} from './common.js';

function requireText(name: string, field: string | null, value: TermValue | null): string {
  if (field === null) throw illegalArgument(`[${name}] requires fieldName`);
  if (value === null) throw illegalArgument(`[${name}] requires query value`);
  return field;
}

export function parseMatch(p: XParser): MatchNode {
  let fieldName: string | null = null;
  let value: TermValue | null = null;
  let boost = 1;
  let minimumShouldMatch: string | null = null;
  let analyzer: string | null = null;
  let operator: Operator = 'OR';
  let fuzziness: Fuzziness | null = null;
  let prefixLength = 0;
  let maxExpansions = 50;
  let fuzzyTranspositions = true;
  let fuzzyRewrite: string | null = null;
  let lenient = false;
  let cutoffFrequency: number | null = null;
  let zeroTermsQuery: ZeroTermsQuery = 'none';
  let autoGenerateSynonymsPhraseQuery = true;
  let queryName: string | null = null;
  let current: string | null = null;
  let token;
  while ((token = p.nextToken()) !== 'END_OBJECT') {
    if (token === 'FIELD_NAME') {
      current = p.currentName();
    } else if (token === 'START_OBJECT') {
      checkSingleField('match', p.location(), fieldName, current);
      fieldName = current;
      while ((token = p.nextToken()) !== 'END_OBJECT') {
        if (token === 'FIELD_NAME') {
          current = p.currentName();
        } else if (isValueToken(token)) {
          if (is(current, 'query')) value = p.objectValue();
          else if (is(current, 'analyzer')) analyzer = p.text();
          else if (is(current, 'boost')) boost = p.floatValue();
          else if (is(current, 'fuzziness')) fuzziness = parseFuzziness(p);
          else if (is(current, 'prefix_length')) prefixLength = p.intValue();
          else if (is(current, 'max_expansions')) maxExpansions = p.intValue();
          else if (is(current, 'operator')) operator = parseOperator(p.text());
          else if (is(current, 'minimum_should_match')) minimumShouldMatch = p.textOrNull();
          else if (is(current, 'fuzzy_rewrite')) fuzzyRewrite = p.textOrNull();
          else if (is(current, 'fuzzy_transpositions')) fuzzyTranspositions = p.booleanValue();
          else if (is(current, 'lenient')) lenient = p.booleanValue();
          else if (is(current, 'cutoff_frequency')) cutoffFrequency = p.floatValue();
          else if (is(current, 'zero_terms_query')) zeroTermsQuery = parseZeroTerms(p);
          else if (is(current, '_name')) queryName = p.text();
          else if (is(current, 'auto_generate_synonyms_phrase_query'))
            autoGenerateSynonymsPhraseQuery = p.booleanValue();
          else throw parsingError(`[match] query does not support [${current}]`, p.location());
        } else {
          throw parsingError(`[match] unknown token [${token}] after [${current}]`, p.location());
        }
      }
    } else {
      checkSingleField('match', p.location(), fieldName, p.currentName());
      fieldName = p.currentName();
      value = p.objectValue();
    }
  }
  if (value === null) throw parsingError('No text specified for text query', p.location());
  const field = requireText('match', fieldName, value);
  if (prefixLength < 0) throw illegalArgument('[match] requires prefix length to be non-negative.');
  if (maxExpansions <= 0) throw illegalArgument('[match] requires maxExpansions to be positive.');
  return {
    type: 'match',
    field,
    query: value,
    operator,
    analyzer,
    minimumShouldMatch,
    fuzziness,
    prefixLength,
    maxExpansions,
    fuzzyTranspositions,
    fuzzyRewrite,
    lenient,
    cutoffFrequency,
    zeroTermsQuery,
    autoGenerateSynonymsPhraseQuery,
    boost,
    queryName,
  };
}

export function parseMatchPhrase(p: XParser): MatchPhraseNode {
  let fieldName: string | null = null;
  let value: TermValue | null = null;
  let boost = 1;
  let analyzer: string | null = null;
  let slop = 0;
  let zeroTermsQuery: ZeroTermsQuery = 'none';
  let queryName: string | null = null;
  let current: string | null = null;
  let token;
  while ((token = p.nextToken()) !== 'END_OBJECT') {
    if (token === 'FIELD_NAME') {
      current = p.currentName();
    } else if (token === 'START_OBJECT') {
      checkSingleField('match_phrase', p.location(), fieldName, current);
      fieldName = current;
      while ((token = p.nextToken()) !== 'END_OBJECT') {
        if (token === 'FIELD_NAME') {
          current = p.currentName();
        } else if (isValueToken(token)) {
          if (is(current, 'query')) value = p.objectValue();
          else if (is(current, 'analyzer')) analyzer = p.text();
          else if (is(current, 'boost')) boost = p.floatValue();
          else if (is(current, 'slop')) slop = p.intValue();
          else if (is(current, '_name')) queryName = p.text();
          else if (is(current, 'zero_terms_query')) zeroTermsQuery = parseZeroTerms(p);
          else
            throw parsingError(`[match_phrase] query does not support [${current}]`, p.location());
        } else {
          throw parsingError(
            `[match_phrase] unknown token [${token}] after [${current}]`,
            p.location(),
          );
        }
      }
    } else {
      checkSingleField('match_phrase', p.location(), fieldName, p.currentName());
      fieldName = p.currentName();
      value = p.objectValue();
    }
  }
  const field = requireText('match_phrase', fieldName, value);
  if (slop < 0) throw illegalArgument('No negative slop allowed.');
  return {
    type: 'match_phrase',
    field,
    query: value!,
    analyzer,
    slop,
    zeroTermsQuery,
    boost,
    queryName,
  };
}

export function parseMatchPhrasePrefix(p: XParser): MatchPhrasePrefixNode {
  let fieldName: string | null = null;
  let value: TermValue | null = null;
  let boost = 1;
  let analyzer: string | null = null;
  let slop = 0;
  let maxExpansions = 50;
  let queryName: string | null = null;
  let current: string | null = null;
  let token;
  while ((token = p.nextToken()) !== 'END_OBJECT') {
    if (token === 'FIELD_NAME') {
      current = p.currentName();
    } else if (token === 'START_OBJECT') {
      checkSingleField('match_phrase_prefix', p.location(), fieldName, current);
      fieldName = current;
      while ((token = p.nextToken()) !== 'END_OBJECT') {
        if (token === 'FIELD_NAME') {
          current = p.currentName();
        } else if (isValueToken(token)) {
          if (is(current, 'query')) value = p.objectValue();
          else if (is(current, 'analyzer')) analyzer = p.text();
          else if (is(current, 'boost')) boost = p.floatValue();
          else if (is(current, 'slop')) slop = p.intValue();
          else if (is(current, 'max_expansions')) maxExpansions = p.intValue();
          else if (is(current, '_name')) queryName = p.text();
          else
            throw parsingError(
              `[match_phrase_prefix] query does not support [${current}]`,
              p.location(),
            );
        } else {
          throw parsingError(
            `[match_phrase_prefix] unknown token [${token}] after [${current}]`,
            p.location(),
          );
        }
      }
    } else {
      checkSingleField('match_phrase_prefix', p.location(), fieldName, p.currentName());
      fieldName = p.currentName();
      value = p.objectValue();
    }
  }
  const field = requireText('match_phrase_prefix', fieldName, value);
  if (slop < 0) throw illegalArgument('No negative slop allowed.');
  if (maxExpansions < 0) throw illegalArgument('No negative maxExpansions allowed.');
  return {
    type: 'match_phrase_prefix',
    field,
    query: value!,
    analyzer,
    slop,
    maxExpansions,
    boost,
    queryName,
  };
}

export function parseMultiMatch(p: XParser): MultiMatchNode {
  let value: TermValue | null = null;
  const fields: Array<[string, number]> = [];
  let matchType: MultiMatchType = 'best_fields';
  let analyzer: string | null = null;
  let slop = 0;
  let fuzziness: Fuzziness | null = null;
  let prefixLength = 0;
  let maxExpansions = 50;
  let operator: Operator = 'OR';
  let minimumShouldMatch: string | null = null;
  let fuzzyRewrite: string | null = null;
  let useDisMax: boolean | null = null;
  let tieBreaker: number | null = null;
  let cutoffFrequency: number | null = null;
  let lenient: boolean | null = null;
  let zeroTermsQuery: ZeroTermsQuery = 'none';
  let autoGenerateSynonymsPhraseQuery = true;
  let fuzzyTranspositions = true;
  let boost = 1;
  let queryName: string | null = null;
  let current: string | null = null;
  let token;
  const fieldAndBoost = () => {
    // parseFieldAndBoost reads textCharacters(): a null token reads as "null"
    const text = p.currentToken() === 'VALUE_NULL' ? 'null' : p.text();
    const [f, b] = splitFieldBoost(text);
    putField(fields, f, b);
  };
  while ((token = p.nextToken()) !== 'END_OBJECT') {
    if (token === 'FIELD_NAME') {
      current = p.currentName();
    } else if (is(current, 'fields')) {
      if (token === 'START_ARRAY') {
        while ((token = p.nextToken()) !== 'END_ARRAY') fieldAndBoost();
      } else if (isValueToken(token)) {
        fieldAndBoost();
      } else {
        throw parsingError(`[multi_match] query does not support [${current}]`, p.location());
      }
    } else if (isValueToken(token)) {
      if (is(current, 'query')) value = p.objectValue();
      else if (is(current, 'type')) matchType = parseMultiMatchType(p.text());
      else if (is(current, 'analyzer')) analyzer = p.text();
      else if (is(current, 'boost')) boost = p.floatValue();
      else if (is(current, 'slop')) slop = p.intValue();
      else if (is(current, 'fuzziness')) fuzziness = parseFuzziness(p);
      else if (is(current, 'prefix_length')) prefixLength = p.intValue();
      else if (is(current, 'max_expansions')) maxExpansions = p.intValue();
      else if (is(current, 'operator')) operator = parseOperator(p.text());
      else if (is(current, 'minimum_should_match')) minimumShouldMatch = p.textOrNull();
      else if (is(current, 'fuzzy_rewrite')) fuzzyRewrite = p.textOrNull();
      else if (is(current, 'use_dis_max')) useDisMax = p.booleanValue();
      else if (is(current, 'tie_breaker')) tieBreaker = p.floatValue();
      else if (is(current, 'cutoff_frequency')) cutoffFrequency = p.floatValue();
      else if (is(current, 'lenient')) lenient = p.booleanValue();
      else if (is(current, 'zero_terms_query')) zeroTermsQuery = parseZeroTerms(p);
      else if (is(current, '_name')) queryName = p.text();
      else if (is(current, 'auto_generate_synonyms_phrase_query'))
        autoGenerateSynonymsPhraseQuery = p.booleanValue();
      else if (is(current, 'fuzzy_transpositions')) fuzzyTranspositions = p.booleanValue();
      else throw parsingError(`[multi_match] query does not support [${current}]`, p.location());
    } else {
      throw parsingError(`[multi_match] unknown token [${token}] after [${current}]`, p.location());
    }
  }
  if (value === null) throw parsingError('No text specified for multi_match query', p.location());
  if (
    fuzziness !== null &&
    (matchType === 'cross_fields' || matchType === 'phrase' || matchType === 'phrase_prefix')
  ) {
    throw parsingError(`Fuzziness not allowed for type [${matchType}]`, p.location());
  }
  if (slop < 0) throw illegalArgument('No negative slop allowed.');
  if (prefixLength < 0) throw illegalArgument('No negative prefix length allowed.');
  if (maxExpansions <= 0) throw illegalArgument('Max expansions must be strictly great than zero.');
  return {
    type: 'multi_match',
    query: value,
    fields,
    matchType,
    analyzer,
    slop,
    fuzziness,
    prefixLength,
    maxExpansions,
    operator,
    minimumShouldMatch,
    fuzzyRewrite,
    useDisMax,
    tieBreaker,
    cutoffFrequency,
    lenient,
    zeroTermsQuery,
    autoGenerateSynonymsPhraseQuery,
    fuzzyTranspositions,
    boost,
    queryName,
  };
}

/** ES CommonTermsQueryBuilder.fromXContent (arrays inside the field object are walked through). */
export function parseCommon(p: XParser): CommonTermsNode {
  let fieldName: string | null = null;
  let text: TermValue | null = null;
  let boost = 1;
  let analyzer: string | null = null;
  let lowFreqMsm: string | null = null;
  let highFreqMsm: string | null = null;
  let highFreqOperator: Operator = 'OR';
  let lowFreqOperator: Operator = 'OR';
  let cutoffFrequency = Math.fround(0.01); // DEFAULT_CUTOFF_FREQ (a float)
  let queryName: string | null = null;
  let current: string | null = null;
  let token;
  while ((token = p.nextToken()) !== 'END_OBJECT') {
    if (token === 'FIELD_NAME') {
      current = p.currentName();
    } else if (token === 'START_OBJECT') {
      checkSingleField('common', p.location(), fieldName, current);
      fieldName = current;
      while ((token = p.nextToken()) !== 'END_OBJECT') {
        if (token === 'FIELD_NAME') {
          current = p.currentName();
        } else if (token === 'START_OBJECT') {
          if (!is(current, 'minimum_should_match')) {
            throw parsingError(`[common] query does not support [${current}]`, p.location());
          }
          let inner: string | null = null;
          while ((token = p.nextToken()) !== 'END_OBJECT') {
            if (token === 'FIELD_NAME') {
              inner = p.currentName();
            } else if (isValueToken(token)) {
              if (is(inner, 'low_freq')) lowFreqMsm = p.text();
              else if (is(inner, 'high_freq')) highFreqMsm = p.text();
              else {
                throw parsingError(
                  `[common] query does not support [${inner}] for [${current}]`,
                  p.location(),
                );
              }
            } else {
              throw parsingError(
                `[common] unexpected token type [${token}] after [${inner}]`,
                p.location(),
              );
            }
          }
        } else if (isValueToken(token)) {
          if (is(current, 'query')) text = p.objectValue();
          else if (is(current, 'analyzer')) analyzer = p.text();
          else if (is(current, 'disable_coord')) {
            // ignored since 6.0
          } else if (is(current, 'boost')) boost = p.floatValue();
          else if (is(current, 'high_freq_operator')) highFreqOperator = parseOperator(p.text());
          else if (is(current, 'low_freq_operator')) lowFreqOperator = parseOperator(p.text());
          else if (is(current, 'minimum_should_match')) lowFreqMsm = p.text();
          else if (is(current, 'cutoff_frequency')) cutoffFrequency = p.floatValue();
          else if (is(current, '_name')) queryName = p.text();
          else throw parsingError(`[common] query does not support [${current}]`, p.location());
        }
      }
    } else {
      checkSingleField('common', p.location(), fieldName, p.currentName());
      fieldName = p.currentName();
      text = p.objectValue();
    }
  }
  if (fieldName === null || fieldName === '') throw illegalArgument('field name is null or empty');
  if (text === null) throw illegalArgument('text cannot be null');
  return {
    type: 'common',
    field: fieldName,
    query: text,
    analyzer,
    cutoffFrequency,
    highFreqOperator,
    lowFreqOperator,
    lowFreqMinimumShouldMatch: lowFreqMsm,
    highFreqMinimumShouldMatch: highFreqMsm,
    boost,
    queryName,
  };
}
