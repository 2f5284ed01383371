/**
 * Index creation and deletion as master state updates (ES MetaDataCreateIndexService,
 * MetaDataDeleteIndexService): the index's metadata with its settings (defaults 5 shards and 1
 * replica, as on a lone node), every copy unassigned with INDEX_CREATED, then a reroute places
 * them. Pure: the caller supplies time and ids.
 */
import { toStateSettings } from '../state-settings.js';
import { EsError, illegalArgument, resourceAlreadyExists } from '../../common/errors.js';
import { validateIndexName } from '../../engine/index-names.js';
import {
  flattenSettings,
  validateSettings,
  VERSION_CREATED,
  type FlatSettings,
} from '../../engine/index-settings.js';
import {
  newIndexRouting,
  newIndexTerms,
  reroute,
  type AllocationContext,
} from '../allocation/index.js';
import type { ClusterState, IndexMetadata } from '../state.js';

export interface CreateIndexRequest {
  readonly name: string;
  /** The `settings` object of the request body (nested or flat). */
  readonly settings: unknown;
  /** The `mappings` object of the request body (`{ type: mapping }`), as given. */
  readonly mappings?: unknown;
  /** The name as given (`<logs-{now/d}>`), kept as `index.provided_name`; `name` by default. */
  readonly providedName?: string;
  /** The index's aliases (request and templates), parsed. */
  readonly aliases?: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
}

export function createIndexUpdate(
  req: CreateIndexRequest,
  uuid: string,
  ctx: AllocationContext,
): (state: ClusterState) => ClusterState {
  validateIndexName(req.name);
  const user: FlatSettings = flattenSettings(req.settings ?? {});
  validateSettings(user, true);
  const settings: Record<string, string> = toStateSettings(user);
  settings['index.number_of_shards'] ??= '5';
  settings['index.number_of_replicas'] ??= '1';
  settings['index.creation_date'] = String(ctx.now);
  settings['index.uuid'] = uuid;
  settings['index.version.created'] = VERSION_CREATED;
  settings['index.provided_name'] = req.providedName ?? req.name;
  const shards = Number(settings['index.number_of_shards']);
  const replicas = Number(settings['index.number_of_replicas']);
  return (state) => {
    const existing = state.metadata.indices.get(req.name);
    if (existing) throw resourceAlreadyExists(req.name, existing.uuid);
    const meta: IndexMetadata = {
      name: req.name,
      uuid,
      state: 'open',
      settings,
      mappings: mappingsOf(req.mappings),
      aliases: req.aliases ?? {},
      numberOfShards: shards,
      numberOfReplicas: replicas,
      version: 1,
      mappingVersion: 1,
      settingsVersion: 1,
      terms: newIndexTerms(shards),
    };
    const next: ClusterState = {
      ...state,
      metadata: { ...state.metadata, indices: new Map(state.metadata.indices).set(req.name, meta) },
      routing: new Map(state.routing).set(req.name, newIndexRouting(meta, ctx.now)),
    };
    return reroute(next, ctx).state;
  };
}

export function deleteIndexUpdate(names: readonly string[]): (state: ClusterState) => ClusterState {
  return (state) => {
    const indices = new Map(state.metadata.indices);
    const routing = new Map(state.routing);
    for (const n of names) {
      indices.delete(n);
      routing.delete(n);
    }
    return { ...state, metadata: { ...state.metadata, indices }, routing };
  };
}

/** The body's `mappings` as stored: one type and its mapping, or none. */
function mappingsOf(m: unknown): Record<string, unknown> | null {
  if (m === undefined || m === null) return null;
  if (typeof m !== 'object' || Array.isArray(m))
    throw new EsError('mapper_parsing_exception', 'Failed to parse mapping [_doc]: mapping must be an object', 400); // prettier-ignore
  const entries = Object.entries(m as Record<string, unknown>);
  if (entries.length === 0) return null;
  if (entries.length > 1)
    throw illegalArgument(`Rejecting mapping update to [${Object.keys(m).join(', ')}] as the final mapping would have more than 1 type`); // prettier-ignore
  return Object.fromEntries(entries);
}
