/**
 * REST requests a clustered node hands to the elected master (ES TransportMasterNodeAction): the
 * alias and template APIs change metadata that every node must see the same, so the master runs them on
 * its own copy of the metadata — with every check the lone node makes — and publishes the result.
 * A node that is not the master relays the request over HTTP to the master's HTTP address and
 * answers what the master answered.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { EsError } from '../common/errors.js';
import type { ClusterMembership } from '../cluster/membership.js';
import type { RestResponse } from './rest.js';

const FORWARDED: ReadonlyArray<{ methods: readonly string[]; path: RegExp }> = [
  { methods: ['POST'], path: /^\/_aliases\/?$/ },
  // index creation: the master creates it on its copy of the metadata, then publishes it
  { methods: ['PUT'], path: /^\/[^_/][^/]*\/?$/ },
  { methods: ['PUT', 'POST', 'DELETE'], path: /^\/([^_/][^/]*|_all)\/_alias(es)?\/[^/]+\/?$/ },
  { methods: ['PUT', 'POST', 'DELETE'], path: /^\/_template\/[^/]+\/?$/ },
  { methods: ['PUT'], path: /^\/_cluster\/settings\/?$/ },
  // stored scripts (the painless execute API is node-local: routes/painless-execute.ts)
  {
    methods: ['PUT', 'POST', 'DELETE'],
    path: /^\/_scripts\/(?!painless\/_execute\/?$)[^/]+(\/[^/]+)?\/?$/,
  },
  { methods: ['PUT', 'DELETE'], path: /^\/_ingest\/pipeline\/[^/]+\/?$/ },
  { methods: ['POST'], path: /^\/([^_/][^/]*|_all)\/_(open|close)\/?$/ },
  // snapshot repositories live in the cluster state (ES RepositoriesMetaData)
  { methods: ['PUT', 'POST', 'DELETE'], path: /^\/_snapshot\/[^/]+\/?$/ },
  // rollover creates the next index and moves the alias: both on the master, like create
  { methods: ['POST'], path: /^\/[^_/][^/]*\/_rollover(\/[^/]+)?\/?$/ },
  // shrink and split create the target on the master, which then fills it through the primaries
  { methods: ['PUT', 'POST'], path: /^\/[^_/][^/]*\/_(shrink|split)\/[^/]+\/?$/ },
];

export function forwardedToMaster(method: string, path: string): boolean {
  return FORWARDED.some((f) => f.methods.includes(method) && f.path.test(path));
}

/** The master's HTTP base URL, or null when this node is the master. */
export function masterUrl(cluster: ClusterMembership): string | null {
  const state = cluster.state();
  if (state.masterNodeId === null)
    throw new EsError('master_not_discovered_exception', 'no master is elected', 503);
  if (state.masterNodeId === cluster.localNode.id) return null;
  const m = state.nodes.get(state.masterNodeId);
  if (!m) throw new EsError('master_not_discovered_exception', 'no master is elected', 503);
  return `http://${m.httpAddress}`;
}

const PASSED = ['content-type', 'authorization', 'accept', 'x-opaque-id'];

/** Relays a request to the node at `base` (the master; also a task's own node) and returns its answer. */
export async function relayToMaster(
  base: string,
  method: string,
  uri: string,
  headers: IncomingHttpHeaders,
  body: Buffer | null,
): Promise<RestResponse> {
  const h: Record<string, string> = {};
  for (const k of PASSED) {
    const v = headers[k];
    if (typeof v === 'string') h[k] = v;
  }
  let r: Response;
  try {
    r = await fetch(base + uri, {
      method,
      headers: h,
      ...(body && body.length > 0 ? { body } : {}),
      signal: AbortSignal.timeout(60_000),
    });
  } catch (e) {
    throw new EsError('master_not_discovered_exception', `the master at [${base}] did not answer: ${String(e)}`, 503); // prettier-ignore
  }
  const text = await r.text();
  const back: Record<string, string> = {};
  // a deprecation warning, and the `Cursor` of SQL's text formats
  for (const k of ['warning', 'cursor']) {
    const v = r.headers.get(k);
    if (v) back[k === 'cursor' ? 'Cursor' : k] = v;
  }
  const type = r.headers.get('content-type') ?? '';
  const json = type === '' || type.startsWith('application/json');
  return {
    status: r.status,
    ...(text ? { body: json ? (JSON.parse(text) as unknown) : text } : {}),
    ...(!json ? { contentType: type } : {}),
    ...(r.status >= 400 ? { error: true } : {}),
    ...(Object.keys(back).length > 0 ? { headers: back } : {}),
  };
}
