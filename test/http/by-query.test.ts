import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestNode, type TestNode } from '../helpers/node.js';

let node: TestNode;
beforeAll(async () => {
  node = await startTestNode();
});
afterAll(async () => {
  await node.destroy();
});
beforeEach(async () => {
  await node.req('DELETE', '/*');
});

/** Creates `index` with `docs` (ids 1..n) and refreshes it. */
async function seed(index: string, docs: object[], settings: object = {}): Promise<void> {
  await node.req('PUT', `/${index}`, { settings });
  for (let i = 0; i < docs.length; i++) await node.req('PUT', `/${index}/_doc/${i + 1}`, docs[i]);
  await node.req('POST', `/${index}/_refresh`);
}

const count = async (index: string) => {
  await node.req('POST', `/${index}/_refresh`);
  return (await node.req('GET', `/${index}/_count`)).json.count as number;
};

describe('_delete_by_query', () => {
  it('deletes the matches and reports the bulk-by-scroll counters', async () => {
    await seed('t', [{ u: 'a' }, { u: 'b' }, { u: 'a' }]);
    const r = await node.req('POST', '/t/_delete_by_query', {
      query: { term: { 'u.keyword': 'a' } },
    });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({
      timed_out: false,
      total: 2,
      deleted: 2,
      batches: 1,
      version_conflicts: 0,
      noops: 0,
      retries: { bulk: 0, search: 0 },
      throttled_millis: 0,
      requests_per_second: -1,
      throttled_until_millis: 0,
      failures: [],
    });
    // delete-by-query reports neither created nor updated
    expect(r.json).not.toHaveProperty('created');
    expect(r.json).not.toHaveProperty('updated');
    expect(Object.keys(r.json)[0]).toBe('took');
    expect(await count('t')).toBe(1);
  });

  it('reports seq-no version conflicts per document and aborts with 409', async () => {
    await seed('t', [{ u: 'a' }], { index: { refresh_interval: -1 } });
    await node.req('PUT', '/t/_doc/1', { u: 'b' }); // not visible to the scan
    const r = await node.req('POST', '/t/_delete_by_query', { query: { match_all: {} } });
    expect(r.status).toBe(409);
    expect(r.json.deleted).toBe(0);
    expect(r.json.version_conflicts).toBe(1);
    const f = r.json.failures[0];
    expect(f).toMatchObject({ index: 't', type: '_doc', id: '1', status: 409 });
    expect(f.cause.type).toBe('version_conflict_engine_exception');
    expect(f.cause.reason).toBe(
      '[_doc][1]: version conflict, required seqNo [0], primary term [1]. current document has seqNo [1] and primary term [1]',
    );
    expect(f.cause.shard).toMatch(/^\d+$/);
    expect(f.cause.index).toBe('t');
  });

  it('counts conflicts and carries on with conflicts=proceed', async () => {
    await seed('t', [{ u: 'a' }, { u: 'a' }], {
      index: { refresh_interval: -1, number_of_shards: 1 },
    });
    await node.req('PUT', '/t/_doc/1', { u: 'b' });
    const r = await node.req('POST', '/t/_delete_by_query?conflicts=proceed', {
      query: { match_all: {} },
    });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ deleted: 1, version_conflicts: 1, failures: [] });
  });

  it('processes scroll_size batches and stops at size', async () => {
    await seed('t', [{}, {}, {}, {}, {}], { index: { number_of_shards: 1 } });
    const all = await node.req('POST', '/t/_delete_by_query?scroll_size=2&size=3&refresh', {
      query: { match_all: {} },
    });
    expect(all.json).toMatchObject({ total: 3, deleted: 3, batches: 2 });
    expect(await count('t')).toBe(2);
  });

  it('validates the request as ES does', async () => {
    await seed('t', [{}]);
    const v = await node.req('POST', '/t/_delete_by_query', { stored_fields: ['_id'] });
    expect(v.status).toBe(400);
    expect(v.json.error.type).toBe('action_request_validation_exception');
    expect(v.json.error.reason).toBe(
      'Validation Failed: 1: stored_fields is not supported in this context;2: query is missing;',
    );
    const from = await node.req('POST', '/t/_delete_by_query?from=1', { query: { match_all: {} } });
    expect(from.json.error.reason).toBe(
      'Validation Failed: 1: using [from] is not allowed in a scroll context;2: from is not supported in this context;',
    );
    const cases: Array<[string, string]> = [
      ['conflicts=cat', 'conflicts may only be "proceed" or "abort" but was [cat]'],
      ['size=-4', '[size] parameter cannot be negative, found [-4]'],
      ['scroll_size=asdf', 'Failed to parse int parameter [scroll_size] with value [asdf]'],
      ['slices=0', '[slices] must be a positive integer or the string "auto", but was [0]'],
      ['slices=junk', '[slices] must be a positive integer or the string "auto", but was [junk]'],
      [
        'requests_per_second=0',
        '[requests_per_second] must be a float greater than 0. Use -1 to disable throttling.',
      ],
      [
        'requests_per_second=unlimited',
        '[requests_per_second] must be a float greater than 0. Use -1 to disable throttling.',
      ],
      ['scroll_size=0', 'Validation Failed: 1: [size] cannot be [0] in a scroll context;'],
    ];
    for (const [q, msg] of cases) {
      const r = await node.req('POST', `/t/_delete_by_query?${q}`, { query: { match_all: {} } });
      expect(r.status, q).toBe(400);
      expect(r.json.error.reason, q).toBe(msg);
    }
  });

  it('fails the bulk with unavailable_shards_exception when copies are missing', async () => {
    await seed('t', [{ text: 'x' }], { index: { number_of_shards: 1, number_of_replicas: 3 } });
    const t0 = Date.now();
    const r = await node.req('POST', '/t/_delete_by_query?wait_for_active_shards=2&timeout=200ms', {
      query: { match_all: {} },
    });
    expect(Date.now() - t0).toBeGreaterThanOrEqual(190);
    expect(r.status).toBe(503);
    expect(r.json.failures[0]).toMatchObject({ index: 't', type: '_doc', id: '1', status: 503 });
    // ES UnavailableShardsException.setShard: the shard's index and number as metadata
    expect(r.json.failures[0].cause).toEqual({
      type: 'unavailable_shards_exception',
      index: 't',
      shard: '0',
      reason:
        '[t][0] Not enough active copies to meet shard count of [2] (have 1, needed 2). Timeout: [200ms], request: [BulkShardRequest [[t][0]] containing [delete {[t][_doc][1]}]]',
    });
    expect(await count('t')).toBe(1);
    const all = await node.req(
      'POST',
      '/t/_delete_by_query?wait_for_active_shards=all&timeout=0s',
      {
        query: { match_all: {} },
      },
    );
    expect(all.json.failures[0].cause.reason).toContain('shard count of [ALL] (have 1, needed 4)');
    const one = await node.req('POST', '/t/_delete_by_query?wait_for_active_shards=1', {
      query: { match_all: {} },
    });
    expect(one.json).toMatchObject({ deleted: 1, failures: [] });
  });

  it('throttles between batches at requests_per_second', async () => {
    await seed('t', [{}, {}], { index: { number_of_shards: 1 } });
    const r = await node.req('POST', '/t/_delete_by_query?scroll_size=1&requests_per_second=5', {
      query: { match_all: {} },
    });
    // two batches of one: waits of 1/5s before the second batch and before the final scroll
    expect(r.json).toMatchObject({ deleted: 2, batches: 2, requests_per_second: 5 });
    expect(r.json.throttled_millis).toBeGreaterThanOrEqual(390);
    expect(r.json.throttled_millis).toBeLessThan(420);
  });

  it('filters by routing and by type in the path', async () => {
    await node.req('PUT', '/t', { settings: { number_of_shards: 3 } });
    await node.req('PUT', '/t/doc/1?routing=a', { v: 1 });
    await node.req('PUT', '/t/doc/2?routing=c', { v: 2 }); // shard 0; `a` routes to shard 2
    await node.req('POST', '/t/_refresh');
    const other = await node.req('POST', '/t/other/_delete_by_query', { query: { match_all: {} } });
    expect(other.json.total).toBe(0);
    const r = await node.req('POST', '/t/doc/_delete_by_query?routing=a&refresh', {
      query: { match_all: {} },
    });
    expect(r.json).toMatchObject({ total: 1, deleted: 1 });
    expect((await node.req('GET', '/t/doc/2?routing=c')).json.found).toBe(true);
  });
});

