/**
 * The file realm: authenticates Basic credentials against the users file, caches verified
 * passwords, picks up file changes (keeping the last good table when the file breaks), and
 * answers failures with x-pack's 401 wording.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileRealm } from '../../src/security/file-realm.js';
import { hashPassword } from '../../src/security/password-hash.js';
import { writeUsers, type UsersTable } from '../../src/security/users-file.js';

const FAST = { ln: 10, r: 8, p: 1 };
const dir = mkdtempSync(join(tmpdir(), 'quarry-realm-'));
const path = join(dir, 'users.json');
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const basic = (u: string, p: string) => `Basic ${Buffer.from(`${u}:${p}`).toString('base64')}`;

async function table(entries: Array<[string, string, string[]]>): Promise<UsersTable> {
  const t: UsersTable = new Map();
  for (const [name, pw, roles] of entries)
    t.set(name, { password: await hashPassword(pw, FAST), roles });
  return t;
}

async function rejection(p: Promise<unknown>): Promise<any> {
  try {
    await p;
  } catch (e) {
    return e;
  }
  throw new Error('expected a rejection');
}

beforeAll(async () => {
  writeUsers(path, await table([['alice', 'alice-pw', ['read']]]));
});

describe('file realm', () => {
  it('authenticates users of the file', async () => {
    const realm = new FileRealm(path);
    expect(realm.load()).toBe(1);
    expect(await realm.authenticate(basic('alice', 'alice-pw'), '/')).toEqual({
      username: 'alice',
      roles: ['read'],
      full_name: null,
      email: null,
      metadata: {},
      enabled: true,
    });
    // Cached: the same answer again, and the wrong password still fails.
    expect((await realm.authenticate(basic('alice', 'alice-pw'), '/')).username).toBe('alice');
    const e = await rejection(realm.authenticate(basic('alice', 'nope-nope'), '/x?y=1'));
    expect(e.status).toBe(401);
    expect(e.reason).toBe('unable to authenticate user [alice] for REST request [/x?y=1]');
  });

  it('fails unknown users and missing tokens with ES reasons', async () => {
    const realm = new FileRealm(path);
    realm.load();
    const unknown = await rejection(realm.authenticate(basic('mallory', 'x'), '/_search'));
    expect(unknown.reason).toBe(
      'unable to authenticate user [mallory] for REST request [/_search]',
    );
    const none = await rejection(realm.authenticate(undefined, '/_cat/indices?v'));
    expect(none.toBody()).toEqual({
      error: {
        root_cause: [
          {
            type: 'security_exception',
            reason: 'missing authentication token for REST request [/_cat/indices?v]',
            header: { 'WWW-Authenticate': 'Basic realm="security" charset="UTF-8"' },
          },
        ],
        type: 'security_exception',
        reason: 'missing authentication token for REST request [/_cat/indices?v]',
        header: { 'WWW-Authenticate': 'Basic realm="security" charset="UTF-8"' },
      },
      status: 401,
    });
    const bearer = await rejection(realm.authenticate('Bearer abc', '/'));
    expect(bearer.reason).toBe('missing authentication token for REST request [/]');
  });

  it('verifies concurrent first requests of a user once', async () => {
    const realm = new FileRealm(path);
    realm.load();
    const all = await Promise.all(
      Array.from({ length: 20 }, () => realm.authenticate(basic('alice', 'alice-pw'), '/')),
    );
    expect(all.every((u) => u.username === 'alice')).toBe(true);
  });

  it('reloads a changed file and keeps the last good users when it breaks', async () => {
    const p2 = join(dir, 'reload.json');
    writeUsers(p2, await table([['bob', 'bob-pw-1', ['write']]]));
    const warnings: string[] = [];
    const realm = new FileRealm(p2, { reloadCheckMs: 0, log: (m) => warnings.push(m) });
    realm.load();
    expect((await realm.authenticate(basic('bob', 'bob-pw-1'), '/')).roles).toEqual(['write']);

    writeUsers(
      p2,
      await table([
        ['bob', 'bob-pw-2', ['read']],
        ['carol', 'carol-pw', ['superuser']],
      ]),
    );
    expect((await rejection(realm.authenticate(basic('bob', 'bob-pw-1'), '/'))).status).toBe(401);
    expect((await realm.authenticate(basic('bob', 'bob-pw-2'), '/')).roles).toEqual(['read']);
    expect((await realm.authenticate(basic('carol', 'carol-pw'), '/')).roles).toEqual([
      'superuser',
    ]);

    writeFileSync(p2, '{"users": ');
    expect((await realm.authenticate(basic('carol', 'carol-pw'), '/')).username).toBe('carol');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^failed to reload users file, keeping the previous users: /);

    rmSync(p2);
    expect((await rejection(realm.authenticate(basic('carol', 'carol-pw'), '/'))).reason).toBe(
      'unable to authenticate user [carol] for REST request [/]',
    );
  });

  it('refuses to load a broken file', () => {
    const p3 = join(dir, 'broken.json');
    writeFileSync(p3, 'not json');
    expect(() => new FileRealm(p3).load()).toThrow(`users file [${p3}] is not valid JSON`);
  });
});
