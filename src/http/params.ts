/**
 * Request-parameter helpers shared by routes: write conditions (version, version_type, if_seq_no,
 * if_primary_term), refresh policy, and Elasticsearch's rejection of unrecognized parameters.
 */
import { illegalArgument } from '../common/errors.js';
import { MATCH_ANY, parseVersionType } from '../engine/versioning.js';
import type { RefreshPolicy, WriteBase } from '../engine/write-request.js';
import { param, type RestRequest } from './rest.js';

/** Parameters every REST handler accepts (ES BaseRestHandler + RestController response params). */
const COMMON = new Set([
  'pretty',
  'human',
  'error_trace',
  'filter_path',
  'format',
  'source',
  'source_content_type',
]);

/** ES BaseRestHandler: unconsumed parameters fail the request, with "did you mean" hints. */
export function checkParams(req: RestRequest, allowed: readonly string[]): void {
  const bad: string[] = [];
  for (const k of req.query.keys()) if (!COMMON.has(k) && !allowed.includes(k)) bad.push(k);
  if (!bad.length) return;
  bad.sort();
  const parts = bad.map((k) => {
    const hints = allowed.filter((a) => similarity(k, a) > 0.5).sort();
    return hints.length
      ? `[${k}] -> did you mean ${hints.length === 1 ? `[${hints[0]}]` : `any of [${hints.join(', ')}]`}?`
      : `[${k}]`;
  });
  throw illegalArgument(
    `request [${req.path}] contains unrecognized parameter${bad.length > 1 ? 's' : ''}: ${parts.join(', ')}`,
  );
}

/** Lucene LevensteinDistance.getDistance: 1 - edits / max(len). */
function similarity(a: string, b: string): number {
  const n = a.length;
  const m = b.length;
  if (n === 0 || m === 0) return n === m ? 1 : 0;
  let prev = Array.from({ length: n + 1 }, (_, i) => i);
  for (let j = 1; j <= m; j++) {
    const cur = [j];
    for (let i = 1; i <= n; i++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      cur[i] = Math.min(cur[i - 1]! + 1, prev[i]! + 1, prev[i - 1]! + cost);
    }
    prev = cur;
  }
  return 1 - prev[n]! / Math.max(n, m);
}

/** ES RestRequest.paramAsLong. */
export function longParam(req: RestRequest, name: string): number | undefined {
  const v = param(req, name);
  if (v === undefined) return undefined;
  const n = Number(v);
  if (v.trim() === '' || !Number.isFinite(n) || !Number.isInteger(n)) {
    throw illegalArgument(`Failed to parse long parameter [${name}] with value [${v}]`);
  }
  return n;
}

export function writeBase(
  req: RestRequest,
  index: string,
  type: string,
  id: string | null,
): WriteBase {
  const version = longParam(req, 'version');
  const ifSeqNo = longParam(req, 'if_seq_no');
  const ifPrimaryTerm = longParam(req, 'if_primary_term');
  return {
    index,
    type,
    id,
    routing: param(req, 'routing') ?? param(req, 'parent') ?? null,
    version: version ?? MATCH_ANY,
    versionType: parseVersionType(param(req, 'version_type')),
    ...(ifSeqNo !== undefined ? { ifSeqNo } : {}),
    ...(ifPrimaryTerm !== undefined ? { ifPrimaryTerm } : {}),
  };
}

export function refreshPolicy(req: RestRequest): RefreshPolicy {
  const v = param(req, 'refresh');
  if (v === undefined || v === 'false') return 'false';
  if (v === '' || v === 'true') return 'true';
  if (v === 'wait_for') return 'wait_for';
  throw illegalArgument(`Unknown value for refresh: [${v}].`);
}

export const WRITE_PARAMS = [
  'routing',
  'parent',
  'version',
  'version_type',
  'if_seq_no',
  'if_primary_term',
  'refresh',
  'timeout',
  'wait_for_active_shards',
  'pipeline',
  'op_type',
] as const;

/** The shard-copy preferences ES 6.1+ deprecates (OperationRouting.preferenceActiveShardIterator). */
const DEPRECATED_PREFERENCES = new Set([
  '_primary',
  '_replica',
  '_primary_first',
  '_replica_first',
]);

/**
 * ES's deprecation warning for `preference=_primary` and friends (after an optional `_shards:..|`
 * prefix). Quarry has one copy per shard, so the preference changes nothing else.
 */
export function preferenceWarning(req: RestRequest): void {
  let pref = req.query.get('preference');
  if (pref === undefined) return;
  if (pref.startsWith('_shards:')) {
    const bar = pref.indexOf('|');
    if (bar === -1) return;
    pref = pref.slice(bar + 1);
  }
  if (DEPRECATED_PREFERENCES.has(pref))
    req.warnings.push(
      `[${pref}] has been deprecated in 6.1+, and will be removed in 7.0; use [_only_nodes] or [_prefer_nodes]`,
    );
}
