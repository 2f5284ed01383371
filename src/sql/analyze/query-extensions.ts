/**
 * Analysis of Quarry's query clauses beyond Elasticsearch SQL (issue 16): OFFSET becomes an
 * `Offset` plan under the LIMIT (SQL skips rows first, then counts).
 */
import type * as A from '../ast/nodes.js';
import type { LogicalPlan } from '../plan/logical.js';
import { isUnary } from '../plan/logical.js';
import { locSrc } from './analyzer.js';

/** The smallest LIMIT below `p` (any LIMIT bounds the rows above it), or null. */
function innerLimit(p: LogicalPlan): number | null {
  let min: number | null = null;
  for (let n: LogicalPlan = p; isUnary(n); n = n.child) {
    if (n.kind === 'Limit') min = min === null ? n.limit : Math.min(min, n.limit);
  }
  return min;
}

export function offsetPlan(child: LogicalPlan, offset: A.Offset): LogicalPlan {
  if (offset.count === 0) return child;
  const src = locSrc(offset.loc, 'OFFSET');
  // skipping every row an inner LIMIT lets through: nothing is left (the optimizer's LIMIT 0)
  const inner = innerLimit(child);
  if (inner !== null && inner <= offset.count) return { kind: 'Limit', child, limit: 0, src };
  return { kind: 'Offset', child, offset: offset.count, src };
}
