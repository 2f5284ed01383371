/**
 * GET _cluster/state as ES 6.8 answers it on one node: every metric with its fields in ES's
 * order, metadata and routing restricted by an index expression (blocks are not), flat_settings,
 * closed and red indices, index blocks, templates and stored scripts, versions that move with
 * the state, and the parameters ES checks. Routing agrees with _cat/shards and _cluster/health.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Store } from '../../src/store/store.js';
import { startTestNode, type TestNode } from '../helpers/node.js';

let node: TestNode;
let nodeId: string;

const TEMPLATE = {
  index_patterns: ['logs-*'],
  order: 2,
  version: 7,
  settings: { number_of_shards: 1, number_of_replicas: 0 },
  mappings: { _doc: { properties: { msg: { type: 'keyword' } } } },
  aliases: { logs: {} },
};

beforeAll(async () => {
  node = await startTestNode();
  nodeId = node.context.nodeId;
  await node.req('PUT', '/_template/logs', TEMPLATE);
  await node.req('PUT', '/test', {
    settings: { number_of_shards: 2, number_of_replicas: 1 },
    mappings: { _doc: { properties: { title: { type: 'text' } } } },
    aliases: { a1: {}, a0: {} },
  });
  await node.req('PUT', '/logs-1/_doc/1?refresh=true', { msg: 'hi' });
  await node.req('PUT', '/shut', { settings: { number_of_shards: 1, number_of_replicas: 0 } });
  await node.req('POST', '/shut/_close');
  await node.req('PUT', '/_scripts/twice', {
    script: { lang: 'painless', source: "doc['n'].value * 2" },
  });
});
afterAll(() => node.destroy());

const state = async (path = '') => {
  const r = await node.req('GET', `/_cluster/state${path}`);
  expect(r.status).toBe(200);
  return r.json;
};

const CLOSED_BLOCK = { '4': { description: 'index closed', retryable: false, levels: ['read', 'write'] } }; // prettier-ignore

describe('GET _cluster/state', () => {
  it('writes every metric, in ES order, and no compressed size (6.7+ default)', async () => {
    const s = await state();
    expect(Object.keys(s)).toEqual([
      'cluster_name',
      'cluster_uuid',
      'version',
      'state_uuid',
      'master_node',
      'blocks',
      'nodes',
      'metadata',
      'routing_table',
      'routing_nodes',
    ]);
    const info = await node.req('GET', '/');
    expect(s.cluster_name).toBe('elasticsearch');
    expect(s.cluster_uuid).toBe(info.json.cluster_uuid);
    expect(s.metadata.cluster_uuid).toBe(info.json.cluster_uuid);
    expect(s.master_node).toBe(nodeId);
    expect(s.state_uuid).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(s.version).toBeGreaterThanOrEqual(1);
    // the path forms and _all name the same metrics
    expect(Object.keys(await state('/_all'))).toEqual(Object.keys(s));
    expect(Object.keys(await state('/_all/_all'))).toEqual(Object.keys(s));
  });

  it('version and state_uuid stay while nothing changes and move with a change', async () => {
    const a = await state('/version');
    expect(Object.keys(a)).toEqual(['cluster_name', 'cluster_uuid', 'version', 'state_uuid']);
    const b = await state('/version');
    expect(b.version).toBe(a.version);
    expect(b.state_uuid).toBe(a.state_uuid);
    await node.req('PUT', '/test/_mapping/_doc', { properties: { n: { type: 'long' } } });
    const c = await state('/version');
    expect(c.version).toBe(a.version + 1);
    expect(c.state_uuid).not.toBe(a.state_uuid);
  });

  it('master_node and nodes: the one node, as _nodes describes it', async () => {
    expect(await state('/master_node')).toEqual({
      cluster_name: 'elasticsearch',
      cluster_uuid: node.context.clusterUuid,
      master_node: nodeId,
    });
    const nodes = (await state('/nodes')).nodes;
    const info = (await node.req('GET', '/_nodes')).json.nodes[nodeId];
    expect(nodes).toEqual({
      [nodeId]: {
        name: info.name,
        ephemeral_id: node.context.ephemeralId,
        transport_address: info.transport_address,
        attributes: {},
      },
    });
    expect(Object.keys(nodes[nodeId])).toEqual([
      'name',
      'ephemeral_id',
      'transport_address',
      'attributes',
    ]);
    expect(nodes[nodeId].transport_address).toBe('127.0.0.1:9300');
  });

  it('metadata: indices as GET _settings and _mapping show them, templates, customs', async () => {
    const md = (await state('/metadata')).metadata;
    expect(Object.keys(md)).toEqual([
      'cluster_uuid',
      'templates',
      'indices',
      'index-graveyard',
      'stored_scripts',
    ]);
    // only these four template fields (no version, no aliases)
    expect(md.templates).toEqual({
      logs: {
        index_patterns: ['logs-*'],
        order: 2,
        settings: { index: { number_of_shards: '1', number_of_replicas: '0' } },
        mappings: { _doc: { properties: { msg: { type: 'keyword' } } } },
      },
    });
    expect(Object.keys(md.indices)).toEqual(['logs-1', 'shut', 'test']);
    const settings = (await node.req('GET', '/test/_settings')).json.test.settings;
    const mappings = (await node.req('GET', '/test/_mapping')).json.test.mappings;
    const routing = (await state('/routing_table')).routing_table.indices.test.shards;
    const t = md.indices.test;
    expect(t).toEqual({
      state: 'open',
      settings,
      mappings,
      aliases: ['a0', 'a1'],
      primary_terms: { '0': 1, '1': 1 },
      in_sync_allocations: {
        '0': [routing['0'][0].allocation_id.id],
        '1': [routing['1'][0].allocation_id.id],
      },
    });
    expect(mappings._doc.properties.title).toEqual({ type: 'text' });
    expect(settings.index.number_of_shards).toBe('2');
    expect(md.indices['logs-1'].aliases).toEqual(['logs']);
    expect(md.indices['logs-1'].settings.index.number_of_shards).toBe('1');
    expect(md['index-graveyard']).toEqual({ tombstones: [] });
    expect(md.stored_scripts).toEqual({
      twice: { lang: 'painless', source: "doc['n'].value * 2" },
    });
  });

  it('flat_settings=true writes index and template settings flat', async () => {
    const md = (await state('/metadata?flat_settings=true')).metadata;
    const flat = (await node.req('GET', '/test/_settings?flat_settings=true')).json.test.settings;
    expect(md.indices.test.settings).toEqual(flat);
    expect(md.indices.test.settings['index.number_of_replicas']).toBe('1');
    expect(md.templates.logs.settings).toEqual({
      'index.number_of_replicas': '0',
      'index.number_of_shards': '1',
    });
  });

  it('routing_table: primaries STARTED here, replicas UNASSIGNED, as _cat/shards says', async () => {
    const rt = (await state('/routing_table')).routing_table;
    expect(Object.keys(rt.indices)).toEqual(['logs-1', 'test']); // closed: no routing
    const shard0 = rt.indices.test.shards['0'];
    expect(shard0).toHaveLength(2);
    expect(shard0[0]).toEqual({
      state: 'STARTED',
      primary: true,
      node: nodeId,
      relocating_node: null,
      shard: 0,
      index: 'test',
      allocation_id: { id: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/) },
    });
    const created = Number(
      (await node.req('GET', '/test/_settings')).json.test.settings.index.creation_date,
    );
    expect(shard0[1]).toEqual({
      state: 'UNASSIGNED',
      primary: false,
      node: null,
      relocating_node: null,
      shard: 0,
      index: 'test',
      recovery_source: { type: 'PEER' },
      unassigned_info: {
        reason: 'INDEX_CREATED',
        at: new Date(created).toISOString(),
        delayed: false,
        allocation_status: 'no_attempt',
      },
    });
    expect(Object.keys(shard0[1])).toEqual([
      'state',
      'primary',
      'node',
      'relocating_node',
      'shard',
      'index',
      'recovery_source',
      'unassigned_info',
    ]);
    expect(rt.indices['logs-1'].shards).toEqual({
      '0': [expect.objectContaining({ state: 'STARTED', primary: true, shard: 0 })],
    });
    const cat = await node.req('GET', '/_cat/shards/test,logs-1?h=index,shard,prirep,state&s=index,shard,prirep'); // prettier-ignore
    const fromState = Object.entries(rt.indices as Record<string, any>)
      .flatMap(([, i]) => Object.values(i.shards as Record<string, any[]>).flat())
      .map((c) => `${c.index} ${c.shard} ${c.primary ? 'p' : 'r'} ${c.state}`);
    expect(
      cat.text
        .trim()
        .split('\n')
        .map((l: string) => l.replace(/\s+/g, ' ').trim()),
    ).toEqual(fromState);
  });

  it('routing_nodes: unassigned copies in one list, started ones under the node', async () => {
    const all = await state();
    const rn = all.routing_nodes;
    expect(Object.keys(rn)).toEqual(['unassigned', 'nodes']);
    expect(Object.keys(rn.nodes)).toEqual([nodeId]);
    expect(rn.nodes[nodeId].map((c: any) => `${c.index}/${c.shard}`)).toEqual([
      'logs-1/0',
      'test/0',
      'test/1',
    ]);
    expect(rn.unassigned.map((c: any) => `${c.index}/${c.shard}/${c.primary}`)).toEqual([
      'test/0/false',
      'test/1/false',
    ]);
    expect(rn.unassigned[0]).toEqual(all.routing_table.indices.test.shards['0'][1]);
    const h = (await node.req('GET', '/_cluster/health')).json;
    expect(rn.unassigned).toHaveLength(h.unassigned_shards);
    expect(rn.nodes[nodeId]).toHaveLength(h.active_shards);
    // without nodes in the request the node appears only through its shards (ES RoutingNodes)
    expect((await state('/routing_nodes/shut')).routing_nodes).toEqual({ unassigned: [], nodes: {} }); // prettier-ignore
    expect((await state('/routing_nodes,nodes/shut')).routing_nodes).toEqual({
      unassigned: [],
      nodes: { [nodeId]: [] },
    });
  });

  it('blocks: index blocks from settings and the closed block, by id', async () => {
    expect(await state('/blocks')).toEqual({
      cluster_name: 'elasticsearch',
      cluster_uuid: node.context.clusterUuid,
      blocks: { indices: { shut: CLOSED_BLOCK } },
    });
    await node.req('PUT', '/test/_settings', {
      'index.blocks.write': true,
      'index.blocks.read_only': true,
      'index.blocks.read': true,
      'index.blocks.metadata': true,
    });
    try {
      const b = (await state('/blocks')).blocks;
      expect(b.indices.test).toEqual({
        '5': {
          description: 'index read-only (api)',
          retryable: false,
          levels: ['write', 'metadata_write'],
        },
        '7': { description: 'index read (api)', retryable: false, levels: ['read'] },
        '8': { description: 'index write (api)', retryable: false, levels: ['write'] },
        '9': {
          description: 'index metadata (api)',
          retryable: false,
          levels: ['metadata_read', 'metadata_write'],
        },
      });
      expect(Object.keys(b.indices.test)).toEqual(['5', '7', '8', '9']);
      // the cluster state is read whatever blocks an index carries
      expect((await state('/metadata/test')).metadata.indices.test.settings.index.blocks).toEqual({
        metadata: 'true',
        read: 'true',
        read_only: 'true',
        write: 'true',
      });
    } finally {
      // one at a time: a request changing a single block setting passes the metadata block
      for (const k of ['metadata', 'read_only', 'read', 'write'])
        await node.req('PUT', '/test/_settings', { [`index.blocks.${k}`]: null });
    }
    expect((await state('/blocks')).blocks).toEqual({ indices: { shut: CLOSED_BLOCK } });
  });

  it('a closed index: state close in metadata, a closed block, no routing', async () => {
    const s = await state();
    expect(s.metadata.indices.shut.state).toBe('close');
    expect(s.metadata.indices.shut.primary_terms).toEqual({ '0': 1 });
    expect(s.metadata.indices.shut.in_sync_allocations['0']).toHaveLength(1);
    expect(s.blocks.indices.shut).toEqual(CLOSED_BLOCK);
    expect(s.routing_table.indices.shut).toBeUndefined();
    const copies = [...s.routing_nodes.unassigned, ...s.routing_nodes.nodes[nodeId]];
    expect(copies.filter((c: any) => c.index === 'shut')).toEqual([]);
    // _cat/shards lists the routing table too (it listed closed indices' shards as UNASSIGNED),
    // and a closed index named there is refused by the indices stats it also asks for
    const cat = await node.req('GET', '/_cat/shards?h=index');
    expect(cat.text).not.toContain('shut');
    const named = await node.req('GET', '/_cat/shards/shut');
    expect(named.status).toBe(400);
    expect(named.json.error.type).toBe('index_closed_exception');
  });
});

describe('GET _cluster/state/{metric}/{indices}', () => {
  const names = (o: Record<string, unknown>) => Object.keys(o);

  it('restricts metadata and routing to the named indices; no templates then', async () => {
    const s = await state('/metadata,routing_table,routing_nodes/test');
    expect(names(s.metadata.indices)).toEqual(['test']);
    expect(s.metadata.templates).toEqual({});
    expect(names(s.metadata)).toEqual(['cluster_uuid', 'templates', 'indices', 'index-graveyard']);
    expect(names(s.routing_table.indices)).toEqual(['test']);
    expect(s.routing_nodes.unassigned.map((c: any) => c.index)).toEqual(['test', 'test']);
    expect(s.routing_nodes.nodes[nodeId].map((c: any) => c.index)).toEqual(['test', 'test']);
  });

  it('resolves wildcards, aliases and lists with ES lenient-open defaults', async () => {
    expect(names((await state('/metadata/*')).metadata.indices)).toEqual(['logs-1', 'test']);
    expect(names((await state('/metadata/a1')).metadata.indices)).toEqual(['test']);
    expect(names((await state('/metadata/test,logs-1')).metadata.indices).sort()).toEqual([
      'logs-1',
      'test',
    ]);
    expect(names((await state('/metadata/*?expand_wildcards=closed')).metadata.indices)).toEqual([
      'shut',
    ]);
    expect(names((await state('/metadata/shut')).metadata.indices)).toEqual(['shut']);
    // missing: ignored by default, 404 when not
    expect((await state('/metadata/nope')).metadata.indices).toEqual({});
    expect((await state('/metadata/nope*')).metadata.indices).toEqual({});
    const missing = await node.req('GET', '/_cluster/state/metadata/nope?ignore_unavailable=false');
    expect(missing.status).toBe(404);
    expect(missing.json.error.type).toBe('index_not_found_exception');
    expect(missing.json.error.index).toBe('nope');
    const none = await node.req('GET', '/_cluster/state/metadata/nope*?allow_no_indices=false');
    expect(none.status).toBe(404);
    expect(none.json.error.type).toBe('index_not_found_exception');
  });

  it('leaves blocks whole, and does not resolve indices for them', async () => {
    const s = await state('/blocks/test');
    expect(s.blocks).toEqual({ indices: { shut: CLOSED_BLOCK } });
    const r = await node.req('GET', '/_cluster/state/blocks/nope?ignore_unavailable=false');
    expect(r.status).toBe(200);
  });

  it('filters from the query string too (?metric=, as ES reads it)', async () => {
    const s = await state('?metric=nodes');
    expect(Object.keys(s)).toEqual(['cluster_name', 'cluster_uuid', 'nodes']);
  });
});

describe('metrics and parameters', () => {
  it('drops unknown metrics as ES 6.8 does (Metric.parseString with ignoreUnknown)', async () => {
    expect(await state('/foo')).toEqual({
      cluster_name: 'elasticsearch',
      cluster_uuid: node.context.clusterUuid,
    });
    const s = await state('/foo,master_node');
    expect(s.master_node).toBe(nodeId);
    expect(Object.keys(s)).toEqual(['cluster_name', 'cluster_uuid', 'master_node']);
    // `customs` is a metric: this node has no cluster customs to write
    expect(Object.keys(await state('/customs'))).toEqual(['cluster_name', 'cluster_uuid']);
  });

  it('refuses unknown parameters and bad values with ES errors', async () => {
    const r = await node.req('GET', '/_cluster/state?flat_setting=true');
    expect(r.status).toBe(400);
    expect(r.json.error).toEqual({
      root_cause: [
        {
          type: 'illegal_argument_exception',
          reason:
            'request [/_cluster/state] contains unrecognized parameter: [flat_setting] -> did you mean [flat_settings]?',
        },
      ],
      type: 'illegal_argument_exception',
      reason:
        'request [/_cluster/state] contains unrecognized parameter: [flat_setting] -> did you mean [flat_settings]?',
    });
    const v = await node.req('GET', '/_cluster/state?wait_for_metadata_version=x');
    expect(v.status).toBe(400);
    expect(v.json.error.reason).toBe(
      'Failed to parse long parameter [wait_for_metadata_version] with value [x]',
    );
    const l = await node.req('GET', '/_cluster/state?local=yes');
    expect(l.json.error.reason).toBe(
      'Failed to parse value [yes] as only [true] or [false] are allowed.',
    );
    const t = await node.req('GET', '/_cluster/state?master_timeout=5x');
    expect(t.json.error.reason).toBe(
      'failed to parse setting [master_timeout] with value [5x] as a time value: unit is missing or unrecognized',
    );
    const ok = await node.req(
      'GET',
      '/_cluster/state/version?local=true&master_timeout=10s&flat_settings=false&wait_for_timeout=1s&ignore_unavailable=true&allow_no_indices=true&expand_wildcards=open',
    );
    expect(ok.status).toBe(200);
  });

  it('wait_for_metadata_version: answers at once, after a change, or times out', async () => {
    const { version } = await state('/version');
    const now = await state(`/version?wait_for_metadata_version=${version}`);
    expect(Object.keys(now)).toEqual([
      'wait_for_timed_out',
      'cluster_name',
      'cluster_uuid',
      'version',
      'state_uuid',
    ]);
    expect(now.wait_for_timed_out).toBe(false);
    expect(now.version).toBe(version);
    const waiting = state(`/version?wait_for_metadata_version=${version + 1}&wait_for_timeout=10s`);
    await new Promise((r) => setTimeout(r, 100));
    await node.req('PUT', '/test/_settings', { 'index.number_of_replicas': 2 });
    const later = await waiting;
    expect(later.wait_for_timed_out).toBe(false);
    expect(later.version).toBe(version + 1);
    expect(
      await state(`/version?wait_for_metadata_version=${version + 50}&wait_for_timeout=50ms`),
    ).toEqual({ wait_for_timed_out: true, cluster_name: 'elasticsearch' });
    await node.req('PUT', '/test/_settings', { 'index.number_of_replicas': 1 });
  });
});

describe('a red index', () => {
  const dir = mkdtempSync(join(tmpdir(), 'quarry-state-red-'));
  let red: TestNode;
  let inSyncBefore: unknown;
  beforeAll(async () => {
    const first = await startTestNode(dir);
    await first.req('PUT', '/broken', {
      settings: { number_of_shards: 2, number_of_replicas: 1 },
      mappings: { _doc: { properties: { f: { type: 'keyword' } } } },
    });
    inSyncBefore = (await first.req('GET', '/_cluster/state/metadata')).json.metadata.indices.broken
      .in_sync_allocations;
    await first.close();
    const store = Store.open(dir);
    const meta = store.getMeta<any>('index:broken');
    meta.mapping.json.properties.f = { type: 'no_such_type' };
    await store.putMeta('index:broken', meta);
    await store.close();
    red = await startTestNode(dir);
  });
  afterAll(async () => {
    await red.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  it('has its primaries unassigned with the failure, still open in metadata', async () => {
    const r = await red.req('GET', '/_cluster/state/metadata,routing_table,routing_nodes');
    const s = r.json;
    expect(s.metadata.indices.broken.state).toBe('open');
    expect(s.metadata.indices.broken.primary_terms).toEqual({ '0': 1, '1': 1 });
    // allocation ids survive the restart, as a primary recovering its own store keeps its id
    expect(s.metadata.indices.broken.in_sync_allocations).toEqual(inSyncBefore);
    const [primary, replica] = s.routing_table.indices.broken.shards['1'];
    expect(primary).toEqual({
      state: 'UNASSIGNED',
      primary: true,
      node: null,
      relocating_node: null,
      shard: 1,
      index: 'broken',
      recovery_source: { type: 'EXISTING_STORE', bootstrap_new_history_uuid: false },
      unassigned_info: {
        reason: 'ALLOCATION_FAILED',
        at: new Date(red.context.startedAt).toISOString(),
        failed_attempts: 1,
        delayed: false,
        details: expect.stringMatching(
          new RegExp(`^failed shard on node \\[${red.context.nodeId}\\]: .*no_such_type`),
        ),
        allocation_status: 'no_valid_shard_copy',
      },
    });
    expect(replica.state).toBe('UNASSIGNED');
    expect(replica.unassigned_info.reason).toBe('INDEX_CREATED');
    expect(s.routing_nodes.unassigned).toHaveLength(4);
    expect(s.routing_nodes.nodes).toEqual({});
    const h = (await red.req('GET', '/_cluster/health')).json;
    expect(h.status).toBe('red');
    expect(h.unassigned_shards).toBe(s.routing_nodes.unassigned.length);
  });
});
