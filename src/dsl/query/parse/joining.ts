/**
 * Module parent-join query parsers, ports of ES 6.8 `fromXContent`: has_child, has_parent and
 * parent_id.
 */
import { illegalArgument, parsingError } from '../errors.js';
import type { HasChildNode, HasParentNode, ParentIdNode, QueryNode } from '../nodes.js';
import { is, isValueToken, type XParser } from '../xcontent.js';
import { nestedScoreMode } from './compound.js';
import { parseInnerQuery } from './inner.js';

const INT_MAX = 2147483647;

export function parseHasChild(p: XParser): HasChildNode {
  let boost = 1;
  let childType: string | null = null;
  let scoreMode: HasChildNode['scoreMode'] = 'none';
  let minChildren = 0;
  let maxChildren = INT_MAX;
  let ignoreUnmapped = false;
  let queryName: string | null = null;
  let innerHits: Record<string, unknown> | null = null;
  let query: QueryNode | null = null;
  let current: string | null = null;
  let token;
  const unsupported = () =>
    parsingError(`[has_child] query does not support [${current}]`, p.location());
  while ((token = p.nextToken()) !== 'END_OBJECT') {
    if (token === 'FIELD_NAME') current = p.currentName();
    else if (token === 'START_OBJECT') {
      if (is(current, 'query')) query = parseInnerQuery(p);
      else if (is(current, 'inner_hits')) innerHits = p.map();
      else throw unsupported();
    } else if (isValueToken(token)) {
      if (is(current, 'type')) childType = p.text();
      else if (is(current, 'score_mode')) scoreMode = nestedScoreMode(p.text());
      else if (is(current, 'boost')) boost = p.floatValue();
      else if (is(current, 'min_children')) minChildren = p.intValue();
      else if (is(current, 'max_children')) maxChildren = p.intValue();
      else if (is(current, 'ignore_unmapped')) ignoreUnmapped = p.booleanValue();
      else if (is(current, '_name')) queryName = p.text();
      else throw unsupported();
    }
  }
  if (childType === null) throw illegalArgument("[has_child] requires 'type' field");
  if (query === null) throw illegalArgument("[has_child] requires 'query' field");
  if (minChildren < 0) throw illegalArgument("[has_child] requires non-negative 'min_children' field"); // prettier-ignore
  if (maxChildren < 0) throw illegalArgument("[has_child] requires non-negative 'max_children' field"); // prettier-ignore
  if (maxChildren < minChildren)
    throw illegalArgument("[has_child] 'max_children' is less than 'min_children'");
  return {
    type: 'has_child',
    childType,
    query,
    scoreMode,
    minChildren,
    maxChildren,
    ignoreUnmapped,
    innerHits,
    boost,
    queryName,
  };
}

export function parseHasParent(p: XParser): HasParentNode {
  let boost = 1;
  let parentType: string | null = null;
  let score = false;
  let ignoreUnmapped = false;
  let queryName: string | null = null;
  let innerHits: Record<string, unknown> | null = null;
  let query: QueryNode | null = null;
  let current: string | null = null;
  let token;
  const unsupported = () =>
    parsingError(`[has_parent] query does not support [${current}]`, p.location());
  while ((token = p.nextToken()) !== 'END_OBJECT') {
    if (token === 'FIELD_NAME') current = p.currentName();
    else if (token === 'START_OBJECT') {
      if (is(current, 'query')) query = parseInnerQuery(p);
      else if (is(current, 'inner_hits')) innerHits = p.map();
      else throw unsupported();
    } else if (isValueToken(token)) {
      if (is(current, 'parent_type') || is(current, 'type')) parentType = p.text();
      else if (is(current, 'score')) score = p.booleanValue();
      else if (is(current, 'ignore_unmapped')) ignoreUnmapped = p.booleanValue();
      else if (is(current, 'boost')) boost = p.floatValue();
      else if (is(current, '_name')) queryName = p.text();
      else throw unsupported();
    }
  }
  if (parentType === null) throw illegalArgument("[has_parent] requires 'parent_type' field");
  if (query === null) throw illegalArgument("[has_parent] requires 'query' field");
  return {
    type: 'has_parent',
    parentType,
    query,
    score,
    ignoreUnmapped,
    innerHits,
    boost,
    queryName,
  };
}

export function parseParentId(p: XParser): ParentIdNode {
  let boost = 1;
  let childType: string | null = null;
  let id: string | null = null;
  let ignoreUnmapped = false;
  let queryName: string | null = null;
  let current: string | null = null;
  let token;
  while ((token = p.nextToken()) !== 'END_OBJECT') {
    if (token === 'FIELD_NAME') current = p.currentName();
    else if (isValueToken(token)) {
      if (is(current, 'type')) childType = p.text();
      else if (is(current, 'id')) id = p.text();
      else if (is(current, 'ignore_unmapped')) ignoreUnmapped = p.booleanValue();
      else if (is(current, 'boost')) boost = p.floatValue();
      else if (is(current, '_name')) queryName = p.text();
      else throw parsingError(`[parent_id] query does not support [${current}]`, p.location());
    } else {
      throw parsingError(`[parent_id] query does not support [${current}]`, p.location());
    }
  }
  if (childType === null) throw illegalArgument("[parent_id] requires 'type' field");
  if (id === null) throw illegalArgument("[parent_id] requires 'id' field");
  return { type: 'parent_id', childType, id, ignoreUnmapped, boost, queryName };
}
