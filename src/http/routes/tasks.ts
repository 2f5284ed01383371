/** Background tasks (ES TaskManager, for `wait_for_completion=false`) and `GET /_tasks/{id}`. */
import { EsError, toEsError } from '../../common/errors.js';
import type { NodeContext } from '../../node-context.js';
import { checkParams } from '../params.js';
import { boolParam, type Handler } from '../rest.js';
import type { Router } from '../router.js';

interface Task {
  id: number;
  action: string;
  start: number;
  done: Promise<void>;
  result?: { status: number; body: Record<string, unknown> };
  error?: unknown;
}

export class TaskService {
  private seq = 1;
  private readonly tasks = new Map<number, Task>();
  constructor(private readonly nodeId: string) {}

  start(
    action: string,
    work: () => Promise<{ status: number; body: Record<string, unknown> }>,
  ): string {
    const id = this.seq++;
    const t: Task = { id, action, start: Date.now(), done: Promise.resolve() };
    t.done = new Promise<void>((res) => {
      setImmediate(() => {
        work().then(
          (r) => {
            t.result = r;
            res();
          },
          (e) => {
            t.error = e;
            res();
          },
        );
      });
    });
    this.tasks.set(id, t);
    return `${this.nodeId}:${id}`;
  }

  get(id: string): Task | undefined {
    const [node, n] = id.split(':');
    if (node !== this.nodeId) return undefined;
    return this.tasks.get(Number(n));
  }

  info(t: Task) {
    return {
      node: this.nodeId,
      id: t.id,
      type: 'transport',
      action: t.action,
      start_time_in_millis: t.start,
      running_time_in_nanos: (Date.now() - t.start) * 1e6,
      cancellable: true,
      headers: {},
    };
  }
}

export function registerTaskRoutes(
  router: Router<Handler>,
  node: NodeContext,
  tasks: TaskService,
): void {
  router.add('GET', '/_tasks/{task_id}', async (req) => {
    checkParams(req, ['wait_for_completion', 'timeout']);
    const t = tasks.get(req.params.task_id!);
    if (!t) {
      throw new EsError(
        'resource_not_found_exception',
        `task [${req.params.task_id}] isn't running and hasn't stored its results`,
        404,
      );
    }
    if (boolParam(req, 'wait_for_completion', false)) await t.done;
    const completed = t.result !== undefined || t.error !== undefined;
    const body: Record<string, unknown> = { completed, task: tasks.info(t) };
    if (t.result) body.response = t.result.body;
    if (t.error) body.error = toEsError(t.error).toErrorObject();
    return { status: 200, body };
  });
  void node;
}
