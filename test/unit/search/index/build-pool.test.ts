import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { configureBuildWorkers, mergeOnWorker } from '../../../../src/search/index/build-pool.js';
import { Bitset } from '../../../../src/search/index/bitset.js';
import { mergeSegments } from '../../../../src/search/index/merge.js';
import { SegmentBuilder } from '../../../../src/search/index/segment-builder.js';
import { ShardIndex } from '../../../../src/search/index/shard-index.js';
import { encodeSegment, knownEncoding } from '../../../../src/search/index/segment-codec.js';
import { isLive } from '../../../../src/search/index/live-segment.js';
import { lookupId } from '../../../../src/search/index/segment.js';
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

/** The seq_no of the live copy of `id` the view shows, or -1. */
function seqOf(ix: ShardIndex, id: string): number {
  for (const ls of ix.searcher().segments) {
    const d = lookupId(ls.segment, id);
    if (d >= 0 && isLive(ls, d)) return ls.segment.seqNos[d]!;
  }
  return -1;
}

/** Every id of `ids` the view shows, with the seq_no it shows. */
const view = (ix: ShardIndex, ids: string[]) => ids.map((id) => [id, seqOf(ix, id)]);

/** The nice value of each of this process's threads (Linux keeps one per thread). */
function threadNices(): number[] {
  return readdirSync('/proc/self/task').map((t) => {
    const stat = readFileSync(`/proc/self/task/${t}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
  });
}

describe('build worker pool', () => {
  afterAll(() => configureBuildWorkers(0));

  it.skipIf(!existsSync('/proc/self/task'))(
    'runs its worker below the priority of the node, whose other threads keep theirs',
    async () => {
      const before = threadNices();
      configureBuildWorkers(1);
      const ix = new ShardIndex(standardResolver, null, ANALYSIS);
      load(ix, 0, 10);
      ix.refresh(); // starts the worker
      await waitReady();
      const after = threadNices();
      // one new thread, the build worker, is niced; every other thread kept the node's value
      expect(after.filter((n) => n === 10)).toHaveLength(before.filter((n) => n === 10).length + 1);
      expect(new Set(before)).toEqual(new Set([before[0]]));
    },
    60_000,
  );

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

  it('a scheduled refresh publishes when the worker is done, while writes go on', async () => {
    configureBuildWorkers(1);
    await waitReady();
    const remote = new ShardIndex(standardResolver, null, ANALYSIS);
    const local = new ShardIndex(standardResolver, null, null);
    const ids = Array.from({ length: 150 }, (_, i) => `d${i}`);
    load(remote, 0, 600);
    load(local, 0, 600);
    await new Promise((r) => setTimeout(r, 10));
    const before = remote.searcher();
    let waited = false;
    void remote.nextRefresh().then(() => (waited = true));
    const published = remote.refreshInBackground();
    expect(published).not.toBeNull();
    // searches keep the old view; writes go to a new buffer, among them updates and deletes of
    // documents the worker is building
    expect(remote.searcher()).toBe(before);
    expect(remote.latestGeneration).toBe(before.generation + 1);
    let waitedLater = false;
    void remote.nextRefresh().then(() => (waitedLater = true));
    local.refresh();
    const atHandOver = view(local, ids);
    load(remote, 600, 700);
    load(local, 600, 700);
    await published;
    expect(waited).toBe(true);
    expect(waitedLater).toBe(false);
    expect(remote.searcher().generation).toBe(before.generation + 1);
    expect(view(remote, ids)).toEqual(atHandOver);
    remote.refresh();
    local.refresh();
    await new Promise((r) => setTimeout(r, 0));
    expect(waitedLater).toBe(true);
    expect(view(remote, ids)).toEqual(view(local, ids));
    expect(remote.searcher().numDocs).toBe(local.searcher().numDocs);
  }, 60_000);

  it('an explicit refresh publishes a build in flight first, then what came since', async () => {
    configureBuildWorkers(1);
    await waitReady();
    const remote = new ShardIndex(standardResolver, null, ANALYSIS);
    const local = new ShardIndex(standardResolver, null, null);
    const ids = Array.from({ length: 150 }, (_, i) => `d${i}`);
    for (const [a, b] of [
      [0, 300],
      [300, 500],
      [500, 800],
    ] as const) {
      load(remote, a, b);
      load(local, a, b);
      await new Promise((r) => setTimeout(r, 10));
      const p = remote.refreshInBackground();
      expect(p).not.toBeNull();
      // a second scheduled tick while the build is in flight waits for the same publication
      expect(remote.refreshInBackground()).toBe(p);
      load(remote, b, b + 20);
      load(local, b, b + 20);
      remote.refresh(); // waits for the worker, publishes its segment, then the 20 writes since
      local.refresh();
      expect(view(remote, ids)).toEqual(view(local, ids));
      await p;
    }
    expect(remote.searcher().numDocs).toBe(local.searcher().numDocs);
    expect(remote.stats().refreshes).toBe(6);
  }, 60_000);

  it('a view for a commit holds what was buffered when it was handed over, after any build in flight', async () => {
    configureBuildWorkers(1);
    await waitReady();
    const remote = new ShardIndex(standardResolver, null, ANALYSIS);
    const local = new ShardIndex(standardResolver, null, null);
    const ids = Array.from({ length: 150 }, (_, i) => `d${i}`);
    const shown = (snap: ReturnType<ShardIndex['searcher']>) =>
      ids.map((id) => {
        for (const ls of snap.segments) {
          const d = lookupId(ls.segment, id);
          if (d >= 0 && isLive(ls, d)) return [id, ls.segment.seqNos[d]!];
        }
        return [id, -1];
      });
    load(remote, 0, 300);
    load(local, 0, 300);
    await new Promise((r) => setTimeout(r, 10));
    const inflight = remote.refreshInBackground();
    expect(inflight).not.toBeNull();
    load(remote, 300, 400);
    load(local, 300, 400);
    let handedOver = false;
    const commit = remote.refreshForCommit(() => {
      handedOver = true;
      local.refresh();
      return { seen: shown(local.searcher()), docs: local.searcher().numDocs };
    });
    // the build in flight is published first; the commit's view is the next one
    expect(handedOver).toBe(false);
    await inflight;
    await new Promise((r) => setTimeout(r, 0));
    expect(handedOver).toBe(true);
    // writes after the hand-over, and an explicit refresh publishing them, are not in the view
    load(remote, 400, 450);
    load(local, 400, 450);
    const { view: committed, at } = await commit;
    remote.refresh();
    local.refresh();
    expect(shown(committed)).toEqual(at.seen);
    expect(committed.numDocs).toBe(at.docs);
    expect(shown(remote.searcher())).toEqual(shown(local.searcher()));
    expect(remote.searcher().generation).toBe(committed.generation + 1);
  }, 60_000);

  it('merges on the worker, with the deletes its parts take meanwhile carried over', async () => {
    configureBuildWorkers(1);
    const remote = new ShardIndex(standardResolver, null, ANALYSIS);
    const local = new ShardIndex(standardResolver, null, null);
    await waitReady(); // the worker starts with the first buffer
    const ids = Array.from({ length: 660 }, (_, i) => `u${i}`);
    const write = (ix: ShardIndex, i: number, seqNo: number, text: string) =>
      ix.add(
        `u${i}`,
        doc([
          [title, text],
          [tag, `t${i % 7}`],
          [n, i],
        ]),
        seqNo,
        1,
      );
    // eleven refreshed segments: more than a tier holds, so the policy asks for a merge
    for (let r = 0; r < 11; r++) {
      for (const ix of [remote, local])
        for (let i = r * 60; i < r * 60 + 60; i++) write(ix, i, i, `fox ${i}`);
      await new Promise((res) => setTimeout(res, 10));
      remote.refresh();
      local.refresh();
    }
    // the local index merged at once; the worker's merge is running, its parts still searched
    expect(local.searcher().segments.length).toBeLessThan(11);
    const during = remote.searcher();
    expect(during.segments.length).toBe(11);
    expect(view(remote, ids)).toEqual(view(local, ids));
    // deletes and overwrites of documents in the parts, published before the merge is
    for (const ix of [remote, local]) {
      for (let i = 0; i < 660; i += 7) ix.delete(`u${i}`);
      write(ix, 3, 10_000, 'again');
      ix.refresh();
    }
    const live = view(local, ids);
    expect(live.filter(([, seq]) => seq === -1)).toHaveLength(95);
    expect(view(remote, ids)).toEqual(live);
    for (let i = 0; i < 200 && remote.searcher().segments.length > 3; i++)
      await new Promise((res) => setTimeout(res, 25));
    const after = remote.searcher();
    expect(after.segments.length).toBeLessThanOrEqual(3);
    expect(after.generation).toBeGreaterThan(during.generation);
    expect(view(remote, ids)).toEqual(live);
    expect(after.numDocs).toBe(local.searcher().numDocs);
    // the merged segment came from the worker (numbered as a decoded one), its deletes carried
    const merged = after.segments.find((s) => s.segment.maxDoc === 600);
    expect(merged!.segment.id).toBeGreaterThanOrEqual(2_000_000);
    expect(merged!.deleted).toBe(86 + 1);
  }, 60_000);

  it('merges parts read from a file range and from shared memory as the main thread would', async () => {
    configureBuildWorkers(1);
    new ShardIndex(standardResolver, null, ANALYSIS); // starts the worker
    await waitReady();
    const part = (from: number) => {
      const b = new SegmentBuilder(standardResolver);
      for (let i = from; i < from + 50; i++)
        b.add(
          `m${i}`,
          doc([
            [title, `fox ${i % 9} jumps ${i}`],
            [tag, `t${i % 4}`],
            [n, i],
          ]),
          i,
          1,
        );
      return b.build();
    };
    const segs = [part(0), part(50), part(100)];
    const live = Bitset.full(50);
    for (let d = 0; d < 50; d += 6) live.clear(d);
    const lives = [null, live, null];
    const dir = mkdtempSync(join(tmpdir(), 'worker-merge-'));
    try {
      // the first part sits in a file after other bytes, as a blob in the store's data file
      const first = encodeSegment(segs[0]!);
      const file = join(dir, 'data.mdb');
      writeFileSync(file, Buffer.concat([Buffer.alloc(4096, 7), first, Buffer.alloc(100)]));
      const shared = new Uint8Array(new SharedArrayBuffer(encodeSegment(segs[1]!).length));
      shared.set(encodeSegment(segs[1]!));
      const pending = mergeOnWorker(
        [
          { file: { file, offset: 4096, length: first.length }, live: null },
          { bytes: shared, live: live.words },
          { bytes: encodeSegment(segs[2]!), live: null },
        ],
        dir,
      );
      expect(pending).not.toBeNull();
      await pending!.ready;
      const merged = pending!.take()!;
      expect(merged).not.toBeNull();
      const expected = mergeSegments(segs.map((segment, i) => ({ segment, live: lives[i]! })));
      expect(encodeSegment(merged).equals(encodeSegment(expected))).toBe(true);
      // the scratch file is gone
      expect(knownEncoding(merged)).toBeDefined();
      expect(readdirSync(dir)).toEqual(['data.mdb']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
