/**
 * Documents in a cluster of two real node processes and a real etcd: writes through either node
 * reach their primaries and are on both copies before the answer (`_shards` says 2 of 2), GETs
 * read from either node, compare-and-set holds, dynamic mappings reach every node through the
 * master. A killed node leaves the other taking writes alone (1 of 2); back, its copies recover
 * and both copies of every document are identical — nothing acknowledged lost or duplicated.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEtcd, type EtcdCluster } from '../helpers/etcd.js';
import { startProcessNode, type ProcessNode } from '../helpers/process-node.js';
import { call, clusterNodeArgs } from '../helpers/cluster-node.js';

const dir = mkdtempSync(join(tmpdir(), 'quarry-data-'));
let etcd: EtcdCluster;
const nodes: ProcessNode[] = [];

const argsFor = (k: number) => clusterNodeArgs(`127.0.0.${k}`, `d${k}`, etcd);

/** Every acknowledged write: id to the `_version` and `_seq_no` it was answered with. */
const acked = new Map<string, { version: number; seqNo: number }>();

beforeAll(async () => {
  etcd = await startEtcd();
  for (const k of [1, 2]) nodes.push(await startProcessNode(join(dir, `d${k}`), argsFor(k)));
  await call(`${nodes[0]!.url}/_cluster/health?wait_for_nodes=2&timeout=10s`);
}, 60_000);

