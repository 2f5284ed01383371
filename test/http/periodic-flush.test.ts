/**
 * A periodic flush with a build worker commits the view the worker builds, with the sequence
 * number of the moment the buffer was handed over: writes that go on meanwhile are not in the
 * commit point's segments (the restart replays them from the log), and nothing is lost.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadCommit } from '../../src/engine/segment-commits.js';
import { startTestNode, type TestNode } from '../helpers/node.js';

const dir = mkdtempSync(join(tmpdir(), 'quarry-periodic-flush-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const bulkOf = (from: number, to: number) => {
  let s = '';
  for (let i = from; i < to; i++) s += `{"index":{}}\n{"n":${i},"t":"doc ${i} text"}\n`;
  return s;
};

describe('periodic flush with a build worker', () => {
  it('commits the handed-over view while writes go on, and a restart finds every document', async () => {
    let node: TestNode = await startTestNode(dir, { 'indexing.workers': '1' });
    const ndjson = { 'content-type': 'application/x-ndjson' };
    const made = await node.req('PUT', '/pf', {
      settings: { number_of_shards: 1, number_of_replicas: 0, refresh_interval: '-1' },
    });
    expect(made.status).toBe(200);
    const bulk = async (from: number, to: number) => {
      const r = await node.req('POST', '/pf/_doc/_bulk', bulkOf(from, to), ndjson);
      expect(r.status).toBe(200);
      expect(r.json.errors).toBe(false);
    };
    await bulk(0, 2000);
    // the worker starts with the first buffer; later ones are built there
    await new Promise((r) => setTimeout(r, 3000));
    await bulk(2000, 4000);
    const idx = node.context.indices.get('pf')!;
    const flushed = idx.flush(true);
    await Promise.all([bulk(4000, 5000), bulk(5000, 6000), flushed]);
    const commit = loadCommit(node.context.store, idx.uuid, 0)!;
    expect(commit).not.toBeNull();
    // no scheduled refresh: the buffer was handed over as the flush started, before the two
    // bulks after it; the commit holds every operation up to its sequence number and none after
    expect(commit.maxSeqNo).toBe(3999);
    const docs = commit.segments.reduce((n, s) => n + s.segment.maxDoc, 0);
    expect(docs).toBe(commit.maxSeqNo + 1);
    const seqs = commit.segments.flatMap((s) => [...s.segment.seqNos]).sort((a, b) => a - b);
    expect(seqs[seqs.length - 1]).toBe(commit.maxSeqNo);
    await node.close();
    node = await startTestNode(dir, { 'indexing.workers': '1' });
    try {
      await node.req('POST', '/pf/_refresh');
      expect((await node.req('GET', '/pf/_count')).json.count).toBe(6000);
    } finally {
      await node.destroy();
    }
  }, 60_000);
});
