/**
 * The striped ordinal kernel's spec (search/parallel/agg-kernels.ts) for one segment of a keyword
 * values source, shared by the aggregations that bucket by it (top-level terms, one-source
 * composite); each caller has checked the rest of its own shape first.
 */
import type { KernelSpec } from '../../../search/parallel/agg-kernels.js';
import type { LiveSegment } from '../../../search/index/live-segment.js';
import type { Aggregator } from '../collect/aggregator.js';
import type { FieldMapping } from '../../../mapping/types.js';
import { hasMissing } from './column-stats.js';
import { BytesReader, columnOf, type ResolvedValues } from './values-source.js';

/**
 * Single-valued ordinals with no sub-aggregation or one exact-summable avg/sum: the kernel's
 * spec; `noColumn` when the segment has no column for the field; null when the kernel does not
 * apply (the caller collects per document).
 */
export function ordinalKernelSpec(
  ls: LiveSegment,
  rv: ResolvedValues,
  field: FieldMapping,
  subs: readonly Aggregator[],
  noColumn: KernelSpec | null,
): KernelSpec | null {
  if (subs.length > 1 || (subs.length === 1 && !subs[0]!.sumColumn)) return null;
  const col = columnOf(ls, field);
  if (!col) return noColumn;
  const single = new BytesReader(rv, ls).single;
  if (!single || col.kind !== 'ordinal') return null;
  const size = col.dict.length + 1;
  if (subs.length === 0) return { kind: 'terms', ords: single, size, values: null, dense: false };
  const sum = subs[0]!.sumColumn!(ls);
  if (!sum) return null;
  const values = sum.values;
  return { kind: 'terms', ords: single, size, values, dense: values !== null && !hasMissing(values) }; // prettier-ignore
}
