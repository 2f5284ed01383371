/**
 * The shard index's buffer of new ids: documents added as new (`mayExist` false, auto-generated
 * ids) are found by a later update or delete of the same id before the refresh.
 */
import { describe, expect, it } from 'vitest';
import { isLive } from '../../../../src/search/index/live-segment.js';
import { lookupId } from '../../../../src/search/index/segment.js';
import { ShardIndex } from '../../../../src/search/index/shard-index.js';
import { doc, field, standardResolver } from '../../../helpers/fields.js';

const tag = field('tag', 'keyword');

function shown(ix: ShardIndex, id: string): number {
  for (const ls of ix.searcher().segments) {
    const d = lookupId(ls.segment, id);
    if (d >= 0 && isLive(ls, d)) return ls.segment.seqNos[d]!;
  }
  return -1;
}

describe('shard index buffer of new ids', () => {
  it('an update or delete of a new id in the same buffer replaces it', () => {
    const ix = new ShardIndex(standardResolver);
    let seq = 0;
    for (let i = 0; i < 100; i++) ix.add(`auto${i}`, doc([[tag, 'a']]), seq++, 1, null, false);
    ix.add('auto5', doc([[tag, 'b']]), seq++, 2, null, true); // update
    ix.delete('auto7');
    ix.add('auto200', doc([[tag, 'c']]), seq++, 1, null, false); // new after the lookups
    ix.delete('auto200');
    ix.refresh();
    const s = ix.searcher();
    expect(s.numDocs).toBe(99);
    expect(shown(ix, 'auto5')).toBe(100);
    expect(shown(ix, 'auto7')).toBe(-1);
    expect(shown(ix, 'auto200')).toBe(-1);
    expect(shown(ix, 'auto99')).toBe(99);
    // after the refresh, a delete of a refreshed new id goes to its segment
    ix.delete('auto99');
    ix.refresh();
    expect(shown(ix, 'auto99')).toBe(-1);
    expect(ix.searcher().numDocs).toBe(98);
  });
});