describe('_update_by_query', () => {
  it('re-indexes every match, bumping versions', async () => {
    await seed('t', [{ u: 'a' }, {}]);
    const r = await node.req('POST', '/t/_update_by_query');
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ total: 2, updated: 2, deleted: 0, batches: 1, failures: [] });
    expect(r.json).not.toHaveProperty('created');
    const got = await node.req('GET', '/t/_doc/2');
    expect(got.json._version).toBe(2);
    expect(got.json._source).toEqual({});
  });

  it('runs the update script with noop, delete and index ops', async () => {
    await seed('t', [{ level: 9 }, { level: 10 }, { level: 11 }, { level: 12 }]);
    const r = await node.req('POST', '/t/_update_by_query?refresh', {
      script: {
        source:
          'int c = ctx._source.level % 3; if (c == 0) { ctx._source.done = true } else if (c == 1) { ctx.op = "noop" } else { ctx.op = "delete" }',
      },
    });
    expect(r.json).toMatchObject({ updated: 2, deleted: 1, noops: 1, batches: 1 });
    expect((await node.req('GET', '/t/_doc/1')).json._source).toEqual({ level: 9, done: true });
    expect((await node.req('GET', '/t/_doc/2')).json._version).toBe(1);
    expect((await node.req('GET', '/t/_doc/3')).json.found).toBe(false);
  });

  it('rejects scripts that change metadata, add fields or set unknown ops', async () => {
    await seed('t', [{ u: 'a' }]);
    const cases: Array<[string, string]> = [
      ['ctx._id = "x"', 'Modifying [_id] not allowed'],
      ['ctx._routing = "r"', 'Modifying [_routing] not allowed'],
      ['ctx.junk = 1', 'Invalid fields added to context [junk]'],
      [
        'ctx.op = "update"',
        'Operation type [update] not allowed, only [noop, index, delete] are allowed',
      ],
      ['ctx.op = null', 'Script cleared operation type'],
    ];
    for (const [source, msg] of cases) {
      const r = await node.req('POST', '/t/_update_by_query', { script: { source } });
      expect(r.status, source).toBe(400);
      expect(r.json.error).toMatchObject({ type: 'illegal_argument_exception', reason: msg });
    }
    const broken = await node.req('POST', '/t/_update_by_query', { script: 'syntax errors!' });
    // ES 6.8 ScriptException has no status of its own: a 500
    expect(broken.status).toBe(500);
    expect(broken.json.error.reason).toBe('compile error');
  });

  it('reports shard failures of the scroll search without writing anything', async () => {
    await node.req('PUT', '/source/foo/1?refresh', { text: 'test' });
    const r = await node.req('POST', '/source/_update_by_query', {
      query: { script: { script: { lang: 'painless', source: 'params.nope.x > 0' } } },
    });
    // the other four shards hold no documents, so only one shard fails: a partial failure
    expect(r.status).toBe(500);
    expect(r.json).toMatchObject({ updated: 0, version_conflicts: 0, batches: 0 });
    expect(r.json.failures).toHaveLength(1);
    const f = r.json.failures[0];
    expect(Object.keys(f)).toEqual(['index', 'shard', 'node', 'reason']);
    expect(f).toMatchObject({ index: 'source', node: node.context.nodeId });
    expect(f.reason).toMatchObject({
      type: 'script_exception',
      reason: 'runtime error',
      caused_by: { type: 'null_pointer_exception' },
    });
  });

  it('needs the _source it re-indexes', async () => {
    await node.req('PUT', '/t', { mappings: { doc: { _source: { enabled: false } } } });
    await node.req('PUT', '/t/doc/1?refresh', { age: 23 });
    const r = await node.req('POST', '/t/_update_by_query');
    expect(r.status).toBe(400);
    expect(r.json.error.reason).toBe("[t][doc][1] didn't store _source");
  });

  it('re-indexes a filtered _source as ES does', async () => {
    await seed('t', [{ a: 1, b: 2 }]);
    await node.req('POST', '/t/_update_by_query?_source_includes=a');
    expect((await node.req('GET', '/t/_doc/1')).json._source).toEqual({ a: 1 });
  });

  it('parses the script forms of RestUpdateByQueryAction', async () => {
    await seed('t', [{ n: 1 }]);
    const stored = await node.req('POST', '/t/_update_by_query', {
      script: { id: 'x', lang: 'painless' },
    });
    expect(stored.json.error.reason).toBe('lang cannot be specified for stored scripts');
    const none = await node.req('POST', '/t/_update_by_query', { script: { lang: 'painless' } });
    expect(none.json.error).toMatchObject({
      type: 'parse_exception',
      reason: 'expected one of [source] or [id] fields, but found none',
    });
    const params = await node.req('POST', '/t/_update_by_query', {
      script: { inline: 'ctx._source.n += params.k', params: { k: 41 } },
    });
    expect(params.json.updated).toBe(1);
    expect((await node.req('GET', '/t/_doc/1')).json._source.n).toBe(42);
  });
});

