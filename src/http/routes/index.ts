/** Registers every API family's routes. */
import { registerTermVectorsRoutes } from './termvectors.js';
import type { NodeContext } from '../../node-context.js';
import type { Handler } from '../rest.js';
import type { HttpMethod, Router } from '../router.js';
import { ES_ENDPOINTS } from '../es-endpoints.js';
import { registerAliasRoutes } from './aliases.js';
import { registerAnalyzeRoutes } from './analyze.js';
import { registerCatRoutes } from './cat.js';
import { registerCatAdminRoutes } from './cat-admin.js';
import { registerSnapshotRepositoryRoutes } from './snapshot-repositories.js';
import { registerSnapshotRoutes } from './snapshots.js';
import { registerClusterRoutes } from './cluster.js';
import { registerClusterAdminRoutes } from './cluster-admin.js';
import { registerDocumentRoutes } from './documents.js';
import { registerIndexRoutes } from './indices.js';
import { registerIndexMaintenanceRoutes } from './index-maintenance.js';
import { registerIndexShardRoutes } from './index-shards.js';
import { registerSearchShardsRoutes } from './search-shards.js';
import { registerQuarryCopiesRoutes } from './quarry-copies.js';
import { registerRolloverRoutes } from './rollover.js';
import { registerResizeRoutes } from './resize.js';
import { registerFreezeRoutes } from './freeze.js';
import { registerFieldCapsRoutes } from './field-caps.js';
import { registerFieldMappingRoutes } from './field-mappings.js';
import { registerInfoRoutes } from './info.js';
import { registerNodesRoutes } from './nodes.js';
import { registerTemplateRoutes } from './templates.js';
import { registerScriptRoutes } from './scripts.js';
import { registerPainlessExecuteRoutes } from './painless-execute.js';
import { registerSearchRoutes } from './search.js';
import { registerSearchTemplateRoutes } from './search-template.js';
import { registerRankEvalRoutes } from './rank-eval.js';
import { registerByQueryRoutes } from './by-query.js';
import { registerReindexRoutes } from './reindex.js';
import { registerTaskRoutes, TaskManager } from './tasks.js';
import { registerStatsRoutes } from './stats.js';
import { registerSqlRoutes } from './sql.js';
import { registerIngestRoutes } from './ingest.js';
import { IngestService } from '../../ingest/service.js';
import { metaPipelineStore } from '../../ingest/pipeline-store.js';

export function registerRoutes(router: Router<Handler>, node: NodeContext): void {
  registerInfoRoutes(router, node);
  registerClusterRoutes(router, node);
  registerClusterAdminRoutes(router, node);
  registerCatRoutes(router, node);
  registerNodesRoutes(router, node);
  registerIndexRoutes(router, node);
  registerIndexMaintenanceRoutes(router, node);
  registerIndexShardRoutes(router, node);
  registerSearchShardsRoutes(router, node);
  registerQuarryCopiesRoutes(router, node);
  registerRolloverRoutes(router, node);
  registerResizeRoutes(router, node);
  registerFreezeRoutes(router, node);
  registerFieldMappingRoutes(router, node);
  registerFieldCapsRoutes(router, node);
  const searches = registerSearchRoutes(router, node);
  registerSearchTemplateRoutes(router, node, searches);
  registerRankEvalRoutes(router, node, searches);
  const tasks = new TaskManager(node);
  registerByQueryRoutes(router, node, tasks);
  registerReindexRoutes(router, node, tasks);
  registerTaskRoutes(router, tasks, node);
  registerCatAdminRoutes(router, node, tasks);
  registerSnapshotRepositoryRoutes(router, node);
  registerSnapshotRoutes(router, node);
  registerStatsRoutes(router, node);
  registerAnalyzeRoutes(router, node);
  registerAliasRoutes(router, node);
  registerTemplateRoutes(router, node);
  registerScriptRoutes(router, node);
  registerPainlessExecuteRoutes(router, node);
  // pipelines are cluster metadata, kept in the node's meta store for now
  const ingest = node.ingest ?? new IngestService(metaPipelineStore(node.store));
  node.ingest = ingest;
  registerIngestRoutes(router, ingest);
  registerDocumentRoutes(router, node);
  registerTermVectorsRoutes(router, node);
  registerSqlRoutes(router, node);
  reserveMissingEndpoints(router);
}

/**
 * Every Elasticsearch 6.8 endpoint without a route here answers ES's 400 `no handler found`,
 * never a broader route's handler (a document write, say).
 */
export function reserveMissingEndpoints(router: Router<Handler>): void {
  for (const [, methods, paths] of ES_ENDPOINTS) {
    for (const path of paths) router.reserve(methods as HttpMethod[], path);
  }
}
