/**
 * The web console's files under `/_console/`: served ahead of the ES router (content types,
 * caching, gzip, no escaping the build folder), `GET /` from a browser redirected there while
 * JSON clients keep the node's info, and nothing else under `_console` taken from the ES API.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildConsole } from '../../scripts/build-console.mjs';
import { startTestNode, type TestNode } from '../helpers/node.js';

let node: TestNode;
let files: string[];

/** A raw request: fetch would normalise `..` away. */
function raw(
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const u = new URL(node.url);
    const req = request({ host: u.hostname, port: u.port, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

beforeAll(async () => {
  files = (await buildConsole()).files;
  node = await startTestNode();
});
afterAll(async () => {
  await node?.destroy();
});

describe('console route', () => {
  it('serves index.html revalidated and hashed assets cached for good, gzipped on request', async () => {
    const index = await raw('/_console/');
    expect(index.status).toBe(200);
    expect(index.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(index.headers['cache-control']).toBe('no-cache');
    const js = files.find((f) => f.endsWith('.js'))!;
    const css = files.find((f) => f.endsWith('.css'))!;
    expect(index.body.toString()).toContain(js);
    const plain = await raw('/_console/' + js);
    expect(plain.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(plain.headers['content-encoding']).toBeUndefined();
    const gz = await raw('/_console/' + js, { 'accept-encoding': 'gzip, br' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.body.length).toBeLessThan(plain.body.length / 2);
    expect((await raw('/_console/' + css)).headers['content-type']).toBe('text/css; charset=utf-8');
  });

  it('redirects /_console and a browser asking for /, and keeps / for JSON clients', async () => {
    expect((await raw('/_console')).headers['location']).toBe('/_console/');
    const browser = await raw('/', { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' });
    expect(browser.status).toBe(302);
    expect(browser.headers['location']).toBe('/_console/');
    for (const accept of [undefined, '*/*', 'application/json']) {
      const r = await raw('/', accept ? { accept } : {});
      expect(r.status).toBe(200);
      expect(JSON.parse(r.body.toString()).tagline).toBe('You Know, for Search');
    }
  });

  it('answers 404 for files outside the build, and leaves other methods to the ES router', async () => {
    expect((await raw('/_console/nope.js')).status).toBe(404);
    expect((await raw('/_console/../package.json')).status).toBe(404);
    expect((await raw('/_console/%2e%2e/package.json')).status).toBe(404);
    // a malformed escape never reaches the console: ES's router refuses it first
    expect((await raw('/_console/%E0%A4%A')).status).toBe(400);
    const put = await node.req('PUT', '/_console');
    expect(put.status).toBe(400);
    expect(put.json.error.type).toBe('invalid_index_name_exception');
  });
});
