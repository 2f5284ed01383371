/**
 * ES AbstractQueryBuilder.parseInnerQueryBuilder: `{ "<name>": { ... } }` with its exact
 * malformed-query errors, dispatching to the query parsers registered by name.
 */
import { INLINE_LOCATION, illegalArgument, illegalArgumentAt, parsingError } from '../errors.js';
import type { QueryNode } from '../nodes.js';
import type { XParser } from '../xcontent.js';

export type QueryParser = (p: XParser) => QueryNode;

/**
 * `indices.query.bool.max_nested_depth`: how deeply query objects may nest. ES 6.8 has no limit
 * (a deep enough query overflows its stack); ES 7 added the setting (20, bool queries), ES 8
 * counts every query (30). Quarry counts every query like ES 8, with a default high enough for
 * the chains 6.8 applications build, and low enough that the node's stack never runs out.
 */
export const MAX_NESTED_QUERY_DEPTH_SETTING = 'indices.query.bool.max_nested_depth';
export const DEFAULT_MAX_NESTED_QUERY_DEPTH = 1000;
let maxNestedQueryDepth = DEFAULT_MAX_NESTED_QUERY_DEPTH;

/** The node's limit (a static node setting, as ES's AbstractQueryBuilder.setMaxNestedDepth). */
export function setMaxNestedQueryDepth(depth: number): void {
  maxNestedQueryDepth = depth;
}

export function nodeMaxNestedQueryDepth(): number {
  return maxNestedQueryDepth;
}

const registry = new Map<string, QueryParser>();

export function registerQueryParser(name: string, parser: QueryParser): void {
  registry.set(name, parser);
}

export function registeredQueryNames(): string[] {
  return [...registry.keys()];
}

/**
 * Whether a query of the tree being parsed is one a search looks for in its whole tree: a terms
 * lookup, a more_like_this or percolate query (documents read before the search), a nested or
 * join query (inner hits). Most trees have none, and `isPlainQuery` spares their walks.
 */
let sawWalked = false;
const plainTrees = new WeakSet<QueryNode>();

function walkedAtSearch(n: QueryNode): boolean {
  switch (n.type) {
    case 'terms':
      return n.lookup !== null;
    case 'more_like_this':
    case 'percolate':
    case 'nested':
    case 'has_child':
    case 'has_parent':
      return true;
    default:
      return false;
  }
}

/**
 * Parses a whole query tree (`parseQueryJson`), noting whether it is plain: one without terms
 * lookups, more_like_this, percolate, nested or join queries anywhere in it (a tree parsed within,
 * a wrapper query's, counts for the tree around it).
 */
export function parseQueryTree(p: XParser): QueryNode {
  const outer = sawWalked;
  sawWalked = false;
  try {
    const node = parseInnerQuery(p);
    if (!sawWalked) plainTrees.add(node);
    return node;
  } finally {
    sawWalked = outer || sawWalked;
  }
}

/**
 * A tree parsed with none of the queries a search walks its query for (terms lookups,
 * more_like_this and percolate documents, inner hits): those walks find nothing in it. False for
 * trees not parsed by `parseQueryTree` (they are walked).
 */
export function isPlainQuery(n: QueryNode): boolean {
  return plainTrees.has(n);
}

/** Parses one query object; the cursor may be before or on its START_OBJECT. */
export function parseInnerQuery(p: XParser): QueryNode {
  if (p.currentToken() !== 'START_OBJECT') {
    if (p.nextToken() !== 'START_OBJECT') {
      throw parsingError('[_na] query malformed, must start with start_object', p.location());
    }
  }
  if (p.nextToken() === 'END_OBJECT') {
    // '{}' as a query clause: deprecated in 5.0, removed in 6.0
    throw illegalArgumentAt(
      `query malformed, empty clause found at [${INLINE_LOCATION}]`,
      p.location(),
    );
  }
  if (p.currentToken() !== 'FIELD_NAME') {
    throw parsingError('[_na] query malformed, no field after start_object', p.location());
  }
  const queryName = p.currentName()!;
  if (p.nextToken() !== 'START_OBJECT') {
    throw parsingError(
      `[${queryName}] query malformed, no start_object after query name`,
      p.location(),
    );
  }
  const parser = registry.get(queryName);
  if (!parser) throw parsingError(`no [query] registered for [${queryName}]`, p.location());
  if (p.queryDepth >= p.maxQueryDepth) {
    throw illegalArgument(
      `The nested depth of the query exceeds the maximum nested depth for queries set in [${MAX_NESTED_QUERY_DEPTH_SETTING}]`,
    );
  }
  p.queryDepth++;
  let result: QueryNode;
  try {
    result = parser(p);
  } finally {
    p.queryDepth--;
  }
  if (!sawWalked && walkedAtSearch(result)) sawWalked = true;
  // end_object of the specific query (e.g. match, multi_match etc.) element
  if (p.currentToken() !== 'END_OBJECT') {
    throw parsingError(
      `[${queryName}] malformed query, expected [END_OBJECT] but found [${p.currentToken()}]`,
      p.location(),
    );
  }
  // end_object of the query object
  if (p.nextToken() !== 'END_OBJECT') {
    throw parsingError(
      `[${queryName}] malformed query, expected [END_OBJECT] but found [${p.currentToken()}]`,
      p.location(),
    );
  }
  return result;
}
