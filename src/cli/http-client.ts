/**
 * The import and export tools' HTTP client: keep-alive connections (one per request in flight),
 * Basic credentials from the url or `-u`, JSON answers. Returns status and text; throws only when
 * the server cannot be reached.
 */
import { Agent, request } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';

export interface HttpAnswer {
  readonly status: number;
  readonly text: string;
}

export interface ToolClient {
  readonly url: string;
  send(
    method: string,
    path: string,
    body?: string | Buffer,
    contentType?: string,
  ): Promise<HttpAnswer>;
  close(): void;
}

export function toolClient(
  rawUrl: string,
  credentials: { user: string; password: string } | null,
): ToolClient {
  const u = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(rawUrl) ? rawUrl : `http://${rawUrl}`);
  let authorization: string | null = null;
  const user = credentials?.user ?? (u.username !== '' ? decodeURIComponent(u.username) : null);
  const password = credentials?.password ?? decodeURIComponent(u.password);
  if (user !== null)
    authorization = `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
  const tls = u.protocol === 'https:';
  const agent = tls ? new HttpsAgent({ keepAlive: true }) : new Agent({ keepAlive: true });
  const base = u.pathname.replace(/\/+$/, '');
  return {
    url: `${u.protocol}//${u.host}${base}`,
    send(method, path, body, contentType = 'application/json') {
      return new Promise((resolve, reject) => {
        const headers: Record<string, string | number> = { accept: 'application/json' };
        if (authorization) headers.authorization = authorization;
        if (body !== undefined) {
          headers['content-type'] = contentType;
          headers['content-length'] = Buffer.byteLength(body);
        }
        const req = (tls ? httpsRequest : request)(
          {
            host: u.hostname,
            port: u.port || (tls ? 443 : 80),
            method,
            path: base + path,
            headers,
            agent,
          },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') })); // prettier-ignore
            res.on('error', reject);
          },
        );
        req.setTimeout(300_000, () => req.destroy(new Error('request timed out (300 s)')));
        req.on('error', reject);
        req.end(body);
      });
    },
    close: () => agent.destroy(),
  };
}

/** ES's reason out of an error answer, else its text. */
export function errorReason(a: HttpAnswer): string {
  try {
    const e = (JSON.parse(a.text) as { error?: { reason?: string; type?: string } | string }).error;
    if (typeof e === 'string') return e;
    if (e?.reason) return e.reason;
    if (e?.type) return e.type;
  } catch {
    // not JSON
  }
  return a.text.trim().slice(0, 300) || `HTTP ${a.status}`;
}
