/**
 * Scroll and suggest across two real node processes and a real etcd: an index of 4 shards
 * without replicas has its data split over both nodes, so every search below reads shards on
 * both. A scroll opened on one node pages through every document once, in sort order, with
 * pages served by either node, and is cleared from the other; `_all` clears every scroll of the
 * cluster. Term and completion suggestions merge the shards of both nodes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProcessNode } from '../helpers/process-node.js';
import { call, startProcessCluster, type ProcessCluster } from '../helpers/cluster-node.js';

let cluster: ProcessCluster;
let nodes: ProcessNode[] = [];
const DOCS = 40;
const words = ['quick', 'brown', 'fox', 'lazy', 'dog'];

beforeAll(async () => {
  cluster = await startProcessCluster(2, 'scroll');
  nodes = cluster.nodes;
  const [a, b] = nodes.map((n) => n.url);
  const created = await call(`${b}/docs`, 'PUT', {
    settings: { number_of_shards: 4, number_of_replicas: 0 },
    mappings: {
      _doc: {
        properties: {
          title: { type: 'text' },
          n: { type: 'long' },
          sugg: { type: 'completion' },
        },
      },
    },
  });
  expect(created.status).toBe(200);
  const health = await call(`${a}/_cluster/health/docs?wait_for_status=green&timeout=20s`);
  expect(health.json.status).toBe('green');
  const lines: string[] = [];
  for (let i = 0; i < DOCS; i++) {
    lines.push(JSON.stringify({ index: { _index: 'docs', _type: '_doc', _id: `d${i}` } }));
    const w = words[i % words.length]!;
    lines.push(JSON.stringify({ title: `${w} ${words[(i + 2) % 5]}`, n: i, sugg: { input: `${w}${i}`, weight: i + 1 } })); // prettier-ignore
  }
  const bulk = await call(`${a}/_bulk?refresh=true`, 'POST', lines.join('\n') + '\n');
  expect(bulk.json.errors).toBe(false);
}, 90_000);

afterAll(() => cluster?.stop());

describe('scroll and suggest across two node processes', () => {
  it('holds the shards on both nodes', async () => {
    const r = await fetch(`${nodes[0]!.url}/_cat/shards/docs?h=node`);
    const owners = new Set(
      (await r.text())
        .trim()
        .split('\n')
        .map((l) => l.trim()),
    );
    expect(owners).toEqual(new Set(['d1', 'd2']));
  });

  it('scrolls through every document once, in order, pages served by either node', async () => {
    const [a, b] = nodes.map((n) => n.url);
    const first = await call(`${a}/docs/_search?scroll=1m`, 'POST', { size: 7, sort: ['n'] });
    expect(first.status).toBe(200);
    expect(first.json._shards).toEqual({ total: 4, successful: 4, skipped: 0, failed: 0 });
    const id = first.json._scroll_id as string;
    const seen: number[] = first.json.hits.hits.map((h: any) => h._source.n);
    for (let page = 0; page < 10; page++) {
      const url = page % 2 === 0 ? b : a;
      const r = await call(`${url}/_search/scroll`, 'POST', { scroll: '1m', scroll_id: id });
      expect(r.status).toBe(200);
      expect(r.json.hits.total).toBe(DOCS);
      if (r.json.hits.hits.length === 0) break;
      seen.push(...r.json.hits.hits.map((h: any) => h._source.n));
    }
    expect(seen).toEqual(Array.from({ length: DOCS }, (_, i) => i));
    const cleared = await call(`${b}/_search/scroll`, 'DELETE', { scroll_id: [id] });
    expect(cleared).toEqual({ status: 200, json: { succeeded: true, num_freed: 1 } });
    const gone = await call(`${a}/_search/scroll`, 'POST', { scroll_id: id });
    expect(gone.status).toBe(404);
    expect(gone.json.error.type).toBe('search_context_missing_exception');
  }, 30_000);

  it('clears every scroll of the cluster with _all', async () => {
    const [a, b] = nodes.map((n) => n.url);
    for (const url of [a, b]) {
      const r = await call(`${url}/docs/_search?scroll=1m`, 'POST', { size: 3 });
      expect(r.status).toBe(200);
    }
    const cleared = await call(`${b}/_search/scroll/_all`, 'DELETE');
    expect(cleared).toEqual({ status: 200, json: { succeeded: true, num_freed: 2 } });
  }, 30_000);

  it('merges term and completion suggestions of the shards on both nodes', async () => {
    const r = await call(`${nodes[1]!.url}/docs/_search?typed_keys`, 'POST', {
      size: 0,
      suggest: {
        t: { text: 'quik', term: { field: 'title', suggest_mode: 'always' } },
        c: { prefix: 'qu', completion: { field: 'sugg', size: 5 } },
      },
    });
    expect(r.status).toBe(200);
    expect(r.json._shards.total).toBe(4);
    const term = r.json.suggest['term#t'][0].options;
    // 'quick' is the first word of 8 documents and the second of 8 others
    expect(term[0]).toMatchObject({ text: 'quick', freq: 16 });
    const completion = r.json.suggest['completion#c'][0].options;
    // the best weights of all `quick` docs: 35, 30, 25, 20, 15 (weight n + 1)
    expect(completion.map((o: any) => o._id)).toEqual(['d35', 'd30', 'd25', 'd20', 'd15']);
    expect(completion[0]._source.n).toBe(35);
  }, 30_000);
});
