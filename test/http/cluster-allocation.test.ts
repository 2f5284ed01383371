/**
 * `_cluster/reroute` and `_cluster/allocation/explain` on a lone node: ES 6.8's bodies and errors
 * from the allocation functions run on the state the node's engine implies.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestNode, type TestNode } from '../helpers/node.js';

let node: TestNode;
let nodeId: string;
beforeAll(async () => {
  node = await startTestNode();
  await node.req('PUT', '/logs', { settings: { number_of_shards: 1, number_of_replicas: 1 } });
  nodeId = (await node.req('GET', '/_cluster/state/master_node')).json.master_node;
});
afterAll(async () => {
  await node.destroy();
});

describe('_cluster/allocation/explain', () => {
  it('explains why a replica stays unassigned on one node', async () => {
    const r = await node.req('GET', '/_cluster/allocation/explain');
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({
      index: 'logs',
      shard: 0,
      primary: false,
      current_state: 'unassigned',
      unassigned_info: { reason: 'INDEX_CREATED', last_allocation_status: 'no_attempt' },
      can_allocate: 'no',
    });
    const deciders = r.json.node_allocation_decisions[0].deciders;
    expect(deciders.map((d: { decider: string }) => d.decider)).toContain('same_shard');
  });

  it('explains a started primary', async () => {
    const r = await node.req('POST', '/_cluster/allocation/explain', {
      index: 'logs',
      shard: 0,
      primary: true,
    });
    expect(r.json).toMatchObject({ current_state: 'started', current_node: { id: nodeId } });
    expect(r.json.can_remain_on_current_node).toBe('yes');
  });
});

describe('_cluster/reroute', () => {
  it('answers the state without metadata, and explanations on request', async () => {
    const r = await node.req('POST', '/_cluster/reroute?explain=true&dry_run=true', {
      commands: [{ cancel: { index: 'logs', shard: 9, node: nodeId } }],
    });
    expect(r.status).toBe(200);
    expect(r.json.acknowledged).toBe(true);
    expect(r.json.state.metadata).toBeUndefined();
    expect(r.json.state.nodes[nodeId]).toBeDefined();
    expect(r.json.explanations[0].decisions[0]).toMatchObject({
      decider: 'cancel_allocation_command',
      decision: 'NO',
    });
  });

  it('refuses an unknown node, a move onto the shard’s own node and a stale primary over an assigned one', async () => {
    const unknown = await node.req('POST', '/_cluster/reroute', {
      commands: [{ allocate_replica: { index: 'logs', shard: 0, node: 'nope' } }],
    });
    expect(unknown.status).toBe(400);
    expect(unknown.json.error.type).toBe('illegal_argument_exception');
    expect(unknown.json.error.reason).toContain('failed to resolve [nope]');
    const same = await node.req('POST', '/_cluster/reroute', {
      commands: [{ move: { index: 'logs', shard: 0, from_node: nodeId, to_node: nodeId } }],
    });
    expect(same.status).toBe(400);
    expect(same.json.error.type).toBe('illegal_argument_exception');
    const stale = await node.req('POST', '/_cluster/reroute', {
      commands: [{ allocate_stale_primary: { index: 'logs', shard: 0, node: nodeId } }],
    });
    expect(stale.status).toBe(400);
    // ES checks the copy before accept_data_loss (unit tests cover that error)
    expect(stale.json.error.reason).toBe(
      '[allocate_stale_primary] primary [logs][0] is already assigned',
    );
  });

  it('refuses, and changes nothing, when a command would move a copy on a lone node', async () => {
    const r = await node.req('POST', '/_cluster/reroute', {
      commands: [{ cancel: { index: 'logs', shard: 0, node: nodeId, allow_primary: true } }],
    });
    expect(r.status).toBe(400);
    expect(r.json.error.reason).toContain('runs alone');
    const h = await node.req('GET', '/_cluster/health/logs');
    expect(h.json.active_primary_shards).toBe(1);
  });
});
