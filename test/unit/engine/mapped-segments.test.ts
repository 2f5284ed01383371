/**
 * Segments read in place from the store's memory map: a committed segment of 16 MB and more
 * reads its blob from the map instead of the heap (after its commit and after a restart), with
 * the same contents; a blob a segment still reads is kept until the segment is collected; closing
 * the store leaves empty arrays behind, not unmapped memory.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { useTempStore } from '../../helpers/temp-store.js';
import {
  loadCommit,
  mappedSegments,
  writeCommit,
  dropCommits,
  dropUnownedBlobs,
  isCommitted,
  mergeOutput,
} from '../../../src/engine/segment-commits.js';
import { configureBuildWorkers, mergeOnWorker } from '../../../src/search/index/build-pool.js';
import { ShardIndex } from '../../../src/search/index/shard-index.js';
import { standardResolver } from '../../helpers/fields.js';
import { Bitset } from '../../../src/search/index/bitset.js';
import type { ShardSnapshot } from '../../../src/search/index/live-segment.js';
import type { Segment, SegmentField } from '../../../src/search/index/segment.js';
import {
  blockImpacts,
  blockImpactsReady,
  computeImpacts,
} from '../../../src/search/index/block-bounds.js';
import { emptyInverted } from '../../helpers/segments.js';
import { lookupId } from '../../../src/search/index/segment.js';
import { mergeSegments } from '../../../src/search/index/merge.js';
import { mergeFileOf, mergeSourceOf } from '../../../src/search/index/merge-source.js';
import { encodeSegment, knownEncoding } from '../../../src/search/index/segment-codec.js';
import { stringBlockOf } from '../../../src/search/index/string-block.js';
import { isMapped, type Store } from '../../../src/store/store.js';

/** A segment of `maxDoc` docs whose points hold `points` values (12 bytes each in the blob). */
function segment(maxDoc: number, points: number, salt: number): Segment {
  const values = new Float64Array(points);
  const docs = new Int32Array(points);
  for (let i = 0; i < points; i++) {
    values[i] = i * 0.5 + salt;
    docs[i] = i % maxDoc;
  }
  const ids = Array.from({ length: maxDoc }, (_, i) => `doc-${salt}-${String(i).padStart(6, '0')}`);
  const terms = ['a', 'b', 'c'];
  return {
    id: salt,
    maxDoc,
    ids,
    idOrder: Int32Array.from(ids.keys()),
    seqNos: Float64Array.from(ids.keys()),
    versions: new Float64Array(maxDoc).fill(1),
    routing: new Map(),
    fields: new Map([
      [
        'n',
        {
          path: 'n',
          type: 'double' as const,
          inverted: null,
          points: { values, docs },
          docValues: { kind: 'numeric' as const, single: values.slice(0, maxDoc), offsets: null, values: null }, // prettier-ignore
          ranges: null,
        },
      ],
      [
        'k',
        {
          path: 'k',
          type: 'keyword' as const,
          inverted: { ...emptyInverted(), terms, termStart: Int32Array.of(0, 1, 2, maxDoc), docs: Int32Array.from(ids.keys()) }, // prettier-ignore
          points: null,
          docValues: { kind: 'ordinal' as const, dict: terms, single: new Int32Array(maxDoc), offsets: null, ords: null }, // prettier-ignore
          ranges: null,
        },
      ],
    ]),
    fieldNames: emptyInverted(),
    nested: new Map(),
  };
}

function snapshot(segs: Array<{ segment: Segment; live?: Bitset }>): ShardSnapshot {
  let base = 0;
  const segments = segs.map((s) => {
    const ls = { segment: s.segment, live: s.live ?? null, deleted: 0, docBase: base };
    base += s.segment.maxDoc;
    return ls;
  });
  return { generation: 1, segments, maxDoc: base, numDocs: base };
}

