/**
 * The snapshot APIs of ES 6.8 on a lone node's `fs` repositories: create, get, status, delete,
 * restore and `_cat/snapshots` (the engine work is in src/engine/snapshots). Snapshots complete
 * before their request answers, so none is ever "current" and `_status` of running ones is empty.
 */
import { TimeValue } from '../../cat/table.js';
import { EsError } from '../../common/errors.js';
import { SNAPSHOTS_COLUMNS } from '../../cat/columns.js';
import { repositoryMissing, resolveRepoLocation } from '../../engine/repositories.js';
import { readSnapshotList, removeSnapshotFiles, writeSnapshotList } from '../../engine/snapshots/repository-files.js'; // prettier-ignore
import {
  selectSnapshots,
  shardTotals,
  snapshotInfoJson,
  snapshotMissing,
  snapshotStatusJson,
} from '../../engine/snapshots/snapshot-info.js';
import { createSnapshot, restoreSnapshot, verifySnapshot, type Repo, type ShardDoc, type SnapshotDeps } from '../../engine/snapshots/snapshot-service.js'; // prettier-ignore
import type { IndexService } from '../../engine/index-service.js';
import { storeRestoreMarks } from '../../engine/snapshots/restore-marks.js';
import { parseSearch } from '../../dsl/search/execute.js';
import { parseSearchBody } from '../../dsl/search/request.js';
import type { NodeContext } from '../../node-context.js';
import { checkParams } from '../params.js';
import { bodyObject, boolParam, type Handler } from '../rest.js';
import type { Router } from '../router.js';
import { CAT_PARAMS, respond } from './cat.js';
import { ES_VERSION } from './info.js';
import { pathRepo, repositories } from './snapshot-repositories.js';
import { parseByteSize } from '../../common/units.js';

const hms = (ms: number) => new Date(ms).toISOString().slice(11, 19);

