/**
 * Nested blocks of a nested path below a segment, however deep: each nested level is stored in
 * its parent level's block, so a path two levels down (`comments.votes` from the root) is found
 * through the blocks between, with each doc's ancestor at this segment as its parent (Lucene's
 * block join maps a deep child straight to its root doc in the same way).
 */
import type { NestedBlock, Segment } from './segment.js';

const composed = new WeakMap<Segment, Map<string, NestedBlock | null>>();

/** The block of `path` as seen from `seg` (parents are docs of `seg`), null when it has none. */
export function nestedBlockAt(seg: Segment, path: string): NestedBlock | null {
  const direct = seg.nested.get(path);
  if (direct) return direct;
  let cache = composed.get(seg);
  if (!cache) composed.set(seg, (cache = new Map()));
  const hit = cache.get(path);
  if (hit !== undefined) return hit;
  let found: NestedBlock | null = null;
  for (const [p, outer] of seg.nested) {
    if (!path.startsWith(`${p}.`)) continue;
    const inner = nestedBlockAt(outer.segment, path);
    if (!inner) continue;
    const parentOf = new Int32Array(inner.parentOf.length);
    for (let i = 0; i < parentOf.length; i++) parentOf[i] = outer.parentOf[inner.parentOf[i]!]!;
    found = { segment: inner.segment, parentOf };
    break;
  }
  cache.set(path, found);
  return found;
}
