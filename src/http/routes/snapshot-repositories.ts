/** `_snapshot/{repository}` registration (ES 6.8 RestPutRepositoryAction and friends). */
import { mkdirSync } from 'node:fs';
import {
  repositoryMissing,
  selectRepositories,
  validateRepository,
  type Repositories,
} from '../../engine/repositories.js';
import type { NodeContext } from '../../node-context.js';
import { checkParams } from '../params.js';
import { fromEveryNode, registerNodeAction } from '../node-actions.js';
import { bodyObject, type Handler } from '../rest.js';
import type { Router } from '../router.js';

const META_KEY = 'cluster:repositories';

export function repositories(node: NodeContext): Repositories {
  return node.store.getMeta<Repositories>(META_KEY) ?? {};
}

/** `path.repo`: the directories fs repositories may live in (a comma separated list). */
export function pathRepo(node: NodeContext): string[] {
  return (node.settings.raw['path.repo'] ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s);
}

/** Keeps the repositories in the node's store (a clustered node: as the master published them). */
export async function saveRepositories(node: NodeContext, r: Repositories): Promise<void> {
  if (JSON.stringify(repositories(node)) === JSON.stringify(r)) return;
  await node.store.putMeta(META_KEY, r);
  await node.store.durable();
}

/** Verifies a repository on one node: named when it has the repository (node-actions.ts). */
const VERIFY_ACTION = 'internal:quarry/repository/verify';

export function registerSnapshotRepositoryRoutes(router: Router<Handler>, node: NodeContext): void {
  // in a cluster the master runs the changes (master-forward.ts) and publishes the new set
  const save = async (r: Repositories) => {
    await saveRepositories(node, r);
    await node.metadata.repositoriesChanged(r);
  };

  const put: Handler = async (req) => {
    checkParams(req, ['master_timeout', 'timeout', 'verify']);
    const name = req.params.repository!;
    const meta = validateRepository(name, bodyObject(req) ?? {}, pathRepo(node));
    // ES FsRepository creates its location on start
    mkdirSync(meta.location, { recursive: true });
    await save({ ...repositories(node), [name]: { type: meta.type, settings: meta.settings } });
    return { status: 200, body: { acknowledged: true } };
  };
  router.add('PUT', '/_snapshot/{repository}', put);
  router.add('POST', '/_snapshot/{repository}', put);

  const get: Handler = (req) => {
    checkParams(req, ['master_timeout', 'local']);
    const names = (req.params.repository ?? '').split(',').filter((s) => s);
    return { status: 200, body: selectRepositories(repositories(node), names) };
  };
  router.add('GET', '/_snapshot', get);
  router.add('GET', '/_snapshot/{repository}', get);

  router.add('DELETE', '/_snapshot/{repository}', async (req) => {
    checkParams(req, ['master_timeout', 'timeout']);
    const all = { ...repositories(node) };
    const names = Object.keys(selectRepositories(all, req.params.repository!.split(',')));
    if (names.length === 0) throw repositoryMissing(req.params.repository!);
    for (const n of names) delete all[n];
    await save(all);
    return { status: 200, body: { acknowledged: true } };
  });

  // ES VerifyRepositoryResponse: the nodes that could write to the repository
  registerNodeAction(node, VERIFY_ACTION, (b) => {
    const { name } = b as { name: string };
    return repositories(node)[name] !== undefined ? { name: node.nodeName } : null;
  });
  router.add('POST', '/_snapshot/{repository}/_verify', async (req) => {
    checkParams(req, ['master_timeout', 'timeout']);
    const name = req.params.repository!;
    selectRepositories(repositories(node), [name]);
    const nodes: Record<string, unknown> = {};
    for (const [id, r] of await fromEveryNode(node, VERIFY_ACTION, { name })) if (r) nodes[id] = r;
    return { status: 200, body: { nodes } };
  });
}
