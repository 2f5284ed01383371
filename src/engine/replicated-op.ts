/**
 * An operation as the primary replicates it (ES IndexRequest/DeleteRequest on the replica side,
 * or a Translog.Operation in recovery and resync): the sequence number, primary term and version
 * the primary assigned, and the document. A copy applies operations idempotently and in any
 * order: per document, the operation with the higher sequence number wins (ES
 * InternalEngine.planIndexingAsNonPrimary: an older or equal one is OP_STALE_OR_EQUAL).
 */
import { EsError } from '../common/errors.js';
import type { CurrentVersion } from './versioning.js';

export type ReplicatedOperation =
  | {
      readonly kind: 'index';
      readonly id: string;
      readonly seqNo: number;
      readonly primaryTerm: number;
      readonly version: number;
      readonly routing: string | null;
      readonly source: Buffer;
    }
  | {
      readonly kind: 'delete';
      readonly id: string;
      readonly seqNo: number;
      readonly primaryTerm: number;
      readonly version: number;
      readonly routing: string | null;
    };

/** What a copy does with an operation, given the document's current state there. */
export type ReplicaPlan = 'apply' | 'stale';

export function planReplicaOperation(
  current: CurrentVersion | null,
  op: Pick<ReplicatedOperation, 'seqNo'>,
): ReplicaPlan {
  return current !== null && current.seqNo >= op.seqNo ? 'stale' : 'apply';
}

/**
 * A copy refuses operations of an older primary term (ES IndexShard.acquireReplicaOperationPermit:
 * a deposed primary must not write to copies the new primary owns).
 */
export function checkOperationTerm(
  shardTerm: number,
  opTerm: number,
  index: string,
  shard: number,
): void {
  if (opTerm < shardTerm) {
    throw new EsError(
      'illegal_state_exception',
      `[${index}][${shard}] operation primary term [${opTerm}] is too old (current [${shardTerm}])`,
      500,
    );
  }
}

/** What a copy holds for a document, as far as history goes. */
export interface OpStamp {
  readonly seqNo: number;
  readonly primaryTerm: number;
}

/**
 * The rollback a returning copy needs before it may take live operations from a new primary
 * (ES 7's rollback to the global checkpoint; here per document): every document the copy wrote
 * above the global checkpoint whose newest operation is not the primary's is reset to the
 * primary's record, or removed when the primary never had one. Returns the ids to reset.
 */
export function planRollback(
  copyAboveGlobal: ReadonlyMap<string, OpStamp>,
  primaryLatest: (id: string) => OpStamp | null,
): string[] {
  const out: string[] = [];
  for (const [id, mine] of copyAboveGlobal) {
    const theirs = primaryLatest(id);
    if (!theirs || theirs.seqNo !== mine.seqNo || theirs.primaryTerm !== mine.primaryTerm)
      out.push(id);
  }
  return out.sort();
}
