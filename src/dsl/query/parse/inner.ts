/**
 * ES AbstractQueryBuilder.parseInnerQueryBuilder: `{ "<name>": { ... } }` with its exact
 * malformed-query errors, dispatching to the query parsers registered by name.
 */
import { MAX_NESTED_DEPTH, queryTooDeep } from '../../../common/errors.js';
import { INLINE_LOCATION, illegalArgumentAt, parsingError } from '../errors.js';
import type { QueryNode } from '../nodes.js';
import type { XParser } from '../xcontent.js';

export type QueryParser = (p: XParser) => QueryNode;

const registry = new Map<string, QueryParser>();

export function registerQueryParser(name: string, parser: QueryParser): void {
  registry.set(name, parser);
}

export function registeredQueryNames(): string[] {
  return [...registry.keys()];
}

/** How many parseInnerQuery calls are under way (parsing is synchronous). */
let depth = 0;

/** Parses one query object; the cursor may be before or on its START_OBJECT. */
export function parseInnerQuery(p: XParser): QueryNode {
  if (depth >= MAX_NESTED_DEPTH) throw queryTooDeep();
  depth++;
  try {
    return parseOne(p);
  } finally {
    depth--;
  }
}

function parseOne(p: XParser): QueryNode {
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
  const result = parser(p);
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
