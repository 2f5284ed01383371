/**
 * The node's task manager (ES TaskManager + TaskResultsService) and `GET /_tasks/{task_id}`:
 * running tasks with their live status, results of `wait_for_completion=false` tasks persisted in
 * the `.tasks` index (read back once the task is gone), and waiting for completion.
 */
import { EsError, illegalArgument, toEsError } from '../../common/errors.js';
import { RawJson } from '../../common/json.js';
import { parseTimeValue } from '../../common/units.js';
import { singleOutcome } from '../../engine/write-executor.js';
import { MATCH_ANY } from '../../engine/versioning.js';
import type { NodeContext } from '../../node-context.js';
import { checkParams } from '../params.js';
import { simpleMatch } from '../../engine/index-names.js';
import { fromEveryNode, registerNodeAction } from '../node-actions.js';
import { listTasksBody, type GroupBy, type NodeTasks } from '../task-listing.js';
import { relayToMaster } from '../master-forward.js';
import { hostOf, transportAddress } from './nodes.js';
import { boolParam, param, type Handler } from '../rest.js';
import type { Router } from '../router.js';

/** ES TaskResultsService. */
const TASK_INDEX = '.tasks';
const TASK_TYPE = 'task';

/** ES task-index-mapping.json (mapping version 2). */
const TASK_INDEX_MAPPING = {
  _meta: { version: 2 },
  dynamic: 'strict',
  properties: {
    completed: { type: 'boolean' },
    task: {
      properties: {
        action: { type: 'keyword' },
        cancellable: { type: 'boolean' },
        id: { type: 'long' },
        parent_id: { type: 'keyword' },
        node: { type: 'keyword' },
        running_time_in_nanos: { type: 'long' },
        start_time_in_millis: { type: 'long' },
        type: { type: 'keyword' },
        status: { type: 'object', enabled: false },
        description: { type: 'text' },
        headers: { type: 'object', enabled: false },
      },
    },
    response: { type: 'object', enabled: false },
    error: { type: 'object', enabled: false },
  },
};

/** ES TransportGetTaskAction / TransportListTasksAction default wait. */
const DEFAULT_WAIT_FOR_COMPLETION_MS = 30_000;

export interface TaskOptions {
  description?: string | null;
  parent?: Task | null;
  /** The parent when it runs on another node (`node:id`): a listing's per-node part. */
  parentTaskId?: string;
  /** The request headers a task keeps (ES Task.headers: `X-Opaque-Id`). */
  headers?: Readonly<Record<string, string>>;
  /** Live status (`task.status`), e.g. a bulk-by-scroll task's counters. */
  status?: () => Record<string, unknown>;
  /** What the action keeps on the task (rethrottle finds the worker state here). */
  payload?: unknown;
  /** Stops the task (ES CancellableTask.onCancelled); tasks without one cannot be cancelled. */
  cancel?: (reason: string) => void;
}

export class Task {
  readonly startTime = Date.now();
  readonly startNanos = process.hrtime.bigint();
  private finished!: () => void;
  /** Resolves when the task is unregistered (ES waitForTaskCompletion polls for this). */
  readonly done = new Promise<void>((res) => (this.finished = res));

  constructor(
    readonly id: number,
    readonly action: string,
    readonly opts: TaskOptions,
  ) {}

  get payload(): unknown {
    return this.opts.payload;
  }

  get cancellable(): boolean {
    return this.opts.cancel !== undefined;
  }

  /** Called once by the manager when the task is unregistered. */
  finish(): void {
    this.finished();
  }
}

export class TaskManager {
  private seq = 1;
  private readonly tasks = new Map<number, Task>();

  constructor(private readonly node: NodeContext) {}

  get nodeId(): string {
    return this.node.nodeId;
  }

  register(action: string, opts: TaskOptions = {}): Task {
    const t = new Task(this.seq++, action, opts);
    this.tasks.set(t.id, t);
    return t;
  }

  unregister(t: Task): void {
    if (this.tasks.delete(t.id)) t.finish();
  }

  get(id: number): Task | undefined {
    return this.tasks.get(id);
  }

  /** The tasks running now, oldest first. */
  running(): Task[] {
    return [...this.tasks.values()];
  }

  /** `node:id` (ES TaskId.toString). */
  taskId(t: Task): string {
    return `${this.node.nodeId}:${t.id}`;
  }

  /** The parent's `node:id`, or null for a task without one. */
  parentId(t: Task): string | null {
    return t.opts.parent ? this.taskId(t.opts.parent) : (t.opts.parentTaskId ?? null);
  }

