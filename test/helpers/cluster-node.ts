/**
 * What the cluster process tests share: the arguments of a node joining a test etcd on its own
 * loopback address with a short lease, and a JSON call that sends NDJSON when given a string.
 */
import type { EtcdCluster } from './etcd.js';

export function clusterNodeArgs(host: string, name: string, etcd: EtcdCluster): string[] {
  return [
    '--host',
    host,
    '--node-name',
    name,
    '--transport-port',
    '0',
    '--etcd',
    etcd.endpoints.join(','),
    '-E',
    'discovery.etcd.lease_ttl=2s',
  ];
}

/** A request with a JSON body (an NDJSON one when `body` is a string); the answer parsed. */
export async function call(
  url: string,
  method = 'GET',
  body?: unknown,
): Promise<{ status: number; json: any }> {
  const r = await fetch(url, {
    method,
    ...(body !== undefined
      ? {
          headers: {
            'content-type': typeof body === 'string' ? 'application/x-ndjson' : 'application/json',
          },
          body: typeof body === 'string' ? body : JSON.stringify(body),
        }
      : {}),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await r.text();
  return { status: r.status, json: text ? JSON.parse(text) : null };
}
