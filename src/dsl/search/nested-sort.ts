/**
 * Field sorts on fields inside `nested` objects (ES FieldSortBuilder `nested: {path, filter}`): a
 * top-level document sorts on the values of its nested documents of that path that match the
 * filter (all of them without one), the smallest for an ascending sort and the largest for a
 * descending one; a document with none counts as missing.
 */
import { nestedBlockAt } from '../../search/index/nested-path.js';
import type { LiveSegment } from '../../search/index/live-segment.js';
import { nestedChildren } from '../../search/index/segment.js';
import {
  compileSort,
  missingNumber,
  type SortKey,
  type SortValue,
} from '../../search/collect/sort.js';
import { NO_MORE_DOCS } from '../../search/query/scorer.js';
import { createWeight, type WeightContext } from '../../search/query/weights.js';
import type { Query } from '../../search/query/query.js';

const missingOf = (k: SortKey): SortValue =>
  k.valueType === 'string'
    ? typeof k.missing === 'string' && k.missing !== '_last' && k.missing !== '_first'
      ? k.missing
      : null
    : missingNumber(k);

/** `key` read through the nested documents of `path` that match `filter`. */
export function nestedSortKey(
  key: SortKey,
  path: string,
  filter: Query | null,
  ctx: WeightContext,
): SortKey {
  const asc = key.order === 'asc';
  // the children's own values, a missing one shown as the sentinel of `_last`
  const inner: SortKey = { ...key, missing: '_last' };
  const innerMissing = missingOf(inner);
  const weight = filter ? createWeight(filter, { ...ctx, needsScores: false }) : null;
  return {
    ...key,
    forSegment: (ls: LiveSegment) => {
      const miss = missingOf(key);
      const block = nestedBlockAt(ls.segment, path);
      if (!block) return () => miss;
      const child: LiveSegment = { segment: block.segment, live: null, deleted: 0, docBase: 0 };
      const read = compileSort([inner], child)[0]!;
      let matching: Uint8Array | null = null;
      if (weight) {
        matching = new Uint8Array(block.segment.maxDoc);
        const s = weight.scorer(child);
        if (s) for (let d = s.next(); d !== NO_MORE_DOCS; d = s.next()) matching[d] = 1;
      }
      return (doc: number) => {
        const [first, end] = nestedChildren(block, doc);
        let best: SortValue = null;
        for (let c = first; c < end; c++) {
          if (matching && matching[c] === 0) continue;
          const v = read.value(c, 0);
          if (v === null || v === innerMissing) continue;
          if (best === null || (asc ? v < best : v > best)) best = v;
        }
        return best ?? miss;
      };
    },
  };
}
