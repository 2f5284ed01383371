/**
 * Real Elasticsearch clients against a real node: the official Python client 7.x (Debian's
 * python3-elasticsearch, with doc_type) and the legacy JS client `elasticsearch` (apiVersion 6.8).
 */
import { execFile, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// The legacy client ships no types.
// @ts-expect-error untyped CommonJS module
import elasticsearch from 'elasticsearch';
import { startTestNode, type TestNode } from '../helpers/node.js';

let node: TestNode;
beforeAll(async () => {
  node = await startTestNode();
});
afterAll(async () => {
  await node.destroy();
});

function run(cmd: string, args: string[]): Promise<{ stdout: string; stderr: string }> {
  return new Promise((res) => {
    execFile(cmd, args, { encoding: 'utf8' }, (_e, stdout, stderr) => res({ stdout, stderr }));
  });
}

const PY = '/usr/bin/python3';
const hasPyClient =
  existsSync(PY) &&
  spawnSync(PY, ['-c', 'import elasticsearch'], { encoding: 'utf8' }).status === 0;

describe('official clients', () => {
  it.skipIf(!hasPyClient)(
    'Python client 7.x: info, index, get, exists, search, delete',
    async () => {
      // Asynchronous: the node runs in this process and must keep serving.
      const r = await run(PY, [
        '-W',
        'ignore::DeprecationWarning',
        resolve(__dirname, 'es-py-check.py'),
        node.url,
      ]);
      expect(r.stderr).toBe('');
      const out = JSON.parse(r.stdout);
      expect(out).toEqual({
        version: '6.8.13',
        index_result: 'created',
        index_version: 1,
        get_source: { title: 'hello', n: 1 },
        exists: true,
        search_total: 1,
        delete_result: 'deleted',
        exists_after: false,
        missing: 404,
      });
    },
  );

  it('legacy JS client (apiVersion 6.8): info, index, get, exists, delete', async () => {
    const client = new elasticsearch.Client({ host: node.url, apiVersion: '6.8', log: [] });
    const info = await client.info();
    expect(info.version.number).toBe('6.8.13');
    const idx = await client.index({
      index: 'js',
      type: '_doc',
      id: '1',
      body: { a: 1 },
      refresh: 'true',
    });
    expect(idx.result).toBe('created');
    const got = await client.get({ index: 'js', type: '_doc', id: '1' });
    expect(got._source).toEqual({ a: 1 });
    expect(await client.exists({ index: 'js', type: '_doc', id: '1' })).toBe(true);
    const search = await client.search({ index: 'js', body: { query: { match_all: {} } } });
    expect(search.hits.total).toBe(1);
    const del = await client.delete({ index: 'js', type: '_doc', id: '1' });
    expect(del.result).toBe('deleted');
    expect(await client.exists({ index: 'js', type: '_doc', id: '1' })).toBe(false);
    await expect(client.get({ index: 'js', type: '_doc', id: '1' })).rejects.toMatchObject({
      status: 404,
    });
    client.close();
  });
});
