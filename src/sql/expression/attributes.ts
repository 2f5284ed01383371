/**
 * Attribute-list helpers shared by analysis and plans: ES
 * Expressions.onlyPrimitiveFieldAttributes, which decides what `*` and PIVOT's grouping see.
 */
import type { Attribute } from './nodes.js';

/** ES Expressions.onlyPrimitiveFieldAttributes: what `*` expands to. */
export function primitiveAttributes(output: readonly Attribute[]): Attribute[] {
  const out: Attribute[] = [];
  const seen = new Set<string>();
  for (const a of output) {
    if (a.dataType === 'UNSUPPORTED' || a.dataType === 'OBJECT' || a.dataType === 'NESTED')
      continue;
    if (a.kind === 'Field') {
      if (a.nestedParent !== null) continue;
      if (a.parentName !== null && seen.has(a.parentName)) continue;
      seen.add(a.name);
    }
    out.push(a);
  }
  return out;
}
