/**
 * The Elasticsearch 6.8 Query DSL: `parseQuery` (syntax, index-independent, ES's parse errors with
 * JSON locations), `toSearchQuery` (per-index lowering to engine queries: analysis, field
 * resolution, value conversion) and `describeQuery` (Lucene-style toString).
 */
import { parseQueryJson } from './parse/index.js';
import type { JsonPath } from './errors.js';
import type { QueryNode } from './nodes.js';

export type * from './nodes.js';
export type { JsonLocation, JsonPath, SourcePosition } from './errors.js';
export { errorLocation, resolveErrorLocations } from './errors.js';
export { locateInJson } from './json-location.js';

/**
 * ES 6.8 QueryBuilder parsing. `json` is a query object (`{"match": {...}}`); `path` is where it
 * sits in the request body, so error locations can be resolved against the request text.
 */
export function parseQuery(json: unknown, path: JsonPath = []): QueryNode {
  return parseQueryJson(json, path);
}
