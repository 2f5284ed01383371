import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestNode, type TestNode } from '../helpers/node.js';

let node: TestNode;
beforeAll(async () => {
  node = await startTestNode(undefined, { 'reindex.remote.whitelist': '127.0.0.1:*' });
});
afterAll(async () => {
  await node.destroy();
});
beforeEach(async () => {
  await node.req('DELETE', '/*');
  await node.req('PUT', '/_cluster/settings', { transient: { 'action.auto_create_index': null } });
});

/** Creates `index` with `docs` (ids 1..n, optional routing) and refreshes it. */
async function seed(index: string, docs: object[], routing?: string): Promise<void> {
  await node.req('PUT', `/${index}`);
  const r = routing ? `?routing=${routing}` : '';
  for (let i = 0; i < docs.length; i++) {
    await node.req('PUT', `/${index}/_doc/${i + 1}${r}`, docs[i]);
  }
  await node.req('POST', `/${index}/_refresh`);
}

const get = async (path: string) => (await node.req('GET', path)).json;

describe('_reindex', () => {
  it('copies every document into a new index and reports created and updated', async () => {
    await seed('src', [{ u: 'a' }, { u: 'b' }, { u: 'c' }]);
    const r = await node.req('POST', '/_reindex?refresh=true', {
      source: { index: 'src' },
      dest: { index: 'dst' },
    });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({
      timed_out: false,
      total: 3,
      updated: 0,
      created: 3,
      deleted: 0,
      batches: 1,
      version_conflicts: 0,
      noops: 0,
      failures: [],
    });
    expect(Object.keys(r.json).slice(0, 5)).toEqual([
      'took',
      'timed_out',
      'total',
      'updated',
      'created',
    ]);
    expect((await get('/dst/_count')).count).toBe(3);
    expect((await get('/dst/_doc/2'))._source).toEqual({ u: 'b' });
    // again: the documents exist, so they are updated
    const again = await node.req('POST', '/_reindex', {
      source: { index: 'src' },
      dest: { index: 'dst' },
    });
    expect(again.json).toMatchObject({ created: 0, updated: 3 });
  });

  it('honours the source query, size (scroll batch) and the top-level size', async () => {
    await seed('src', [{ u: 'a' }, { u: 'b' }, { u: 'a' }, { u: 'a' }]);
    const r = await node.req('POST', '/_reindex?refresh=true', {
      size: 2,
      source: { index: 'src', size: 1, query: { term: { 'u.keyword': 'a' } } },
      dest: { index: 'dst' },
    });
    expect(r.json).toMatchObject({ created: 2, batches: 2 });
    expect((await get('/dst/_count')).count).toBe(2);
  });

  it('op_type create counts conflicts, aborting or proceeding', async () => {
    await seed('src', [{ u: 'a' }, { u: 'b' }]);
    await node.req('PUT', '/dst/_doc/1?refresh=true', { u: 'old' });
    const body = { source: { index: 'src' }, dest: { index: 'dst', op_type: 'create' } };
    const abort = await node.req('POST', '/_reindex', body);
    expect(abort.status).toBe(409);
    expect(abort.json.failures[0]).toMatchObject({ index: 'dst', id: '1', status: 409 });
    const proceed = await node.req('POST', '/_reindex', { ...body, conflicts: 'proceed' });
    expect(proceed.status).toBe(200);
    expect(proceed.json).toMatchObject({ version_conflicts: 2, created: 0 });
    expect((await get('/dst/_doc/1'))._source).toEqual({ u: 'old' });
  });

  it('external versioning carries versions over and skips older ones', async () => {
    await seed('src', [{ u: 'a' }]);
    await node.req('PUT', '/src/_doc/1?refresh=true', { u: 'a2' }); // version 2
    await node.req('PUT', '/dst/_doc/1?version=5&version_type=external&refresh=true', { u: 'x' });
    const r = await node.req('POST', '/_reindex', {
      conflicts: 'proceed',
      source: { index: 'src' },
      dest: { index: 'dst', version_type: 'external' },
    });
    expect(r.json).toMatchObject({ version_conflicts: 1, updated: 0 });
    await node.req('DELETE', '/dst');
    await node.req('POST', '/_reindex', {
      source: { index: 'src' },
      dest: { index: 'dst', version_type: 'external' },
    });
    expect(await get('/dst/_doc/1')).toMatchObject({ _version: 2, _source: { u: 'a2' } });
  });

  it('keeps, discards or sets the routing', async () => {
    await seed('src', [{ u: 'a' }], 'r1');
    for (const [routing, expected] of [
      ['keep', 'r1'],
      ['=other', 'other'],
      ['discard', undefined],
    ] as const) {
      await node.req('DELETE', '/dst');
      await node.req('POST', '/_reindex?refresh=true', {
        source: { index: 'src' },
        dest: { index: 'dst', routing },
      });
      const hit = (await get('/dst/_search')).hits.hits[0];
      expect(hit._routing).toBe(expected);
    }
  });

  it('runs a script on ctx that may rename, skip or delete documents', async () => {
    await seed('src', [{ n: 1 }, { n: 2 }, { n: 3 }]);
    await node.req('PUT', '/dst/_doc/3?refresh=true', { n: 0 });
    const r = await node.req('POST', '/_reindex?refresh=true', {
      source: { index: 'src' },
      dest: { index: 'dst' },
      script: {
        source:
          "if (ctx._source.n == 1) { ctx._id = 'one'; ctx._source.x = true } else if (ctx._source.n == 2) { ctx.op = 'noop' } else { ctx.op = 'delete' }",
      },
    });
    expect(r.json).toMatchObject({ created: 1, noops: 1, deleted: 1 });
    expect((await get('/dst/_doc/one'))._source).toEqual({ n: 1, x: true });
    expect((await get('/dst/_count')).count).toBe(1);
  });

  it('validates the request as ES does', async () => {
    const cases: Array<[object, string, number]> = [
      [{ junk: 1 }, '[reindex] unknown field [junk], parser not found', 400],
      [{ dest: { junk: 1 } }, '[dest] unknown field [junk], parser not found', 400],
      [{ dest: {} }, 'index must be specified', 400],
      [{ source: { index: 'a', from: 1 }, dest: { index: 'd' } }, 'from is not supported', 400],
      [{ source: { index: 'a', _source: false }, dest: { index: 'd' } }, '_source:false', 400],
      [
        { source: { index: 'a' }, dest: { index: 'd', routing: 'x' } },
        'routing must be unset, [keep], [discard] or [=<some new value>]',
        400,
      ],
      [
        { source: { index: 'a', remote: { host: 'http://far:9200' } }, dest: { index: 'd' } },
        '[far:9200] not whitelisted in reindex.remote.whitelist',
        400,
      ],
      [
        { source: { index: 'a', remote: { host: 'far' } }, dest: { index: 'd' } },
        '[host] must be of the form [scheme]://[host]:[port](/[pathPrefix])? but was [far]',
        400,
      ],
    ];
    for (const [body, reason, status] of cases) {
      const r = await node.req('POST', '/_reindex', body);
      expect(r.status, JSON.stringify(body)).toBe(status);
      expect(JSON.stringify(r.json.error), JSON.stringify(body)).toContain(reason);
    }
  });

  it('refuses to write into the index it reads and respects action.auto_create_index', async () => {
    await seed('src', [{ u: 'a' }]);
    const same = await node.req('POST', '/_reindex', {
      source: { index: 'src' },
      dest: { index: 'src' },
    });
    expect(same.status).toBe(400);
    expect(same.json.error.reason).toContain('reindex cannot write into an index its reading from [src]'); // prettier-ignore
    await node.req('PUT', '/_cluster/settings', {
      transient: { 'action.auto_create_index': 'src,-dst' },
    });
    const r = await node.req('POST', '/_reindex', {
      source: { index: 'src' },
      dest: { index: 'dst' },
    });
    expect(r.status).toBe(404);
    expect(r.json.error.reason).toBe(
      'no such index and [action.auto_create_index] contains [-dst] which forbids automatic creation of the index',
    );
  });

  it('runs sliced and detached, storing its result in .tasks', async () => {
    await node.req('PUT', '/src', { settings: { number_of_shards: 3 } });
    for (let i = 0; i < 20; i++) await node.req('PUT', `/src/_doc/${i}`, { i });
    await node.req('POST', '/src/_refresh');
    const r = await node.req('POST', '/_reindex?wait_for_completion=false&slices=auto', {
      source: { index: 'src' },
      dest: { index: 'dst' },
    });
    expect(r.status).toBe(200);
    const task = r.json.task as string;
    expect(task).toMatch(/.+:\d+/);
    const t = await get(`/_tasks/${task}?wait_for_completion=true`);
    expect(t.completed).toBe(true);
    expect(t.task.action).toBe('indices:data/write/reindex');
    expect(t.task.description).toBe('reindex from [src] to [dst]');
    expect(t.response).toMatchObject({ created: 20, total: 20 });
    expect(t.response.slices).toHaveLength(3);
  });

  it('reads a remote source over HTTP: query, size, source filter and routing', async () => {
    await seed(
      'src',
      [
        { u: 'a', f: 1 },
        { u: 'b', f: 2 },
        { u: 'a', f: 3 },
      ],
      'r9',
    );
    const host = node.url;
    const r = await node.req('POST', '/_reindex?refresh=true', {
      source: {
        remote: { host, socket_timeout: '1m', connect_timeout: '10s' },
        index: 'src',
        size: 1,
        query: { term: { 'u.keyword': 'a' } },
        _source: { excludes: ['f'] },
      },
      dest: { index: 'dst' },
    });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ created: 2, batches: 2, failures: [] });
    const hits = (await get('/dst/_search')).hits.hits;
    expect(hits.map((h: { _source: object }) => h._source)).toEqual([{ u: 'a' }, { u: 'a' }]);
    expect(hits.every((h: { _routing: string }) => h._routing === 'r9')).toBe(true);
    // the remote scroll is cleared
    const stats = await get('/src/_stats/search');
    expect(stats.indices.src.total.search.open_contexts).toBe(0);
  });

  it('reports remote errors with their status, and unreachable remotes', async () => {
    await seed('src', [{ u: 'a' }]);
    const broken = await node.req('POST', '/_reindex', {
      source: { remote: { host: node.url }, index: 'src', query: { garbage: 'x' } },
      dest: { index: 'dst' },
    });
    expect(broken.status).toBe(400);
    expect(broken.json.error.reason).toContain('query malformed, no start_object after query name');
    const down = await node.req('POST', '/_reindex', {
      source: { remote: { host: 'http://127.0.0.1:1' }, index: 'src' },
      dest: { index: 'dst' },
    });
    expect(down.status).toBe(500);
    expect(down.json.error.type).toBe('connect_exception');
  });
});
