/**
 * Where a realtime GET runs: the seam between the REST layer and the node's data path, as
 * WriteExecutor is for writes. A lone node reads its own shard; a node in a cluster reads a
 * started copy of the shard, here or on the node that holds one (src/cluster/reads).
 */
import type { SourceFilter } from '../common/source-filter.js';
import type { DocumentService } from './documents.js';
import type { IndexService } from './index-service.js';
import type { VersionType } from './versioning.js';

export interface GetOptions {
  version?: number;
  versionType?: VersionType;
  source: SourceFilter | null;
  storedFields?: string[] | null;
  realtime?: boolean;
  /** Refresh the copy read before reading (the `refresh` parameter). */
  refresh?: boolean;
  /** Which copy reads it in a cluster (`_local`, `_primary`, `_replica`, ...). */
  preference?: string;
}

export interface GetResult {
  found: boolean;
  body: Record<string, unknown>;
  sourceDisabled: boolean;
}

export interface DocumentReader {
  get(
    idx: IndexService,
    type: string,
    id: string,
    routing: string | null,
    opts: GetOptions,
  ): Promise<GetResult>;
}

export function localReads(documents: DocumentService): DocumentReader {
  return {
    get: async (idx, type, id, routing, { refresh, preference: _, ...opts }) => {
      if (refresh) for (const s of idx.shards) s.search?.refresh();
      return documents.get(idx, type, id, routing, opts);
    },
  };
}