afterAll(async () => {
  for (const n of nodes) await n.stop().catch(() => undefined);
  await etcd?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('documents in a two-node cluster', () => {
  it('replicates writes from either node and reads them from either node', async () => {
    const created = await call(`${nodes[0]!.url}/docs`, 'PUT', {
      settings: {
        number_of_shards: 3,
        number_of_replicas: 1,
        'index.unassigned.node_left.delayed_timeout': '30s',
      },
      mappings: { _doc: { properties: { title: { type: 'text' } } } },
    });
    expect(created.json).toMatchObject({ acknowledged: true, shards_acknowledged: true });
    const health = await call(`${nodes[1]!.url}/_cluster/health?wait_for_status=green&timeout=20s`);
    expect(health.json.status).toBe('green');

    let lines = '';
    for (let i = 0; i < 100; i++)
      lines += `{"index":{"_index":"docs","_type":"_doc","_id":"b${i}"}}\n{"title":"bulk ${i}","n":${i}}\n`;
    const bulk = await call(`${nodes[0]!.url}/_bulk`, 'POST', lines);
    expect(bulk.json.errors).toBe(false);
    for (const item of bulk.json.items) {
      expect(item.index._shards).toEqual({ total: 2, successful: 2, failed: 0 });
      acked.set(item.index._id, { version: item.index._version, seqNo: item.index._seq_no });
    }
    for (let i = 0; i < 20; i++) {
      const r = await call(`${nodes[1]!.url}/docs/_doc/s${i}`, 'PUT', {
        title: `single ${i}`,
        tag: 'x',
      });
      expect(r.status).toBe(201);
      expect(r.json._shards).toEqual({ total: 2, successful: 2, failed: 0 });
      acked.set(`s${i}`, { version: r.json._version, seqNo: r.json._seq_no });
    }
    // the dynamic field `tag` came from a primary on either node: both nodes map it
    for (const n of nodes) {
      const m = await call(`${n.url}/docs/_mapping`);
      expect(m.json.docs.mappings._doc.properties.tag).toMatchObject({ type: 'text' });
    }
    for (const n of nodes) {
      for (const id of ['b0', 'b57', 's3', 's19']) {
        const g = await call(`${n.url}/docs/_doc/${id}`);
        expect(g.json).toMatchObject({ found: true, _version: acked.get(id)!.version });
      }
    }
  }, 60_000);

  it('applies compare-and-set on the primary from any node', async () => {
    const cur = await call(`${nodes[0]!.url}/docs/_doc/s5`);
    const ok = await call(
      `${nodes[1]!.url}/docs/_doc/s5?if_seq_no=${cur.json._seq_no}&if_primary_term=${cur.json._primary_term}`,
      'PUT',
      { title: 'swapped' },
    );
    expect(ok.status).toBe(200);
    acked.set('s5', { version: ok.json._version, seqNo: ok.json._seq_no });
    const stale = await call(
      `${nodes[0]!.url}/docs/_doc/s5?if_seq_no=${cur.json._seq_no}&if_primary_term=${cur.json._primary_term}`,
      'PUT',
      { title: 'lost' },
    );
    expect(stale.status).toBe(409);
    expect(stale.json.error.type).toBe('version_conflict_engine_exception');
    const del = await call(`${nodes[1]!.url}/docs/_doc/b99`, 'DELETE');
    expect(del.json).toMatchObject({ result: 'deleted', _shards: { total: 2, successful: 2 } });
    acked.delete('b99');
  });

  it('keeps taking writes when a node dies, and both copies agree once it is back', async () => {
    await nodes[1]!.kill9();
    for (let i = 0; i < 30; i++) {
      // a write in flight to the dying node has an unknown outcome (5xx): the client retries it
      let r = await call(`${nodes[0]!.url}/docs/_doc/k${i}`, 'PUT', { title: `while down ${i}` });
      for (let t = 0; t < 3 && r.status >= 500; t++)
        r = await call(`${nodes[0]!.url}/docs/_doc/k${i}`, 'PUT', { title: `while down ${i}` });
      expect([200, 201]).toContain(r.status);
      acked.set(`k${i}`, { version: r.json._version, seqNo: r.json._seq_no });
    }
    nodes[1] = await startProcessNode(join(dir, 'd2'), argsFor(2));
    const green = await call(`${nodes[0]!.url}/_cluster/health?wait_for_status=green&timeout=30s`);
    expect(green.json.status).toBe('green');
    // every acknowledged document, read from each node's own copy, identical on both
    for (const [id, want] of acked) {
      const copies = await Promise.all(
        nodes.map((n) => call(`${n.url}/docs/_doc/${id}?preference=_only_local`)),
      );
      for (const c of copies) expect(c.json).toMatchObject({ found: true, _version: want.version });
      expect(copies[0]!.json).toEqual(copies[1]!.json);
    }
    // the returning node's copies recovered from their primaries (PEER), seen from any node
    const rec = await call(`${nodes[0]!.url}/docs/_recovery`);
    const peers = (rec.json.docs.shards as Array<{ type: string; primary: boolean }>).filter(
      (s) => s.type === 'PEER' && !s.primary,
    );
    expect(peers.length).toBeGreaterThan(0);
    const cat = await (
      await fetch(`${nodes[1]!.url}/_cat/recovery/docs?h=shard,type,stage`)
    ).text();
    expect(cat.trim().split('\n')).toHaveLength(6);
    expect(cat).toMatch(/peer\s+done/);
    const gone = await call(`${nodes[1]!.url}/docs/_doc/b99?preference=_only_local`);
    expect(gone.json.found).toBe(false);
    // every node refreshes its copies; _cat/shards counts each copy where it is
    const refreshed = await call(`${nodes[1]!.url}/docs/_refresh`, 'POST');
    expect(refreshed.json._shards).toEqual({ total: 6, successful: 6, failed: 0 });
    const text = await (
      await fetch(`${nodes[0]!.url}/_cat/shards/docs?h=shard,prirep,docs`)
    ).text();
    const rows = text
      .trim()
      .split('\n')
      .map((l) => l.trim().split(/\s+/));
    expect(rows).toHaveLength(6);
    let primaries = 0;
    for (let s = 0; s < 3; s++) {
      const copies = rows.filter((r) => r[0] === String(s));
      expect(copies[0]![2]).toBe(copies[1]![2]);
      primaries += Number(copies.find((r) => r[1] === 'p')![2]);
    }
    expect(primaries).toBe(acked.size);
    // _cat/indices and _cat/count add the primaries' documents of every node
    for (const n of nodes) {
      const ci = (await (await fetch(`${n.url}/_cat/indices/docs?h=health,pri,rep,docs.count`)).text()).trim(); // prettier-ignore
      expect(ci.split(/\s+/)).toEqual(['green', '3', '1', String(acked.size)]);
      const cc = (await (await fetch(`${n.url}/_cat/count/docs?h=count`)).text()).trim();
      expect(cc).toBe(String(acked.size));
    }
  }, 90_000);

  it('shows the published primary terms and in-sync copies in _cluster/state', async () => {
    for (const n of nodes) {
      const st = await call(`${n.url}/_cluster/state/metadata,routing_table/docs`);
      const meta = st.json.metadata.indices.docs;
      const routing = st.json.routing_table.indices.docs.shards;
      for (const s of ['0', '1', '2']) {
        const ids = routing[s].map((c: { allocation_id: { id: string } }) => c.allocation_id.id);
        expect([...meta.in_sync_allocations[s]].sort()).toEqual(ids.sort());
        expect(meta.primary_terms[s]).toBeGreaterThanOrEqual(1);
      }
    }
  });

  it('merges mappings through the master and refuses a conflicting one', async () => {
    const put = await call(`${nodes[1]!.url}/docs/_mapping/_doc`, 'PUT', {
      properties: { code: { type: 'keyword' } },
    });
    expect(put.json).toEqual({ acknowledged: true });
    const m = await call(`${nodes[0]!.url}/docs/_mapping`);
    expect(m.json.docs.mappings._doc.properties.code).toEqual({ type: 'keyword' });
    const bad = await call(`${nodes[0]!.url}/docs/_mapping/_doc`, 'PUT', {
      properties: { code: { type: 'long' } },
    });
    expect(bad.status).toBe(400);
    expect(bad.json.error.type).toBe('illegal_argument_exception');
  });

  it('updates settings through the master: replicas removed and added again', async () => {
    const put = await call(`${nodes[1]!.url}/docs/_settings`, 'PUT', {
      index: { number_of_replicas: 0, refresh_interval: '2s' },
    });
    expect(put.json).toEqual({ acknowledged: true });
    const h0 = await call(
      `${nodes[0]!.url}/_cluster/health/docs?wait_for_status=green&timeout=10s`,
    );
    expect(h0.json).toMatchObject({ status: 'green', active_shards: 3 });
    const got = await call(`${nodes[0]!.url}/docs/_settings/index.refresh_interval`);
    expect(got.json.docs.settings.index.refresh_interval).toBe('2s');
    await call(`${nodes[0]!.url}/docs/_settings`, 'PUT', { index: { number_of_replicas: 1 } });
    const h1 = await call(
      `${nodes[1]!.url}/_cluster/health/docs?wait_for_status=green&timeout=20s`,
    );
    expect(h1.json).toMatchObject({ status: 'green', active_shards: 6 });
    const bad = await call(`${nodes[0]!.url}/docs/_settings`, 'PUT', {
      index: { number_of_shards: 9 },
    });
    expect(bad.status).toBe(400);
  }, 40_000);

  it('changes aliases on the master from any node; every node resolves them', async () => {
    for (const n of nodes) {
      const r = await call(`${n.url}/_aliases`, 'POST', {
        actions: [
          { add: { index: 'docs', alias: `via-${n.url.slice(-12, -5)}`, is_write_index: true } },
        ],
      });
      expect(r.json).toEqual({ acknowledged: true });
    }
    for (const n of nodes) {
      const a = await call(`${n.url}/_alias`);
      expect(Object.keys(a.json.docs.aliases).sort()).toHaveLength(2);
    }
    const alias = `via-${nodes[1]!.url.slice(-12, -5)}`;
    const w = await call(`${nodes[0]!.url}/${alias}/_doc/a1`, 'PUT', { title: 'through an alias' });
    expect(w.json).toMatchObject({ _index: 'docs', result: 'created' });
    const g = await call(`${nodes[1]!.url}/${alias}/_doc/a1`);
    expect(g.json).toMatchObject({ _index: 'docs', found: true });
    const missing = await call(`${nodes[1]!.url}/docs/_alias/nope`, 'DELETE');
    expect(missing.status).toBe(404);
    expect(missing.json.error.type).toBe('aliases_not_found_exception');
  });

  it('publishes templates from the master; an index created anywhere gets them', async () => {
    const t = await call(`${nodes[1]!.url}/_template/logs`, 'PUT', {
      index_patterns: ['logs-*'],
      settings: { number_of_shards: 2 },
      mappings: { _doc: { properties: { level: { type: 'keyword' } } } },
      aliases: { 'all-logs': {} },
    });
    expect(t.json).toEqual({ acknowledged: true });
    for (const n of nodes) {
      const g = await call(`${n.url}/_template/logs`);
      expect(g.json.logs.index_patterns).toEqual(['logs-*']);
    }
    const w = await call(`${nodes[0]!.url}/logs-1/_doc/1`, 'PUT', { level: 'warn', msg: 'x' });
    expect(w.status).toBe(201);
    for (const n of nodes) {
      const idx = await call(`${n.url}/logs-1`);
      expect(idx.json['logs-1'].settings.index.number_of_shards).toBe('2');
      expect(idx.json['logs-1'].mappings._doc.properties.level).toEqual({ type: 'keyword' });
      expect(Object.keys(idx.json['logs-1'].aliases)).toEqual(['all-logs']);
    }
    const del = await call(`${nodes[0]!.url}/_template/logs`, 'DELETE');
    expect(del.json).toEqual({ acknowledged: true });
    const gone = await call(`${nodes[1]!.url}/_template/logs`);
    expect(gone.status).toBe(404);
    // every node takes the index as the master made it: a typed template is not applied again
    // over a typeless index's `_doc` mapping
    await call(`${nodes[0]!.url}/_template/typed?include_type_name=true`, 'PUT', {
      index_patterns: ['tl-*'],
      mappings: { my_type: { properties: { foo: { type: 'keyword' } } } },
    });
    await call(`${nodes[1]!.url}/tl-1?include_type_name=false`, 'PUT', {
      mappings: { properties: { bar: { type: 'long' } } },
    });
    for (const n of nodes) {
      const m = await call(`${n.url}/tl-1/_mapping?include_type_name=true`);
      expect(Object.keys(m.json['tl-1'].mappings)).toEqual(['_doc']);
      expect(Object.keys(m.json['tl-1'].mappings._doc.properties).sort()).toEqual(['bar', 'foo']);
    }
    await call(`${nodes[0]!.url}/_template/typed`, 'DELETE');
  }, 30_000);

  it('publishes cluster settings from the master to every node', async () => {
    const put = await call(`${nodes[1]!.url}/_cluster/settings`, 'PUT', {
      persistent: { 'cluster.routing.allocation.enable': 'primaries' },
    });
    expect(put.json).toMatchObject({ acknowledged: true });
    for (const n of nodes) {
      const g = await call(`${n.url}/_cluster/settings?flat_settings=true`);
      expect(g.json.persistent).toEqual({ 'cluster.routing.allocation.enable': 'primaries' });
    }
    // the master allocates by them: a new index gets its primaries only
    await call(`${nodes[0]!.url}/prim`, 'PUT', {
      settings: { number_of_shards: 1, number_of_replicas: 1 },
    });
    const h = await call(`${nodes[0]!.url}/_cluster/health/prim?timeout=2s&wait_for_status=green`);
    expect(h.json).toMatchObject({ status: 'yellow', active_shards: 1, unassigned_shards: 1 });
    await call(`${nodes[0]!.url}/_cluster/settings`, 'PUT', {
      persistent: { 'cluster.routing.allocation.enable': null },
    });
    const g = await call(`${nodes[1]!.url}/_cluster/health/prim?timeout=10s&wait_for_status=green`);
    expect(g.json.status).toBe('green');
  }, 30_000);

  it('publishes stored scripts from the master; an update script runs on any primary', async () => {
    const put = await call(`${nodes[1]!.url}/_scripts/bump`, 'PUT', {
      script: { lang: 'painless', source: 'ctx._source.n += params.by' },
    });
    expect(put.json).toEqual({ acknowledged: true });
    for (const n of nodes) {
      const g = await call(`${n.url}/_scripts/bump`);
      expect(g.json).toMatchObject({ found: true, script: { lang: 'painless' } });
    }
    for (const id of ['b1', 'b2', 'b3']) {
      const u = await call(`${nodes[0]!.url}/docs/_doc/${id}/_update`, 'POST', {
        script: { id: 'bump', params: { by: 100 } },
      });
      expect(u.json.result).toBe('updated');
      const g = await call(`${nodes[1]!.url}/docs/_doc/${id}`);
      expect(g.json._source.n).toBe(Number(id.slice(1)) + 100);
    }
    await call(`${nodes[0]!.url}/_scripts/bump`, 'DELETE');
    expect((await call(`${nodes[1]!.url}/_scripts/bump`)).status).toBe(404);
  }, 30_000);

  it('publishes ingest pipelines from the master; a write through any node runs them', async () => {
    const put = await call(`${nodes[0]!.url}/_ingest/pipeline/tagger`, 'PUT', {
      processors: [{ set: { field: 'tagged', value: true } }],
    });
    expect(put.json).toEqual({ acknowledged: true });
    for (const n of nodes) {
      const g = await call(`${n.url}/_ingest/pipeline/tagger`);
      expect(g.json.tagger.processors).toHaveLength(1);
    }
    const w = await call(`${nodes[1]!.url}/docs/_doc/p1?pipeline=tagger`, 'PUT', { n: 1 });
    expect(w.status).toBe(201);
    const g = await call(`${nodes[0]!.url}/docs/_doc/p1`);
    expect(g.json._source).toEqual({ n: 1, tagged: true });
    await call(`${nodes[1]!.url}/_ingest/pipeline/tagger`, 'DELETE');
    expect((await call(`${nodes[0]!.url}/_ingest/pipeline/tagger`)).status).toBe(404);
  }, 30_000);

  it('moves a primary with _cluster/reroute: it relocates with its documents; bad commands get ES errors', async () => {
    const a = nodes[0]!.url;
    await call(`${a}/mv`, 'PUT', { settings: { number_of_shards: 1, number_of_replicas: 0 } });
    await call(`${a}/_cluster/health/mv?wait_for_status=green&timeout=10s`);
    for (let i = 0; i < 20; i++) await call(`${a}/mv/_doc/${i}`, 'PUT', { i });
    const nodesInfo = await call(`${a}/_nodes`);
    const names = Object.values(nodesInfo.json.nodes as Record<string, { name: string }>).map((n) => n.name); // prettier-ignore
    const row = (await (await fetch(`${a}/_cat/shards/mv?h=node`)).text()).trim();
    const to = names.find((n) => n !== row)!;
    const moved = await call(`${nodes[1]!.url}/_cluster/reroute`, 'POST', {
      commands: [{ move: { index: 'mv', shard: 0, from_node: row, to_node: to } }],
    });
    expect(moved.status).toBe(200);
    const h = await call(`${a}/_cluster/health/mv?wait_for_no_relocating_shards=true&wait_for_status=green&timeout=20s`); // prettier-ignore
    expect(h.json).toMatchObject({ status: 'green', relocating_shards: 0 });
    expect((await (await fetch(`${a}/_cat/shards/mv?h=node`)).text()).trim()).toBe(to);
    for (let i = 0; i < 20; i++)
      expect((await call(`${nodes[1]!.url}/mv/_doc/${i}`)).json._source).toEqual({ i });
    for (const n of nodes) {
      const p = await call(`${n.url}/_cluster/pending_tasks`);
      expect(Array.isArray(p.json.tasks)).toBe(true);
    }
    const unknown = await call(`${a}/_cluster/reroute`, 'POST', {
      commands: [{ move: { index: 'mv', shard: 0, from_node: to, to_node: 'nope' } }],
    });
    expect(unknown.status).toBe(400);
    expect(unknown.json.error.type).toBe('illegal_argument_exception');
    const assigned = await call(`${a}/_cluster/reroute`, 'POST', {
      commands: [{ allocate_stale_primary: { index: 'mv', shard: 0, node: to } }],
    });
    expect(assigned.json.error.reason).toBe('[allocate_stale_primary] primary [mv][0] is already assigned'); // prettier-ignore
  }, 40_000);

  it('explains why a copy required on no node stays unassigned', async () => {
    const a = nodes[0]!.url;
    await call(`${a}/pinned?wait_for_active_shards=0`, 'PUT', {
      settings: { number_of_shards: 1, number_of_replicas: 0, 'index.routing.allocation.require._name': 'nobody' }, // prettier-ignore
    });
    const ex = await call(`${nodes[1]!.url}/_cluster/allocation/explain`, 'POST', {
      index: 'pinned',
      shard: 0,
      primary: true,
    });
    expect(ex.json).toMatchObject({
      index: 'pinned',
      current_state: 'unassigned',
      can_allocate: 'no',
    });
    expect(JSON.stringify(ex.json.node_allocation_decisions)).toContain('require');
    const stale = await call(`${a}/_cluster/reroute`, 'POST', {
      commands: [{ allocate_stale_primary: { index: 'pinned', shard: 0, node: 'd1' } }],
    });
    expect(stale.status).toBe(400);
    expect(stale.json.error.reason).toContain('accept_data_loss');
  });

  it('deletes and updates by query across both nodes: each shard scanned on its primary', async () => {
    const [a, b] = [nodes[0]!.url, nodes[1]!.url];
    await call(`${a}/bq`, 'PUT', { settings: { number_of_shards: 4, number_of_replicas: 1 } });
    await call(`${b}/_cluster/health/bq?wait_for_status=green&timeout=20s`);
    let lines = '';
    for (let i = 0; i < 60; i++)
      lines += `{"index":{"_index":"bq","_type":"_doc","_id":"${i}"}}\n{"n":${i},"tag":"t${i % 3}"}\n`;
    await call(`${a}/_bulk?refresh=true`, 'POST', lines);
    const del = await call(`${b}/bq/_delete_by_query?refresh=true`, 'POST', {
      query: { range: { n: { lt: 20 } } },
    });
    expect(del.json).toMatchObject({ total: 20, deleted: 20, version_conflicts: 0, failures: [] });
    const upd = await call(`${a}/bq/_update_by_query?refresh=true&conflicts=proceed`, 'POST', {
      query: { term: { 'tag.keyword': 't0' } },
      script: { source: 'ctx._source.n += 1000', lang: 'painless' },
    });
    // ids 21, 24, ..., 57: tag t0 among the 40 left
    expect(upd.json).toMatchObject({ total: 13, updated: 13, failures: [] });
    for (const n of nodes) {
      expect((await call(`${n.url}/bq/_count`)).json.count).toBe(40);
      const big = await call(`${n.url}/bq/_count`, 'POST', { query: { range: { n: { gte: 1000 } } } }); // prettier-ignore
      expect(big.json.count).toBe(13);
    }
    // both copies of an updated document agree: version 2, the new source
    const copies = await Promise.all(
      nodes.map((n) => call(`${n.url}/bq/_doc/21?preference=_only_local`)),
    );
    for (const c of copies) expect(c.json).toMatchObject({ _version: 2, _source: { n: 1021 } });
    // a sorted scan merges the nodes' hits by their sort values: the two highest n go
    const sorted = await call(`${b}/bq/_delete_by_query?sort=n:desc&size=2&refresh=true`, 'POST', {
      query: { match_all: {} },
    });
    expect(sorted.json).toMatchObject({ total: 2, deleted: 2, failures: [] });
    for (const id of ['57', '54']) expect((await call(`${a}/bq/_doc/${id}`)).status).toBe(404);
    expect((await call(`${a}/bq/_doc/51`)).status).toBe(200);
    // a terms lookup is read once on the coordinating node, wherever its document lives, and
    // its values sent to every shard's node: each node deletes what its shards match
    await call(`${a}/lk/_doc/1?refresh=true`, 'PUT', { ns: [1021, 1024, 1027, 31] });
    const viaLookup = await call(`${b}/bq/_delete_by_query?refresh=true`, 'POST', {
      query: { terms: { n: { index: 'lk', type: '_doc', id: '1', path: 'ns' } } },
    });
    expect(viaLookup.json).toMatchObject({ total: 4, deleted: 4, failures: [] });
    for (const id of ['21', '24', '27', '31']) expect((await call(`${a}/bq/_doc/${id}`)).status).toBe(404); // prettier-ignore
    const noDoc = await call(`${a}/bq/_delete_by_query`, 'POST', {
      query: { terms: { n: { index: 'lk', type: '_doc', id: 'none', path: 'ns' } } },
    });
    expect(noDoc.json).toMatchObject({ total: 0, deleted: 0, failures: [] });
    // put the four back: the tests below count on the 38
    for (const [id, n] of [
      ['21', 1021],
      ['24', 1024],
      ['27', 1027],
      ['31', 31],
    ] as const)
      await call(`${a}/bq/_doc/${id}?refresh=true`, 'PUT', { n, tag: `t${Number(id) % 3}` });
    await call(`${a}/lk`, 'DELETE');
    expect((await call(`${a}/bq/_count`)).json.count).toBe(38);
    // _cat/count through a filtering alias counts the filter's matches over both nodes' shards
    await call(`${a}/_aliases`, 'POST', {
      actions: [
        { add: { index: 'bq', alias: 'bq-t1', filter: { term: { 'tag.keyword': 't1' } } } },
      ],
    });
    for (const n of nodes) {
      const r = await fetch(`${n.url}/_cat/count/bq-t1?h=count`);
      expect((await r.text()).trim()).toBe('13');
    }
    await call(`${a}/_aliases`, 'POST', { actions: [{ remove: { index: 'bq', alias: 'bq-t1' } }] });
  }, 40_000);

  it('reindexes from any node: sliced, into an index the writes create, read back everywhere', async () => {
    const [a, b] = nodes.map((n) => n.url) as [string, string];
    const r = await call(`${b}/_reindex?refresh=true&slices=auto`, 'POST', {
      source: { index: 'bq', query: { term: { 'tag.keyword': 't1' } } },
      dest: { index: 'bq-copy', routing: '=x' },
    });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ total: 13, created: 13, failures: [] });
    for (const n of nodes) expect((await call(`${n.url}/bq-copy/_count`)).json.count).toBe(13);
    const again = await call(`${a}/_reindex`, 'POST', {
      source: { index: 'bq', query: { term: { 'tag.keyword': 't1' } } },
      dest: { index: 'bq-copy', routing: '=x', op_type: 'create' },
      conflicts: 'proceed',
    });
    expect(again.json).toMatchObject({ created: 0, version_conflicts: 13 });
    const got = await call(`${a}/bq-copy/_doc/22?routing=x`);
    expect(got.json).toMatchObject({ found: true, _routing: 'x', _source: { n: 22 } });
    await call(`${a}/bq-copy`, 'DELETE');
  }, 40_000);

  it("answers SQL from any node: aggregations and hit queries over both nodes' shards", async () => {
    const sql = (url: string, query: string, extra: object = {}) =>
      call(`${url}/_sql`, 'POST', { query, ...extra });
    for (const n of nodes) {
      const groups = await sql(n.url, 'SELECT tag, COUNT(*) c FROM bq GROUP BY tag ORDER BY tag');
      expect(groups.json.rows).toEqual([
        ['t0', 11],
        ['t1', 13],
        ['t2', 14],
      ]);
      const agg = await sql(n.url, 'SELECT COUNT(*) c, MAX(n) m FROM bq');
      // the sorted delete by query above took 1057 and 1054
      expect(agg.json.rows).toEqual([[38, 1051]]);
      const hits = await sql(n.url, 'SELECT n FROM bq WHERE n < 30 ORDER BY n LIMIT 5');
      expect(hits.json.rows).toEqual([[20], [22], [23], [25], [26]]);
      // scripts on the shards' nodes divide by the Double param 2.0 as doubles, by 2 as ints
      const div = await sql(n.url, 'SELECT SUM(n / 2.0) s, SUM(n / 2) i FROM bq WHERE n < 30');
      expect(div.json.rows).toEqual([[86.5, 85]]);
    }
    // a cursor is served by the node that opened it, whichever node it is sent to
    const rows: unknown[] = [];
    let page = await sql(nodes[0]!.url, 'SELECT tag, COUNT(*) c FROM bq GROUP BY tag', {
      fetch_size: 1,
    });
    for (let k = 1; ; k++) {
      expect(page.status).toBe(200);
      rows.push(...page.json.rows);
      if (!page.json.cursor) break;
      page = await call(`${nodes[k % 2]!.url}/_sql`, 'POST', { cursor: page.json.cursor });
    }
    expect(rows).toEqual([
      ['t0', 11],
      ['t1', 13],
      ['t2', 14],
    ]);
    const open = await sql(nodes[1]!.url, 'SELECT tag FROM bq GROUP BY tag', { fetch_size: 1 });
    const closed = await call(`${nodes[0]!.url}/_sql/close`, 'POST', { cursor: open.json.cursor });
    expect(closed.json).toEqual({ succeeded: true });
    const gone = await call(`${nodes[0]!.url}/_sql`, 'POST', { cursor: open.json.cursor });
    expect(gone.status).toBe(400);
    // text formats carry the cursor in a header, relayed too
    const txt = await fetch(`${nodes[0]!.url}/_sql?format=txt`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'SELECT tag FROM bq GROUP BY tag', fetch_size: 1 }),
    });
    const cursor = txt.headers.get('cursor')!;
    const next = await fetch(`${nodes[1]!.url}/_sql?format=txt`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ cursor }),
    });
    expect(next.headers.get('content-type')).toContain('text/plain');
    expect((await next.text()).trim()).toBe('t1');
    expect(next.headers.get('cursor')).toBeTruthy();
    // hits over several pages: a scroll across both nodes, its cursor sent to either
    const pageRows: unknown[] = [];
    let hitPage = await sql(nodes[1]!.url, 'SELECT n FROM bq ORDER BY n', { fetch_size: 10 });
    for (let k = 0; k < 10; k++) {
      expect(hitPage.status).toBe(200);
      pageRows.push(...hitPage.json.rows.map((r: number[]) => r[0]));
      if (!hitPage.json.cursor) break;
      hitPage = await call(`${nodes[k % 2]!.url}/_sql`, 'POST', { cursor: hitPage.json.cursor });
    }
    const want = Array.from({ length: 40 }, (_, i) => (i % 3 === 1 ? 1020 + i : 20 + i));
    expect(pageRows).toEqual(want.filter((n) => n < 1052).sort((x, y) => x - y));
  }, 30_000);
});
