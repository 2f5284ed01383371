/**
 * Snapshot repositories as ES 6.8's RepositoriesService registers them: cluster metadata of a
 * name, a type and settings. Quarry knows the `fs` type only, whose location must lie under one
 * of the node's `path.repo` directories (ES Environment.resolveRepoFile). Registering a
 * repository does not yet make snapshots possible; it is the metadata the snapshot APIs and
 * `_cat/repositories` read.
 */
import { isAbsolute, relative, resolve } from 'node:path';
import { EsError } from '../common/errors.js';
import { simpleMatch } from './index-names.js';

export interface RepositoryMetadata {
  readonly type: string;
  /** Flat settings, values as strings. */
  readonly settings: Readonly<Record<string, string>>;
}

export type Repositories = Readonly<Record<string, RepositoryMetadata>>;

const repositoryError = (name: string, msg: string, causedBy?: EsError) =>
  new EsError('repository_exception', `[${name}] ${msg}`, 500, causedBy ? { causedBy } : {});

export const repositoryMissing = (name: string) =>
  new EsError('repository_missing_exception', `[${name}] missing`, 404);

/** ES Environment.resolveRepoFile: the location inside one of `pathRepo`, or null. */
export function resolveRepoLocation(location: string, pathRepo: readonly string[]): string | null {
  for (const root of pathRepo) {
    const abs = resolve(root, location);
    const rel = relative(resolve(root), abs);
    if (!rel.startsWith('..') && !isAbsolute(rel)) return abs;
  }
  return null;
}

/** ES Settings.fromXContent: nested objects to dotted keys, lists joined as ES prints them. */
function flatInto(out: Record<string, string>, v: unknown, path: string): void {
  if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
    for (const [k, x] of Object.entries(v)) flatInto(out, x, path ? `${path}.${k}` : k);
  } else if (path && v !== null && v !== undefined) out[path] = String(v);
}

/** ES PutRepositoryRequest validation and the `fs` factory's checks; returns the metadata. */
export function validateRepository(
  name: string,
  body: Record<string, unknown>,
  pathRepo: readonly string[],
): RepositoryMetadata & { location: string } {
  const type = body.type;
  if (typeof type !== 'string' || type === '') {
    throw new EsError(
      'action_request_validation_exception',
      'Validation Failed: 1: type is missing;',
      400,
    );
  }
  const settings: Record<string, string> = {};
  flatInto(settings, body.settings ?? {}, '');
  if (type !== 'fs') throw repositoryError(name, `repository type [${type}] does not exist`);
  // ES: the factory's failure is wrapped in "failed to create repository"
  const fail = (msg: string) =>
    repositoryError(name, 'failed to create repository', repositoryError(name, msg));
  const location = settings.location;
  if (!location) throw fail('missing location');
  const resolved = resolveRepoLocation(location, pathRepo);
  if (resolved === null) {
    throw fail(
      pathRepo.length === 0
        ? `location [${location}] doesn't match any of the locations specified by path.repo because this setting is empty`
        : `location [${location}] doesn't match any of the locations specified by path.repo`,
    );
  }
  return { type, settings, location: resolved };
}

/**
 * ES TransportGetRepositoriesAction: none or `_all` lists every repository; otherwise each name
 * (wildcards allowed) must match, a missing exact name is an error.
 */
export function selectRepositories(all: Repositories, names: readonly string[]): Repositories {
  if (names.length === 0 || (names.length === 1 && names[0] === '_all')) return all;
  const out: Record<string, RepositoryMetadata> = {};
  for (const n of names) {
    if (n.includes('*')) {
      for (const [k, v] of Object.entries(all)) if (simpleMatch(n, k)) out[k] = v;
    } else if (all[n]) out[n] = all[n];
    else throw repositoryMissing(n);
  }
  return out;
}
