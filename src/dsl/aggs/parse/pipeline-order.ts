/**
 * Orders the pipeline aggregations of one level so that each runs after the pipelines its
 * buckets_path reads (ES AggregatorFactories.Builder.resolvePipelineAggregatorOrder), and checks
 * that every path starts at an existing aggregation.
 */
import { EsError, illegalArgument } from '../../../common/errors.js';
import { PIPELINES } from '../registry.js';
import { parseAggPath } from '../support/agg-path.js';
import type { AggNode } from '../types.js';

export function resolvePipelineOrder(
  pipelines: readonly AggNode[],
  aggs: readonly AggNode[],
): AggNode[] {
  const byName = new Map(pipelines.map((p) => [p.name, p]));
  const aggByName = new Map(aggs.map((a) => [a.name, a]));
  const ordered: AggNode[] = [];
  const unmarked = [...pipelines];
  const temp = new Set<AggNode>();
  const visit = (p: AggNode): void => {
    if (temp.has(p))
      throw illegalArgument(`Cyclical dependency found with pipeline aggregator [${p.name}]`);
    if (!unmarked.includes(p)) return;
    temp.add(p);
    for (const path of PIPELINES.get(p.type)!.bucketsPaths(p.params)) {
      if (path === '_count' || path === '_key') continue;
      const elements = parseAggPath(path);
      // an empty path: ES takes the first element of an empty list
      if (elements.length === 0)
        throw new EsError(
          'index_out_of_bounds_exception',
          'Index 0 out of bounds for length 0',
          500,
        );
      const first = elements[0]!.name;
      let agg = aggByName.get(first);
      if (agg) {
        for (let i = 1; i < elements.length; i++) {
          const name = elements[i]!.name;
          if (i === elements.length - 1 && (name.toLowerCase() === '_key' || name === '_count'))
            break;
          const sub: AggNode | undefined = agg.subAggs.find((s) => s.name === name);
          if (sub) {
            agg = sub;
            continue;
          }
          if (i === elements.length - 1 && agg.pipelines.some((s) => s.name === name)) continue;
          throw illegalArgument(`No aggregation [${name}] found for path [${path}]`);
        }
        continue;
      }
      const dep = byName.get(first);
      if (!dep) throw illegalArgument(`No aggregation found for path [${path}]`);
      visit(dep);
    }
    unmarked.splice(unmarked.indexOf(p), 1);
    temp.delete(p);
    ordered.push(p);
  };
  while (unmarked.length > 0) visit(unmarked[0]!);
  return ordered;
}
