/**
 * Resetting the node between test sections as ESRestTestCase.wipeCluster does: delete every
 * index (open and closed), every index template, and reset persistent/transient cluster settings.
 * A node that does not have one of these APIs yet answers 400/404/405, which is tolerated. The
 * minimal mode skips the parts no API called since the last wipe can have changed.
 */
import type { HttpClient, HttpResponse } from './http-client.js';

/** APIs that cannot create indices, templates or cluster settings. */
const READ_ONLY_APIS = new Set([
  'info',
  'ping',
  'cat.count',
  'cat.health',
  'cat.indices',
  'cat.nodes',
  'cluster.health',
  'tasks.get',
  'indices.exists',
  'indices.exists_type',
  'indices.get',
  'indices.get_alias',
  'indices.get_mapping',
  'indices.get_settings',
  'indices.stats',
]);

/** Statuses meaning "the node has no such API yet" or "nothing to delete". */
const TOLERATED = new Set([400, 404, 405]);

export interface WipeOptions {
  /** APIs called since the last wipe; undefined means wipe everything. */
  calledApis?: ReadonlySet<string>;
}

/** Returns null when the node is clean, or what failed. */
export async function wipeCluster(
  client: HttpClient,
  opts: WipeOptions = {},
): Promise<string | null> {
  const called = opts.calledApis;
  const touched = (api: string): boolean => !called || called.has(api);
  const problems: string[] = [];
  const run = async (
    method: string,
    path: string,
    body?: unknown,
  ): Promise<HttpResponse | null> => {
    try {
      const res = await client.send({
        method,
        path,
        headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
        ...(body === undefined ? {} : { body: Buffer.from(JSON.stringify(body)) }),
      });
      if (res.status >= 300 && !TOLERATED.has(res.status)) {
        problems.push(`${method} ${path} returned [${res.status}] ${res.text.slice(0, 300)}`);
      }
      return res;
    } catch (e) {
      problems.push(`${method} ${path} failed: ${(e as Error).message}`);
      return null;
    }
  };

  if (!called || [...called].some((api) => !READ_ONLY_APIS.has(api))) {
    await run('DELETE', '/*?expand_wildcards=open%2Cclosed');
  }
  if (touched('indices.put_template')) await run('DELETE', '/_template/*');
  if (touched('cluster.put_settings')) {
    const res = await run('GET', '/_cluster/settings');
    if (res && res.status === 200 && res.parsed && typeof res.parsed === 'object') {
      const clear: Record<string, Record<string, null>> = {};
      for (const [scope, settings] of Object.entries(res.parsed as Record<string, unknown>)) {
        if (!settings || typeof settings !== 'object' || Object.keys(settings).length === 0)
          continue;
        clear[scope] = {};
        for (const key of Object.keys(settings)) clear[scope][`${key}.*`] = null;
      }
      if (Object.keys(clear).length > 0) await run('PUT', '/_cluster/settings', clear);
    }
  }
  // ESRestTestCase.wipeSnapshots: an fs repository's snapshots are deleted, then every
  // registered repository (a later test may register the same location again)
  if (touched('snapshot.create_repository')) {
    const res = await run('GET', '/_snapshot/_all');
    if (res && res.status === 200 && res.parsed && typeof res.parsed === 'object') {
      for (const [name, repo] of Object.entries(res.parsed as Record<string, { type?: string }>)) {
        const repoPath = `/_snapshot/${encodeURIComponent(name)}`;
        if (repo?.type === 'fs') {
          const list = await run('GET', `${repoPath}/_all`);
          const snaps = (list?.parsed as { snapshots?: Array<{ snapshot: string }> } | undefined)?.snapshots; // prettier-ignore
          if (list?.status === 200 && Array.isArray(snaps))
            for (const s of snaps) await run('DELETE', `${repoPath}/${encodeURIComponent(s.snapshot)}`); // prettier-ignore
        }
        await run('DELETE', repoPath);
      }
    }
  }
  return problems.length > 0 ? problems.join('; ') : null;
}