describe('slices', () => {
  it('runs one sub-task per slice and reports each slice', async () => {
    await seed('t', [{}, {}, {}, {}, {}, {}]);
    const r = await node.req('POST', '/t/_delete_by_query?slices=5&refresh', {
      query: { match_all: {} },
    });
    expect(r.json.deleted).toBe(6);
    expect(r.json.slices.map((s: { slice_id: number }) => s.slice_id)).toEqual([0, 1, 2, 3, 4]);
    const sum = r.json.slices.reduce((n: number, s: { deleted: number }) => n + s.deleted, 0);
    expect(sum).toBe(6);
    expect(r.json.slices[0]).not.toHaveProperty('created');
    expect(await count('t')).toBe(0);
  });

  it('resolves auto to the fewest shards of the targets', async () => {
    await seed('a', [{}, {}], { index: { number_of_shards: 3 } });
    await seed('b', [{}], { index: { number_of_shards: 2 } });
    const r = await node.req('POST', '/a,b/_update_by_query?slices=auto');
    expect(r.json.updated).toBe(3);
    expect(r.json.slices).toHaveLength(2);
  });

  it('accepts a manual slice in the body as one worker', async () => {
    await seed('t', [{}, {}, {}, {}, {}, {}], { index: { number_of_shards: 1 } });
    const parts = [];
    for (let id = 0; id < 2; id++) {
      const r = await node.req('POST', '/t/_update_by_query', { slice: { id, max: 2 } });
      expect(r.json).not.toHaveProperty('slices');
      parts.push(r.json.updated);
    }
    expect(parts[0] + parts[1]).toBe(6);
    const both = await node.req('POST', '/t/_update_by_query?slices=2', {
      slice: { id: 0, max: 2 },
    });
    expect(both.json.error.reason).toBe(
      "Validation Failed: 1: can't specify both manual and automatic slicing at the same time;",
    );
  });
});

