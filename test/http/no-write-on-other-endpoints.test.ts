/**
 * A request to an endpoint is never taken for a document write: every path and method of every
 * API in Elasticsearch 6.8.13's REST specs (`rest-api-spec/api`), with a JSON body, is sent to a
 * node; except for the APIs that create indices or write documents by design, none may create an
 * index or change a document count. Before the fix, `POST /logs/_rollover` stored its body under a
 * type named `_rollover` and `POST /new/_field_caps` created the index `new`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadApiSpecs } from '../conformance/rest/api-spec.js';
import { apiDirFor, DEFAULT_TESTS_DIR } from '../conformance/rest/paths.js';
import { startTestNode, type TestNode } from '../helpers/node.js';

/** APIs that create indices or write documents on purpose. */
const WRITERS = new Set([
  'index',
  'create',
  'update',
  'delete',
  'bulk',
  'indices.create',
  'reindex',
  'indices.rollover',
  'indices.shrink',
  'indices.split',
  'snapshot.restore',
  'update_by_query',
  'delete_by_query',
  'indices.delete',
  'indices.close',
  'indices.freeze',
]);

/** Values for the URL parts: an existing index and one that does not exist. */
const PART_VALUES: Record<string, string[]> = {
  index: ['logs', 'new'],
  type: ['_doc', 'other'],
  id: ['1'],
};

function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{([^}]+)\}/g, (_m, name: string) => values[name] ?? `x${name}`);
}

function* requestsOf(template: string, placeholders: string[]): Generator<string> {
  const lists = placeholders.map((p) => PART_VALUES[p] ?? [`x${p}`]);
  const combos: Record<string, string>[] = [{}];
  placeholders.forEach((p, i) => {
    const next: Record<string, string>[] = [];
    for (const c of combos) for (const v of lists[i]!) next.push({ ...c, [p]: v });
    combos.splice(0, combos.length, ...next);
  });
  const rooted = template.startsWith('/') ? template : `/${template}`;
  for (const c of combos) yield fill(rooted, c);
}

let node: TestNode;

/** The indices and how many index and delete operations their shards have seen. */
async function state(): Promise<string> {
  const names = await node.req('GET', '/_cat/indices?h=index&s=index');
  const ops = await node.req(
    'GET',
    '/_stats/indexing?filter_path=_all.total.indexing.index_total,_all.total.indexing.delete_total',
  );
  return `${names.text.trim()} ${JSON.stringify(ops.json)}`;
}

beforeAll(async () => {
  node = await startTestNode();
  await node.req('PUT', '/logs/_doc/1?refresh=true', { msg: 'one' });
});

afterAll(async () => {
  await node.destroy();
});

describe('endpoints other than document writes', () => {
  const specs = loadApiSpecs(apiDirFor(DEFAULT_TESTS_DIR));

  it('never create an index or store a document', async () => {
    const before = await state();
    expect(before).toContain('logs');
    const offenders: string[] = [];
    let sent = 0;
    for (const api of specs.apis.values()) {
      if (WRITERS.has(api.name)) continue;
      for (const path of api.paths) {
        for (const url of requestsOf(path.template, path.placeholders)) {
          for (const method of api.methods) {
            const withBody = method !== 'GET' && method !== 'HEAD';
            // health waits for a missing index until its timeout
            const target = api.name === 'cluster.health' ? `${url}?timeout=1ms` : url;
            await node.req(method, target, withBody ? { settings: {}, a: 1 } : undefined);
            sent++;
            const now = await state();
            if (now !== before) offenders.push(`${method} ${url} (${api.name}): ${now}`);
            if (now !== before) {
              // restore the fixture so later requests are judged on their own
              for (const line of now.split('\n')) {
                const name = line.split(/\s+/)[0];
                if (name && name !== 'logs') await node.req('DELETE', `/${name}`);
              }
              await node.req('DELETE', '/logs');
              await node.req('PUT', '/logs/_doc/1?refresh=true', { msg: 'one' });
            }
          }
        }
      }
    }
    expect(sent).toBeGreaterThan(300);
    expect(offenders).toEqual([]);
  }, 120_000);

  it('answer as ES answers a path without a route while Quarry lacks the API', async () => {
    const r = await node.req('POST', '/logs/_termvectors/1', { a: 1 });
    expect(r.status).toBe(400);
    expect(r.json.error.type).toBe('invalid_type_name_exception');
    // the painless execute API is served
    const s = await node.req('POST', '/_scripts/painless/_execute', { script: { source: '1' } });
    expect(s.status).toBe(200);
    expect(s.json).toEqual({ result: '1' });
    expect((await node.req('GET', '/_scripts/painless')).status).toBe(404);
  });

  it('answer a type that starts with _ with invalid_type_name_exception', async () => {
    const d = await node.req('POST', '/new2/_foo', { a: 1 });
    expect(d.status).toBe(400);
    expect(d.json.error.type).toBe('invalid_type_name_exception');
    expect(d.json.error.root_cause[0].type).toBe('invalid_type_name_exception');
    expect(d.json.error.reason).toBe(
      "mapping type name [_foo] can't start with '_' unless it is called [_doc]",
    );
    for (const [method, path, body] of [
      ['PUT', '/new2/_foo/1', { a: 1 }],
      ['DELETE', '/new2/_foo/1', undefined],
      ['POST', '/new2/_foo/1/_update', { doc: { a: 1 }, doc_as_upsert: true }],
      ['PUT', '/new2/_create/1', { a: 1 }],
    ] as const) {
      const x = await node.req(method, path, body);
      expect(x.status, `${method} ${path}`).toBe(400);
      expect(x.json.error.type).toBe('invalid_type_name_exception');
    }
    const bulk = await node.req(
      'POST',
      '/_bulk',
      '{"index":{"_index":"new2","_type":"_foo","_id":"1"}}\n{"a":1}\n',
      { 'content-type': 'application/x-ndjson' },
    );
    expect(bulk.json.errors).toBe(true);
    expect(bulk.json.items[0].index.error.type).toBe('invalid_type_name_exception');
    expect((await node.req('HEAD', '/new2')).status).toBe(404);
  });
});
