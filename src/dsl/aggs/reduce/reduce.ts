/**
 * The reduce phase (ES InternalAggregations.reduce + InternalAggregation.reduce): shard results
 * of the same aggregation are merged by their result type, then the pipeline aggregations
 * declared inside it run on the merged result (parent pipelines rewrite its buckets, sibling
 * pipelines add a result to each bucket). Top-level sibling pipelines run last
 * (SearchPhaseController.reduceAggs). Rendering turns results into ES 6.8's JSON.
 */
import { EsError } from '../../../common/errors.js';
import { PIPELINES, resultSpec } from '../registry.js';
import { jnum, typedName } from '../support/json.js';
import type { AggNode, InternalAgg, ReduceContext } from '../types.js';
import { isMultiBucket, isSingleBucket } from './property.js';

/** Merges the i-th aggregations of several shards' lists (aligned by name). */
export function reduceAggList(lists: InternalAgg[][], rc: ReduceContext): InternalAgg[] {
  if (lists.length === 0) return [];
  const first = lists[0]!;
  return first.map((agg, i) => {
    const parts = lists.map((l) =>
      l[i]?.name === agg.name ? l[i]! : l.find((x) => x.name === agg.name)!,
    );
    return reduceAgg(parts, rc);
  });
}

export function reduceAgg(parts: InternalAgg[], rc: ReduceContext): InternalAgg {
  let agg = resultSpec(parts[0]!).reduce(parts, rc);
  for (const p of agg.node.pipelines) agg = applyAttachedPipeline(p, agg, rc);
  return agg;
}

/** A pipeline declared among `agg`'s sub-aggregations, applied to the reduced `agg`. */
export function applyAttachedPipeline(
  p: AggNode,
  agg: InternalAgg,
  rc: ReduceContext,
): InternalAgg {
  const spec = PIPELINES.get(p.type)!;
  if (spec.kind === 'parent') return spec.applyToParent!(p, agg, rc);
  if (isMultiBucket(agg)) {
    for (const b of agg.buckets) b.aggs = [...b.aggs, spec.computeSibling!(p, b.aggs, rc)];
  } else if (isSingleBucket(agg)) {
    agg.aggs = [...agg.aggs, spec.computeSibling!(p, agg.aggs, rc)];
  } else {
    throw new EsError(
      'illegal_argument_exception',
      `Aggregation [${agg.name}] must be a bucket aggregation but was [${agg.node.type}]`,
      400,
    );
  }
  return agg;
}

/** Renders one aggregation as `{name: body}` content (ES InternalAggregation.toXContent). */
export function renderAgg(agg: InternalAgg, rc: ReduceContext): [string, Record<string, unknown>] {
  const spec = resultSpec(agg);
  const body: Record<string, unknown> = {};
  if (agg.meta) body.meta = agg.meta;
  Object.assign(body, spec.render(agg, rc));
  return [typedName(rc.typedKeys, spec.typedType(agg), agg.name), body];
}

/** Renders a list of aggregations into an object (ES Aggregations / bucket sub-aggregations). */
export function renderAggs(
  aggs: readonly InternalAgg[],
  rc: ReduceContext,
  into: Record<string, unknown> = {},
): Record<string, unknown> {
  for (const a of aggs) {
    const [k, v] = renderAgg(a, rc);
    into[k] = v;
  }
  return into;
}

/** Sums of doubles as ES reduces them (Kahan summation; infinities and NaN propagate). */
export class KahanSum {
  sum = 0;
  private c = 0;
  add(v: number): void {
    if (!Number.isFinite(v)) {
      this.sum += v;
    } else if (Number.isFinite(this.sum)) {
      const corrected = v - this.c;
      const next = this.sum + corrected;
      this.c = next - this.sum - corrected;
      this.sum = next;
    }
  }
}

export { jnum };
