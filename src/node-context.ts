/**
 * What a running node is made of: identity, settings and services. Routes receive it; nothing
 * below `src/http` depends on Fastify.
 */
import type { Store } from './store/store.js';
import type { IndicesService } from './engine/indices-service.js';
import type { DocumentService } from './engine/documents.js';
import type { MatchScanner } from './dsl/search/scan.js';
import type { WriteExecutor } from './engine/write-executor.js';
import type { DocumentReader } from './engine/document-reader.js';
import type { DocumentExplainer } from './dsl/search/explain-document.js';
import type { TermVectorsReader } from './dsl/search/term-vectors.js';
import type { ShardBroadcast } from './engine/shard-broadcast.js';
import type { CopyBroadcast } from './engine/copy-broadcast.js';
import type { MetadataWriter } from './engine/metadata-writer.js';
import type { IndexSummaries } from './engine/index-summaries.js';
import type { ScrollService } from './dsl/search/scroll.js';
import type { SearchService } from './dsl/search/search-service.js';
import type { RoutingView } from './engine/routing-view.js';
import type { MembersView } from './engine/members-view.js';
import type { OverloadControl } from './http/overload.js';
import type { Clock } from './search/deadline.js';
import type { ClusterMembership } from './cluster/membership.js';
import type { ClusterSearch } from './cluster/search/index.js';
import type { IngestService } from './ingest/service.js';

export interface NodeSettings {
  clusterName: string;
  nodeName: string | null;
  host: string;
  port: number;
  dataPath: string;
  maxContentLength: number;
  /** Every `-E key=value` and config-file setting, flat. */
  raw: Record<string, string>;
}

export interface NodeContext {
  readonly settings: NodeSettings;
  readonly clusterName: string;
  readonly nodeName: string;
  readonly nodeId: string;
  /** New at every start, as ES's DiscoveryNode ephemeral id is (cluster state `nodes`). */
  readonly ephemeralId: string;
  readonly clusterUuid: string;
  readonly startedAt: number;
  readonly store: Store;
  readonly indices: IndicesService;
  readonly documents: DocumentService;
  /** Where document writes run: this node's shards alone, or their primaries in a cluster. */
  writes: WriteExecutor;
  /** Where realtime GETs run: this node's shard, or a started copy's node in a cluster. */
  reads: DocumentReader;
  /** The matches a by-query task works through: this node's shards, or each primary's node. */
  scans: MatchScanner;
  /** Where `_explain` runs: this node's shard, or a started copy's node in a cluster. */
  explainer: DocumentExplainer;
  /** Where `_termvectors` runs: this node's shard, or a started copy's node in a cluster. */
  termVectors: TermVectorsReader;
  /** What this node answers when a node asks every node (http/node-actions.ts), by action. */
  readonly nodeActions: Map<string, (body: unknown) => unknown>;
  /** Refresh and flush over every copy: this node's shards, or every node's copies. */
  broadcast: ShardBroadcast;
  /** Per-copy operations (stats, segments, caches...): this node's shards, or every node's copies. */
  copies: CopyBroadcast;
  /** Index metadata changes: this node's, or through the master in a cluster. */
  metadata: MetadataWriter;
  /** Health and counts per index (`_cat/indices`): this node's shards, or every node's copies. */
  summaries: IndexSummaries;
  /** Searches, counts and scrolls: this node's shards, or one copy of each on its node. */
  searches: SearchService;
  /**
   * Health, master, shard copies, recoveries, allocation commands and the master's queue: this
   * node's own, or the cluster's routing table and master in a cluster.
   */
  routing: RoutingView;
  /** Every node's answer to an action, and this node's transport: itself alone, or the cluster's nodes. */
  members: MembersView;
  /** The address clients reach the node on, `host:port`, once listening. */
  publishAddress: string;
  readonly scrolls: ScrollService;
  /** Effective cluster settings (persistent overlaid by transient). */
  clusterSettings?: () => Record<string, string>;
  /** Extra script functions (SQL's InternalSqlScriptUtils), registered by the SQL layer. */
  scriptMethods?: Record<string, (...args: unknown[]) => unknown>;
  /** Runs an update script (`ctx._source`, `ctx.op`); set once the script module is wired. */
  runUpdateScript?: (script: unknown, ctx: Record<string, unknown>) => Record<string, unknown>;
  /** HTTP connections open now and since start (nodes stats `http`), once listening. */
  httpStats?: () => { current_open: number; total_opened: number };
  /** Request pools and circuit breakers (set when the HTTP app is built). */
  overload?: OverloadControl;
  /** Called with the effective cluster settings after PUT _cluster/settings. */
  clusterSettingsChanged?: (settings: Record<string, string>) => void;
  /** Set when the node joined a cluster coordinated by etcd (`discovery.etcd.endpoints`). */
  cluster?: ClusterMembership;
  /** Searches whose shards are on several nodes (set with `cluster`). */
  clusterSearch?: ClusterSearch;
  /** The clock of search timeouts (performance.now when unset); tests inject one. */
  searchClock?: Clock;
  /** Ingest pipelines (set when the routes are registered). */
  ingest?: IngestService;
}
