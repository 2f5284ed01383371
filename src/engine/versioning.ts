/**
 * Write concurrency control as Elasticsearch 6.8's InternalEngine plans it on a primary:
 * internal / external / external_gte versions and compare-and-write on `if_seq_no` +
 * `if_primary_term`. Pure: given the current state, returns the new version or the conflict text.
 */
import { illegalArgument } from '../common/errors.js';

export type VersionType = 'internal' | 'external' | 'external_gte' | 'force';

/** ES Versions.MATCH_ANY / NOT_FOUND / MATCH_DELETED. */
export const MATCH_ANY = -3;
export const NOT_FOUND = -1;
export const MATCH_DELETED = -4;

export interface CurrentVersion {
  version: number;
  seqNo: number;
  primaryTerm: number;
  deleted: boolean;
}

export interface WriteCondition {
  version: number; // MATCH_ANY when not given
  versionType: VersionType;
  ifSeqNo?: number;
  ifPrimaryTerm?: number;
}

export type VersionPlan =
  | { ok: true; newVersion: number; currentNotFoundOrDeleted: boolean }
  | { ok: false; explanation: string };

export function parseVersionType(v: string | undefined): VersionType {
  if (v === undefined) return 'internal';
  switch (v) {
    case 'internal':
    case 'external':
    case 'external_gte':
    case 'force':
      return v;
    case 'external_gt':
      return 'external';
  }
  throw illegalArgument(`No version type match [${v}]`);
}

function isConflict(t: VersionType, current: number, expected: number, deleted: boolean): boolean {
  switch (t) {
    case 'internal':
      if (expected === MATCH_ANY) return false;
      if (expected === MATCH_DELETED) return !deleted;
      return current !== expected;
    case 'external':
      if (current === NOT_FOUND) return false;
      if (expected === MATCH_ANY) return true;
      return current >= expected;
    case 'external_gte':
      if (current === NOT_FOUND) return false;
      if (expected === MATCH_ANY) return true;
      return current > expected;
    case 'force':
      return false;
  }
}

function explain(t: VersionType, current: number, expected: number): string {
  switch (t) {
    case 'internal':
      if (expected === MATCH_DELETED)
        return `document already exists (current version [${current}])`;
      return `current version [${current}] is different than the one provided [${expected}]`;
    case 'external':
      return `current version [${current}] is higher or equal to the one provided [${expected}]`;
    default:
      return `current version [${current}] is higher than the one provided [${expected}]`;
  }
}

/** ES InternalEngine.planIndexingAsPrimary / planDeletionAsPrimary. */
export function planWrite(current: CurrentVersion | null, cond: WriteCondition): VersionPlan {
  const currentVersion = current ? current.version : NOT_FOUND;
  const notFoundOrDeleted = current ? current.deleted : true;
  if (cond.ifSeqNo !== undefined) {
    if (!current) {
      return {
        ok: false,
        explanation: `required seqNo [${cond.ifSeqNo}], primary term [${cond.ifPrimaryTerm}]. but no document was found`,
      };
    }
    if (current.seqNo !== cond.ifSeqNo || current.primaryTerm !== cond.ifPrimaryTerm) {
      return {
        ok: false,
        explanation: `required seqNo [${cond.ifSeqNo}], primary term [${cond.ifPrimaryTerm}]. current document has seqNo [${current.seqNo}] and primary term [${current.primaryTerm}]`,
      };
    }
  }
  if (isConflict(cond.versionType, currentVersion, cond.version, notFoundOrDeleted)) {
    return { ok: false, explanation: explain(cond.versionType, currentVersion, cond.version) };
  }
  const newVersion =
    cond.versionType === 'internal'
      ? currentVersion === NOT_FOUND
        ? 1
        : currentVersion + 1
      : cond.version;
  return { ok: true, newVersion, currentNotFoundOrDeleted: notFoundOrDeleted };
}

/** Read-side check (GET with `version`): ES VersionType.isVersionConflictForReads. */
export function readConflict(t: VersionType, current: number, expected: number): string | null {
  if (expected === MATCH_ANY) return null;
  if (t === 'internal') {
    return current !== expected
      ? `current version [${current}] is different than the one provided [${expected}]`
      : null;
  }
  if (current === NOT_FOUND || current !== expected) {
    return `current version [${current}] is different than the one provided [${expected}]`;
  }
  return null;
}

/** ES VersionType.validateVersionForWrites; the message comes from the request validation. */
export function validateWriteVersion(t: VersionType, version: number): string | null {
  if (t === 'internal') {
    if (version > 0 || version === MATCH_ANY || version === MATCH_DELETED) return null;
    return `illegal version value [${version}] for version type [INTERNAL]`;
  }
  if (version >= 0) return null;
  return `illegal version value [${version}] for version type [${t.toUpperCase()}]`;
}
