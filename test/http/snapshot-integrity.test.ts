/**
 * Snapshot files in the repository: a second snapshot of unchanged data copies nothing again
 * (incremental), deleting a snapshot keeps the files others share, and a corrupt or half-written
 * file is reported by restore and `_status` (ES snapshot_exception), never restored silently.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs'; // prettier-ignore
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestNode, type TestNode } from '../helpers/node.js';

let node: TestNode;
const repoDir = mkdtempSync(join(tmpdir(), 'quarry-snapi-'));
const loc = join(repoDir, 'r');
const blobs = join(loc, 'blobs');

beforeAll(async () => {
  node = await startTestNode(undefined, { 'path.repo': repoDir });
  await node.req('PUT', '/_snapshot/repo', { type: 'fs', settings: { location: 'r' } });
});

afterAll(async () => {
  await node?.destroy();
  rmSync(repoDir, { recursive: true, force: true });
});

const blobFiles = () => (existsSync(blobs) ? readdirSync(blobs).sort() : []);
const blobBytes = () => blobFiles().reduce((n, f) => n + statSync(join(blobs, f)).size, 0);

async function fill(index: string, shards: number, n: number) {
  await node.req('PUT', `/${index}`, { settings: { number_of_shards: shards, number_of_replicas: 0 } }); // prettier-ignore
  let body = '';
  for (let i = 0; i < n; i++)
    body += JSON.stringify({ index: { _index: index, _type: '_doc', _id: String(i) } }) + '\n' + JSON.stringify({ n: i, text: `doc ${i}` }) + '\n'; // prettier-ignore
  const r = await node.req('POST', '/_bulk?refresh=true', body, { 'content-type': 'application/x-ndjson' }); // prettier-ignore
  expect(r.json.errors).toBe(false);
}

const snap = async (name: string, indices: string) => {
  const r = await node.req('PUT', `/_snapshot/repo/${name}?wait_for_completion=true`, { indices });
  expect(r.status).toBe(200);
  return r.json.snapshot;
};

/** The repository file each shard of `index` in snapshot `name` was kept in. */
function shardFile(name: string, index: string, shard: number): string {
  const list = JSON.parse(readFileSync(join(loc, 'quarry-snapshots.json'), 'utf8')).snapshots;
  const s = list.find((x: { snapshot: string }) => x.snapshot === name);
  return join(blobs, `${s.shards[index][shard].blob}.ndjson`);
}

describe('incremental snapshots', () => {
  it('copies no data again for unchanged shards, and only the changed shard after a write', async () => {
    await fill('inc', 2, 200);
    await snap('i1', 'inc');
    const files = blobFiles();
    const bytes = blobBytes();
    expect(files.length).toBe(2);
    const first = (await node.req('GET', '/_snapshot/repo/i1/_status')).json.snapshots[0];
    expect(first.stats.incremental.file_count).toBe(2);
    expect(first.stats.total.file_count).toBe(2);

    await snap('i2', 'inc');
    expect(blobFiles()).toEqual(files);
    expect(blobBytes()).toBe(bytes);
    const second = (await node.req('GET', '/_snapshot/repo/i2/_status')).json.snapshots[0];
    expect(second.stats.incremental).toEqual({ file_count: 0, size_in_bytes: 0 });
    expect(second.stats.total).toEqual(first.stats.total);
    expect(second.stats.number_of_files).toBe(0);

    await node.req('PUT', '/inc/_doc/new?refresh=true', { n: -1 });
    await snap('i3', 'inc');
    expect(blobFiles().length).toBe(3);
    const third = (await node.req('GET', '/_snapshot/repo/i3/_status')).json.snapshots[0];
    expect(third.stats.incremental.file_count).toBe(1);
    expect(third.stats.total.file_count).toBe(2);
  });

  it('keeps the files later snapshots share when an earlier one is deleted', async () => {
    expect((await node.req('DELETE', '/_snapshot/repo/i1')).status).toBe(200);
    expect(blobFiles().length).toBe(3); // i2 holds the same two files as i1, i3 one of them
    expect((await node.req('DELETE', '/_snapshot/repo/i3')).status).toBe(200);
    expect(blobFiles().length).toBe(2);
    const r = await node.req('POST', '/_snapshot/repo/i2/_restore?wait_for_completion=true', {
      rename_pattern: 'inc',
      rename_replacement: 'inc2',
    });
    expect(r.status).toBe(200);
    expect((await node.req('GET', '/inc2/_count')).json.count).toBe(200);
    expect((await node.req('DELETE', '/_snapshot/repo/i2')).status).toBe(200);
    expect(blobFiles()).toEqual([]);
  });
});

