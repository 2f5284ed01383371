/**
 * Whether a flush drops the committed operations from a shard's translog (ES
 * TranslogDeletionPolicy). Committed generations are kept within `index.translog.retention.size`
 * (default 512mb) and `.age` (default 12h), the stricter of the two deciding; with both disabled
 * (-1) only the uncommitted operations stay. Operation ages are not tracked: age never trims.
 */
import { parseByteSize, parseTimeValue } from '../common/units.js';
import { getStr, type FlatSettings } from './index-settings.js';

export interface TranslogRetention {
  /** Bytes to keep, -1 when size retention is off. */
  readonly sizeBytes: number;
  /** Milliseconds to keep, -1 when age retention is off. */
  readonly ageMs: number;
}

export function translogRetention(settings: FlatSettings): TranslogRetention {
  const size = 'index.translog.retention.size';
  const age = 'index.translog.retention.age';
  return {
    sizeBytes: parseByteSize(getStr(settings, size, '512mb'), size),
    ageMs: parseTimeValue(getStr(settings, age, '12h'), age),
  };
}

/** Whether the committed operations (`retainedBytes` in all) are trimmed at a commit. */
export function translogTrimmed(r: TranslogRetention, retainedBytes: number): boolean {
  if (r.sizeBytes >= 0) return retainedBytes > r.sizeBytes;
  return r.ageMs < 0;
}
