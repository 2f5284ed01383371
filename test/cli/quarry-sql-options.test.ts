/**
 * `bin/quarry-sql` options with piped stdin against real nodes: `--format csv|json` (pages
 * included) and `-u user` against a node with security on (the password from stdin's first line).
 * Needs `npm run build`.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestNode, type TestNode } from '../helpers/node.js';
import { hashPassword } from '../../src/security/password-hash.js';
import { writeUsers, type UsersTable } from '../../src/security/users-file.js';

let node: TestNode;
let secure: TestNode;
const dir = mkdtempSync(join(tmpdir(), 'quarry-sql-opts-'));

beforeAll(async () => {
  node = await startTestNode();
  const lines = ['Ann', 'Bob', 'Cid'].flatMap((name, i) => [
    JSON.stringify({ index: { _id: String(i) } }),
    JSON.stringify({ name, age: 30 + i }),
  ]);
  await node.req('POST', '/people/_doc/_bulk?refresh=true', lines.join('\n') + '\n', {
    'content-type': 'application/x-ndjson',
  });
  const users: UsersTable = new Map();
  users.set('alice', {
    password: await hashPassword('wonder-land', { ln: 10, r: 8, p: 1 }),
    roles: ['superuser'],
  });
  writeUsers(join(dir, 'users.json'), users);
  secure = await startTestNode(dir, { 'xpack.security.enabled': 'true' });
}, 60_000);

afterAll(async () => {
  await node.destroy();
  await secure.close();
  rmSync(dir, { recursive: true, force: true });
});

function runBin(args: string[], stdin: string) {
  return new Promise<{ out: string; err: string; code: number | null }>((res, rej) => {
    const child = spawn(process.execPath, [resolve(__dirname, '../../bin/quarry-sql'), ...args]);
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('error', rej);
    child.on('close', (code) => res({ out, err, code }));
    child.stdin.end(stdin);
  });
}

describe('quarry-sql options', () => {
  it('prints csv, header once over pages', async () => {
    const r = await runBin(
      ['--format', 'csv', node.url],
      'fetch size = 2;\nSELECT name, age FROM people ORDER BY age;\n',
    );
    expect(r.err).toBe('');
    expect(r.out.replace(/\r\n/g, '\n')).toBe(
      'fetch size set to 2\nname,age\nAnn,30\nBob,31\nCid,32\n',
    );
  });

  it('prints json, one object a page', async () => {
    const r = await runBin(['--format=json', node.url], 'SELECT name FROM people ORDER BY name;\n');
    expect(r.err).toBe('');
    const body = JSON.parse(r.out) as { columns: Array<{ name: string }>; rows: unknown[][] };
    expect(body.columns.map((c) => c.name)).toEqual(['name']);
    expect(body.rows).toEqual([['Ann'], ['Bob'], ['Cid']]);
  });

  it('logs in with -u when security is on; refuses a wrong password', async () => {
    const ok = await runBin(['-u', 'alice', secure.url], 'wonder-land\nSELECT 1 + 1 AS two;\n');
    expect(ok.err).toBe('');
    expect(ok.code).toBe(0);
    expect(ok.out).toMatch(/^\s+two\s*\n-+\n2\s*\n$/);
    const bad = await runBin(['-u', 'alice', secure.url], 'nope\nSELECT 1;\n');
    expect(bad.code).toBe(77);
    expect(bad.err).toBe('quarry-sql: authentication failed for user [alice]\n');
    // without -u the server's 401 is reported as for any failed statement
    const anon = await runBin([secure.url], 'SELECT 1;\n');
    expect(anon.code).toBe(1);
    expect(anon.err).toMatch(/^Bad request \[missing authentication/);
  });
});
