/**
 * The `percolator` field of module percolator (ES 6.8 PercolatorFieldMapper): a document's query,
 * kept whole as JSON in the doc values of `<field>.query_builder_field` (ES stores the query
 * builder there too), for the `percolate` query to run against the documents it is given.
 */
import type { FieldNode } from './build.js';
import { chain } from './errors.js';
import type { ValueSink } from './value-sink.js';

/**
 * Checks a stored query when its document is indexed (ES parses and verifies it then). The query
 * DSL sits above this module, so the node installs the check; without one any object is kept.
 */
type QueryCheck = (query: unknown, isMapped: ((field: string) => boolean) | null) => void;
let queryCheck: QueryCheck | null = null;

export function setPercolatorQueryCheck(check: QueryCheck): void {
  queryCheck = check;
}

export const percolatorQueryField = (path: string): string => `${path}.query_builder_field`;

export function parsePercolatorValue(f: FieldNode, v: unknown, sink: ValueSink): void {
  if (v === null) return;
  if (typeof v !== 'object' || Array.isArray(v))
    throw chain('parsing_exception', 'query malformed, must start with start_object');
  const root = sink.root;
  queryCheck?.(v, root ? (field) => root.fieldsByPath.has(field) || field.startsWith('_') : null);
  sink.add(f.hiddenFields!.get(percolatorQueryField(f.path))!, JSON.stringify(v));
}