  /** ES TaskInfo.toXContent (detailed: with status and description). */
  info(t: Task, detailed = true): Record<string, unknown> {
    const out: Record<string, unknown> = {
      node: this.node.nodeId,
      id: t.id,
      type: 'transport',
      action: t.action,
    };
    if (detailed && t.opts.status) out.status = t.opts.status();
    if (detailed && t.opts.description != null) out.description = t.opts.description;
    out.start_time_in_millis = t.startTime;
    out.running_time_in_nanos = Number(process.hrtime.bigint() - t.startNanos);
    out.cancellable = t.cancellable;
    const parent = this.parentId(t);
    if (parent !== null) out.parent_task_id = parent;
    out.headers = { ...t.opts.headers };
    return out;
  }

  /** ES DiscoveryNode fields of a tasks response grouped by node. */
  nodeJson(): Record<string, unknown> {
    const host = hostOf(this.node);
    const transport = transportAddress(this.node);
    return {
      name: this.node.nodeName,
      transport_address: transport,
      host,
      ip: transport,
      roles: ['master', 'data', 'ingest'],
    };
  }

  /**
   * ES TaskResultsService.storeResult: index the finished task (its info, and its response or
   * error) into `.tasks`, creating the index with its strict mapping first.
   */
  async storeResult(
    t: Task,
    outcome: { response: Record<string, unknown> } | { error: EsError },
  ): Promise<void> {
    const doc: Record<string, unknown> = { completed: true, task: this.info(t) };
    if ('error' in outcome) doc.error = outcome.error.toInner();
    else doc.response = outcome.response;
    // through the master and the shard's primary in a cluster, so any node can read it back
    if (!this.node.indices.get(TASK_INDEX)) {
      try {
        await this.node.metadata.createIndex(TASK_INDEX, {
          settings: {
            index: {
              number_of_shards: 1,
              number_of_replicas: 0,
              auto_expand_replicas: '0-1',
              priority: 2147483647,
            },
          },
          mappings: { [TASK_TYPE]: TASK_INDEX_MAPPING },
        });
      } catch (e) {
        if (toEsError(e).type !== 'resource_already_exists_exception') throw e;
      }
    }
    const r = await this.node.writes.run(
      [
        {
          kind: 'index',
          opType: 'index',
          index: TASK_INDEX,
          type: TASK_TYPE,
          id: this.taskId(t),
          routing: null,
          version: MATCH_ANY,
          versionType: 'internal',
          source: Buffer.from(JSON.stringify(doc)),
        },
      ],
      { policy: 'false' },
    );
    singleOutcome(r);
  }

  /** ES TransportGetTaskAction.getFinishedTaskFromIndex. */
  async storedResult(taskId: string): Promise<Record<string, unknown>> {
    const notFound = (cause?: EsError) =>
      new EsError(
        'resource_not_found_exception',
        `task [${taskId}] isn't running and hasn't stored its results`,
        404,
        cause ? { causedBy: cause } : {},
      );
    const idx = this.node.indices.get(TASK_INDEX);
    if (!idx || idx.closed) {
      throw notFound(
        new EsError('index_not_found_exception', 'no such index', 404, {
          meta: {
            'resource.type': 'index_expression',
            'resource.id': TASK_INDEX,
            index_uuid: '_na_',
            index: TASK_INDEX,
          },
        }),
      );
    }
    const got = await this.node.reads.get(idx, TASK_TYPE, taskId, null, {
      source: { includes: [], excludes: [] },
    });
    if (!got.found) throw notFound();
    const src = got.body._source;
    const stored = (src instanceof RawJson ? JSON.parse(src.text) : src) as Record<string, unknown>;
    // ES TaskResult.innerToXContent order: completed, task, error, response.
    const out: Record<string, unknown> = { completed: stored.completed, task: stored.task };
    if (stored.error !== undefined) out.error = stored.error;
    if (stored.response !== undefined) out.response = stored.response;
    return out;
  }
}

/** ES TaskId(String): `node:number`. */
export function parseTaskId(s: string): { node: string; id: number } {
  const parts = s.split(':');
  if (parts.length !== 2 || parts[0] === '' || !/^-?\d+$/.test(parts[1]!)) {
    throw illegalArgument(`malformed task id ${s}`);
  }
  return { node: parts[0]!, id: Number(parts[1]) };
}

/** ES Task has no toString: the timeout message shows the object's identity. */
const taskIdentity = (t: Task) =>
  `org.elasticsearch.tasks.Task@${((t.id * 2654435761) >>> 0).toString(16)}`;

/** The per-node part of a task listing (ES TransportListTasksAction). */
const LIST_TASKS_NODE_ACTION = 'cluster:monitor/tasks/lists[n]';

/** The per-node part of a cancellation (ES TransportCancelTasksAction). */
const CANCEL_TASKS_NODE_ACTION = 'cluster:admin/tasks/cancel[n]';

