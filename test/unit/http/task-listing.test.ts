/**
 * `GET _tasks` bodies from the nodes' parts: by node (nodes without tasks left out), by parent
 * (children under a listed parent, across nodes; orphans at the top) and flat.
 */
import { describe, expect, it } from 'vitest';
import { listTasksBody, type NodeTasks } from '../../../src/http/task-listing.js';

const task = (node: string, id: number, parent?: string) => ({
  node,
  id,
  type: 'transport',
  action: parent ? 'a[n]' : 'a',
  ...(parent ? { parent_task_id: parent } : {}),
});

const parts: NodeTasks[] = [
  { nodeId: 'n1', node: { name: 'one' }, tasks: [task('n1', 1), task('n1', 2, 'n1:1')] },
  { nodeId: 'n2', node: { name: 'two' }, tasks: [task('n2', 7, 'n1:1'), task('n2', 8, 'n9:3')] },
  { nodeId: 'n3', node: { name: 'three' }, tasks: [] },
];

describe('listTasksBody', () => {
  it('groups by node, keyed by task id, leaving out nodes without tasks', () => {
    expect(listTasksBody('nodes', parts)).toEqual({
      nodes: {
        n1: { name: 'one', tasks: { 'n1:1': task('n1', 1), 'n1:2': task('n1', 2, 'n1:1') } },
        n2: {
          name: 'two',
          tasks: { 'n2:7': task('n2', 7, 'n1:1'), 'n2:8': task('n2', 8, 'n9:3') },
        },
      },
    });
  });

  it('groups children under a listed parent across nodes; a task whose parent is not listed is at the top', () => {
    expect(listTasksBody('parents', parts)).toEqual({
      tasks: {
        'n1:1': { ...task('n1', 1), children: [task('n1', 2, 'n1:1'), task('n2', 7, 'n1:1')] },
        'n2:8': task('n2', 8, 'n9:3'),
      },
    });
  });

  it('lists every task in one array without grouping', () => {
    expect(listTasksBody('none', parts).tasks).toHaveLength(4);
  });
});
