import { afterAll, describe, expect, it } from 'vitest';
import { configureBuildWorkers } from '../../../../src/search/index/build-pool.js';
import { ShardIndex } from '../../../../src/search/index/shard-index.js';
import { encodeSegment } from '../../../../src/search/index/segment-codec.js';
import { doc, field, standardResolver } from '../../../helpers/fields.js';

const title = field('title', 'text');
const tag = field('tag', 'keyword');
const n = field('n', 'long');
const ANALYSIS = JSON.stringify({ settings: {}, index: { maxNgramDiff: 1 } });

/** Index the same writes with and without a build worker; the refreshed segments must be equal. */
function load(ix: ShardIndex, from: number, to: number) {
  for (let i = from; i < to; i++) {
    const id = `d${i % 150}`; // ids repeat: later writes supersede buffered ones
    ix.add(
      id,
      doc([
        [title, `the quick brown fox ${i} jumps`],
        [tag, `t${i % 7}`],
        [n, i],
      ]),
      i,
      1,
    );
    if (i % 40 === 0) ix.delete(`d${(i + 3) % 150}`);
  }
}

const waitReady = () => new Promise((r) => setTimeout(r, 3000));

describe('build worker pool', () => {
  afterAll(() => configureBuildWorkers(0));

  it('builds the same segments as the main thread, across refreshes', async () => {
    configureBuildWorkers(1);
    const remote = new ShardIndex(standardResolver, null, ANALYSIS);
    const local = new ShardIndex(standardResolver, null, null);
    load(remote, 0, 10);
    load(local, 0, 10);
    remote.refresh(); // the worker may still be starting: this buffer is built here
    local.refresh();
    await waitReady();
    for (const [a, b] of [
      [10, 400],
      [400, 1000],
    ] as const) {
      load(remote, a, b);
      load(local, a, b);
      await new Promise((r) => setTimeout(r, 10));
      remote.refresh();
      local.refresh();
    }
    const rs = remote.searcher();
    // segments decoded from a worker's bytes are numbered as loaded ones (segment-codec.ts)
    expect(rs.segments.filter((s) => s.segment.id >= 2_000_000).length).toBeGreaterThan(0);
    const ls = local.searcher();
    expect(rs.numDocs).toBe(ls.numDocs);
    expect(rs.segments.length).toBe(ls.segments.length);
    rs.segments.forEach((s, i) => {
      expect(encodeSegment(s.segment).equals(encodeSegment(ls.segments[i]!.segment))).toBe(true);
      expect(s.deleted).toBe(ls.segments[i]!.deleted);
    });
  }, 60_000);

  it('turns a buffer local when a document cannot travel, keeping what was sent', async () => {
    configureBuildWorkers(1);
    await waitReady();
    const ix = new ShardIndex(standardResolver, null, ANALYSIS);
    load(ix, 0, 50);
    await new Promise((r) => setTimeout(r, 10));
    const loc = field('loc', 'geo_point');
    ix.add('geo', doc([[loc, { lat: 1, lon: 2 } as never]]), 50, 1);
    ix.refresh();
    expect(ix.searcher().numDocs).toBe(51);
  }, 60_000);
});
