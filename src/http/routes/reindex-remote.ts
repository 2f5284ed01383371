/**
 * The source of a reindex from a remote cluster (ES RemoteScrollableHitSource and
 * RemoteRequestBuilders): a scroll over HTTP on the remote node, in `_doc` order with versions,
 * read to its end and then cleared, each hit turned into the scan hit the by-query worker writes.
 * A remote error keeps its status, its body in the reason (ES wrapExceptionToPreserveStatus); a
 * remote that cannot be reached is a connect_exception.
 */
import { EsError } from '../../common/errors.js';
import type { SourceFilter } from '../../common/source-filter.js';
import type { ScanHit } from '../../dsl/search/scan.js';

/** A remote source as RestReindexAction.buildRemoteInfo validates it. */
export interface RemoteSource {
  scheme: string;
  host: string;
  port: number;
  pathPrefix: string | null;
  username: string | null;
  password: string | null;
  headers: Record<string, string>;
  /** The source's query, sent as written. */
  query: unknown;
  socketTimeoutMs: number;
  connectTimeoutMs: number;
}

export interface RemoteScan {
  remote: RemoteSource;
  indices: readonly string[];
  types: readonly string[];
  /** The scroll batch (`source.size`). */
  batchSize: number;
  sourceFilter: SourceFilter | null;
  /** The `sort` of the source, as written (`_doc` when none). */
  sort: unknown;
}

/** ES's keep-alive of a reindex scroll. */
const SCROLL = '5m';

type Json = Record<string, unknown>;

function connectFailure(e: unknown): EsError {
  if ((e as { name?: string }).name === 'TimeoutError') {
    return new EsError('socket_timeout_exception', 'the remote did not answer in time', 500);
  }
  const cause = (e as { cause?: { message?: string; code?: string } }).cause;
  const reason = cause?.code === 'ECONNREFUSED' ? 'Connection refused' : (cause?.message ?? String(e)); // prettier-ignore
  return new EsError('connect_exception', reason, 500);
}

/** One request to the remote: its JSON, or its failure with the remote's status. */
async function call(
  r: RemoteSource,
  method: string,
  path: string,
  body: unknown,
  params: Record<string, string> = {},
): Promise<Json> {
  const qs = new URLSearchParams(params).toString();
  const url = `${r.scheme}://${r.host}:${r.port}${r.pathPrefix ?? ''}${path}${qs ? `?${qs}` : ''}`;
  const headers: Record<string, string> = { ...r.headers, 'content-type': 'application/json' };
  if (r.username !== null) {
    const auth = Buffer.from(`${r.username}:${r.password ?? ''}`).toString('base64');
    headers.authorization = `Basic ${auth}`;
  }
  let res: Response;
  try {
    res = await fetch(url, {
      method,
      headers,
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      signal: AbortSignal.timeout(r.socketTimeoutMs + r.connectTimeoutMs),
    });
  } catch (e) {
    throw connectFailure(e);
  }
  const text = await res.text();
  if (res.status >= 300) {
    throw new EsError('status_exception', `body={${text}}`, res.status);
  }
  try {
    return JSON.parse(text) as Json;
  } catch {
    throw new EsError('parse_exception', `Error parsing the response, remote is likely not an Elasticsearch instance`, 500); // prettier-ignore
  }
}

function hitOf(h: Json): ScanHit {
  const fields = (h.fields ?? {}) as Json;
  const routing = (h._routing ?? fields._routing ?? null) as string | null;
  const source = h._source;
  return {
    index: String(h._index),
    shard: 0,
    type: String(h._type),
    id: String(h._id),
    routing: routing === null ? null : String(routing),
    version: typeof h._version === 'number' ? h._version : -1,
    seqNo: -2,
    primaryTerm: 0,
    readSource: () => (source === undefined ? null : Buffer.from(JSON.stringify(source))),
  };
}

const hitsOf = (page: Json): Json[] => (((page.hits ?? {}) as Json).hits ?? []) as Json[];

/** Reads every hit of the remote scroll, then clears it. */
export async function scanRemote(s: RemoteScan): Promise<ScanHit[]> {
  const r = s.remote;
  const enc = (xs: readonly string[]) => xs.map(encodeURIComponent).join(',');
  let path = `/${enc(s.indices)}`;
  if (s.types.length) path += `/${enc(s.types)}`;
  path += '/_search';
  const body: Json = { query: r.query, sort: s.sort ?? ['_doc'] };
  if (s.sourceFilter) body._source = s.sourceFilter;
  let page = await call(r, 'POST', path, body, {
    scroll: SCROLL,
    size: String(s.batchSize),
    version: 'true',
  });
  const out: ScanHit[] = [];
  let scrollId = page._scroll_id as string | undefined;
  try {
    for (;;) {
      const hits = hitsOf(page);
      if (hits.length === 0 || !scrollId) break;
      out.push(...hits.map(hitOf));
      page = await call(r, 'POST', '/_search/scroll', { scroll: SCROLL, scroll_id: scrollId });
      scrollId = (page._scroll_id as string | undefined) ?? scrollId;
    }
  } finally {
    // ES clears the remote scroll whatever happened (a failure to clear is only logged)
    if (scrollId) {
      await call(r, 'DELETE', '/_search/scroll', { scroll_id: [scrollId] }).catch(() => undefined);
    }
  }
  return out;
}
