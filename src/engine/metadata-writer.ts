/**
 * Index metadata changes that every copy's node must see (mappings now; settings, aliases and
 * templates to follow): the seam between the REST layer and where the metadata lives. A lone
 * node changes its own index; a node in a cluster asks the master, which merges and publishes
 * the change to every node (src/cluster/cluster-indices.ts).
 */
import type { IndexService } from './index-service.js';

export interface MetadataWriter {
  /** Merges `mapping` into the index's mapping of `type` (PUT _mapping). */
  putMapping(idx: IndexService, type: string, mapping: unknown): Promise<void>;
}

export function localMetadata(): MetadataWriter {
  return {
    putMapping: (idx, type, mapping) => idx.updateMapping(type, mapping),
  };
}
