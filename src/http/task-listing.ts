/**
 * The body of `GET _tasks` from every node's part (ES ListTasksResponse): grouped by node (each
 * node with tasks, its identity and its tasks by id), by parent (a task under its parent when
 * the parent is listed too, else at the top) or not at all (one array).
 */

/** One task as ES TaskInfo renders it (`node`, `id`, `action`, `parent_task_id`...). */
export type TaskJson = Readonly<Record<string, unknown>>;

export interface NodeTasks {
  readonly nodeId: string;
  /** The node's identity fields (name, transport_address, host, ip, roles). */
  readonly node: Readonly<Record<string, unknown>>;
  readonly tasks: readonly TaskJson[];
}

export type GroupBy = 'nodes' | 'parents' | 'none';

const idOf = (t: TaskJson) => `${t.node as string}:${t.id as number}`;

export function listTasksBody(
  groupBy: GroupBy,
  parts: readonly NodeTasks[],
): Record<string, unknown> {
  const all = parts.flatMap((p) => p.tasks);
  if (groupBy === 'none') return { tasks: all };
  if (groupBy === 'nodes') {
    const nodes: Record<string, unknown> = {};
    for (const p of parts)
      if (p.tasks.length > 0)
        nodes[p.nodeId] = { ...p.node, tasks: Object.fromEntries(p.tasks.map((t) => [idOf(t), t])) }; // prettier-ignore
    return { nodes };
  }
  // ES ListTasksResponse.buildTaskGroups
  type Group = Record<string, unknown> & { children?: Group[] };
  const groups = new Map<string, Group>(all.map((t) => [idOf(t), { ...t }]));
  const top: Array<[string, Group]> = [];
  for (const [id, g] of groups) {
    const parent = typeof g.parent_task_id === 'string' ? groups.get(g.parent_task_id) : undefined;
    if (parent) (parent.children ??= []).push(g);
    else top.push([id, g]);
  }
  return { tasks: Object.fromEntries(top) };
}
