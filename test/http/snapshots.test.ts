/**
 * Snapshots of a lone node in an `fs` repository: taken, listed, reported, restored (renamed, over
 * a closed index, after the index was deleted) and deleted, with ES 6.8's bodies and errors.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestNode, type TestNode } from '../helpers/node.js';

let node: TestNode;
const repoDir = mkdtempSync(join(tmpdir(), 'quarry-snap-'));

beforeAll(async () => {
  node = await startTestNode(undefined, { 'path.repo': repoDir });
  await node.req('PUT', '/books', {
    settings: { number_of_shards: 2, number_of_replicas: 0 },
    mappings: { _doc: { properties: { title: { type: 'text' }, year: { type: 'integer' } } } },
    aliases: { library: {} },
  });
  for (let i = 1; i <= 5; i++)
    await node.req('PUT', `/books/_doc/${i}?routing=r${i % 2}`, { title: `book ${i}`, year: 2000 + i }); // prettier-ignore
  await node.req('PUT', '/other', { settings: { number_of_shards: 1, number_of_replicas: 0 } });
  await node.req('PUT', '/_snapshot/repo', { type: 'fs', settings: { location: 'r' } });
});

afterAll(async () => {
  await node?.destroy();
  rmSync(repoDir, { recursive: true, force: true });
});

const count = async (index: string) =>
  (await node.req('GET', `/${index}/_search?q=title:book&size=0`)).json.hits.total;

describe('snapshots', () => {
  it('creates a snapshot of the chosen indices and refuses a second of the same name', async () => {
    const r = await node.req('PUT', '/_snapshot/repo/s1?wait_for_completion=true', { indices: 'books' }); // prettier-ignore
    expect(r.status).toBe(200);
    expect(r.json.snapshot).toMatchObject({
      snapshot: 's1',
      version: '6.8.13',
      indices: ['books'],
      include_global_state: true,
      state: 'SUCCESS',
      failures: [],
      shards: { total: 2, failed: 0, successful: 2 },
    });
    const again = await node.req('PUT', '/_snapshot/repo/s1', {});
    expect(again.status).toBe(400);
    expect(again.json.error.type).toBe('invalid_snapshot_name_exception');
    expect(again.json.error.reason).toBe('[repo:s1] Invalid snapshot name [s1], snapshot with the same name already exists'); // prettier-ignore
    const missing = await node.req('PUT', '/_snapshot/repo/s9', { indices: 'nope' });
    expect(missing.status).toBe(404);
    expect(missing.json.error.type).toBe('index_not_found_exception');
    await node.req('PUT', '/_snapshot/ro', { type: 'fs', settings: { location: 'r', readonly: true } }); // prettier-ignore
    const ro = await node.req('PUT', '/_snapshot/ro/s8', {});
    expect(ro.status).toBe(500);
    expect(ro.json.error.reason).toBe('[ro] cannot create snapshot in a readonly repository');
    expect((await node.req('GET', '/_snapshot/ro/s1')).json.snapshots[0].snapshot).toBe('s1');
    expect((await node.req('DELETE', '/_snapshot/ro/s1')).status).toBe(500);
    await node.req('DELETE', '/_snapshot/ro');
    const noRepo = await node.req('PUT', '/_snapshot/none/s1', {});
    expect(noRepo.status).toBe(404);
    expect(noRepo.json.error.type).toBe('repository_missing_exception');
  });

  it('lists snapshots by name, wildcard and _all, and reports their status', async () => {
    expect((await node.req('PUT', '/_snapshot/repo/s2?wait_for_completion=true')).status).toBe(200);
    const all = await node.req('GET', '/_snapshot/repo/_all');
    expect(all.json.snapshots.map((s: { snapshot: string }) => s.snapshot)).toEqual(['s1', 's2']);
    expect(all.json.snapshots[1].indices.sort()).toEqual(['books', 'other']);
    const wild = await node.req('GET', '/_snapshot/repo/s*?verbose=false');
    expect(wild.json.snapshots[0]).toEqual({
      snapshot: 's1',
      uuid: all.json.snapshots[0].uuid,
      indices: ['books'],
      state: 'SUCCESS',
    });
    const missing = await node.req('GET', '/_snapshot/repo/nope');
    expect(missing.status).toBe(404);
    expect(missing.json.error.reason).toBe('[repo:nope] is missing');
    expect((await node.req('GET', '/_snapshot/repo/nope?ignore_unavailable=true')).json).toEqual({ snapshots: [] }); // prettier-ignore
    const status = await node.req('GET', '/_snapshot/repo/s1/_status');
    const st = status.json.snapshots[0];
    expect(st).toMatchObject({ snapshot: 's1', repository: 'repo', state: 'SUCCESS' });
    expect(st.shards_stats).toEqual({ initializing: 0, started: 0, finalizing: 0, done: 2, failed: 0, total: 2 }); // prettier-ignore
    expect(st.stats.total.file_count).toBe(2);
    expect(st.indices.books.shards['1'].stage).toBe('DONE');
    expect((await node.req('GET', '/_snapshot/_status')).json).toEqual({ snapshots: [] });
    const cat = await node.req('GET', '/_cat/snapshots/repo?h=id,status,indices,total_shards');
    expect(cat.text).toBe('s1 SUCCESS 1 2\ns2 SUCCESS 2 3\n');
  });

  it('refuses to restore over an open index, restores renamed, and over a closed index', async () => {
    const open = await node.req('POST', '/_snapshot/repo/s1/_restore', {});
    expect(open.status).toBe(500);
    expect(open.json.error.type).toBe('snapshot_restore_exception');
    expect(open.json.error.reason).toMatch(
      /^\[repo:s1\/[^\]]+\] cannot restore index \[books\] because an open index with same name already exists in the cluster/,
    );
    const renamed = await node.req('POST', '/_snapshot/repo/s1/_restore?wait_for_completion=true', {
      indices: 'books',
      rename_pattern: 'b(.+)',
      rename_replacement: 'copy_$1',
      include_aliases: false,
      index_settings: { 'index.number_of_replicas': 0 },
    });
    expect(renamed.json).toEqual({
      snapshot: { snapshot: 's1', indices: ['copy_ooks'], shards: { total: 2, failed: 0, successful: 2 } }, // prettier-ignore
    });
    expect(await count('copy_ooks')).toBe(5);
    const doc = await node.req('GET', '/copy_ooks/_doc/3?routing=r1');
    expect(doc.json._source).toEqual({ title: 'book 3', year: 2003 });
    const aliases = await node.req('GET', '/copy_ooks/_alias');
    expect(aliases.json).toEqual({ copy_ooks: { aliases: {} } });
    const mapping = await node.req('GET', '/copy_ooks/_mapping');
    expect(mapping.json.copy_ooks.mappings._doc.properties.year).toEqual({ type: 'integer' });

    await node.req('POST', '/books/_close');
    const closed = await node.req('POST', '/_snapshot/repo/s1/_restore?wait_for_completion=true', { indices: 'books' }); // prettier-ignore
    expect(closed.status).toBe(200);
    expect(await count('books')).toBe(5);
    expect(await count('library')).toBe(5);
    const rec = await node.req('GET', '/books/_recovery');
    expect(rec.json.books.shards[0]).toMatchObject({ type: 'SNAPSHOT', stage: 'DONE', source: { repository: 'repo', snapshot: 's1', index: 'books' } }); // prettier-ignore
  });

  it('fails a snapshot of a closed index unless partial, and restores only complete indices', async () => {
    await node.req('POST', '/other/_close');
    const failed = await node.req('PUT', '/_snapshot/repo/s3?wait_for_completion=true', { indices: 'other' }); // prettier-ignore
    expect(failed.json.snapshot).toMatchObject({
      state: 'FAILED',
      reason: 'Indices are closed [other]',
      failures: [{ index: 'other', shard_id: 0, reason: 'index is closed', status: 'INTERNAL_SERVER_ERROR' }], // prettier-ignore
      shards: { total: 1, failed: 1, successful: 0 },
    });
    const restoreFailed = await node.req('POST', '/_snapshot/repo/s3/_restore', {});
    expect(restoreFailed.json.error.reason).toMatch(/\] unsupported snapshot state \[FAILED\]$/);
    const partial = await node.req('PUT', '/_snapshot/repo/s4?wait_for_completion=true', { indices: 'other,copy_ooks', partial: true }); // prettier-ignore
    expect(partial.json.snapshot.state).toBe('PARTIAL');
    expect(partial.json.snapshot.shards).toEqual({ total: 3, failed: 1, successful: 2 });
    const incomplete = await node.req('POST', '/_snapshot/repo/s4/_restore', { indices: 'other' });
    expect(incomplete.json.error.reason).toMatch(/\] index \[other\] wasn't fully snapshotted - cannot restore$/); // prettier-ignore
    await node.req('DELETE', '/_snapshot/repo/s3');
    await node.req('DELETE', '/_snapshot/repo/s4');
    // a read-only index is restored with its documents and its block
    await node.req('PUT', '/copy_ooks/_settings', { 'index.blocks.write': true });
    await node.req('PUT', '/_snapshot/repo/s6?wait_for_completion=true', { indices: 'copy_ooks' });
    const ro = await node.req('POST', '/_snapshot/repo/s6/_restore?wait_for_completion=true', {
      rename_pattern: 'copy_ooks',
      rename_replacement: 'ro_copy',
    });
    expect(ro.status).toBe(200);
    expect(await count('ro_copy')).toBe(5);
    const settings = await node.req('GET', '/ro_copy/_settings');
    expect(settings.json.ro_copy.settings.index.blocks).toEqual({ write: 'true' });
    expect((await node.req('PUT', '/ro_copy/_doc/9', { title: 'x' })).status).toBe(403);
    await node.req('DELETE', '/_snapshot/repo/s6');
  });

  it('restores a deleted index with its documents intact, then deletes snapshots', async () => {
    await node.req('PUT', '/books/_doc/2?routing=r0', { title: 'book 2', year: 2002 });
    expect((await node.req('GET', '/books/_doc/2?routing=r0')).json._version).toBe(2);
    expect((await node.req('PUT', '/_snapshot/repo/s5?wait_for_completion=true', { indices: 'books' })).status).toBe(200); // prettier-ignore
    await node.req('DELETE', '/books');
    expect((await node.req('GET', '/books')).status).toBe(404);
    const r = await node.req('POST', '/_snapshot/repo/s5/_restore?wait_for_completion=true', {}); // prettier-ignore
    expect(r.status).toBe(200);
    expect(await count('books')).toBe(5);
    // documents keep their versions
    expect((await node.req('GET', '/books/_doc/2?routing=r0')).json._version).toBe(2);
    const got = await node.req('GET', '/books/_doc/4?routing=r0');
    expect(got.json._source).toEqual({ title: 'book 4', year: 2004 });
    // written through the index path: later writes and updates work as on any index
    await node.req('PUT', '/books/_doc/6?refresh=true', { title: 'book 6', year: 2006 });
    expect(await count('books')).toBe(6);

    expect((await node.req('DELETE', '/_snapshot/repo/s1')).json).toEqual({ acknowledged: true });
    expect((await node.req('DELETE', '/_snapshot/repo/s1')).status).toBe(404);
    const left = await node.req('GET', '/_snapshot/repo/_all');
    expect(left.json.snapshots.map((s: { snapshot: string }) => s.snapshot)).toEqual(['s2', 's5']);
  });

  it('restores on another node that shares the repository, with ids, routing and versions kept', async () => {
    expect((await node.req('PUT', '/_snapshot/repo/moved?wait_for_completion=true', { indices: 'books' })).status).toBe(200); // prettier-ignore
    const other = await startTestNode(undefined, { 'path.repo': repoDir });
    try {
      await other.req('PUT', '/_snapshot/shared', { type: 'fs', settings: { location: 'r' } });
      const listed = await other.req('GET', '/_snapshot/shared/moved');
      expect(listed.json.snapshots[0]).toMatchObject({ snapshot: 'moved', indices: ['books'], state: 'SUCCESS' }); // prettier-ignore
      const r = await other.req('POST', '/_snapshot/shared/moved/_restore?wait_for_completion=true', {}); // prettier-ignore
      expect(r.status).toBe(200);
      expect(r.json.snapshot.shards).toEqual({ total: 2, failed: 0, successful: 2 });
      const want = (await node.req('GET', '/books/_search?size=100&version=true&sort=_id')).json.hits.hits; // prettier-ignore
      const got = (await other.req('GET', '/books/_search?size=100&version=true&sort=_id')).json.hits.hits; // prettier-ignore
      const view = (hs: Array<Record<string, unknown>>) => hs.map((h) => [h._id, h._routing, h._version, h._source]); // prettier-ignore
      expect(view(got)).toEqual(view(want));
      expect(got.length).toBe(6);
    } finally {
      await other.destroy();
    }
  });
});
