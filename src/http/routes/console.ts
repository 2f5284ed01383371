/**
 * The web console's static files (`npm run build` puts them in dist/console/), served under
 * `/_console/` by every node, and `GET /` from a browser redirected there. Served ahead of the
 * ES router and its authentication: the files hold no data, and the console itself asks for
 * credentials when an API call answers 401. ES refuses index names starting with `_`, so the
 * prefix never shadows an index.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const PREFIX = '/_console';

const TYPES: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  png: 'image/png',
  svg: 'image/svg+xml',
  json: 'application/json; charset=utf-8',
};

/** The built files: found from this module upwards (it runs from src/ in tests, dist/src/ built). */
function consoleDir(): string | null {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    if (existsSync(join(dir, 'package.json'))) return join(dir, 'dist', 'console');
    dir = dirname(dir);
  }
  return null;
}

interface Asset {
  readonly mtimeMs: number;
  readonly body: Buffer;
  readonly gzip: Buffer | null;
}

const cache = new Map<string, Asset>();

/** A file of the build, re-read when it changes (a rebuild while the node runs). */
function asset(dir: string, name: string): Asset | null {
  const path = resolve(dir, name);
  if (!path.startsWith(dir + '/')) return null;
  let mtimeMs: number;
  try {
    const st = statSync(path);
    if (!st.isFile()) return null;
    mtimeMs = st.mtimeMs;
  } catch {
    return null;
  }
  const hit = cache.get(path);
  if (hit && hit.mtimeMs === mtimeMs) return hit;
  const gz = existsSync(path + '.gz') ? readFileSync(path + '.gz') : null;
  const fresh = { mtimeMs, body: readFileSync(path), gzip: gz };
  cache.set(path, fresh);
  return fresh;
}

function send(out: ServerResponse, status: number, headers: Record<string, string>, body?: Buffer) {
  out.writeHead(status, { ...headers, 'content-length': String(body?.length ?? 0) });
  out.end(body);
}

/** Whether a request is the console's: its files, or a browser asking for `/`. */
export function isConsoleRequest(raw: IncomingMessage): boolean {
  const url = raw.url ?? '';
  if (url === PREFIX || url.startsWith(PREFIX + '/') || url.startsWith(PREFIX + '?')) {
    return raw.method === 'GET' || raw.method === 'HEAD';
  }
  // Browsers ask for HTML first; ES clients and curl ask for JSON or anything (`*/*`).
  if (raw.method !== 'GET' || (url !== '/' && !url.startsWith('/?'))) return false;
  return String(raw.headers['accept'] ?? '').includes('text/html');
}

/** Answers a request `isConsoleRequest` accepted. */
export function serveConsole(raw: IncomingMessage, out: ServerResponse): void {
  const url = raw.url ?? '/';
  const path = url.split('?')[0]!;
  if (path === '/' || path === PREFIX) {
    return send(out, 302, { location: PREFIX + '/', 'content-type': 'text/plain; charset=utf-8' });
  }
  const dir = consoleDir();
  let name: string;
  try {
    name = decodeURIComponent(path.slice(PREFIX.length + 1));
  } catch {
    name = '\0'; // a malformed escape names no file
  }
  if (name === '' || !name.includes('.')) name = 'index.html';
  const file = dir === null ? null : asset(dir, name);
  if (file === null) {
    const why =
      name === 'index.html' ? 'the console is not built: run `npm run build`\n' : 'not found\n';
    return send(out, 404, { 'content-type': 'text/plain; charset=utf-8' }, Buffer.from(why));
  }
  const ext = name.slice(name.lastIndexOf('.') + 1);
  const headers: Record<string, string> = {
    'content-type': TYPES[ext] ?? 'application/octet-stream',
    // index.html names the other files by content hash: it is revalidated, they never change
    'cache-control': ext === 'html' ? 'no-cache' : 'public, max-age=31536000, immutable',
    'x-content-type-options': 'nosniff',
    vary: 'accept-encoding',
  };
  const gzip = file.gzip !== null && /\bgzip\b/.test(String(raw.headers['accept-encoding'] ?? ''));
  if (gzip) headers['content-encoding'] = 'gzip';
  const body = gzip ? file.gzip! : file.body;
  if (raw.method === 'HEAD') {
    out.writeHead(200, { ...headers, 'content-length': String(body.length) });
    return void out.end();
  }
  send(out, 200, headers, body);
}
