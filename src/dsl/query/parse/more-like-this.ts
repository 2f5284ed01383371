/**
 * `more_like_this` (ES 6.8 MoreLikeThisQueryBuilder.fromXContent): like/unlike texts and items
 * (`_index`, `_type`, `_id` or an artificial `doc`, `fields`, `routing`), the term selection
 * parameters and the query formation ones, with ES's defaults and errors.
 */
import { EsError } from '../../../common/errors.js';
import { illegalArgument, parsingError } from '../errors.js';
import type { MltItem, MoreLikeThisNode } from '../nodes.js';
import { is, isValueToken, type XParser } from '../xcontent.js';

const itemError = (reason: string) => new EsError('parse_exception', reason, 400);

/** MoreLikeThisQueryBuilder.Item.parse. */
function parseItem(p: XParser): MltItem {
  let index: string | null = null;
  let type: string | null = null;
  let id: string | null = null;
  let doc: Record<string, unknown> | null = null;
  let fields: string[] | null = null;
  let routing: string | null = null;
  let current: string | null = null;
  let token;
  while ((token = p.nextToken()) !== 'END_OBJECT') {
    if (token === 'FIELD_NAME') {
      current = p.currentName();
      continue;
    }
    switch (current) {
      case '_index':
        index = p.text();
        break;
      case '_type':
        type = p.text();
        break;
      case '_id':
        id = p.text();
        break;
      case 'doc':
        if (token !== 'START_OBJECT') throw itemError('failed to parse More Like This item. doc must be an object'); // prettier-ignore
        doc = p.map();
        break;
      case 'fields':
        if (token !== 'START_ARRAY') throw illegalArgument('Failed to parse More Like This item. field [fields] must be an array'); // prettier-ignore
        fields = [];
        while (p.nextToken() !== 'END_ARRAY') fields.push(p.text());
        break;
      case 'routing':
      case '_routing':
        routing = p.text();
        break;
      case 'per_field_analyzer':
      case 'version':
      case 'version_type':
      case '_version':
      case '_version_type':
        p.skipChildren();
        break;
      default:
        throw itemError(`failed to parse More Like This item. unknown field [${current}]`);
    }
  }
  if (id !== null && doc !== null) {
    throw itemError('failed to parse More Like This item. either [_id] or [doc] can be specified, but not both!'); // prettier-ignore
  }
  if (id === null && doc === null) {
    throw itemError('failed to parse More Like This item. neither [_id] nor [doc] is specified!');
  }
  return { index, type, id, doc, fields, routing };
}

/** parseLikeField: a text or an item. */
function parseLike(p: XParser, texts: string[], items: MltItem[]): void {
  const t = p.currentToken();
  if (t === 'VALUE_STRING') texts.push(p.text());
  else if (t === 'START_OBJECT') items.push(parseItem(p));
  else throw illegalArgument("Content of 'like' parameter should either be a string or an object");
}

export function parseMoreLikeThis(p: XParser): MoreLikeThisNode {
  let fields: string[] | null = null;
  const likeTexts: string[] = [];
  const likeItems: MltItem[] = [];
  const unlikeTexts: string[] = [];
  const unlikeItems: MltItem[] = [];
  let maxQueryTerms = 25;
  let minTermFreq = 2;
  let minDocFreq = 5;
  let maxDocFreq = 2147483647;
  let minWordLength = 0;
  let maxWordLength = 0;
  let stopWords: string[] | null = null;
  let analyzer: string | null = null;
  let minimumShouldMatch = '30%';
  let boostTerms = 0;
  let include = false;
  let failOnUnsupportedField = true;
  let boost = 1;
  let queryName: string | null = null;
  let current: string | null = null;
  let token;
  const unsupported = () => parsingError(`[mlt] query does not support [${current}]`, p.location());
  while ((token = p.nextToken()) !== 'END_OBJECT') {
    if (token === 'FIELD_NAME') {
      current = p.currentName();
    } else if (token !== null && isValueToken(token)) {
      if (is(current, 'like')) parseLike(p, likeTexts, likeItems);
      else if (is(current, 'unlike')) parseLike(p, unlikeTexts, unlikeItems);
      else if (is(current, 'max_query_terms')) maxQueryTerms = p.intValue();
      else if (is(current, 'min_term_freq')) minTermFreq = p.intValue();
      else if (is(current, 'min_doc_freq')) minDocFreq = p.intValue();
      else if (is(current, 'max_doc_freq')) maxDocFreq = p.intValue();
      else if (is(current, 'min_word_length')) minWordLength = p.intValue();
      else if (is(current, 'max_word_length')) maxWordLength = p.intValue();
      else if (is(current, 'analyzer')) analyzer = p.text();
      else if (is(current, 'minimum_should_match')) minimumShouldMatch = p.text();
      else if (is(current, 'boost_terms')) boostTerms = p.floatValue();
      else if (is(current, 'include')) include = p.booleanValue();
      else if (is(current, 'fail_on_unsupported_field')) failOnUnsupportedField = p.booleanValue();
      else if (current === 'boost') boost = p.floatValue();
      else if (current === '_name') queryName = p.text();
      else throw unsupported();
    } else if (token === 'START_ARRAY') {
      if (is(current, 'fields')) {
        fields = [];
        while (p.nextToken() !== 'END_ARRAY') fields.push(p.text());
      } else if (is(current, 'like')) {
        while (p.nextToken() !== 'END_ARRAY') parseLike(p, likeTexts, likeItems);
      } else if (is(current, 'unlike')) {
        while (p.nextToken() !== 'END_ARRAY') parseLike(p, unlikeTexts, unlikeItems);
      } else if (is(current, 'stop_words')) {
        stopWords = [];
        while (p.nextToken() !== 'END_ARRAY') stopWords.push(p.text());
      } else throw unsupported();
    } else if (token === 'START_OBJECT') {
      if (is(current, 'like')) parseLike(p, likeTexts, likeItems);
      else if (is(current, 'unlike')) parseLike(p, unlikeTexts, unlikeItems);
      else throw unsupported();
    }
  }
  if (likeTexts.length === 0 && likeItems.length === 0) {
    throw parsingError("more_like_this requires 'like' to be specified", p.location());
  }
  if (fields !== null && fields.length === 0) {
    throw parsingError("more_like_this requires 'fields' to be non-empty", p.location());
  }
  return {
    type: 'more_like_this',
    fields,
    likeTexts,
    likeItems,
    unlikeTexts,
    unlikeItems,
    maxQueryTerms,
    minTermFreq,
    minDocFreq,
    maxDocFreq,
    minWordLength,
    maxWordLength,
    stopWords,
    analyzer,
    minimumShouldMatch,
    boostTerms,
    include,
    failOnUnsupportedField,
    boost,
    queryName,
  };
}
