/**
 * Shared pieces of numeric metric aggregations: parsing of the value-source parameters plus
 * extra fields, the per-segment numeric reader, and `value_as_string` rendering.
 */
import type { AggNode } from '../types.js';
import { parseObject, type FieldDecl } from '../parse/object-parser.js';
import {
  emptyValuesSource,
  valuesSourceDecls,
  type ValuesSourceParams,
} from '../parse/values-source-params.js';
import type { DocFormat } from '../support/doc-format.js';
import { formatToString, RAW } from '../support/doc-format.js';
import { jnum } from '../support/json.js';
import { NumericReader, resolveValues, type ResolvedValues } from '../support/values-source.js';
import type { AggregatorContext, AggSegment } from '../collect/aggregator.js';

export interface NumericMetricParams {
  source: ValuesSourceParams;
}

export function parseNumericMetric<P extends NumericMetricParams>(
  type: string,
  json: unknown,
  extra: (p: P) => FieldDecl[] = () => [],
  init: Omit<P, 'source'> = {} as Omit<P, 'source'>,
  target: 'numeric' | null = 'numeric',
): P {
  const p = { source: emptyValuesSource(), ...init } as P;
  parseObject(type, json, [...valuesSourceDecls(type, p.source, { target }), ...extra(p)]);
  return p;
}

/** Resolves the node's numeric source (null = unmapped without missing: collects nothing). */
export function numericSource(node: AggNode, ac: AggregatorContext): ResolvedValues | null {
  const p = node.params as NumericMetricParams;
  return resolveValues(p.source, ac.shard, 'numeric', node.name);
}

export function readerFor(rv: ResolvedValues | null, seg: AggSegment): NumericReader | null {
  return rv ? new NumericReader(rv, seg.ls) : null;
}

/** `value` and (for non-RAW formats) `value_as_string`, or null when there is no value. */
export function valueBody(value: number | null, format: DocFormat): Record<string, unknown> {
  if (value === null) return { value: null };
  const body: Record<string, unknown> = { value: jnum(value) };
  if (format !== RAW) body.value_as_string = formatToString(format, value);
  return body;
}

/** The values' format; unmapped fields without `missing` render RAW (they have no values). */
export function formatOf(rv: ResolvedValues | null): DocFormat {
  return rv ? rv.format : RAW;
}
