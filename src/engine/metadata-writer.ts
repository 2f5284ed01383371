/**
 * Index metadata changes that every copy's node must see (mappings now; settings, aliases and
 * templates to follow): the seam between the REST layer and where the metadata lives. A lone
 * node changes its own index; a node in a cluster asks the master, which merges and publishes
 * the change to every node (src/cluster/cluster-indices.ts).
 */
import type { IndexService } from './index-service.js';
import type { FlatSettings } from './index-settings.js';
import type { IndicesService } from './indices-service.js';

export interface MetadataWriter {
  /**
   * An index was created here: publish it; resolves once its primaries are active (or not).
   * `also`: indices whose aliases were changed in place with it, published in the same change
   * (rollover's alias swap), so no node ever sees one without the other; keep them with
   * `indicesChanged` after.
   */
  indexCreated(
    idx: IndexService,
    waitMs: number,
    also?: readonly IndexService[],
  ): Promise<{ shardsAcknowledged: boolean }>;
  /** Merges `mapping` into the index's mapping of `type` (PUT _mapping). */
  putMapping(idx: IndexService, type: string, mapping: unknown): Promise<void>;
  /** Applies a validated settings update to every target, all or nothing (PUT _settings). */
  putSettings(targets: readonly IndexService[], update: FlatSettings, preserveExisting: boolean): Promise<void>; // prettier-ignore
  /**
   * The aliases or the open/closed state of these indices changed in place (`meta.aliases`,
   * `meta.state`): keep and publish them.
   */
  indicesChanged(changed: readonly IndexService[]): Promise<void>;
  /** Deletes indices (an alias action's `remove_index`). */
  deleteIndices(list: readonly IndexService[]): Promise<void>;
  /** The snapshot repositories changed here (kept in the store already): publish them. */
  repositoriesChanged(repositories: Readonly<Record<string, unknown>>): Promise<void>;
  /**
   * Creates an index the node needs for itself (`.tasks`) as the create-index API would, here
   * or through the master; resolves once this node has it open.
   */
  createIndex(name: string, body: Record<string, unknown>): Promise<void>;
  /** The cluster settings changed here (PUT _cluster/settings): publish them. */
  clusterSettingsChanged(settings: {
    persistent: Record<string, string>;
    transient: Record<string, string>;
  }): Promise<void>;
}

/**
 * Applies a settings update in memory and persists it. All or nothing: a value an index cannot
 * apply (settingsChanged throws) restores every target's previous settings.
 */
export async function applySettingsUpdate(
  targets: readonly IndexService[],
  update: FlatSettings,
  preserveExisting: boolean,
): Promise<void> {
  const previous = new Map(targets.map((idx) => [idx, { ...idx.meta.settings }]));
  try {
    for (const idx of targets) {
      for (const [k, v] of Object.entries(update)) {
        if (preserveExisting && k in idx.meta.settings) continue;
        if (v === null) delete idx.meta.settings[k];
        else idx.meta.settings[k] = v;
      }
      idx.settingsChanged();
    }
  } catch (e) {
    for (const [idx, settings] of previous) {
      idx.meta.settings = settings;
      idx.settingsChanged();
    }
    throw e;
  }
  for (const idx of targets) {
    idx.meta.version++;
    await idx.persist();
  }
}

/** Persists metadata changed in place on the indices. */
export async function persistChanged(changed: readonly IndexService[]): Promise<void> {
  for (const i of changed) {
    i.meta.version++;
    await i.persist();
  }
}

export function localMetadata(indices: IndicesService): MetadataWriter {
  return {
    indexCreated: async () => ({ shardsAcknowledged: true }),
    putMapping: (idx, type, mapping) => idx.updateMapping(type, mapping),
    putSettings: applySettingsUpdate,
    indicesChanged: persistChanged,
    deleteIndices: async (list) => void (await indices.delete([...list])),
    clusterSettingsChanged: async () => undefined,
    repositoriesChanged: async () => undefined,
    createIndex: async (name, body) => void (await indices.create(name, body)),
  };
}
