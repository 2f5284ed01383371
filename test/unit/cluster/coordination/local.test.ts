import { describe, expect, it } from 'vitest';
import { localCoordinator } from '../../../../src/cluster/coordination/local.js';
import type { ClusterState, DiscoveryNode } from '../../../../src/cluster/state.js';
import type { StoredIndexMetadata } from '../../../../src/cluster/coordination/codec.js';

const me: DiscoveryNode = {
  id: 'n1',
  name: 'alone',
  ephemeralId: 'e1',
  transportAddress: '127.0.0.1:9300',
  httpAddress: '127.0.0.1:9200',
  attributes: {},
  version: '0.1.0',
  esVersion: '6.8.13',
  roles: ['master', 'data', 'ingest'],
};

const index: StoredIndexMetadata = {
  name: 'logs',
  uuid: 'U',
  state: 'open',
  settings: {},
  mappings: null,
  aliases: {},
  numberOfShards: 1,
  numberOfReplicas: 0,
  version: 1,
  mappingVersion: 1,
  settingsVersion: 1,
};

describe('localCoordinator', () => {
  it('is master of its own cluster and applies each change synchronously, one version each', async () => {
    const persisted: number[] = [];
    const seen: [number, number][] = [];
    const c = localCoordinator({
      clusterName: 'solo',
      persist: (next) => persisted.push(next.version),
    });
    expect(c.isMaster()).toBe(false);
    await expect(c.masterTxn([])).rejects.toMatchObject({
      type: 'master_not_discovered_exception',
    });
    c.onState((prev, next) => seen.push([prev.version, next.version]));
    const first = await c.start(me);
    expect(first.masterNodeId).toBe('n1');
    expect(first.nodes.get('n1')).toEqual(me);
    // A new cluster gets its uuid at the first start, and keeps it after.
    expect(first.metadata.clusterUuid).toMatch(/^[\w-]{22}$/);
    expect(c.isMaster()).toBe(true);
    const pending = c.masterTxn([{ type: 'putIndex', index }]);
    // Applied before the promise settles.
    expect(c.state().metadata.indices.get('logs')!.uuid).toBe('U');
    expect(await pending).toBe(2);
    await c.masterTxn([{ type: 'putTemplate', name: 't', body: { order: 1 } }]);
    expect(c.state().version).toBe(3);
    expect(persisted).toEqual([1, 2, 3]);
    expect(seen).toEqual([
      [0, 1],
      [1, 2],
      [2, 3],
    ]);
    expect((await c.waitForVersion(3, 10)).version).toBe(3);
    await expect(c.waitForVersion(4, 10)).rejects.toMatchObject({
      type: 'process_cluster_event_timeout_exception',
    });
    await c.stop();
    expect(c.isMaster()).toBe(false);
  });

  it('a change the persistence callback refuses leaves the state as it was', async () => {
    let fail = false;
    const c = localCoordinator({
      clusterName: 'solo',
      persist: () => {
        if (fail) throw new Error('disk full');
      },
    });
    await c.start(me);
    fail = true;
    await expect(c.masterTxn([{ type: 'putIndex', index }])).rejects.toThrow('disk full');
    expect(c.state().version).toBe(1);
    expect(c.state().metadata.indices.size).toBe(0);
    fail = false;
    await c.masterTxn([{ type: 'putIndex', index }]);
    expect(c.state().version).toBe(2);
  });

  it('starts from the state its store holds, and fences terms', async () => {
    const seed = localCoordinator({ clusterName: 'solo' });
    await seed.start(me);
    await seed.masterTxn([
      { type: 'putIndex', index },
      { type: 'putTerms', indexUuid: 'U', shard: 0, terms: { primaryTerm: 1, inSync: ['a'] } },
    ]);
    const stored: ClusterState = seed.state();
    const c = localCoordinator({ clusterName: 'solo', initial: stored });
    expect(c.state().version).toBe(stored.version);
    expect(c.state().metadata.indices.get('logs')!.terms).toEqual([
      { primaryTerm: 1, inSync: ['a'] },
    ]);
    await c.start(me);
    expect(c.state().metadata.clusterUuid).toBe(stored.metadata.clusterUuid);
    await c.termTxn('U', 0, 1, { primaryTerm: 1, inSync: [] });
    await expect(c.termTxn('U', 0, 0, { primaryTerm: 1, inSync: ['b'] })).rejects.toMatchObject({
      type: 'no_longer_primary_shard_exception',
      meta: { index_uuid: 'U', shard: '0' },
    });
    expect(c.state().metadata.indices.get('logs')!.terms[0]).toEqual({
      primaryTerm: 1,
      inSync: [],
    });
  });
});
