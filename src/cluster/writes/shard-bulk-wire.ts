/**
 * A shard's share of a bulk (ES BulkShardRequest) and its answer as they cross the transport:
 * the requests as JSON with every `_source` in the frame's binary attachment, the items' answers
 * as JSON with errors in the transport's error form. Pure.
 */
import { EsError } from '../../common/errors.js';
import type { RefreshPolicy, WriteRequest } from '../../engine/write-request.js';
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

type WireItem = Record<string, unknown> & { at?: [number, number] };

/** Marks an update whose upsert goes through the index's default pipeline. */
export const UPSERT_PIPELINE = 'upsertPipeline';

/** Whether an update came marked so (unpackShardBulk keeps the mark on the request). */
export const upsertThroughPipeline = (req: WriteRequest): boolean =>
  req.kind === 'update' && (req as unknown as Record<string, unknown>)[UPSERT_PIPELINE] === true;

export function packShardBulk(req: ShardBulkRequest): { body: unknown; attachment: Buffer } {
  const parts: Buffer[] = [];
  let offset = 0;
  const items = req.items.map((item): WireItem => {
    if (item.kind === 'update' && item.prepareUpsert) {
      // a function does not travel: the primary's node runs the index's default pipeline itself
      const { prepareUpsert: _, ...rest } = item;
      return { ...rest, [UPSERT_PIPELINE]: true };
    }
    if (item.kind !== 'index') return { ...item };
    const { source, ...rest } = item;
    parts.push(source);
    const at: [number, number] = [offset, offset + source.length];
    offset += source.length;
    return { ...rest, at };
  });
  return {
    body: { ...req, items },
    attachment: Buffer.concat(parts),
  };
}

export function unpackShardBulk(body: unknown, attachment: Buffer | undefined): ShardBulkRequest {
  const b = body as Omit<ShardBulkRequest, 'items'> & { items: WireItem[] };
  const items = b.items.map((w): WriteRequest => {
    if (w.kind !== 'index') return w as unknown as WriteRequest;
    const { at, ...rest } = w;
    // copied: the attachment is a view of a frame the transport may reuse
    const source = Buffer.from(attachment!.subarray(at![0], at![1]));
    return { ...(rest as object), source } as WriteRequest;
  });
  return { ...b, items };
}

export function packResults(results: readonly ShardItemResult[]): unknown {
  return results.map((r) =>
    r.error ? { error: serializeError(r.error) } : { status: r.status, body: r.body },
  );
}

export function unpackResults(wire: unknown): ShardItemResult[] {
  return (wire as Array<{ status?: number; body?: Record<string, unknown>; error?: unknown }>).map(
    (w) =>
      w.error !== undefined
        ? { error: deserializeError(w.error) }
        : { status: w.status!, body: w.body! },
  );
}