describe('tasks and rethrottle', () => {
  it('runs detached, exposes the live status and stores the result in .tasks', async () => {
    await seed('t', [{}, {}, {}], { index: { number_of_shards: 1 } });
    const start = await node.req(
      'POST',
      '/t/_update_by_query?wait_for_completion=false&scroll_size=1&requests_per_second=0.00000001',
    );
    expect(start.status).toBe(200);
    const id = start.json.task as string;
    expect(id).toMatch(/^.+:\d+$/);
    await new Promise((r) => setTimeout(r, 100));
    const running = await node.req('GET', `/_tasks/${id}`);
    expect(running.json.completed).toBe(false);
    expect(running.json.task).toMatchObject({
      type: 'transport',
      action: 'indices:data/write/update/byquery',
      description: 'update-by-query [t]',
      cancellable: true,
      status: { total: 3, updated: 1, batches: 1, requests_per_second: 1e-8 },
    });
    // throttled for at most one hour (ES MAX_THROTTLE_WAIT_TIME)
    expect(running.json.task.status.throttled_until_millis).toBeGreaterThan(3_590_000);
    expect(running.json.task.status.throttled_until_millis).toBeLessThanOrEqual(3_600_000);

    const re = await node.req('POST', `/_update_by_query/${id}/_rethrottle?requests_per_second=-1`);
    expect(re.status).toBe(200);
    const nodeId = id.split(':')[0]!;
    expect(re.json.nodes[nodeId].name).toBe(node.context.nodeName);
    expect(re.json.nodes[nodeId].tasks[id].status.requests_per_second).toBe(-1);

    const done = await node.req('GET', `/_tasks/${id}?wait_for_completion=true`);
    expect(done.json.completed).toBe(true);
    expect(done.json.response).toMatchObject({
      updated: 3,
      created: 0,
      batches: 3,
      failures: [],
      throttled_millis: 0,
    });
    expect(done.json.task.status.updated).toBe(3);
    // read back from the .tasks index once the task is gone
    const again = await node.req('GET', `/_tasks/${id}`);
    expect(again.json).toEqual(done.json);
    await node.req('POST', '/.tasks/_refresh');
    const stored = await node.req('GET', `/.tasks/task/${encodeURIComponent(id)}`);
    expect(stored.json._source.completed).toBe(true);
  });

  it('stores the failure of a detached task', async () => {
    const start = await node.req('POST', '/missing/_delete_by_query?wait_for_completion=false', {
      query: { match_all: {} },
    });
    const done = await node.req('GET', `/_tasks/${start.json.task}?wait_for_completion=true`);
    expect(done.json.completed).toBe(true);
    expect(done.json.error).toMatchObject({ type: 'index_not_found_exception', index: 'missing' });
    const awaited = await node.req('POST', '/missing/_delete_by_query', {
      query: { match_all: {} },
    });
    expect(awaited.status).toBe(404);
  });

  it('splits a rethrottle among the running slices', async () => {
    await seed('t', [{}, {}, {}, {}]);
    const start = await node.req(
      'POST',
      '/t/_delete_by_query?wait_for_completion=false&slices=2&requests_per_second=0.0001',
      { query: { match_all: {} } },
    );
    const id = start.json.task as string;
    await new Promise((r) => setTimeout(r, 100));
    const running = await node.req('GET', `/_tasks/${id}`);
    // running slices report nothing yet, each slice got half of the rate
    expect(running.json.task.status.slices).toEqual([null, null]);
    const re = await node.req('POST', `/_delete_by_query/${id}/_rethrottle?requests_per_second=10`);
    const status = re.json.nodes[id.split(':')[0]!].tasks[id].status;
    expect(
      status.slices.map((s: { requests_per_second: number }) => s.requests_per_second),
    ).toEqual([5, 5]);
    expect(status.requests_per_second).toBe(10);
    const done = await node.req('GET', `/_tasks/${id}?wait_for_completion=true`);
    expect(done.json.response.deleted).toBe(4);
    expect(done.json.task.status.slices).toHaveLength(2);
    expect(done.json.response.slices).toHaveLength(2);
  });

  it('answers unknown and malformed task ids as ES does', async () => {
    const nodeId = node.context.nodeId;
    const missing = await node.req('GET', `/_tasks/${nodeId}:99999`);
    expect(missing.status).toBe(404);
    expect(missing.json.error.reason).toBe(
      `task [${nodeId}:99999] isn't running and hasn't stored its results`,
    );
    expect(missing.json.error.caused_by.type).toBe('index_not_found_exception');
    const bad = await node.req('GET', '/_tasks/abc');
    expect(bad.json.error.reason).toBe('malformed task id abc');
    const re = await node.req(
      'POST',
      `/_reindex/${nodeId}:99999/_rethrottle?requests_per_second=1`,
    );
    expect(re.status).toBe(200);
    expect(re.json).toEqual({
      node_failures: [
        {
          type: 'failed_node_exception',
          reason: `Failed node [${nodeId}]`,
          node_id: nodeId,
          caused_by: {
            type: 'resource_not_found_exception',
            reason: `task [${nodeId}:99999] is missing`,
          },
        },
      ],
      nodes: {},
    });
    const noRate = await node.req('POST', `/_reindex/${nodeId}:1/_rethrottle`);
    expect(noRate.json.error.reason).toBe('requests_per_second is a required parameter');
  });

  it('times out waiting for a task', async () => {
    await seed('t', [{}, {}], { index: { number_of_shards: 1 } });
    const start = await node.req(
      'POST',
      '/t/_update_by_query?wait_for_completion=false&scroll_size=1&requests_per_second=0.001',
    );
    const id = start.json.task as string;
    const r = await node.req('GET', `/_tasks/${id}?wait_for_completion=true&timeout=50ms`);
    expect(r.status).toBe(500);
    expect(r.json.error.type).toBe('elasticsearch_timeout_exception');
    expect(r.json.error.reason).toMatch(/^Timed out waiting for completion of \[/);
    await node.req('POST', `/_update_by_query/${id}/_rethrottle?requests_per_second=-1`);
    const done = await node.req('GET', `/_tasks/${id}?wait_for_completion=true`);
    expect(done.json.response.updated).toBe(2);
  });
});

describe('the script of _update_by_query and _reindex (one ScriptApplier)', () => {
  const script = (source: string) => ({ script: { lang: 'painless', source } });

  it('refuses a changed field before a bad op, and reads a removed null field as unchanged', async () => {
    await seed('t', [{ n: 1 }]);
    const both = await node.req('POST', '/t/_update_by_query', script("ctx._index = 'x'; ctx.op = 'bad'")); // prettier-ignore
    expect(both.status).toBe(400);
    expect(both.json.error.reason).toBe('Modifying [_index] not allowed');
    const bad = await node.req('POST', '/t/_update_by_query', script("ctx.op = 'bad'"));
    expect(bad.json.error.reason).toBe(
      'Operation type [bad] not allowed, only [noop, index, delete] are allowed',
    );
    const removed = await node.req('POST', '/t/_update_by_query?refresh', script("ctx.remove('_routing'); ctx._source.n = 2")); // prettier-ignore
    expect(removed.json).toMatchObject({ updated: 1, failures: [] });
    expect((await node.req('GET', '/t/_doc/1')).json._source).toEqual({ n: 2 });
  });

  it('lets reindex move a document and refuses added fields the same way', async () => {
    await seed('s', [{ n: 1 }]);
    const moved = await node.req('POST', '/_reindex?refresh', {
      source: { index: 's' },
      dest: { index: 'd' },
      ...script("ctx._id = 'moved'; ctx._routing = 'r'"),
    });
    expect(moved.json).toMatchObject({ created: 1, failures: [] });
    expect((await node.req('GET', '/d/_doc/moved?routing=r')).json._source).toEqual({ n: 1 });
    for (const path of ['/s/_update_by_query', '/_reindex']) {
      const body = path === '/_reindex' ? { source: { index: 's' }, dest: { index: 'd2' } } : {};
      const r = await node.req('POST', path, { ...body, ...script('ctx.extra = 1') });
      expect(r.json.error.reason).toBe('Invalid fields added to context [extra]');
    }
  });
});