/** Element-wise equality (vitest's deep equality is slow on millions of elements). */
function same(a: Float64Array, b: Float64Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

const BIG = 1_600_000; // 19.2 MB of points: over lmdb-js's 16 MB in-place threshold

describe('segments read in place from the store map', () => {
  const t = useTempStore();

  it('a committed large segment reads from the map, before and after a restart', async () => {
    const dir = t.dir('quarry-mapped-');
    let store = t.open(dir);
    const big = segment(1000, BIG, 1);
    const small = segment(1000, 1000, 2);
    const expectPoints = Float64Array.from(big.fields.get('n')!.points!.values);
    const live = Bitset.full(1000);
    live.clear(7);
    await writeCommit(store, 'u', 0, snapshot([{ segment: big, live }, { segment: small }]), 10);
    // the heap-built segment now reads its committed blob in place; the small one keeps its arrays
    const pts = big.fields.get('n')!.points!;
    expect(isMapped(pts.values)).toBe(true);
    expect(isMapped(pts.docs)).toBe(true);
    expect(isMapped(big.fields.get('k')!.docValues!.single as Int32Array)).toBe(true);
    expect(isMapped(small.fields.get('n')!.points!.values)).toBe(false);
    expect(same(pts.values, expectPoints)).toBe(true);
    expect(big.ids[999]).toBe('doc-1-000999');
    // the `_id`s too: kept encoded in the map instead of a heap string each
    expect(isMapped(stringBlockOf(big.ids)!.bytes)).toBe(true);
    expect(lookupId(big, 'doc-1-000123')).toBe(123);
    expect(mappedSegments(store)).toBe(1);

    await t.close();
    store = t.open(dir);
    const loaded = loadCommit(store, 'u', 0)!;
    expect(loaded.segments).toHaveLength(2);
    const [a, b] = loaded.segments;
    expect(isMapped(a!.segment.fields.get('n')!.points!.values)).toBe(true);
    expect(same(a!.segment.fields.get('n')!.points!.values, expectPoints)).toBe(true);
    expect(a!.segment.ids[5]).toBe('doc-1-000005');
    expect(lookupId(a!.segment, 'doc-1-000777')).toBe(777);
    expect(lookupId(b!.segment, 'doc-2-000777')).toBe(777);
    expect(a!.live!.get(7)).toBe(false);
    expect(a!.live!.get(8)).toBe(true);
    expect(isMapped(b!.segment.fields.get('n')!.points!.values)).toBe(false);
    expect(b!.segment.fields.get('k')!.docValues!.kind).toBe('ordinal');
    expect(mappedSegments(store)).toBe(1);
  });

  it("a segment loaded in place has its text fields' block impacts computed from copies, equal to those over the map", async () => {
    const dir = t.dir('quarry-mapped-');
    let store = t.open(dir);
    const big = segment(1000, BIG, 81);
    const n = 1000;
    const fields = big.fields as Map<string, SegmentField>;
    fields.set('t', {
      path: 't',
      type: 'text',
      inverted: {
        ...emptyInverted(),
        terms: ['x', 'y'],
        termStart: Int32Array.of(0, n, 2 * n),
        docs: Int32Array.from({ length: 2 * n }, (_, i) => i % n),
        freqs: Uint8Array.from({ length: 2 * n }, (_, i) => 1 + (i % 5)),
        norms: Uint8Array.from({ length: n }, (_, d) => 10 + (d % 200)),
      },
      points: null,
      docValues: null,
      ranges: null,
    });
    await writeCommit(store, 'u', 0, snapshot([{ segment: big }]), 1);
    await t.close();
    store = t.open(dir);
    const inv = loadCommit(store, 'u', 0)!.segments[0]!.segment.fields.get('t')!.inverted!;
    expect(isMapped(inv.docs)).toBe(true);
    expect(blockImpactsReady(inv)).toBe(true);
    expect(blockImpacts(inv)).toEqual(computeImpacts(inv));
  });

  it('keeps a blob that a live segment still reads when a commit drops it', async () => {
    const dir = t.dir('quarry-mapped-');
    const store = t.open(dir);
    const old = segment(500, BIG, 3);
    await writeCommit(store, 'u', 0, snapshot([{ segment: old }]), 1);
    const oldKey = store.blobKeys('u:0:')[0]!;
    const replacement = segment(500, 1000, 4);
    await writeCommit(store, 'u', 0, snapshot([{ segment: replacement }]), 2);
    // `old` is referenced here (as by a search still running): its blob stays
    expect(store.blobKeys('u:0:')).toContain(oldKey);
    expect(old.fields.get('n')!.points!.values[BIG - 1]).toBe((BIG - 1) * 0.5 + 3);
    // deleting the index leaves it too while `old` is alive
    await dropCommits(store, 'u', 1);
    expect(store.blobKeys('u:0:')).toEqual([oldKey]);
    expect(old.fields.get('n')!.points!.values[10]).toBe(8);
  });

  it('a restart removes the blobs the last run kept for its searches', async () => {
    const dir = t.dir('quarry-mapped-');
    let store = t.open(dir);
    const old = segment(500, BIG, 6);
    await writeCommit(store, 'u', 0, snapshot([{ segment: old }]), 1);
    const oldKey = store.blobKeys('u:0:')[0]!;
    await writeCommit(store, 'u', 0, snapshot([{ segment: segment(500, 1000, 7) }]), 2);
    expect(store.blobKeys('u:0:')).toContain(oldKey);
    await t.close();
    store = t.open(dir);
    const loaded = loadCommit(store, 'u', 0)!;
    expect(loaded.segments[0]!.segment.ids[1]).toBe('doc-7-000001');
    await store.committed();
    expect(store.blobKeys('u:0:')).not.toContain(oldKey);
    expect(store.blobKeys('u:0:')).toHaveLength(1);
    expect(old.maxDoc).toBe(500);
  });

  it('closing the store leaves empty arrays, not unmapped memory', async () => {
    const dir = t.dir('quarry-mapped-');
    const store = t.open(dir);
    const big = segment(100, BIG, 5);
    await writeCommit(store, 'u', 0, snapshot([{ segment: big }]), 1);
    const values = big.fields.get('n')!.points!.values;
    expect(values.length).toBe(BIG);
    await t.close();
    expect(values.length).toBe(0);
    expect(values[0]).toBeUndefined();
  });
});

/** A segment's full contents as bytes (its encoding), to compare two segments. */
const contents = (s: Segment) => encodeSegment(s);

describe('segment lifecycle: heap, then the map', () => {
  const t = useTempStore();

  it('a segment released from the heap at its commit holds the same contents', async () => {
    const dir = t.dir('quarry-lifecycle-');
    const store = t.open(dir);
    const big = segment(2000, BIG, 11);
    const small = segment(300, 1000, 12);
    const before = [contents(big), contents(small)];
    const heapPoints = big.fields.get('n')!.points!.values;
    const smallPoints = small.fields.get('n')!.points!.values;
    await writeCommit(store, 'u', 0, snapshot([{ segment: big }, { segment: small }]), 5);
    // the large one reads the map, the small one its encoding: neither keeps its built arrays
    expect(isMapped(big.fields.get('n')!.points!.values)).toBe(true);
    // (identity compared directly: a failing toBe deep-compares millions of elements)
    expect(big.fields.get('n')!.points!.values === heapPoints).toBe(false);
    expect(small.fields.get('n')!.points!.values === smallPoints).toBe(false);
    expect(contents(big).equals(before[0]!)).toBe(true);
    expect(contents(small).equals(before[1]!)).toBe(true);
    expect(lookupId(small, 'doc-12-000299')).toBe(299);
    expect(lookupId(big, 'doc-11-001999')).toBe(1999);
  });

  it('a merge reads a private copy of a mapped segment, and its result is read from the map once committed', async () => {
    const dir = t.dir('quarry-lifecycle-');
    let store = t.open(dir);
    const a = segment(1000, BIG, 21);
    const b = segment(1000, BIG, 22);
    (a.routing as Map<number, string>).set(3, 'r3').set(700, 'r700');
    await writeCommit(store, 'u', 0, snapshot([{ segment: a }, { segment: b }]), 10);
    expect(isMapped(a.fields.get('n')!.points!.values)).toBe(true);
    // the merge source: equal contents, not over the map
    const src = mergeSourceOf(a);
    expect(src === a).toBe(false);
    expect(isMapped(src.fields.get('n')!.points!.values)).toBe(false);
    expect(contents(src).equals(contents(a))).toBe(true);
    expect(src.routing.get(700)).toBe('r700');
    expect(src.fields.get('k')!.inverted!.terms).toEqual(['a', 'b', 'c']);
    // a delete after the switch: found through the mapped `_id`s, dropped by the merge
    const d = lookupId(b, 'doc-22-000123');
    expect(d).toBe(123);
    const live = Bitset.full(1000);
    live.clear(d);
    const fromMap = mergeSegments([
      { segment: a, live: null },
      { segment: b, live },
    ]);
    const merged = mergeSegments([
      { segment: mergeSourceOf(a), live: null },
      { segment: mergeSourceOf(b), live },
    ]);
    expect(merged.maxDoc).toBe(1999);
    expect(contents(merged).equals(contents(fromMap))).toBe(true);
    expect(lookupId(merged, 'doc-22-000123')).toBe(-1);
    expect(lookupId(merged, 'doc-22-000124')).toBe(1000 + 123);
    // committed: the merge result reads its blob in place, with the same contents
    const expected = contents(merged);
    await writeCommit(store, 'u', 0, snapshot([{ segment: merged }]), 11);
    expect(isMapped(merged.fields.get('n')!.points!.values)).toBe(true);
    expect(contents(merged).equals(expected)).toBe(true);
    // an update after the switch: the merged segment's copy of the doc is deleted, a new one added
    const upd = Bitset.full(merged.maxDoc);
    upd.clear(lookupId(merged, 'doc-21-000005'));
    const newer = segment(10, 10, 23);
    await writeCommit(
      store,
      'u',
      0,
      snapshot([{ segment: merged, live: upd }, { segment: newer }]),
      12,
    );
    await t.close();
    store = t.open(dir);
    const loaded = loadCommit(store, 'u', 0)!;
    expect(loaded.segments).toHaveLength(2);
    const [m, n] = loaded.segments;
    expect(isMapped(m!.segment.fields.get('n')!.points!.values)).toBe(true);
    expect(contents(m!.segment).equals(expected)).toBe(true);
    expect(m!.live!.get(lookupId(m!.segment, 'doc-21-000005'))).toBe(false);
    expect(m!.live!.cardinality()).toBe(1998);
    expect(n!.segment.ids[3]).toBe('doc-23-000003');
    // a restored mapped segment merges from a copy too
    expect(isMapped(mergeSourceOf(m!.segment).fields.get('n')!.points!.values)).toBe(false);
  });
});

describe('a large merge a build worker writes to the store itself', () => {
  const t = useTempStore();
  afterAll(() => configureBuildWorkers(0));

  /** Two committed parts of a shard and a merge of them on the worker into the store. */
  async function mergeOnTheWorker(store: Store, parts: Segment[], drop = false) {
    const places = parts.map((s) => mergeFileOf(s));
    expect(places.every((p) => p !== null)).toBe(true);
    const sent = places.map((p) => ({ ...p!, live: null }));
    const out = mergeOutput(store, 'u', 0)!;
    expect(out).not.toBeNull();
    const pending = mergeOnWorker(sent, store.dataPath, out)!;
    expect(pending).not.toBeNull();
    if (drop) await dropCommits(store, 'u', 1);
    await pending.ready;
    return pending.take();
  }

  /** The merged segments' blobs (their chunks, `key#i`, not counted). */
  const mergedKeys = (store: Store) => store.blobKeys('u:0:').filter((k) => /^u:0:m[^#]*$/.test(k)); // prettier-ignore
  /** Every blob a worker's merges wrote, chunks included. */
  const mergedBlobs = (store: Store) => store.blobKeys('u:0:').filter((k) => /^u:0:m/.test(k));

  it('is read in place, never a heap copy; a crash before a commit names it leaves an orphan the restart removes', async () => {
    configureBuildWorkers(1);
    new ShardIndex(standardResolver, null, JSON.stringify({ settings: {}, index: { maxNgramDiff: 1 } })); // prettier-ignore
    await new Promise((r) => setTimeout(r, 3000)); // the worker starts
    const dir = t.dir('quarry-worker-merge-');
    let store = t.open(dir);
    const a = segment(500, BIG, 31);
    const b = segment(500, BIG, 32);
    const expected = contents(mergeSegments([{ segment: a, live: null }, { segment: b, live: null }])); // prettier-ignore
    await writeCommit(store, 'u', 0, snapshot([{ segment: a }, { segment: b }]), 10);
    const merged = (await mergeOnTheWorker(store, [a, b]))!;
    expect(merged).not.toBeNull();
    // read from the blob the worker wrote: the merged encoding never came to this thread
    expect(isMapped(merged.fields.get('n')!.points!.values)).toBe(true);
    expect(knownEncoding(merged)).toBeUndefined();
    expect(contents(merged).equals(expected)).toBe(true);
    expect(mergedKeys(store)).toHaveLength(1);
    // written in chunks (the data region in blobs of its own), each read in place
    const [key] = mergedKeys(store);
    expect(mergedBlobs(store).filter((k) => k.startsWith(`${key}#`)).length).toBeGreaterThan(0);
    // a commit of the parts (the merge not published yet) keeps the worker's blob and chunks
    const written = mergedBlobs(store);
    await writeCommit(store, 'u', 0, snapshot([{ segment: a }, { segment: b }]), 11);
    expect(mergedBlobs(store)).toEqual(written);
    expect(isCommitted(merged)).toBe(false);

    // a crash now (no commit point names the blob): the restart loads the parts, removes the blob
    // and its chunks, and the chunks of a write cut short before its head
    await t.close();
    store = t.open(dir);
    await store.putBlob('u:0:mcut.1#0', Buffer.alloc(100, 1));
    await store.putBlob('u:0:mcut.1#1', Buffer.alloc(100, 2));
    const loaded = loadCommit(store, 'u', 0)!;
    expect(loaded.segments.map((s) => s.segment.maxDoc)).toEqual([500, 500]);
    await store.committed();
    expect(mergedBlobs(store)).toEqual([]);
  }, 60_000);

  it('the next commit only names the blob, and a restart loads it', async () => {
    configureBuildWorkers(1);
    const dir = t.dir('quarry-worker-merge-');
    let store = t.open(dir);
    const a = segment(500, BIG, 41);
    const b = segment(500, BIG, 42);
    await writeCommit(store, 'u', 0, snapshot([{ segment: a }, { segment: b }]), 10);
    const partKeys = store.blobKeys('u:0:');
    const merged = (await mergeOnTheWorker(store, [a, b]))!;
    const expected = contents(merged);
    const [key] = mergedKeys(store);
    await writeCommit(store, 'u', 0, snapshot([{ segment: merged }]), 11);
    expect(isCommitted(merged)).toBe(true);
    expect(store.getMeta<{ segments: Array<{ key: string }> }>('commit:u:0')!.segments).toEqual([
      { key, hasLive: false },
    ]);
    await t.close();
    store = t.open(dir);
    const loaded = loadCommit(store, 'u', 0)!;
    expect(loaded.segments).toHaveLength(1);
    expect(contents(loaded.segments[0]!.segment).equals(expected)).toBe(true);
    await store.committed();
    // the parts' blobs went with the restart (their segments are gone); the merge's chunks stay
    const left = store.blobKeys('u:0:');
    expect(left.filter((k) => !k.includes('#'))).toEqual([key]);
    expect(left.length).toBeGreaterThan(1);
    for (const k of left) expect(k === key || k.startsWith(`${key}#`)).toBe(true);
    expect(isMapped(loaded.segments[0]!.segment.fields.get('n')!.points!.values)).toBe(true);
    expect(partKeys).not.toContain(key);
  }, 60_000);

  it('a merge written in several chunks reads in place over them, merges again from them on the worker, and loads after a restart', async () => {
    configureBuildWorkers(1);
    const dir = t.dir('quarry-worker-merge-');
    let store = t.open(dir);
    // 36 MB of points each: the merge's points (48 MB of values, 24 MB of docs) make two chunks
    const a = segment(500, 3_000_000, 81);
    const b = segment(500, 3_000_000, 82);
    const c = segment(500, BIG, 83);
    const once = contents(mergeSegments([{ segment: a, live: null }, { segment: b, live: null }])); // prettier-ignore
    await writeCommit(store, 'u', 0, snapshot([{ segment: a }, { segment: b }, { segment: c }]), 10); // prettier-ignore
    const merged = (await mergeOnTheWorker(store, [a, b]))!;
    const [key] = mergedKeys(store);
    expect(mergedBlobs(store).filter((k) => k.startsWith(`${key}#`)).length).toBeGreaterThan(1);
    expect(isMapped(merged.fields.get('n')!.points!.values)).toBe(true);
    expect(isMapped(merged.fields.get('n')!.points!.docs)).toBe(true);
    expect(contents(merged).equals(once)).toBe(true);
    expect(lookupId(merged, 'doc-82-000123')).toBe(623);
    await writeCommit(store, 'u', 0, snapshot([{ segment: merged }, { segment: c }]), 11);
    // the chunked segment as a part: the worker reads its chunks where they sit in the file
    const place = mergeFileOf(merged)!;
    expect('chunks' in place && place.chunks.length > 1).toBe(true);
    const twice = (await mergeOnTheWorker(store, [merged, c]))!;
    const expected = contents(mergeSegments([{ segment: merged, live: null }, { segment: c, live: null }])); // prettier-ignore
    expect(contents(twice).equals(expected)).toBe(true);
    // a local merge reads an assembled copy
    expect(contents(mergeSourceOf(merged)).equals(once)).toBe(true);
    expect(isMapped(mergeSourceOf(merged).fields.get('n')!.points!.values)).toBe(false);
    await writeCommit(store, 'u', 0, snapshot([{ segment: twice }]), 12);
    await t.close();
    store = t.open(dir);
    const loaded = loadCommit(store, 'u', 0)!;
    expect(loaded.segments).toHaveLength(1);
    expect(contents(loaded.segments[0]!.segment).equals(expected)).toBe(true);
    expect(isMapped(loaded.segments[0]!.segment.fields.get('n')!.points!.values)).toBe(true);
    await store.committed();
    // only the last merge's blob and chunks are left
    const [last] = mergedKeys(store);
    for (const k of store.blobKeys('u:0:')) expect(k === last || k.startsWith(`${last}#`)).toBe(true); // prettier-ignore
  }, 120_000);

  it('a small merge written by the worker (a heap copy here) is kept until a commit names it', async () => {
    configureBuildWorkers(1);
    const dir = t.dir('quarry-worker-merge-');
    let store = t.open(dir);
    const a = segment(100, 1000, 61);
    const b = segment(100, 1000, 62);
    await writeCommit(store, 'u', 0, snapshot([{ segment: a }, { segment: b }]), 10);
    const out = mergeOutput(store, 'u', 0)!;
    const sent = [a, b].map((s) => ({ bytes: encodeSegment(s), live: null }));
    const pending = mergeOnWorker(sent, dir, { ...out, target: { ...out.target, minBytes: 0 } })!;
    await pending.ready;
    const merged = pending.take()!;
    expect(isMapped(merged.fields.get('n')!.points!.values)).toBe(false);
    const expected = contents(mergeSegments([{ segment: a, live: null }, { segment: b, live: null }])); // prettier-ignore
    expect(contents(merged).equals(expected)).toBe(true);
    const [key] = mergedKeys(store);
    expect(key).toBeDefined();
    // not named by this commit, not read in place: kept all the same
    await writeCommit(store, 'u', 0, snapshot([{ segment: a }, { segment: b }]), 11);
    expect(mergedKeys(store)).toEqual([key]);
    await writeCommit(store, 'u', 0, snapshot([{ segment: merged }]), 12);
    expect(store.getMeta<{ segments: Array<{ key: string }> }>('commit:u:0')!.segments).toEqual([
      { key, hasLive: false },
    ]);
    await t.close();
    store = t.open(dir);
    const loaded = loadCommit(store, 'u', 0)!;
    expect(contents(loaded.segments[0]!.segment).equals(expected)).toBe(true);
  }, 60_000);

  it('a merge written after its index was deleted is removed', async () => {
    configureBuildWorkers(1);
    const store = t.open(t.dir('quarry-worker-merge-'));
    const a = segment(500, BIG, 51);
    const b = segment(500, BIG, 52);
    await writeCommit(store, 'u', 0, snapshot([{ segment: a }, { segment: b }]), 10);
    expect(await mergeOnTheWorker(store, [a, b], true)).toBeNull();
    await store.committed();
    expect(mergedBlobs(store)).toEqual([]);
  }, 60_000);

  it("the node's start removes the blobs of indices that no longer exist", async () => {
    const dir = t.dir('quarry-worker-merge-');
    let store = t.open(dir);
    await writeCommit(store, 'u', 0, snapshot([{ segment: segment(10, 10, 71) }]), 1);
    await writeCommit(store, 'gone', 0, snapshot([{ segment: segment(10, 10, 72) }]), 1);
    // a merge a worker wrote for an index deleted just before the process died
    await store.putBlob('gone:0:mx.1', Buffer.from('orphan'));
    await t.close();
    store = t.open(dir);
    dropUnownedBlobs(store, new Set(['u']));
    await store.committed();
    expect(store.blobKeys('')).toEqual(store.blobKeys('u:'));
    expect(store.blobKeys('u:')).toHaveLength(1);
    expect(loadCommit(store, 'u', 0)!.segments).toHaveLength(1);
  });
});
