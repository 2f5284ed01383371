/**
 * The `percolator` field of module percolator (ES 6.8 PercolatorFieldMapper): a document's query,
 * kept whole as JSON in the doc values of `<field>.query_builder_field` (ES stores the query
 * builder there too), for the `percolate` query to run against the documents it is given.
 */
import type { FieldNode } from './build.js';
import { chain } from './errors.js';
import type { ValueSink } from './value-sink.js';

export const percolatorQueryField = (path: string): string => `${path}.query_builder_field`;

export function parsePercolatorValue(f: FieldNode, v: unknown, sink: ValueSink): void {
  if (v === null) return;
  if (typeof v !== 'object' || Array.isArray(v))
    throw chain('parsing_exception', 'query malformed, must start with start_object');
  sink.add(f.hiddenFields!.get(percolatorQueryField(f.path))!, JSON.stringify(v));
}
