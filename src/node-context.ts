/**
 * What a running node is made of: identity, settings and services. Routes receive it; nothing
 * below `src/http` depends on Fastify.
 */
import type { Store } from './store/store.js';

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
  readonly clusterUuid: string;
  readonly startedAt: number;
  readonly store: Store;
  /** The address clients reach the node on, `host:port`, once listening. */
  publishAddress: string;
}