interface CancelTasksBody {
  /** One task (`POST /_tasks/{task_id}/_cancel`), or null for every matching one. */
  taskId: { node: string; id: number } | null;
  actions: string[];
  parent: string | null;
  reason: string;
}

interface ListTasksBody {
  parentTaskId: string;
  actions: string[];
  parent: string | null;
  detailed: boolean;
  waitMs: number | null;
  headers: Record<string, string>;
}

/** `X-Opaque-Id`, the one request header ES keeps on its tasks. */
function taskHeaders(req: {
  headers: Record<string, string | string[] | undefined>;
}): Record<string, string> {
  const v = req.headers['x-opaque-id'];
  return typeof v === 'string' ? { 'X-Opaque-Id': v } : {};
}

export function registerTaskRoutes(
  router: Router<Handler>,
  tasks: TaskManager,
  node: NodeContext,
): void {
  // every node lists its own tasks (its part of the listing is a task too, a child of the listing)
  registerNodeAction(node, LIST_TASKS_NODE_ACTION, async (b) => {
    const q = b as ListTasksBody;
    const self = tasks.register(LIST_TASKS_NODE_ACTION, {
      parentTaskId: q.parentTaskId,
      headers: q.headers,
      ...(q.detailed ? { description: '' } : {}),
    });
    try {
      const matched = tasks.running().filter((t) => {
        if (q.actions.length > 0 && !q.actions.some((a) => simpleMatch(a, t.action))) return false;
        return !q.parent || q.parent === '-1' || tasks.parentId(t) === q.parent;
      });
      const infos = matched.map((t) => tasks.info(t, q.detailed));
      if (q.waitMs !== null) {
        // ES waits for each matched task but the listing's own
        const others = matched.filter((t) => !t.action.startsWith('cluster:monitor/tasks/lists'));
        let timer: NodeJS.Timeout | undefined;
        const timedOut = await Promise.race([
          Promise.all(others.map((t) => t.done)).then(() => false),
          new Promise<boolean>((res) => (timer = setTimeout(() => res(true), q.waitMs!))),
        ]);
        clearTimeout(timer);
        if (timedOut) throw new EsError('elasticsearch_timeout_exception', 'Timed out waiting for completion of tasks', 500); // prettier-ignore
      }
      return { node: tasks.nodeJson(), tasks: infos };
    } finally {
      tasks.unregister(self);
    }
  });

  // every node cancels its own matching tasks (ES TransportCancelTasksAction)
  registerNodeAction(node, CANCEL_TASKS_NODE_ACTION, (b) => {
    const q = b as CancelTasksBody;
    const matches = (t: Task) =>
      (q.actions.length === 0 || q.actions.some((a) => simpleMatch(a, t.action))) &&
      (!q.parent || q.parent === '-1' || tasks.parentId(t) === q.parent);
    let chosen: Task[];
    if (q.taskId !== null) {
      const t = tasks.get(q.taskId.id);
      const id = `${q.taskId.node}:${q.taskId.id}`;
      if (!t) throw new EsError('resource_not_found_exception', `task [${id}] is not found`, 404);
      if (!t.cancellable) throw illegalArgument(`task [${id}] doesn't support cancellation`);
      if (!matches(t)) throw illegalArgument(`task [${id}] doesn't support this operation`);
      chosen = [t];
    } else chosen = tasks.running().filter((t) => t.cancellable && matches(t));
    const infos = chosen.map((t) => {
      t.opts.cancel!(q.reason);
      return tasks.info(t, false);
    });
    return { node: tasks.nodeJson(), tasks: infos };
  });

  const cancel: Handler = async (req) => {
    checkParams(req, ['nodes', 'actions', 'parent_task_id']);
    const list = (n: string) => (param(req, n) ?? '').split(',').filter((s) => s);
    const raw = req.params.task_id;
    const taskId = raw === undefined ? null : parseTaskId(raw);
    const body: CancelTasksBody = {
      taskId,
      actions: list('actions'),
      parent: param(req, 'parent_task_id') ?? null,
      reason: 'by user request',
    };
    if (taskId === null) {
      const parts: NodeTasks[] = [];
      for (const [nodeId, r] of await fromEveryNode(
        node,
        CANCEL_TASKS_NODE_ACTION,
        body,
        list('nodes'),
      ))
        // prettier-ignore
        if (r) parts.push({ nodeId, ...(r as Omit<NodeTasks, 'nodeId'>) });
      return { status: 200, body: listTasksBody('nodes', parts) };
    }
    // one task: asked of its own node (ES TransportTasksAction resolves the task's node)
    const owner = node.routing.peerUrl(taskId.node);
    if (owner) return relayToMaster(owner, 'POST', req.uri, req.headers, null);
    const failed = (cause: EsError) => ({
      status: 200,
      body: {
        node_failures: [
          new EsError('failed_node_exception', `Failed node [${taskId.node}]`, 500, {
            meta: { node_id: taskId.node },
            causedBy: cause,
          }).toInner(),
        ],
        nodes: {},
      },
    });
    if (taskId.node !== tasks.nodeId)
      return failed(new EsError('no_such_node_exception', `No such node [${taskId.node}]`, 404, { meta: { node_id: taskId.node } })); // prettier-ignore
    try {
      const r = (await node.nodeActions.get(CANCEL_TASKS_NODE_ACTION)!(body)) as Omit<NodeTasks, 'nodeId'>; // prettier-ignore
      return { status: 200, body: listTasksBody('nodes', [{ nodeId: tasks.nodeId, ...r }]) };
    } catch (e) {
      return failed(toEsError(e));
    }
  };
  router.add('POST', '/_tasks/_cancel', cancel);
  router.add('POST', '/_tasks/{task_id}/_cancel', cancel);

  router.add('GET', '/_tasks', async (req) => {
    checkParams(req, ['nodes', 'actions', 'detailed', 'parent_task_id', 'wait_for_completion', 'group_by', 'timeout']); // prettier-ignore
    const groupBy = param(req, 'group_by') ?? 'nodes';
    if (!['nodes', 'parents', 'none'].includes(groupBy))
      throw illegalArgument(`[group_by] must be one of [nodes], [parents] or [none] but was [${groupBy}]`); // prettier-ignore
    const list = (n: string) => (param(req, n) ?? '').split(',').filter((s) => s);
    const timeout = param(req, 'timeout');
    const headers = taskHeaders(req);
    const self = tasks.register('cluster:monitor/tasks/lists', { headers });
    try {
      const body: ListTasksBody = {
        parentTaskId: tasks.taskId(self),
        actions: list('actions'),
        parent: param(req, 'parent_task_id') ?? null,
        detailed: boolParam(req, 'detailed', false),
        waitMs: boolParam(req, 'wait_for_completion', false)
          ? timeout === undefined
            ? DEFAULT_WAIT_FOR_COMPLETION_MS
            : parseTimeValue(timeout, 'timeout')
          : null,
        headers,
      };
      const parts: NodeTasks[] = [];
      for (const [nodeId, r] of await fromEveryNode(
        node,
        LIST_TASKS_NODE_ACTION,
        body,
        list('nodes'),
      )) {
        if (r) parts.push({ nodeId, ...(r as Omit<NodeTasks, 'nodeId'>) });
      }
      return { status: 200, body: listTasksBody(groupBy as GroupBy, parts) };
    } finally {
      tasks.unregister(self);
    }
  });

  router.add('GET', '/_tasks/{task_id}', async (req) => {
    checkParams(req, ['wait_for_completion', 'timeout']);
    const raw = req.params.task_id!;
    const { node: taskNode, id } = parseTaskId(raw);
    const wait = boolParam(req, 'wait_for_completion', false);
    const timeout = param(req, 'timeout');
    const waitMs =
      timeout === undefined ? DEFAULT_WAIT_FOR_COMPLETION_MS : parseTimeValue(timeout, 'timeout');
    // ES TransportGetTaskAction: a task of another node of the cluster is asked of that node
    const owner = node.routing.peerUrl(taskNode);
    if (owner) return relayToMaster(owner, 'GET', req.uri, req.headers, null);
    if (taskNode !== tasks.nodeId) {
      try {
        return { status: 200, body: await tasks.storedResult(raw) };
      } catch (e) {
        const err = toEsError(e);
        if (err.type !== 'resource_not_found_exception') throw err;
        throw new EsError(
          'resource_not_found_exception',
          `task [${raw}] belongs to the node [${taskNode}] which isn't part of the cluster and there is no record of the task`,
          404,
          { causedBy: err },
        );
      }
    }
    const t = tasks.get(id);
    if (!t) return { status: 200, body: await tasks.storedResult(raw) };
    if (!wait) return { status: 200, body: { completed: false, task: tasks.info(t) } };
    let timer: NodeJS.Timeout | undefined;
    const timedOut = await Promise.race([
      t.done.then(() => false),
      new Promise<boolean>((res) => (timer = setTimeout(() => res(true), waitMs))),
    ]);
    clearTimeout(timer);
    if (timedOut) {
      throw new EsError(
        'elasticsearch_timeout_exception',
        `Timed out waiting for completion of [${taskIdentity(t)}]`,
        500,
      );
    }
    const snapshot = tasks.info(t);
    try {
      return { status: 200, body: await tasks.storedResult(raw) };
    } catch (e) {
      // Not stored (a wait_for_completion=true task): the snapshot taken when it finished.
      if (toEsError(e).type !== 'resource_not_found_exception') throw e;
      return { status: 200, body: { completed: true, task: snapshot } };
    }
  });
}
