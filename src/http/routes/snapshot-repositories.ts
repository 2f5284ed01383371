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
import { bodyObject, type Handler } from '../rest.js';
import type { Router } from '../router.js';

const META_KEY = 'cluster:repositories';

export function repositories(node: NodeContext): Repositories {
  return node.store.getMeta<Repositories>(META_KEY) ?? {};
}

/** `path.repo`: the directories fs repositories may live in (a comma separated list). */
function pathRepo(node: NodeContext): string[] {
  return (node.settings.raw['path.repo'] ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s);
}

export function registerSnapshotRepositoryRoutes(router: Router<Handler>, node: NodeContext): void {
  const save = async (r: Repositories) => {
    await node.store.putMeta(META_KEY, r);
    await node.store.durable();
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

  // ES VerifyRepositoryResponse: the nodes that could write to the repository (this one)
  router.add('POST', '/_snapshot/{repository}/_verify', (req) => {
    checkParams(req, ['master_timeout', 'timeout']);
    selectRepositories(repositories(node), [req.params.repository!]);
    return { status: 200, body: { nodes: { [node.nodeId]: { name: node.nodeName } } } };
  });
}
