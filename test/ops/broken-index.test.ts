/**
 * A broken index does not stop the node: indices whose stored metadata no longer parses, whose
 * mapping no longer builds, or whose recovery fails come back red (health, `_cat`), searches and
 * gets on them fail as ES fails them on red indices, writes find no primary, the other indices
 * serve, the stored records stay as found, and deleting a red index clears it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { open } from 'lmdb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNode, type RunningNode } from '../../src/node.js';
import { Store } from '../../src/store/store.js';
import { seqLogKey } from '../../src/store/seq-log.js';

const dir = mkdtempSync(join(tmpdir(), 'quarry-broken-'));
const logs: string[] = [];
let node: RunningNode;

const ndjson = (path: string) =>
  /\/_(bulk|msearch)\b/.test(path) ? 'application/x-ndjson' : 'application/json';

async function call(method: string, path: string, body?: unknown) {
  const r = await fetch(node.url + path, {
    method,
    ...(body !== undefined
      ? {
          body: typeof body === 'string' ? body : JSON.stringify(body),
          // NDJSON only where ES reads a stream (RestController answers 406 elsewhere)
          headers: { 'content-type': ndjson(path) },
        }
      : {}),
  });
  const text = await r.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: r.status, text, json };
}

const BAD_JSON = '{"name":"badjson","uuid": <- not json';

beforeAll(async () => {
  node = await startNode({ dataPath: dir, port: 0 });
  for (const name of ['good', 'badjson', 'badmap', 'badrec']) {
    await call('PUT', `/${name}`, { settings: { number_of_shards: 2, number_of_replicas: 0 } });
    let bulk = '';
    for (let i = 0; i < 10; i++)
      bulk += `{"index":{"_index":"${name}","_type":"_doc","_id":"${i}"}}\n{"f":"v${i}","n":${i}}\n`;
    expect((await call('POST', '/_bulk?refresh=true', bulk)).json.errors).toBe(false);
  }
  await node.close();

  // Corrupt three of the four indices between runs.
  const store = Store.open(dir);
  const meta = store.getMeta<any>('index:badmap');
  meta.mapping.json.properties.f = { type: 'no_such_type' };
  meta.aliases = { 'badmap-alias': {} };
  await store.putMeta('index:badmap', meta);
  const recUuid = store.getMeta<any>('index:badrec').uuid as string;
  await store.close();
  const env = open({ path: join(dir, 'quarry.mdb'), maxDbs: 4096 });
  await env
    .openDB({ name: 'meta', encoding: 'binary' })
    .put('index:badjson', Buffer.from(BAD_JSON));
  const key = Buffer.concat([Buffer.from([0, 0]), Buffer.from('zz')]);
  await env
    .openDB<Buffer, Buffer>({ name: `docs:${recUuid}`, encoding: 'binary', keyEncoding: 'binary' })
    .put(key, Buffer.from([1, 2, 3]));
  // ... as a record written after the last commit: its sequence-number log entry makes the
  // restart read it (records already in a commit are read only when fetched)
  await env
    .openDB<Buffer, Buffer>({
      name: `seqlog:${recUuid}`,
      encoding: 'binary',
      keyEncoding: 'binary',
    }) // prettier-ignore
    .put(seqLogKey(key, 1_000_000), Buffer.from([1]));
  await env.close();

  node = await startNode({ dataPath: dir, port: 0, log: (l) => logs.push(l) });
});

afterAll(async () => {
  await node.close();
  rmSync(dir, { recursive: true, force: true });
});

const RED = ['badjson', 'badmap', 'badrec'];

describe('an index that cannot be opened', () => {
  it('leaves the node up and logs why each index is red', () => {
    const warned = logs.filter((l) => l.includes('[WARN ][o.e.g.GatewayAllocator]'));
    expect(warned).toHaveLength(3);
    expect(warned.find((l) => l.includes('index [badjson]'))).toContain('SyntaxError');
    expect(warned.find((l) => l.includes('index [badmap]'))).toContain('no_such_type');
    expect(warned.find((l) => l.includes('index [badrec]'))).toContain('RangeError');
    expect(logs.some((l) => l.includes('started, publish_address'))).toBe(true);
  });

  it('is red in cluster health and _cat, the others are not', async () => {
    const h = await call('GET', '/_cluster/health?level=indices');
    expect(h.status).toBe(200);
    expect(h.json.status).toBe('red');
    expect(h.json.active_primary_shards).toBe(2);
    // badmap and badrec: 2 primaries each; badjson's shard count is unreadable: ES's 5 (+5 replicas).
    expect(h.json.unassigned_shards).toBe(2 + 2 + 10);
    for (const n of RED) {
      expect(h.json.indices[n].status).toBe('red');
      expect(h.json.indices[n].active_primary_shards).toBe(0);
    }
    expect(h.json.indices.good.status).toBe('green');
    const cat = await call('GET', '/_cat/indices?h=health,index,docs.count&s=index');
    expect(cat.text).toBe(
      'red   badjson   \nred   badmap    \nred   badrec    \ngreen good    10\n',
    );
    const shards = await call('GET', '/_cat/shards/badmap?h=index,shard,prirep,state');
    expect(shards.text).toBe('badmap 0 p UNASSIGNED\nbadmap 1 p UNASSIGNED\n');
    const red = await call('GET', '/_cluster/health/good?wait_for_status=green&timeout=1s');
    expect(red.json.status).toBe('green');
  });

  it('fails searches and counts with all shards failed, as ES does for red indices', async () => {
    const want = {
      error: {
        root_cause: [],
        type: 'search_phase_execution_exception',
        reason: 'all shards failed',
        phase: 'query',
        grouped: true,
        failed_shards: [],
      },
      status: 503,
    };
    for (const n of RED) {
      const s = await call('GET', `/${n}/_search`);
      expect(s.status).toBe(503);
      expect(s.json).toEqual(want);
      expect((await call('GET', `/${n}/_count`)).json).toEqual(want);
    }
    // With a healthy index: results from it; the red shards are neither successful nor failed.
    const mixed = await call('GET', '/good,badmap/_search?size=0');
    expect(mixed.status).toBe(200);
    expect(mixed.json._shards).toEqual({ total: 4, successful: 2, skipped: 0, failed: 0 });
    expect(mixed.json.hits.total).toBe(10);
    const count = await call('GET', '/good,badrec/_count');
    expect(count.json).toEqual({
      count: 10,
      _shards: { total: 4, successful: 2, skipped: 0, failed: 0 },
    });
  });

  it('fails gets with no_shard_available_action_exception', async () => {
    const g = await call('GET', '/badmap/_doc/1');
    expect(g.status).toBe(503);
    expect(g.json).toEqual({
      error: {
        root_cause: [
          {
            type: 'no_shard_available_action_exception',
            reason: 'No shard available for [get [badmap][_doc][1]: routing [null]]',
          },
        ],
        type: 'no_shard_available_action_exception',
        reason: 'No shard available for [get [badmap][_doc][1]: routing [null]]',
      },
      status: 503,
    });
    // Through an alias of the red index, the same.
    const viaAlias = await call('GET', '/badmap-alias/_search');
    expect(viaAlias.status).toBe(503);
    expect(viaAlias.json.error.reason).toBe('all shards failed');
    const m = await call('POST', '/_mget', {
      docs: [
        { _index: 'good', _type: '_doc', _id: '1' },
        { _index: 'badrec', _type: '_doc', _id: '1' },
      ],
    });
    expect(m.json.docs[0].found).toBe(true);
    expect(m.json.docs[1].error.type).toBe('no_shard_available_action_exception');
  });

  it('finds no active primary for writes', async () => {
    const w = await call('PUT', '/badmap/_doc/1', '{"f":"x"}');
    expect(w.status).toBe(503);
    expect(w.json.error.type).toBe('unavailable_shards_exception');
    expect(w.json.error.reason).toMatch(
      /^\[badmap\]\[\d\] primary shard is not active Timeout: \[1m\], request: \[BulkShardRequest \[\[badmap\]\[\d\]\] containing \[index \{\[badmap\]\[_doc\]\[1\], source\[\{"f":"x"\}\]\}\]\]$/,
    );
    const b = await call(
      'POST',
      '/_bulk',
      '{"delete":{"_index":"badrec","_type":"_doc","_id":"1"}}\n{"index":{"_index":"good","_type":"_doc","_id":"new"}}\n{"f":"new"}\n',
    );
    expect(b.json.errors).toBe(true);
    expect(b.json.items[0].delete.status).toBe(503);
    expect(b.json.items[0].delete.error.reason).toContain(
      'containing [delete {[badrec][_doc][1]}]',
    );
    expect(b.json.items[1].index.status).toBe(201);
    const u = await call('POST', '/badjson/_doc/1/_update', { doc: { f: 'y' } });
    expect(u.status).toBe(503);
    expect(u.json.error.reason).toMatch(
      /^\[badjson\]\[\d\] \[1\] shardIt, \[0\] active : Timeout waiting for \[1m\], request: indices:data\/write\/update$/,
    );
  });

  it('leaves red indices out of stats, counts and broadcasts, as ES does', async () => {
    // Unassigned shards count in the total only; a red index has no stats entry.
    const st = await call('GET', '/_stats/docs');
    expect(st.json._shards).toEqual({ total: 2 + 2 + 2 + 10, successful: 2, failed: 0 });
    expect(Object.keys(st.json.indices)).toEqual(['good']);
    expect(st.json._all.primaries.docs.count).toBe(10);
    const one = await call('GET', '/badrec/_stats/docs');
    expect(one.json).toEqual({
      _shards: { total: 2, successful: 0, failed: 0 },
      _all: { primaries: {}, total: {} },
      indices: {},
    });
    const ns = await call('GET', '/_nodes/stats/indices/docs');
    expect(Object.values<any>(ns.json.nodes)[0].indices.docs.count).toBe(10);
    // _cat/count is a count search: partial over good and red, failed over red alone.
    expect((await call('GET', '/_cat/count?h=count')).text).toBe('10\n');
    expect((await call('GET', '/_cat/count/badrec,good?h=count')).text).toBe('10\n');
    const c = await call('GET', '/_cat/count/badrec');
    expect(c.status).toBe(503);
    expect(c.json.error.type).toBe('search_phase_execution_exception');
    // Every stats cell of a red index is empty, like a closed one's.
    const cat = await call(
      'GET',
      '/_cat/indices/badrec,good?h=index,store.size,segments.count&s=index',
    );
    expect(cat.text).toMatch(/^badrec\s+\ngood\s+\S+b\s+2\n$/);
    for (const path of ['/_refresh', '/_flush']) {
      const r = await call('POST', path);
      expect(r.json._shards, path).toEqual({ total: 16, successful: 2, failed: 0 });
    }
    // Reopened, its primaries still cannot start.
    expect((await call('POST', '/badrec/_close')).json).toEqual({ acknowledged: true });
    expect((await call('POST', '/badrec/_open')).json).toEqual({
      acknowledged: true,
      shards_acknowledged: false,
    });
    expect((await call('GET', '/_cluster/health/badrec')).json.status).toBe('red');
  });

  it('keeps serving the healthy index', async () => {
    expect((await call('GET', '/good/_doc/3')).json._source).toEqual({ f: 'v3', n: 3 });
    const s = await call('GET', '/good/_search?q=f:v7');
    expect(s.json.hits.total).toBe(1);
  });

  it('leaves the stored records as found, and can be deleted and recreated', async () => {
    await node.close();
    const env = open({ path: join(dir, 'quarry.mdb'), maxDbs: 4096 });
    const raw = env.openDB({ name: 'meta', encoding: 'binary' }).get('index:badjson') as Buffer;
    expect(raw.toString()).toBe(BAD_JSON);
    await env.close();

    node = await startNode({ dataPath: dir, port: 0 });
    expect((await call('DELETE', '/badjson,badmap,badrec')).json).toEqual({ acknowledged: true });
    expect((await call('PUT', '/badmap/_doc/1?refresh=true', '{"f":"again"}')).status).toBe(201);
    await node.close();
    node = await startNode({ dataPath: dir, port: 0 });
    const h = await call('GET', '/_cluster/health');
    expect(h.json.status).not.toBe('red');
    expect((await call('GET', '/badmap/_doc/1')).json._source).toEqual({ f: 'again' });
    expect((await call('GET', '/badjson')).status).toBe(404);
  });
});
