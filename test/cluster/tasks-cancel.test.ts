/**
 * Task cancellation in a cluster of two real node processes and a real etcd: a by-query task
 * running on one node is cancelled from the other, by id (relayed to its node) or by action
 * (every node cancels its own), and stops with `canceled` in its result.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProcessNode } from '../helpers/process-node.js';
import { call, startProcessCluster, type ProcessCluster } from '../helpers/cluster-node.js';

let cluster: ProcessCluster;
let nodes: ProcessNode[] = [];

beforeAll(async () => {
  cluster = await startProcessCluster(2, 'cancel');
  nodes = cluster.nodes;
}, 60_000);

afterAll(() => cluster?.stop());

const waitDone = async (url: string, id: string) => {
  for (let i = 0; i < 100; i++) {
    const r = await call(`${url}/_tasks/${id}`);
    if (r.json.completed) return r.json;
    await new Promise((res) => setTimeout(res, 100));
  }
  throw new Error(`task ${id} did not finish`);
};

describe('_tasks/_cancel in a two-node cluster', () => {
  it("cancels another node's by-query task, by id and by action", async () => {
    const [a, b] = [nodes[0]!.url, nodes[1]!.url];
    await call(`${a}/t`, 'PUT', { settings: { number_of_shards: 1, number_of_replicas: 0 } });
    await call(`${a}/_cluster/health/t?wait_for_status=green&timeout=20s`);
    for (let i = 0; i < 3; i++) await call(`${a}/t/_doc/${i}?refresh=true`, 'PUT', { i });
    const start = async () => {
      const r = await call(
        `${b}/t/_update_by_query?wait_for_completion=false&scroll_size=1&requests_per_second=0.00000001&conflicts=proceed`,
        'POST',
      );
      await new Promise((res) => setTimeout(res, 200));
      return r.json.task as string;
    };

    const first = await start();
    const bNode = first.split(':')[0]!;
    const byId = await call(`${a}/_tasks/${first}/_cancel`, 'POST');
    expect(byId.status).toBe(200);
    expect(byId.json.nodes[bNode].tasks[first]).toMatchObject({ cancellable: true });
    expect((await waitDone(a, first)).response.canceled).toBe('by user request');

    const second = await start();
    const byAction = await call(`${a}/_tasks/_cancel?actions=*byquery`, 'POST');
    expect(Object.keys(byAction.json.nodes)).toEqual([bNode]);
    expect(Object.keys(byAction.json.nodes[bNode].tasks)).toEqual([second]);
    expect((await waitDone(b, second)).response.canceled).toBe('by user request');
  }, 90_000);
});
