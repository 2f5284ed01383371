import { describe, expect, it } from 'vitest';
import {
  applyEvents,
  decodeState,
  emptyView,
  encodeState,
  INITIAL_TERMS,
  type Kv,
  type KvEvent,
  type StateView,
  type StoredIndexMetadata,
} from '../../../../src/cluster/coordination/codec.js';
import {
  keyForCampaign,
  keyForIndex,
  keyForNode,
  keyForRouting,
  keyForTerms,
  keySpace,
  parseKey,
} from '../../../../src/cluster/coordination/keys.js';
import { applyKvOps, sortedKvs } from '../../../../src/cluster/coordination/memory-kv.js';
import { toKvOps, type StateOp } from '../../../../src/cluster/coordination/ops.js';
import type { DiscoveryNode, ShardRouting } from '../../../../src/cluster/state.js';

const ks = keySpace('qc');

const node = (id: string): DiscoveryNode => ({
  id,
  name: `node-${id}`,
  ephemeralId: `e-${id}`,
  transportAddress: '127.0.0.1:9300',
  httpAddress: '127.0.0.1:9200',
  attributes: { zone: 'a' },
  version: '0.1.0',
  esVersion: '6.8.13',
  roles: ['master', 'data', 'ingest'],
});

const index = (name: string, uuid: string, shards = 2): StoredIndexMetadata => ({
  name,
  uuid,
  state: 'open',
  settings: { 'index.number_of_shards': String(shards) },
  mappings: { _doc: { properties: { a: { type: 'keyword' } } } },
  aliases: { [`${name}-alias`]: {} },
  numberOfShards: shards,
  numberOfReplicas: 1,
  version: 1,
  mappingVersion: 1,
  settingsVersion: 1,
});

const copy = (index: string, indexUuid: string, shard: number, primary: boolean): ShardRouting => ({
  index,
  indexUuid,
  shard,
  primary,
  state: 'STARTED',
  nodeId: primary ? 'n1' : 'n2',
  relocatingNodeId: null,
  allocationId: { id: `${indexUuid}-${shard}-${primary ? 'p' : 'r'}` },
  unassignedInfo: null,
  recoverySource: null,
});

/** A store and both ways of reading it: the fold of every event, and a fresh read. */
function harness() {
  const store = new Map<string, Kv>();
  let revision = 1;
  let watched: StateView = decodeState([], revision, 'qc');
  const seen: number[] = [];
  const txn = (ops: Parameters<typeof applyKvOps>[1]) => {
    revision++;
    const events = applyKvOps(store, ops, revision);
    // As in etcd, a transaction that changes nothing takes no revision.
    if (events.length === 0) revision--;
    watched = applyEvents(watched, events);
    seen.push(watched.state.version);
    return events;
  };
  const put = (key: string, value: string) => txn([{ type: 'put', key, value }]);
  const state = (ops: StateOp[]) => txn(toKvOps(ks, ops));
  const read = () => decodeState(sortedKvs(store), revision, 'qc');
  return { store, txn, put, state, read, watched: () => watched, seen };
}

describe('keys', () => {
  it('lays keys out under /quarry/<cluster>/ and parses them back', () => {
    expect(keyForNode(ks, 'n1')).toBe('/quarry/qc/nodes/n1');
    expect(keyForIndex(ks, 'u1')).toBe('/quarry/qc/meta/indices/u1');
    expect(keyForRouting(ks, 'u1', 3)).toBe('/quarry/qc/routing/u1/3');
    expect(keyForTerms(ks, 'u1', 0)).toBe('/quarry/qc/terms/u1/0');
    expect(keyForCampaign(ks, '7587875497806385171')).toBe('/quarry/qc/master/694d8c901ea3d013');
    expect(keyForCampaign(ks, '255')).toBe('/quarry/qc/master/ff');
    expect(keySpace('c', '/other/').root).toBe('/other/c/');
    expect(parseKey(ks, '/quarry/qc/routing/u1/3')).toEqual({
      kind: 'routing',
      uuid: 'u1',
      shard: 3,
    });
    expect(parseKey(ks, '/quarry/qc/meta/settings')).toEqual({ kind: 'settings' });
    expect(parseKey(ks, '/quarry/qc/meta/templates/t')).toEqual({ kind: 'template', name: 't' });
    expect(parseKey(ks, '/quarry/qc/terms/u1/x')).toBeNull();
    expect(parseKey(ks, '/quarry/qc/terms/u1/01')).toBeNull();
    expect(parseKey(ks, '/quarry/other/nodes/n1')).toBeNull();
    expect(parseKey(ks, '/quarry/qc/nodes/')).toBeNull();
    expect(() => keyForNode(ks, 'a/b')).toThrow(/invalid key segment/);
  });
});

