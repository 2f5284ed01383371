/**
 * `POST /_tasks/_cancel` and `/_tasks/{task_id}/_cancel` (ES TransportCancelTasksAction) on a
 * real lone node: a throttled update-by-query stops before its next batch and says why, listed
 * as ES lists cancelled tasks; tasks that cannot be cancelled and unknown ones are node failures.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestNode, type TestNode } from '../helpers/node.js';

let node: TestNode;

beforeAll(async () => {
  node = await startTestNode();
  await node.req('PUT', '/t', { settings: { number_of_shards: 1 } });
  for (let i = 0; i < 3; i++) await node.req('PUT', `/t/_doc/${i}?refresh=true`, { n: i });
});
afterAll(() => node.destroy());

/** Starts an update-by-query that waits (practically) forever after its first batch. */
const startThrottled = async () => {
  const r = await node.req(
    'POST',
    '/t/_update_by_query?wait_for_completion=false&scroll_size=1&requests_per_second=0.00000001&conflicts=proceed',
  );
  expect(r.status).toBe(200);
  await new Promise((res) => setTimeout(res, 100));
  return r.json.task as string;
};

const waitDone = async (id: string) => {
  for (let i = 0; i < 100; i++) {
    const r = await node.req('GET', `/_tasks/${id}`);
    if (r.json.completed) return r.json;
    await new Promise((res) => setTimeout(res, 50));
  }
  throw new Error(`task ${id} did not finish`);
};

describe('tasks cancel', () => {
  it('cancels a running by-query task by id, which stops and reports why', async () => {
    const id = await startThrottled();
    const [nodeId, num] = id.split(':');
    const r = await node.req('POST', `/_tasks/${id}/_cancel`);
    expect(r.status).toBe(200);
    const t = r.json.nodes[nodeId!].tasks[id];
    expect(t).toMatchObject({
      node: nodeId,
      id: Number(num),
      action: 'indices:data/write/update/byquery',
      cancellable: true,
    });
    expect(t.status).toBeUndefined();
    const done = await waitDone(id);
    expect(done.response.canceled).toBe('by user request');
    expect(done.response.updated).toBe(1);
  });

  it('cancels every matching task, and lists none when nothing matches', async () => {
    const none = await node.req('POST', '/_tasks/_cancel?actions=unknown_action');
    expect(none.json).toEqual({ nodes: {} });
    const id = await startThrottled();
    const r = await node.req('POST', '/_tasks/_cancel?actions=*byquery');
    expect(Object.keys(r.json.nodes[node.context.nodeId].tasks)).toEqual([id]);
    expect((await waitDone(id)).response.canceled).toBe('by user request');
  });

  it('answers a missing task or node with node failures', async () => {
    const nodeId = node.context.nodeId;
    const missing = await node.req('POST', `/_tasks/${nodeId}:999999/_cancel`);
    expect(missing.status).toBe(200);
    expect(missing.json).toEqual({
      node_failures: [
        {
          type: 'failed_node_exception',
          reason: `Failed node [${nodeId}]`,
          node_id: nodeId,
          caused_by: {
            type: 'resource_not_found_exception',
            reason: `task [${nodeId}:999999] is not found`,
          },
        },
      ],
      nodes: {},
    });
    const other = await node.req('POST', '/_tasks/elsewhere:1/_cancel');
    expect(other.json.node_failures[0].caused_by).toEqual({
      type: 'no_such_node_exception',
      reason: 'No such node [elsewhere]',
      node_id: 'elsewhere',
    });
  });
});
