/**
 * Parsed single-document write requests (index/create, delete, update) as the REST layer and the
 * bulk parser build them. Validation follows ES's ActionRequestValidationException messages.
 */
import type { VersionType } from './versioning.js';
import { MATCH_ANY, validateWriteVersion } from './versioning.js';

export type RefreshPolicy = 'false' | 'true' | 'wait_for';

export interface WriteBase {
  index: string;
  type: string;
  id: string | null;
  routing: string | null;
  version: number;
  versionType: VersionType;
  ifSeqNo?: number;
  ifPrimaryTerm?: number;
}

export interface IndexRequest extends WriteBase {
  kind: 'index';
  opType: 'index' | 'create';
  /** The document bytes exactly as sent. */
  source: Buffer;
  pipeline?: string;
  /**
   * `source` already decoded to text (by the bulk parser, which decodes a body once): used only
   * while `of` is still the request's `source`, so a rewrite of the source (an ingest pipeline)
   * cannot pair new bytes with old text.
   */
  decoded?: { readonly of: Buffer; readonly text: string };
}

export interface DeleteRequest extends WriteBase {
  kind: 'delete';
}

export interface UpdateRequest extends WriteBase {
  kind: 'update';
  body: Record<string, unknown>;
  retryOnConflict: number;
  /** `_source` of the response: null = not requested. */
  fetchSource: { includes: string[]; excludes: string[] } | null;
  /** `fields` parameter (deprecated in 6.x): a list of fields to return; `_source` returns it. */
  fields?: string[];
  /**
   * Runs on the index request an upsert becomes (the default ingest pipeline of the update API);
   * a finished outcome means the document was dropped.
   */
  prepareUpsert?: (
    req: IndexRequest,
  ) => IndexRequest | { status: number; body: Record<string, unknown> };
}

export type WriteRequest = IndexRequest | DeleteRequest | UpdateRequest;

export const defaultWriteBase = (index: string, type: string, id: string | null): WriteBase => ({
  index,
  type,
  id,
  routing: null,
  version: MATCH_ANY,
  versionType: 'internal',
});

/** Problems ES reports in action_request_validation_exception for a write (IndexRequest,
 *  DeleteRequest, UpdateRequest `validate()` and DocWriteRequest.validateSeqNoBasedCASParams). */
export function validateWrite(req: WriteRequest): string[] {
  const problems: string[] = [];
  if (req.kind === 'index' && req.opType === 'create') {
    if (req.versionType !== 'internal') {
      return ['create operations only support internal versioning. use index instead'];
    }
    if (req.version !== MATCH_ANY) {
      return ['create operations do not support explicit versions. use index instead'];
    }
    if (req.ifSeqNo !== undefined || req.ifPrimaryTerm !== undefined) {
      return ['create operations do not support compare and set. use index instead'];
    }
  }
  if (req.kind !== 'index' && (req.id === null || req.id === '')) problems.push('id is missing');
  const v = validateWriteVersion(req.versionType, req.version);
  if (v) problems.push(v);
  if (req.versionType === 'force') problems.push('version type [force] may no longer be used');
  if (req.ifSeqNo !== undefined && (req.versionType !== 'internal' || req.version !== MATCH_ANY)) {
    problems.push('compare and write operations can not use versioning');
  }
  if (req.ifSeqNo !== undefined && req.ifPrimaryTerm === undefined) {
    problems.push('ifSeqNo is set, but primary term is [0]');
  }
  if (req.ifPrimaryTerm !== undefined && req.ifSeqNo === undefined) {
    problems.push(`ifSeqNo is unassigned, but primary term is [${req.ifPrimaryTerm}]`);
  }
  if (req.kind === 'index') {
    // An empty id fails the item, not the request (checked when the item runs).
    if (req.id !== null && Buffer.byteLength(req.id, 'utf8') > 512) {
      problems.push(
        `id is too long, must be no longer than 512 bytes but was: ${Buffer.byteLength(req.id, 'utf8')}`,
      );
    }
    if (req.id === null && !(req.versionType === 'internal' && req.version === MATCH_ANY)) {
      problems.push('an id must be provided if version type or value are set');
    }
    if (req.pipeline !== undefined && req.pipeline.length === 0) {
      problems.push('pipeline cannot be an empty string');
    }
  }
  if (req.kind === 'update' && req.versionType !== 'internal' && req.versionType !== 'force') {
    problems.push(`version type [${req.versionType}] is not supported by the update API`);
  }
  return problems;
}
