/**
 * Query DSL syntax: JSON to `QueryNode` with ES 6.8's parsing errors. Registers every query
 * parser by its JSON name and exposes the entry point used for `query`, `filter`, `post_filter`...
 */
import type { JsonPath } from '../errors.js';
import type { QueryNode } from '../nodes.js';
import { XParser } from '../xcontent.js';
import {
  parseBool,
  parseBoosting,
  parseConstantScore,
  parseDisMax,
  parseMatchAll,
  parseMatchNone,
  parseNested,
  parseScriptQuery,
  parseWrapper,
} from './compound.js';
import {
  parseCommon,
  parseMatch,
  parseMatchPhrase,
  parseMatchPhrasePrefix,
  parseMultiMatch,
} from './full-text.js';
import { parseFunctionScore } from './function-score.js';
import { parseMoreLikeThis } from './more-like-this.js';
import { parseHasChild, parseHasParent, parseParentId } from './joining.js';
import { parsePercolate } from './percolate.js';
import { nodeMaxNestedQueryDepth, parseQueryTree, registerQueryParser } from './inner.js';
import { parseQueryString, parseSimpleQueryString } from './query-string.js';
import {
  parseFieldMaskingSpan,
  parseSpanContaining,
  parseSpanFirst,
  parseSpanGap,
  parseSpanMulti,
  parseSpanNear,
  parseSpanNot,
  parseSpanOr,
  parseSpanTerm,
  parseSpanWithin,
} from './span.js';
import { parseGeoDistance } from './geo-distance.js';
import {
  parseExists,
  parseFuzzy,
  parseIds,
  parsePrefix,
  parseRange,
  parseRegexp,
  parseTerm,
  parseTerms,
  parseType,
  parseWildcard,
} from './term-level.js';

const PARSERS = {
  match_all: parseMatchAll,
  match_none: parseMatchNone,
  term: parseTerm,
  terms: parseTerms,
  range: parseRange,
  exists: parseExists,
  geo_distance: parseGeoDistance,
  prefix: parsePrefix,
  wildcard: parseWildcard,
  regexp: parseRegexp,
  fuzzy: parseFuzzy,
  ids: parseIds,
  type: parseType,
  match: parseMatch,
  match_phrase: parseMatchPhrase,
  match_phrase_prefix: parseMatchPhrasePrefix,
  multi_match: parseMultiMatch,
  common: parseCommon,
  query_string: parseQueryString,
  simple_query_string: parseSimpleQueryString,
  bool: parseBool,
  constant_score: parseConstantScore,
  dis_max: parseDisMax,
  boosting: parseBoosting,
  function_score: parseFunctionScore,
  nested: parseNested,
  has_child: parseHasChild,
  has_parent: parseHasParent,
  parent_id: parseParentId,
  percolate: parsePercolate,
  script: parseScriptQuery,
  wrapper: parseWrapper,
  more_like_this: parseMoreLikeThis,
  span_term: parseSpanTerm,
  span_multi: parseSpanMulti,
  span_near: parseSpanNear,
  span_gap: parseSpanGap,
  span_or: parseSpanOr,
  span_not: parseSpanNot,
  span_first: parseSpanFirst,
  span_containing: parseSpanContaining,
  span_within: parseSpanWithin,
  field_masking_span: parseFieldMaskingSpan,
};

for (const [name, parser] of Object.entries(PARSERS)) registerQueryParser(name, parser);

/**
 * Parses a query object (`{"match": {...}}`). `path` is where the object sits in the request
 * (e.g. `["query"]`), used for the JSON locations errors carry.
 */
export function parseQueryJson(
  json: unknown,
  path: JsonPath = [],
  maxDepth = nodeMaxNestedQueryDepth(),
): QueryNode {
  return parseQueryTree(new XParser(json, path, maxDepth));
}
