/**
 * Security against a real node (`xpack.security.enabled`): anonymous requests get ES's 401 with
 * the Basic challenge (`GET /` and `HEAD /` included), wrong passwords a 401 naming the user, a
 * user without the privilege a 403 naming the ES action, and each role its APIs; `_authenticate`
 * answers ES's body. Without security nothing asks for credentials and no security route exists;
 * the node warns when that happens on a non-loopback address.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNode, type RunningNode } from '../../src/node.js';
import { hashPassword } from '../../src/security/password-hash.js';
import { writeUsers, type UsersTable } from '../../src/security/users-file.js';

const FAST = { ln: 10, r: 8, p: 1 };
const CHALLENGE = 'Basic realm="security" charset="UTF-8"';
const dirs: string[] = [];
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), 'quarry-sec-'));
  dirs.push(d);
  return d;
};
let node: RunningNode;
const logs: string[] = [];

const USERS: Array<[string, string, string[]]> = [
  ['root', 'root-pass', ['superuser']],
  ['reader', 'reader-pass', ['read']],
  ['writer', 'writer-pass', ['write']],
  ['nobody', 'nobody-pass', []],
];
const PASS = Object.fromEntries(USERS.map(([u, p]) => [u, p]));

async function usersTable(entries: Array<[string, string, string[]]>): Promise<UsersTable> {
  const t: UsersTable = new Map();
  for (const [name, pw, roles] of entries)
    t.set(name, { password: await hashPassword(pw, FAST), roles });
  return t;
}

interface Res {
  status: number;
  headers: Headers;
  text: string;
  json: any;
}

async function call(
  user: string | null,
  method: string,
  path: string,
  body?: unknown,
  url = node.url,
): Promise<Res> {
  const headers: Record<string, string> = {};
  if (user !== null)
    headers.authorization = `Basic ${Buffer.from(`${user}:${PASS[user] ?? 'x'}`).toString('base64')}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const r = await fetch(url + path, {
    method,
    headers,
    ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
  });
  const text = await r.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: r.status, headers: r.headers, text, json };
}

beforeAll(async () => {
  const dir = tmp();
  writeUsers(join(dir, 'users.json'), await usersTable(USERS));
  node = await startNode({
    dataPath: dir,
    port: 0,
    settings: { 'xpack.security.enabled': 'true' },
    log: (l) => logs.push(l),
  });
  // Data for the read checks, written as the superuser.
  expect(
    (await call('root', 'PUT', '/books', { settings: { number_of_replicas: 0 } })).status,
  ).toBe(200);
  const doc = await call('root', 'PUT', '/books/_doc/1?refresh=true', { title: 'Dune' });
  expect(doc.status).toBe(201);
});

afterAll(async () => {
  await node.close();
  dirs.forEach((d) => rmSync(d, { recursive: true, force: true }));
});

describe('authentication', () => {
  it('logs that security is on', () => {
    expect(logs.join('\n')).toMatch(
      /\[INFO \]\[o\.e\.x\.s\.Security\] \[[^\]]+\] security is enabled: HTTP basic authentication against \[.*users\.json\] \(4 users\)/,
    );
  });

  it('answers anonymous requests with 401, the Basic challenge and ES’s body', async () => {
    for (const path of ['/', '/_search?q=title:dune', '/books/_doc/1', '/_cluster/health']) {
      const r = await call(null, 'GET', path);
      expect(r.status).toBe(401);
      expect(r.headers.get('www-authenticate')).toBe(CHALLENGE);
      const reason = `missing authentication token for REST request [${path}]`;
      const inner = {
        type: 'security_exception',
        reason,
        header: { 'WWW-Authenticate': CHALLENGE },
      };
      expect(r.json).toEqual({ error: { root_cause: [inner], ...inner }, status: 401 });
    }
    const head = await call(null, 'HEAD', '/');
    expect(head.status).toBe(401);
    expect(head.headers.get('www-authenticate')).toBe(CHALLENGE);
    expect(head.text).toBe('');
  });

  it('answers a wrong password or an unknown user with 401 naming the user', async () => {
    PASS.ghost = 'whatever';
    for (const [user, pw] of [
      ['reader', 'not-the-password'],
      ['ghost', 'whatever'],
    ]) {
      const r = await fetch(node.url + '/books/_search?size=1', {
        headers: { authorization: `Basic ${Buffer.from(`${user}:${pw}`).toString('base64')}` },
      });
      expect(r.status).toBe(401);
      expect(r.headers.get('www-authenticate')).toBe(CHALLENGE);
      expect(((await r.json()) as any).error.reason).toBe(
        `unable to authenticate user [${user}] for REST request [/books/_search?size=1]`,
      );
    }
  });

  it('leaves unknown paths and OPTIONS unauthenticated, as ES does', async () => {
    const r = await call(null, 'GET', '/_no_such_api/x/y/z');
    expect(r.status).toBe(400);
    expect(r.json.error).toBe('no handler found for uri [/_no_such_api/x/y/z] and method [GET]');
    expect((await call(null, 'OPTIONS', '/_search')).status).toBe(200);
  });

  it('GET _xpack/security/_authenticate and _security/_authenticate describe the user', async () => {
    for (const path of ['/_xpack/security/_authenticate', '/_security/_authenticate']) {
      const r = await call('writer', 'GET', path);
      expect(r.status).toBe(200);
      expect(r.text).toBe(
        '{"username":"writer","roles":["write"],"full_name":null,"email":null,"metadata":{},"enabled":true,"authentication_realm":{"name":"default_file","type":"file"},"lookup_realm":{"name":"default_file","type":"file"}}',
      );
    }
    // Any authenticated user may ask who they are, even without roles.
    expect((await call('nobody', 'GET', '/_xpack/security/_authenticate')).json.roles).toEqual([]);
    expect((await call(null, 'GET', '/_security/_authenticate')).status).toBe(401);
  });
});

describe('authorisation', () => {
  const denied = async (
    user: string,
    method: string,
    path: string,
    action: string,
    body?: unknown,
  ) => {
    const r = await call(user, method, path, body);
    expect(r.status, `${user} ${method} ${path}`).toBe(403);
    const reason = `action [${action}] is unauthorized for user [${user}]`;
    expect(r.json).toEqual({
      error: {
        root_cause: [{ type: 'security_exception', reason }],
        type: 'security_exception',
        reason,
      },
      status: 403,
    });
    expect(r.headers.get('www-authenticate')).toBeNull();
  };

  it('lets read search, get, count, scroll, _cat, health, mappings, settings, _analyze and info', async () => {
    const ok = async (method: string, path: string, body?: unknown) => {
      const r = await call('reader', method, path, body);
      expect(r.status, `${method} ${path}: ${r.text}`).toBe(200);
      return r;
    };
    expect((await ok('GET', '/')).json.version.number).toBe('6.8.13');
    expect((await call('reader', 'HEAD', '/')).status).toBe(200);
    expect((await ok('GET', '/books/_search?q=title:dune')).json.hits.total).toBe(1);
    expect((await ok('GET', '/books/_count')).json.count).toBe(1);
    expect((await ok('GET', '/books/_doc/1')).json._source).toEqual({ title: 'Dune' });
    expect(
      (await ok('POST', '/_mget', { docs: [{ _index: 'books', _id: '1' }] })).json.docs[0].found,
    ).toBe(true);
    const ms = await ok('POST', '/_msearch', '{"index":"books"}\n{"query":{"match_all":{}}}\n');
    expect(ms.json.responses[0].hits.total).toBe(1);
    const first = await ok('POST', '/books/_search?scroll=1m&size=1', {});
    const next = await ok('POST', '/_search/scroll', {
      scroll: '1m',
      scroll_id: first.json._scroll_id,
    });
    expect(next.json.hits.hits).toEqual([]);
    expect(
      (await ok('DELETE', '/_search/scroll', { scroll_id: first.json._scroll_id })).json.succeeded,
    ).toBe(true);
    expect((await ok('GET', '/_cat/indices?h=index')).text).toBe('books\n');
    expect((await ok('GET', '/_cluster/health')).json.status).toBe('green');
    expect(Object.keys((await ok('GET', '/books/_mapping')).json)).toEqual(['books']);
    expect((await ok('GET', '/books/_settings')).json.books.settings.index.number_of_replicas).toBe(
      '0',
    );
    expect((await ok('POST', '/_analyze', { text: 'Hello World' })).json.tokens).toHaveLength(2);
    expect((await call('reader', 'HEAD', '/books')).status).toBe(200);
    // What client sniffers and monitoring ask.
    expect((await ok('GET', '/_nodes/_all/http')).json._nodes.total).toBe(1);
    const stats = (await ok('GET', '/_nodes/stats/indices')).json;
    expect(Object.values<any>(stats.nodes)[0].indices.docs.count).toBe(1);
  });

  it('refuses read any write, with the ES action in the 403', async () => {
    await denied('reader', 'PUT', '/books/_doc/2', 'indices:data/write/index', { title: 'x' });
    await denied('reader', 'POST', '/books/_doc', 'indices:data/write/index', { title: 'x' });
    await denied(
      'reader',
      'POST',
      '/_bulk',
      'indices:data/write/bulk',
      '{"delete":{"_index":"books","_id":"1"}}\n',
    );
    await denied('reader', 'POST', '/books/_doc/1/_update', 'indices:data/write/update', {
      doc: {},
    });
    await denied('reader', 'DELETE', '/books/_doc/1', 'indices:data/write/delete');
    await denied('reader', 'POST', '/books/_delete_by_query', 'indices:data/write/delete/byquery', {
      query: { match_all: {} },
    });
    await denied('reader', 'PUT', '/other', 'indices:admin/create');
    await denied('reader', 'DELETE', '/books', 'indices:admin/delete');
    await denied('reader', 'PUT', '/books/_mapping/_doc', 'indices:admin/mapping/put', {
      properties: {},
    });
    await denied('reader', 'PUT', '/books/_settings', 'indices:admin/settings/update', {
      index: {},
    });
    // The document is untouched.
    expect((await call('root', 'GET', '/books/_doc/1')).json._version).toBe(1);
  });

  it('lets write index, bulk, update, delete, run by-query jobs and manage indices', async () => {
    const ok = async (method: string, path: string, body?: unknown, status = 200) => {
      const r = await call('writer', method, path, body);
      expect(r.status, `${method} ${path}: ${r.text}`).toBe(status);
      return r;
    };
    await ok('PUT', '/mags', { settings: { number_of_shards: 1, number_of_replicas: 0 } });
    await ok('PUT', '/mags/_mapping/_doc', { properties: { title: { type: 'text' } } });
    await ok('PUT', '/mags/_doc/1', { title: 'Wired' }, 201);
    const bulk = await ok(
      'POST',
      '/_bulk?refresh=true',
      '{"index":{"_index":"mags","_type":"_doc","_id":"2"}}\n{"title":"Byte"}\n{"index":{"_index":"mags","_type":"_doc","_id":"3"}}\n{"title":"Bits"}\n',
    );
    expect(bulk.json.errors).toBe(false);
    await ok('POST', '/mags/_doc/1/_update?refresh=true', { doc: { title: 'Wired UK' } });
    await ok('DELETE', '/mags/_doc/3?refresh=true');
    expect(
      (
        await ok('POST', '/mags/_delete_by_query?refresh=true', {
          query: { match: { title: 'byte' } },
        })
      ).json.deleted,
    ).toBe(1);
    expect(
      (await ok('GET', '/mags/_search')).json.hits.hits.map((h: any) => h._source.title),
    ).toEqual(['Wired UK']);
    await ok('POST', '/mags/_refresh');
    await ok('POST', '/_aliases', { actions: [{ add: { index: 'mags', alias: 'periodicals' } }] });
    await ok('DELETE', '/mags');
  });

  it('keeps cluster administration for superuser', async () => {
    const body = { transient: { 'search.max_buckets': 5000 } };
    await denied('writer', 'PUT', '/_cluster/settings', 'cluster:admin/settings/update', body);
    await denied('reader', 'PUT', '/_cluster/settings', 'cluster:admin/settings/update', body);
    const r = await call('root', 'PUT', '/_cluster/settings', body);
    expect(r.status).toBe(200);
    expect(r.json.transient).toEqual({ search: { max_buckets: '5000' } });
    expect(
      (
        await call('root', 'PUT', '/_cluster/settings', {
          transient: { 'search.max_buckets': null },
        })
      ).status,
    ).toBe(200);
  });

  it('gives a user without roles nothing but _authenticate', async () => {
    await denied('nobody', 'GET', '/', 'cluster:monitor/main');
    await denied('nobody', 'GET', '/books/_search', 'indices:data/read/search');
    await denied('nobody', 'GET', '/_cat/health', 'cluster:monitor/health');
    await denied('nobody', 'GET', '/_nodes/stats', 'cluster:monitor/nodes/stats');
  });

  it('picks up users added to the file while running', async () => {
    const path = join(node.context.settings.dataPath, 'users.json');
    PASS.late = 'late-pass';
    writeUsers(path, await usersTable([...USERS, ['late', 'late-pass', ['read']]]));
    const deadline = Date.now() + 5000;
    let status = 0;
    while (Date.now() < deadline && status !== 200) {
      status = (await call('late', 'GET', '/books/_count')).status;
      if (status !== 200) await new Promise((r) => setTimeout(r, 100));
    }
    expect(status).toBe(200);
  });
});

describe('without security', () => {
  it('asks for nothing, registers no security route, and warns on a non-loopback bind', async () => {
    const lines: string[] = [];
    const open = await startNode({
      dataPath: tmp(),
      port: 0,
      host: '0.0.0.0',
      log: (l) => lines.push(l),
    });
    try {
      const url = `http://127.0.0.1:${open.port}`;
      expect((await call(null, 'GET', '/', undefined, url)).status).toBe(200);
      const auth = await call(null, 'GET', '/_xpack/security/_authenticate', undefined, url);
      // ES 6.8 registers no security route when it is off: the path is a GET of a document.
      expect(auth.status).toBe(400);
      expect(auth.json.error.type).toBe('invalid_index_name_exception');
      const warn = lines.filter((l) => l.includes('[WARN ][o.e.x.s.Security]'));
      expect(warn).toHaveLength(1);
      expect(warn[0]).toContain(
        'security is disabled and the node listens on [0.0.0.0], a non-loopback address',
      );
    } finally {
      await open.close();
    }
    const local: string[] = [];
    const quiet = await startNode({ dataPath: tmp(), port: 0, log: (l) => local.push(l) });
    await quiet.close();
    expect(local.filter((l) => l.includes('WARN'))).toEqual([]);
  });

  it('does not start with security on and an unreadable users file, or a bad setting', async () => {
    const dir = tmp();
    writeFileSync(join(dir, 'users.json'), '{"users": [');
    const settings = { 'xpack.security.enabled': 'true' };
    await expect(startNode({ dataPath: dir, port: 0, settings })).rejects.toThrow(
      `users file [${join(dir, 'users.json')}] is not valid JSON`,
    );
    await expect(
      startNode({ dataPath: dir, port: 0, settings: { 'xpack.security.enabled': 'yes' } }),
    ).rejects.toThrow(
      'Failed to parse value [yes] for setting [xpack.security.enabled]: only [true] or [false] are allowed.',
    );
    // Both failed starts released the data path.
    const n = await startNode({ dataPath: dir, port: 0 });
    await n.close();
  });
});
