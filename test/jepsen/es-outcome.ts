/**
 * From an Elasticsearch 6.8 answer to a history completion. The rule that keeps the checkers
 * sound: `fail` only when the op certainly did not happen — a version conflict, or a request
 * refused as invalid or blocked before it ran; anything that may have run (a 5xx, 429, a timeout,
 * a dropped connection) is `info`.
 */
import type { Failure, Op, Result, Version } from './history.js';

export type Completion =
  | { readonly type: 'ok'; readonly result: Result }
  | { readonly type: 'fail'; readonly failure: Failure }
  | { readonly type: 'info'; readonly error: string };

interface EsBody {
  found?: boolean;
  result?: string;
  _seq_no?: number;
  _primary_term?: number;
  _source?: Record<string, unknown>;
  error?: {
    type?: string;
    reason?: string;
    root_cause?: Array<{ type?: string; reason?: string }>;
  };
}

const CURRENT = /current document has seqNo \[(\d+)\] and primary term \[(\d+)\]/;
const MISSING = /no document was found|document does not exist|document missing/;

/** The current version a version conflict names: a Version, null (no document), or undefined. */
export function conflictCurrent(reason: string): Version | null | undefined {
  const m = CURRENT.exec(reason);
  if (m) return { seqNo: Number(m[1]), primaryTerm: Number(m[2]) };
  return MISSING.test(reason) ? null : undefined;
}

function versionOf(b: EsBody): Version | undefined {
  return typeof b._seq_no === 'number' && typeof b._primary_term === 'number'
    ? { seqNo: b._seq_no, primaryTerm: b._primary_term }
    : undefined;
}

const errorType = (b: EsBody) => b.error?.type ?? b.error?.root_cause?.[0]?.type ?? '';
const errorReason = (b: EsBody) => b.error?.reason ?? b.error?.root_cause?.[0]?.reason ?? '';

/**
 * `op` as sent: insert = index with `op_type=create`, write = index, cas = index with
 * `if_seq_no`/`if_primary_term`, read = GET, delete = DELETE. Register documents keep their value
 * in `valueField` of the source.
 */
export function classify(op: Op, status: number, body: unknown, valueField = 'value'): Completion {
  const b = (body ?? {}) as EsBody;
  const type = errorType(b);
  if (status >= 500 || status === 429 || status === 408)
    return { type: 'info', error: `${status} ${type}`.trim() };
  if (type === 'version_conflict_engine_exception') {
    // A create of an id that exists: an earlier attempt of this insert happened.
    if (op.kind === 'insert') return { type: 'ok', result: { kind: 'insert' } };
    const current = conflictCurrent(errorReason(b));
    return {
      type: 'fail',
      failure: { error: type, conflict: true, ...(current !== undefined ? { current } : {}) },
    };
  }
  const v = versionOf(b);
  if (status >= 200 && status < 300) {
    switch (op.kind) {
      case 'insert':
        return { type: 'ok', result: { kind: 'insert', ...(v ? { version: v } : {}) } };
      case 'read':
        if (b.found === false) return { type: 'ok', result: { kind: 'read', found: false } };
        if (!v) return { type: 'info', error: 'read answered without _seq_no/_primary_term' };
        return {
          type: 'ok',
          result: {
            kind: 'read',
            found: true,
            value: b._source?.[valueField] as never,
            version: v,
          },
        };
      case 'write':
      case 'cas':
        if (!v) return { type: 'info', error: `${op.kind} answered without a version` };
        return { type: 'ok', result: { kind: op.kind, version: v } };
      case 'delete':
        return {
          type: 'ok',
          result: { kind: 'delete', found: b.result !== 'not_found', ...(v ? { version: v } : {}) },
        };
    }
  }
  if (status === 404 && !b.error) {
    // GET of a missing document; DELETE of one, which still took a seq_no
    if (op.kind === 'read') return { type: 'ok', result: { kind: 'read', found: false } };
    if (op.kind === 'delete' && b.result === 'not_found')
      return { type: 'ok', result: { kind: 'delete', found: false, ...(v ? { version: v } : {}) } };
  }
  // Refused before running: invalid request, missing index, cluster block (no master).
  if (status >= 400 && status < 500)
    return { type: 'fail', failure: { error: `${status} ${type}`.trim() } };
  return { type: 'info', error: `unexpected status ${status}` };
}

/**
 * A request without an answer. Refused connections never carried it: `fail`. Anything else (a
 * timeout, a reset) may have reached the node and run: `info`.
 */
export function classifyError(e: unknown): Completion {
  const err = e as { code?: string; message?: string; cause?: { code?: string } };
  const code = err?.code ?? err?.cause?.code;
  if (code === 'ECONNREFUSED') return { type: 'fail', failure: { error: code } };
  return { type: 'info', error: code ?? err?.message ?? String(e) };
}