describe('corrupt snapshots', () => {
  const restoreFails = async (name: string, reason: string) => {
    const r = await node.req('POST', `/_snapshot/repo/${name}/_restore?wait_for_completion=true`, {
      rename_pattern: '(.+)',
      rename_replacement: 'back-$1',
    });
    expect(r.status).toBe(500);
    expect(r.json.error.type).toBe('snapshot_exception');
    expect(r.json.error.root_cause[0].type).toBe('snapshot_exception');
    expect(r.json.error.reason).toMatch(new RegExp(`^\\[repo:${name}/[\\w-]+\\] ${reason.replace(/[[\]]/g, '\\$&')}$`)); // prettier-ignore
    expect(r.json.error.caused_by.type).toBe('corrupt_state_exception');
    // nothing was created
    expect((await node.req('HEAD', '/back-cor')).status).toBe(404);
    return r;
  };

  it('reports a shard file with a flipped byte on restore and _status', async () => {
    await fill('cor', 1, 50);
    await snap('c1', 'cor');
    const f = shardFile('c1', 'cor', 0);
    const raw = readFileSync(f);
    raw[Math.floor(raw.length / 2)] ^= 0x01;
    writeFileSync(f, raw);
    await restoreFails('c1', 'failed to read shard snapshot file for [cor][0]');
    const st = await node.req('GET', '/_snapshot/repo/c1/_status');
    expect(st.status).toBe(500);
    expect(st.json.error.type).toBe('snapshot_exception');
    expect(st.json.error.reason).toContain('failed to read shard snapshot file for [cor][0]');
    // the listing still names it (ES GET reads only the snapshot's own info)
    expect((await node.req('GET', '/_snapshot/repo/c1')).json.snapshots[0].snapshot).toBe('c1');
    // deleting the broken snapshot works, and a fresh one restores
    expect((await node.req('DELETE', '/_snapshot/repo/c1')).status).toBe(200);
  });

  it('reports a half-written (truncated) shard file, and does not replace a closed index', async () => {
    await snap('c2', 'cor');
    truncateSync(shardFile('c2', 'cor', 0), 100);
    await node.req('POST', '/cor/_close');
    const r = await node.req('POST', '/_snapshot/repo/c2/_restore?wait_for_completion=true');
    expect(r.status).toBe(500);
    expect(r.json.error.reason).toContain('failed to read shard snapshot file for [cor][0]');
    // the closed index is still there, untouched
    await node.req('POST', '/cor/_open');
    expect((await node.req('GET', '/cor/_count')).json.count).toBe(50);
    expect((await node.req('DELETE', '/_snapshot/repo/c2')).status).toBe(200);
  });

  it('reports corrupt index metadata', async () => {
    const s = await snap('c3', 'cor');
    const meta = join(loc, `snap-${s.uuid}`, 'indices.json');
    const raw = readFileSync(meta);
    raw[Math.floor(raw.length / 3)] ^= 0x02;
    writeFileSync(meta, raw);
    await restoreFails('c3', 'failed to read index metadata');
    // an intact snapshot of the same data still restores
    await snap('c4', 'cor');
    const ok = await node.req('POST', '/_snapshot/repo/c4/_restore?wait_for_completion=true', {
      rename_pattern: '(.+)',
      rename_replacement: 'back-$1',
    });
    expect(ok.status).toBe(200);
    expect((await node.req('GET', '/back-cor/_count')).json.count).toBe(50);
  });

  it('reports a repository whose snapshot list is unreadable', async () => {
    await node.req('PUT', '/_snapshot/other', { type: 'fs', settings: { location: 'r2' } });
    await node.req('PUT', '/_snapshot/other/o1?wait_for_completion=true', { indices: 'cor' });
    const list = join(repoDir, 'r2', 'quarry-snapshots.json');
    writeFileSync(list, readFileSync(list, 'utf8').slice(0, 40));
    for (const [m, p] of [
      ['GET', '/_snapshot/other/_all'],
      ['POST', '/_snapshot/other/o1/_restore'],
      ['PUT', '/_snapshot/other/o2'],
    ]) {
      const r = await node.req(m!, p!);
      expect(r.status, p).toBe(500);
      expect(r.json.error.type).toBe('repository_exception');
      expect(r.json.error.reason).toBe('[other] could not read repository data from index blob');
    }
  });
});
