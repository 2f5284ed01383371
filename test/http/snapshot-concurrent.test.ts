/**
 * A snapshot taken while bulk writers keep going: restored, it holds every document acknowledged
 * before the snapshot request was sent, only documents that were sent (byte for byte, never a
 * partial one), and per shard a point in time (the sequence numbers it holds have no holes).
 * Run against a node in this process and against `bin/quarry` (needs `npm run build`).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { startTestNode } from '../helpers/node.js';
import { startProcessNode } from '../helpers/process-node.js';

interface Server {
  req(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<{ status: number; text: string; json: any }>; // prettier-ignore
  stop(): Promise<void>;
}

const dirs: string[] = [];
const tmp = (p: string) => {
  const d = mkdtempSync(join(tmpdir(), p));
  dirs.push(d);
  return d;
};
let node: Server | undefined;
afterEach(async () => {
  await node?.stop();
  node = undefined;
});
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A node in this process, or `bin/quarry` in its own (the dist build), writers here alike. */
const STARTERS: Record<string, (repo: string) => Promise<Server>> = {
  'in-process node': async (repo) => {
    const n = await startTestNode(undefined, { 'path.repo': repo });
    return { req: n.req, stop: () => n.destroy() };
  },
  'node process': async (repo) => {
    const n = await startProcessNode(tmp('quarry-snapc-data-'), ['-E', `path.repo=${repo}`]);
    return {
      async req(method, path, body, headers = {}) {
        const r = await fetch(n.url + path, {
          method,
          ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body), headers: { 'content-type': 'application/json', ...headers } } : {}), // prettier-ignore
        });
        const text = await r.text();
        return { status: r.status, text, json: text ? JSON.parse(text) : undefined };
      },
      stop: () => n.stop(),
    };
  },
};

interface Sent {
  readonly text: string;
  ackedAt?: number;
  seqNo?: number;
}

const WRITERS = 4;
const BULKS = 30;
const PER_BULK = 50;

describe.each(Object.keys(STARTERS))('snapshot under concurrent bulk writes (%s)', (kind) => {
  it('restores every document acknowledged before it, whole, as a point in time per shard', async () => {
    node = await STARTERS[kind]!(tmp('quarry-snapc-'));
    const srv = node;
    await srv.req('PUT', '/load', { settings: { number_of_shards: 3, number_of_replicas: 0 } });
    await srv.req('PUT', '/_snapshot/repo', { type: 'fs', settings: { location: 'r' } });
    const sent = new Map<string, Sent>();
    let acked = 0;
    let stop = false;
    const writer = async (w: number) => {
      for (let b = 0; b < BULKS && !stop; b++) {
        let body = '';
        const ids: string[] = [];
        for (let i = 0; i < PER_BULK; i++) {
          const id = `w${w}-${b}-${i}`;
          // sources of varying length, so a torn one could not pass for a whole one
          const text = JSON.stringify({ w, b, i, pad: 'x'.repeat((b * 37 + i * 11) % 400) });
          sent.set(id, { text });
          ids.push(id);
          body += JSON.stringify({ index: { _index: 'load', _type: '_doc', _id: id } }) + '\n' + text + '\n'; // prettier-ignore
        }
        const r = await srv.req('POST', '/_bulk', body, { 'content-type': 'application/x-ndjson' }); // prettier-ignore
        const at = performance.now();
        expect(r.json.errors).toBe(false);
        r.json.items.forEach((it: any, k: number) => {
          const s = sent.get(ids[k]!)!;
          s.ackedAt = at;
          s.seqNo = it.index._seq_no;
        });
        acked += PER_BULK;
      }
    };
    const writers = Array.from({ length: WRITERS }, (_, w) => writer(w));
    // mid-stream: once a good part is acknowledged and while the writers still run
    for (let i = 0; i < 2000 && acked < (WRITERS * BULKS * PER_BULK) / 4; i++)
      await new Promise((r) => setTimeout(r, 5));
    const snapStart = performance.now();
    const snap = await srv.req('PUT', '/_snapshot/repo/mid?wait_for_completion=true', { indices: 'load' }); // prettier-ignore
    expect(snap.status).toBe(200);
    expect(snap.json.snapshot.state).toBe('SUCCESS');
    const ackedAfterSnapshot = acked;
    await Promise.all(writers);
    expect(ackedAfterSnapshot).toBeLessThan(WRITERS * BULKS * PER_BULK); // it really was mid-stream
    const before = [...sent].filter(([, s]) => s.ackedAt! < snapStart).map(([id]) => id);
    expect(before.length).toBeGreaterThan(0);

    // which shard each document is on, before the index goes
    await srv.req('POST', '/load/_refresh');
    const shardOf = new Map<string, string>();
    const all = await srv.req('POST', '/load/_search', { size: 10000, explain: true, _source: false, query: { match_all: {} } }); // prettier-ignore
    for (const h of all.json.hits.hits) shardOf.set(h._id, h._shard);
    expect(shardOf.size).toBe(sent.size);

    expect((await srv.req('DELETE', '/load')).status).toBe(200);
    const rest = await srv.req('POST', '/_snapshot/repo/mid/_restore?wait_for_completion=true');
    expect(rest.status).toBe(200);
    await srv.req('POST', '/load/_refresh');
    const got = await srv.req('POST', '/load/_search', { size: 10000, query: { match_all: {} } });
    const restored = new Map<string, unknown>();
    for (const h of got.json.hits.hits) restored.set(h._id, h._source);

    const missing = before.filter((id) => !restored.has(id));
    expect(missing).toEqual([]);
    const foreign: string[] = [];
    for (const [id, source] of restored) {
      const s = sent.get(id);
      if (!s || !isDeepStrictEqual(source, JSON.parse(s.text))) foreign.push(id);
    }
    expect(foreign).toEqual([]);
    // byte for byte, on a sample
    for (const id of before.filter((_, k) => k % 25 === 0)) {
      const r = await srv.req('GET', `/load/_doc/${id}/_source`);
      expect(r.text, id).toBe(sent.get(id)!.text);
    }
    // per shard a point in time: the original sequence numbers it holds are 0..max, no holes
    const seqs = new Map<string, number[]>();
    for (const id of restored.keys()) {
      const sh = shardOf.get(id)!;
      if (!seqs.has(sh)) seqs.set(sh, []);
      seqs.get(sh)!.push(sent.get(id)!.seqNo!);
    }
    for (const [sh, list] of seqs) {
      list.sort((a, b) => a - b);
      expect(list.every((n, k) => n === k), `${sh} holds ${list.length} ops up to ${list.at(-1)}`).toBe(true); // prettier-ignore
    }
  }, 120_000);
});
