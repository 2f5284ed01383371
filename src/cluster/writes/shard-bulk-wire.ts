/**
 * A shard's share of a bulk (ES BulkShardRequest) and its answer as they cross the transport:
 * the requests as JSON with every `_source` in the frame's binary attachment, the items' answers
 * as JSON with errors in the transport's error form. Pure.
 */
import { EsError } from '../../common/errors.js';
import type { IndexRequest, RefreshPolicy, WriteRequest } from '../../engine/write-request.js';
import { packSources, unpackSources } from '../transport/source-attachment.js';
import { deserializeError, serializeError } from '../transport/errors.js';

export interface ShardBulkRequest {
  readonly index: string;
  readonly uuid: string;
  readonly shard: number;
  readonly policy: RefreshPolicy;
  readonly items: readonly WriteRequest[];
  /** `wait_for_active_shards` as given, and how long the primary waits for it. */
  readonly waitForActiveShards?: string;
  readonly timeoutMs?: number;
}

/** One item's answer: the write's status and body, or its failure. */
export type ShardItemResult =
  | { readonly status: number; readonly body: Record<string, unknown>; readonly error?: undefined }
  | { readonly error: EsError };

/**
 * An index request on the wire: a tuple in the JSON, its source in the attachment. Other requests
 * (update, delete) are rare in bulk loads and travel as objects.
 */
type WireIndex = [
  type: string,
  id: string | null,
  routing: string | null,
  version: number,
  versionType: IndexRequest['versionType'],
  opType: IndexRequest['opType'],
  ifSeqNo: number | null,
  ifPrimaryTerm: number | null,
  pipeline: string | null,
];
type WireItem = WireIndex | Record<string, unknown>;

/** Marks an update whose upsert goes through the index's default pipeline. */
export const UPSERT_PIPELINE = 'upsertPipeline';

/** Whether an update came marked so (unpackShardBulk keeps the mark on the request). */
export const upsertThroughPipeline = (req: WriteRequest): boolean =>
  req.kind === 'update' && (req as unknown as Record<string, unknown>)[UPSERT_PIPELINE] === true;

export function packShardBulk(req: ShardBulkRequest): { body: unknown; attachment: Buffer } {
  const sources: Buffer[] = [];
  const items = new Array<WireItem>(req.items.length);
  for (let i = 0; i < req.items.length; i++) {
    const item = req.items[i]!;
    if (item.kind === 'index') {
      sources.push(item.source);
      items[i] = [item.type, item.id, item.routing, item.version, item.versionType, item.opType, item.ifSeqNo ?? null, item.ifPrimaryTerm ?? null, item.pipeline ?? null]; // prettier-ignore
    } else if (item.kind === 'update' && item.prepareUpsert) {
      // a function does not travel: the primary's node runs the index's default pipeline itself
      const { prepareUpsert: _, ...rest } = item;
      items[i] = { ...rest, [UPSERT_PIPELINE]: true };
    } else items[i] = { ...item };
  }
  const { attachment, ends } = packSources(sources);
  return { body: { ...req, items, ends }, attachment };
}

export function unpackShardBulk(body: unknown, attachment: Buffer | undefined): ShardBulkRequest {
  const b = body as Omit<ShardBulkRequest, 'items'> & { items: WireItem[]; ends: number[] };
  const sources = unpackSources(attachment, b.ends);
  let next = 0;
  const items = new Array<WriteRequest>(b.items.length);
  for (let i = 0; i < b.items.length; i++) {
    const w = b.items[i]!;
    if (!Array.isArray(w)) {
      items[i] = w as unknown as WriteRequest;
      continue;
    }
    const [type, id, routing, version, versionType, opType, ifSeqNo, ifPrimaryTerm, pipeline] = w;
    // built in the bulk parser's property order: the primary's write path sees one shape
    const req: IndexRequest = { kind: 'index', index: b.index, type, id, routing, version, versionType, opType, source: sources[next++]! }; // prettier-ignore
    if (ifSeqNo !== null) req.ifSeqNo = ifSeqNo;
    if (ifPrimaryTerm !== null) req.ifPrimaryTerm = ifPrimaryTerm;
    if (pipeline !== null) req.pipeline = pipeline;
    items[i] = req;
  }
  const { ends: _, ...rest } = b;
  return { ...rest, items };
}

/** The keys of a plain write's answer, in ES's order; such answers travel as tuples. */
const PLAIN_KEYS = ['_index', '_type', '_id', '_version', 'result', '_shards', '_seq_no', '_primary_term']; // prettier-ignore

type WireResult =
  | [status: number, index: string, type: string, id: string, version: number, result: string, total: number, successful: number, failed: number, seqNo: number, primaryTerm: number] // prettier-ignore
  | { status: number; body: Record<string, unknown> }
  | { error: unknown };

/** A write's answer with exactly ES's plain keys and a failure-free `_shards`. */
function isPlain(body: Record<string, unknown>): boolean {
  let n = 0;
  for (const k in body) {
    if (k !== PLAIN_KEYS[n]) return false;
    n++;
  }
  const s = body._shards as Record<string, unknown> | undefined;
  return n === PLAIN_KEYS.length && s !== undefined && s.failures === undefined;
}

export function packResults(results: readonly ShardItemResult[]): unknown {
  return results.map((r): WireResult => {
    if (r.error) return { error: serializeError(r.error) };
    const b = r.body;
    if (!isPlain(b)) return { status: r.status, body: b };
    const s = b._shards as { total: number; successful: number; failed: number };
    return [r.status, b._index as string, b._type as string, b._id as string, b._version as number, b.result as string, s.total, s.successful, s.failed, b._seq_no as number, b._primary_term as number]; // prettier-ignore
  });
}

export function unpackResults(wire: unknown): ShardItemResult[] {
  return (wire as WireResult[]).map((w): ShardItemResult => {
    if (Array.isArray(w)) {
      const [status, _index, _type, _id, _version, result, total, successful, failed, _seq_no, _primary_term] = w; // prettier-ignore
      return { status, body: { _index, _type, _id, _version, result, _shards: { total, successful, failed }, _seq_no, _primary_term } }; // prettier-ignore
    }
    return 'error' in w ? { error: deserializeError(w.error) } : { status: w.status, body: w.body };
  });
}