describe('codec', () => {
  it('an empty read is an empty state at the read revision with no uuid and no master', () => {
    const v = decodeState([], 42, 'qc');
    expect(v.state.version).toBe(42);
    expect(v.state.masterNodeId).toBeNull();
    expect(v.state.metadata.clusterUuid).toBe('_na_');
    expect(v.state.nodes.size).toBe(0);
  });

  it('round-trips a whole state through its key-values', () => {
    const h = harness();
    h.put(keyForNode(ks, 'n1'), JSON.stringify(node('n1')));
    h.put(keyForNode(ks, 'n2'), JSON.stringify(node('n2')));
    h.state([
      { type: 'putClusterUuid', clusterUuid: 'CU' },
      { type: 'putSettings', persistent: { 'a.b': '1' }, transient: { c: 'x' } },
      { type: 'putTemplate', name: 't1', body: { index_patterns: ['l*'], order: 0 } },
      { type: 'putScript', id: 's1', source: { lang: 'painless', source: '1' } },
      { type: 'putIndex', index: index('logs', 'U1') },
      {
        type: 'putTerms',
        indexUuid: 'U1',
        shard: 1,
        terms: { primaryTerm: 3, inSync: ['a', 'b'] },
      },
      { type: 'putRouting', indexUuid: 'U1', shard: 0, copies: [copy('logs', 'U1', 0, true)] },
      {
        type: 'putRouting',
        indexUuid: 'U1',
        shard: 1,
        copies: [copy('logs', 'U1', 1, true), copy('logs', 'U1', 1, false)],
      },
    ]);
    const s = h.read().state;
    expect(s.metadata.clusterUuid).toBe('CU');
    expect(s.metadata.persistentSettings).toEqual({ 'a.b': '1' });
    expect(s.metadata.transientSettings).toEqual({ c: 'x' });
    expect(s.metadata.templates.get('t1')).toEqual({ index_patterns: ['l*'], order: 0 });
    expect(s.metadata.scripts.get('s1')).toEqual({ lang: 'painless', source: '1' });
    expect(s.nodes.get('n2')).toEqual(node('n2'));
    const logs = s.metadata.indices.get('logs')!;
    expect(logs.terms).toEqual([INITIAL_TERMS, { primaryTerm: 3, inSync: ['a', 'b'] }]);
    expect(logs.mappings).toEqual(index('logs', 'U1').mappings);
    expect(s.routing.get('logs')!.shards[1]!.map((c) => c.allocationId!.id)).toEqual([
      'U1-1-p',
      'U1-1-r',
    ]);
    // The state written back out and read again is the same state.
    const again = decodeState(
      encodeState(ks, s).map((kv) => ({ ...kv, createRevision: 1, modRevision: 1 })),
      s.version,
      'qc',
    ).state;
    expect(again).toEqual(s);
    // The watcher's fold saw the same state as the fresh read.
    expect(h.watched().state).toEqual(s);
  });

  it('keeps terms and routing written before the index metadata, as a fresh read does', () => {
    const h = harness();
    h.state([
      { type: 'putTerms', indexUuid: 'U', shard: 0, terms: { primaryTerm: 2, inSync: ['x'] } },
    ]);
    h.state([{ type: 'putRouting', indexUuid: 'U', shard: 0, copies: [copy('i', 'U', 0, true)] }]);
    expect(h.watched().state.metadata.indices.size).toBe(0);
    expect(h.watched().state.routing.get('i')!.indexUuid).toBe('U');
    h.state([{ type: 'putIndex', index: index('i', 'U', 1) }]);
    expect(h.watched().state.metadata.indices.get('i')!.terms).toEqual([
      { primaryTerm: 2, inSync: ['x'] },
    ]);
    expect(h.watched().state).toEqual(h.read().state);
  });

  it('deleting an index drops its metadata, routing and terms; a new index of the same name replaces it', () => {
    const h = harness();
    h.state([
      { type: 'putIndex', index: index('i', 'OLD', 1) },
      { type: 'putRouting', indexUuid: 'OLD', shard: 0, copies: [copy('i', 'OLD', 0, true)] },
      { type: 'putTerms', indexUuid: 'OLD', shard: 0, terms: { primaryTerm: 1, inSync: ['a'] } },
    ]);
    // Put first and delete second in one transaction: the delete must not remove the new one.
    h.state([
      { type: 'putIndex', index: index('i', 'NEW', 1) },
      { type: 'putRouting', indexUuid: 'NEW', shard: 0, copies: [copy('i', 'NEW', 0, true)] },
      { type: 'deleteIndex', uuid: 'OLD' },
    ]);
    const s = h.watched().state;
    expect(s.metadata.indices.get('i')!.uuid).toBe('NEW');
    expect(s.metadata.indices.get('i')!.terms).toEqual([INITIAL_TERMS]);
    expect(s.routing.get('i')!.indexUuid).toBe('NEW');
    expect([...h.store.keys()].some((k) => k.includes('OLD'))).toBe(false);
    expect(s).toEqual(h.read().state);
    h.state([{ type: 'deleteIndex', uuid: 'NEW' }]);
    expect(h.watched().state.metadata.indices.size).toBe(0);
    expect(h.watched().state.routing.size).toBe(0);
  });

  it('the master is the candidate with the lowest create revision, and the next one when it leaves', () => {
    const h = harness();
    h.put(keyForCampaign(ks, '100'), 'n2');
    h.put(keyForCampaign(ks, '50'), 'n1');
    h.put(keyForCampaign(ks, '70'), 'n3');
    expect(h.watched().state.masterNodeId).toBe('n2');
    expect(h.read().state.masterNodeId).toBe('n2');
    // Re-putting the leader's key keeps its create revision, so it stays the leader.
    h.put(keyForCampaign(ks, '100'), 'n2');
    expect(h.watched().state.masterNodeId).toBe('n2');
    h.txn([{ type: 'delete', key: keyForCampaign(ks, '100') }]);
    expect(h.watched().state.masterNodeId).toBe('n1');
    expect(h.watched().leader!.createRevision).toBe(3);
    h.txn([{ type: 'deletePrefix', prefix: '/quarry/qc/master/' }]);
    expect(h.watched().state.masterNodeId).toBeNull();
    expect(h.watched().state).toEqual(h.read().state);
  });

  it('versions follow revisions; keys of other clusters and corrupt values are ignored', () => {
    const h = harness();
    h.put('/quarry/other/nodes/x', JSON.stringify(node('x')));
    h.put(keyForNode(ks, 'bad'), '{not json');
    h.put(keyForTerms(ks, 'U', 0), '{"primaryTerm":"one"}');
    h.put(keyForNode(ks, 'n1'), JSON.stringify(node('n1')));
    expect(h.seen).toEqual([2, 3, 4, 5]);
    expect([...h.watched().state.nodes.keys()]).toEqual(['n1']);
    expect(h.watched().indices.size).toBe(0);
    h.txn([{ type: 'delete', key: keyForNode(ks, 'n1') }]);
    expect(h.watched().state.nodes.size).toBe(0);
  });

  it('applyEvents leaves the view it was given unchanged', () => {
    const before = emptyView('qc');
    const ev: KvEvent = {
      type: 'put',
      key: keyForNode(ks, 'n1'),
      value: JSON.stringify(node('n1')),
      createRevision: 5,
      modRevision: 5,
    };
    const after = applyEvents(before, [ev]);
    expect(before.state.nodes.size).toBe(0);
    expect(before.state.version).toBe(0);
    expect(after.state.nodes.size).toBe(1);
    expect(after.state.version).toBe(5);
  });

  it('for random histories, the fold of a watcher always equals a fresh read at the same revision', () => {
    let seed = 12345;
    const rnd = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const uuids = ['U1', 'U2', 'U3'];
    const names = ['a', 'b'];
    for (let run = 0; run < 20; run++) {
      const h = harness();
      for (let step = 0; step < 60; step++) {
        const uuid = uuids[rnd(3)]!;
        const name = names[rnd(2)]!;
        const shard = rnd(3);
        const choice = rnd(10);
        const ops: StateOp[] = [];
        if (choice === 0) ops.push({ type: 'putIndex', index: index(name, uuid, 1 + rnd(3)) });
        else if (choice === 1) ops.push({ type: 'deleteIndex', uuid });
        else if (choice === 2)
          ops.push({
            type: 'putRouting',
            indexUuid: uuid,
            shard,
            copies: [copy(name, uuid, shard, true)],
          });
        else if (choice === 3)
          ops.push({
            type: 'putTerms',
            indexUuid: uuid,
            shard,
            terms: { primaryTerm: rnd(5), inSync: [`x${rnd(3)}`] },
          });
        else if (choice === 4) ops.push({ type: 'putTemplate', name, body: { order: rnd(9) } });
        else if (choice === 5) ops.push({ type: 'deleteTemplate', name });
        if (choice === 6) h.put(keyForNode(ks, name), JSON.stringify(node(name)));
        else if (choice === 7) h.txn([{ type: 'delete', key: keyForNode(ks, name) }]);
        else if (choice === 8) h.put(keyForCampaign(ks, String(1 + rnd(4))), name);
        else if (choice === 9)
          h.txn([{ type: 'delete', key: keyForCampaign(ks, String(1 + rnd(4))) }]);
        else h.state(ops);
        expect(h.watched().state).toEqual(h.read().state);
        expect(h.watched().leader).toEqual(h.read().leader);
      }
    }
  });
});