export function registerSnapshotRoutes(router: Router<Handler>, node: NodeContext): void {
  const deps = (): SnapshotDeps => ({
    indices: node.indices,
    writes: node.writes,
    metadata: node.metadata,
    durable: () => node.store.durable(),
    refresh: async (idx) => void (await node.broadcast.run('refresh', [idx])),
    // a node of a cluster holds only some copies: each shard is read on its primary's node
    ...(node.cluster ? { readShards: (idx: IndexService) => scannedShards(node, idx) } : {}),
    esVersion: ES_VERSION.number,
    // a lone node keeps its restores in progress; a cluster's restore is the master's to track
    ...(node.cluster ? {} : { restoreMarks: storeRestoreMarks(node.store) }),
  });
  const repo = (name: string): Repo & { readonly: boolean } => {
    const r = repositories(node)[name];
    if (!r) throw repositoryMissing(name);
    const location = resolveRepoLocation(r.settings.location ?? '', pathRepo(node));
    if (location === null) throw repositoryMissing(name);
    const rate = r.settings.max_restore_bytes_per_sec;
    return {
      name,
      location,
      readonly: r.settings.readonly === 'true',
      ...(rate === undefined ? {} : { maxRestoreBytesPerSec: parseByteSize(rate, 'max_restore_bytes_per_sec') }), // prettier-ignore
    };
  };
  // ES BlobStoreRepository: a readonly repository is only read
  const writable = (r: Repo & { readonly: boolean }, what: string) => {
    if (r.readonly) throw new EsError('repository_exception', `[${r.name}] cannot ${what} a readonly repository`, 500); // prettier-ignore
    return r;
  };
  // one snapshot change at a time: the repository's list is read, changed and replaced
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(fn: () => Promise<T>): Promise<T> => {
    const run = queue.then(fn, fn);
    queue = run.catch(() => undefined);
    return run;
  };
  const find = (r: Repo, name: string) => {
    const s = readSnapshotList(r.location, r.name).find((x) => x.snapshot === name);
    if (!s) throw snapshotMissing(r.name, name);
    return s;
  };

  const create: Handler = async (req) => {
    checkParams(req, ['master_timeout', 'wait_for_completion']);
    const r = writable(repo(req.params.repository!), 'create snapshot in');
    const body = bodyObject(req) ?? {};
    const s = await serial(() => createSnapshot(deps(), r, req.params.snapshot!, body));
    if (!boolParam(req, 'wait_for_completion', false)) return { status: 200, body: { accepted: true } }; // prettier-ignore
    return { status: 200, body: { snapshot: snapshotInfoJson(s, true, boolParam(req, 'human', false)) } }; // prettier-ignore
  };
  router.add('PUT', '/_snapshot/{repository}/{snapshot}', create);
  router.add('POST', '/_snapshot/{repository}/{snapshot}', create);

  router.add('GET', '/_snapshot/{repository}/{snapshot}', (req) => {
    checkParams(req, ['master_timeout', 'ignore_unavailable', 'verbose']);
    const r = repo(req.params.repository!);
    const names = req.params.snapshot!.split(',').filter((x) => x);
    const list = selectSnapshots(r.name, readSnapshotList(r.location, r.name), names, boolParam(req, 'ignore_unavailable', false)); // prettier-ignore
    const verbose = boolParam(req, 'verbose', true);
    const human = boolParam(req, 'human', false);
    return { status: 200, body: { snapshots: list.map((s) => snapshotInfoJson(s, verbose, human)) } }; // prettier-ignore
  });

  router.add('DELETE', '/_snapshot/{repository}/{snapshot}', async (req) => {
    checkParams(req, ['master_timeout']);
    const r = writable(repo(req.params.repository!), 'delete snapshot from');
    await serial(async () => {
      const s = find(r, req.params.snapshot!);
      const remaining = readSnapshotList(r.location, r.name).filter((x) => x.uuid !== s.uuid);
      writeSnapshotList(r.location, remaining);
      removeSnapshotFiles(r.location, s.uuid, remaining);
    });
    return { status: 200, body: { acknowledged: true } };
  });

  router.add('POST', '/_snapshot/{repository}/{snapshot}/_restore', async (req) => {
    checkParams(req, ['master_timeout', 'wait_for_completion']);
    const r = repo(req.params.repository!);
    const body = bodyObject(req) ?? {};
    const info = await serial(() => restoreSnapshot(deps(), r, find(r, req.params.snapshot!), body)); // prettier-ignore
    if (!boolParam(req, 'wait_for_completion', false)) return { status: 200, body: { accepted: true } }; // prettier-ignore
    return { status: 200, body: { snapshot: info } };
  });

  const status: Handler = (req) => {
    checkParams(req, ['master_timeout', 'ignore_unavailable']);
    const snapshot = req.params.snapshot;
    if (snapshot === undefined) {
      // only running snapshots, and there are none
      if (req.params.repository !== undefined) repo(req.params.repository);
      return { status: 200, body: { snapshots: [] } };
    }
    const r = repo(req.params.repository!);
    const all = readSnapshotList(r.location, r.name);
    const ignore = boolParam(req, 'ignore_unavailable', false);
    const out = [];
    // ES TransportSnapshotsStatusAction: exact names only, `_current` meaning the running ones
    for (const n of snapshot.split(',').filter((x) => x && x !== '_current')) {
      const s = all.find((x) => x.snapshot === n);
      // ES reads each shard's snapshot file for its status: a corrupt one is reported
      if (s) out.push((verifySnapshot(r, s), snapshotStatusJson(r.name, s)));
      else if (!ignore) throw snapshotMissing(r.name, n);
    }
    return { status: 200, body: { snapshots: out } };
  };
  router.add('GET', '/_snapshot/_status', status);
  router.add('GET', '/_snapshot/{repository}/_status', status);
  router.add('GET', '/_snapshot/{repository}/{snapshot}/_status', status);

  const cat: Handler = (req) => {
    checkParams(req, [...CAT_PARAMS, 'ignore_unavailable']);
    // help describes the columns without asking for any snapshot
    if (req.query.has('help')) return respond(req, { columns: SNAPSHOTS_COLUMNS, rows: [] });
    if (req.params.repository === undefined)
      throw new EsError('action_request_validation_exception', 'Validation Failed: 1: repository is missing;', 400); // prettier-ignore
    const r = repo(req.params.repository);
    const rows = selectSnapshots(r.name, readSnapshotList(r.location, r.name), [], false).map(
      (s) => {
        const t = shardTotals(s);
        return [
          s.snapshot,
          s.state,
          Math.floor(s.startMs / 1000),
          hms(s.startMs),
          Math.floor(s.endMs / 1000),
          hms(s.endMs),
          new TimeValue(s.endMs - s.startMs),
          s.indices.length,
          t.successful,
          t.failed,
          t.total,
          s.reason ?? null,
        ];
      },
    );
    return respond(req, { columns: SNAPSHOTS_COLUMNS, rows });
  };
  router.add('GET', '/_cat/snapshots', cat);
  router.add('GET', '/_cat/snapshots/{repository}', cat);
}

/** Every live document of each shard of `idx`, refreshed, as the node's scans read them. */
async function scannedShards(node: NodeContext, idx: IndexService): Promise<ShardDoc[][]> {
  await node.broadcast.run('refresh', [idx]);
  const search = parseSearchBody({ query: { match_all: {} } });
  const out = await node.scans.scan({ targets: [idx], search, parsed: parseSearch(search), sources: true }); // prettier-ignore
  if (out.failures.length > 0)
    throw new EsError('snapshot_exception', `[${idx.name}] a shard could not be read: ${JSON.stringify(out.failures[0])}`, 500); // prettier-ignore
  const shards: ShardDoc[][] = Array.from({ length: idx.numberOfShards }, () => []);
  for (const h of out.hits) {
    const source = h.readSource();
    if (source === null) continue; // gone since the scan: not in the snapshot
    shards[h.shard]!.push({ id: h.id, type: h.type, routing: h.routing, version: h.version, source }); // prettier-ignore
  }
  // in id order, so an unchanged shard's copy is the same file again (incremental snapshots)
  for (const l of shards) l.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return shards;
}
