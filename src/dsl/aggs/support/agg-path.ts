/**
 * ES AggregationPath: `agg1>agg2>metric.value`, `agg[bucket_key]`, `_count`, `_key`. The last
 * element splits at its last '.' into name and key; any element may use `name[key]`.
 */
import { EsError } from '../../../common/errors.js';

export interface PathElement {
  readonly full: string;
  readonly name: string;
  readonly key: string | null;
}

function invalid(element: string, path: string): EsError {
  return new EsError(
    'aggregation_execution_exception',
    `Invalid path element [${element}] in path [${path}]`,
    500,
  );
}

export function parseAggPath(path: string): PathElement[] {
  const elements = path
    .split('>')
    .map((e) => e.trim())
    .filter((e) => e.length > 0);
  return elements.map((element, i) => {
    const bracket = element.lastIndexOf('[');
    if (bracket >= 0) {
      if (bracket === 0 || bracket > element.length - 3 || !element.endsWith(']')) {
        throw invalid(element, path);
      }
      return {
        full: element,
        name: element.slice(0, bracket),
        key: element.slice(bracket + 1, -1),
      };
    }
    if (i < elements.length - 1) return { full: element, name: element, key: null };
    const dot = element.lastIndexOf('.');
    if (dot < 0) return { full: element, name: element, key: null };
    if (dot === 0 || dot > element.length - 2) throw invalid(element, path);
    return { full: element, name: element.slice(0, dot), key: element.slice(dot + 1) };
  });
}
