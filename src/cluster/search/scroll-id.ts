/**
 * The scroll id of a search across nodes (ES TransportSearchHelper.buildScrollId): every node's
 * context and where it is, so any node of the cluster can serve the scroll's next page or clear
 * it. Base64 of `queryThenFetch;<shards>;<scroll>` then one `<context>:<shards>:<node>` per context.
 */

/** A search context on a node, and how many of the search's shards it holds. */
export interface ContextRef {
  readonly nodeId: string;
  readonly contextId: string;
  shards: number;
}

export interface ClusterScrollId {
  /** Names the scroll (clear-all counts scrolls, not contexts). */
  readonly id: string;
  /** The shards of the scroll's search (`_shards.total` of every page). */
  readonly shards: number;
  readonly contexts: readonly ContextRef[];
}

const PREFIX = 'queryThenFetch';

export function encodeScrollId(s: ClusterScrollId): string {
  const parts = [PREFIX, String(s.shards), s.id];
  for (const c of s.contexts) parts.push(`${c.contextId}:${c.shards}:${c.nodeId}`);
  return Buffer.from(parts.join(';')).toString('base64');
}

/** Null for an id that is not a cluster scroll's. */
export function decodeScrollId(text: string): ClusterScrollId | null {
  let parts: string[];
  try {
    parts = Buffer.from(text, 'base64').toString('utf8').split(';');
  } catch {
    return null;
  }
  if (parts[0] !== PREFIX || parts.length < 3) return null;
  const shards = Number(parts[1]);
  if (!Number.isInteger(shards) || shards < 0) return null;
  const contexts: ContextRef[] = [];
  for (const p of parts.slice(3)) {
    const m = /^([^:]+):(\d+):(.+)$/.exec(p);
    if (!m) return null;
    contexts.push({ contextId: m[1]!, shards: Number(m[2]), nodeId: m[3]! });
  }
  return { id: parts[2]!, shards, contexts };
}
