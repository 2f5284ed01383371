/**
 * The master's update queue on a real etcd: only the elected master publishes, its updates are
 * written as diffs every node applies, and when a node leaves the master moves its copies off
 * it (nodesLeft + reroute) without being asked.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isEsError } from '../../src/common/errors.js';
import {
  newIndexRouting,
  newIndexTerms,
  reroute,
  type AllocationContext,
} from '../../src/cluster/allocation/index.js';
import type { EtcdCoordinator } from '../../src/cluster/coordination/etcd-coordinator.js';
import { startMasterService, type MasterService } from '../../src/cluster/master/master-service.js';
import type { ClusterState, IndexMetadata } from '../../src/cluster/state.js';
import { startEtcd, type EtcdCluster } from '../helpers/etcd.js';
import { coordinator, node } from './coordination-support.js';

let etcd: EtcdCluster;
const coords: EtcdCoordinator[] = [];
const services: MasterService[] = [];
let ids = 0;
const ctx = (): AllocationContext => ({
  now: Date.now(),
  settings: {},
  copies: () => new Map(),
  newAllocationId: () => `alloc-${ids++}`,
});

beforeAll(async () => {
  etcd = await startEtcd();
  for (const id of ['a', 'b', 'c']) {
    const c = coordinator(etcd.endpoints, 'ms');
    await c.start(node(id));
    coords.push(c);
    services.push(startMasterService(c, { allocation: ctx }));
  }
}, 30_000);

afterAll(async () => {
  for (const s of services) s.stop();
  for (const c of coords) await c.stop().catch(() => undefined);
  await etcd?.stop();
});

async function until(what: string, ms: number, ok: () => boolean): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

function addIndex(s: ClusterState): ClusterState {
  const meta: IndexMetadata = {
    name: 'logs',
    uuid: 'u-logs',
    state: 'open',
    settings: { 'index.number_of_shards': '3', 'index.number_of_replicas': '1' },
    mappings: null,
    aliases: {},
    numberOfShards: 3,
    numberOfReplicas: 1,
    version: 1,
    mappingVersion: 1,
    settingsVersion: 1,
    terms: newIndexTerms(3),
  };
  const next: ClusterState = {
    ...s,
    metadata: { ...s.metadata, indices: new Map(s.metadata.indices).set('logs', meta) },
    routing: new Map(s.routing).set('logs', newIndexRouting(meta, Date.now())),
  };
  return reroute(next, ctx()).state;
}

const copiesOn = (s: ClusterState, nodeId: string) =>
  [...s.routing.values()].flatMap((t) => t.shards.flat()).filter((c) => c.nodeId === nodeId);

describe('the master service', () => {
  it('publishes only from the elected master, and every node applies the diff', async () => {
    await until('a master that sees every node', 10_000, () =>
      coords.some((c) => c.isMaster() && c.state().nodes.size === 3),
    );
    const m = coords.findIndex((c) => c.isMaster());
    const follower = (m + 1) % 3;
    await expect(services[follower]!.submit('test', addIndex)).rejects.toSatisfy(
      (e: unknown) => isEsError(e) && e.type === 'not_master_exception',
    );
    const applied = await services[m]!.submit('create-index', addIndex);
    const table = applied.routing.get('logs')!;
    expect(table.shards.flat().filter((c) => c.state === 'INITIALIZING').length).toBe(3);
    await until('every node applies it', 5_000, () =>
      coords.every((c) => c.state().version >= applied.version),
    );
    for (const c of coords) expect(c.state().routing.get('logs')).toEqual(table);
    // nothing changed: nothing written
    const again = await services[m]!.submit('noop', (s) => s);
    expect(again.version).toBe(applied.version);
  });

  it('lists the updates queued behind a running one, oldest first, and forgets them when done', async () => {
    const m = coords.findIndex((c) => c.isMaster());
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const slow = services[m]!.submit('slow', (s) => s);
    // a second update waits behind the first in the queue
    const second = services[m]!.submit('second', (s) => s);
    const listed = services[m]!.pending().map((t) => t.source);
    expect(listed).toEqual(['slow', 'second']);
    release();
    await gate;
    await Promise.all([slow, second]);
    expect(services[m]!.pending()).toEqual([]);
  });

  it('moves the copies of a node that leaves off it', async () => {
    const m = coords.findIndex((c) => c.isMaster());
    const names = ['a', 'b', 'c'];
    // a node other than the master that holds a copy
    const leaving = [0, 1, 2].find(
      (i) => i !== m && copiesOn(coords[m]!.state(), names[i]!).length > 0,
    )!;
    expect(leaving).toBeDefined();
    const leavingId = names[leaving]!;
    await coords[leaving]!.stop();
    services[leaving]!.stop();
    await until(
      'the copies leave the node',
      10_000,
      () =>
        copiesOn(coords[m]!.state(), leavingId).length === 0 &&
        !coords[m]!.state().nodes.has(leavingId),
    );
    const state = coords[m]!.state();
    const unassigned = state.routing
      .get('logs')!
      .shards.flat()
      .filter((c) => c.nodeId === null);
    expect(unassigned.every((c) => c.unassignedInfo !== null)).toBe(true);
  });
});
