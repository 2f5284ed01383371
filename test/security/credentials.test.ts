/**
 * Password hashes (scrypt, random salts, PHC-style strings), the Basic header as x-pack reads
 * it, and the users file's validation and atomic, owner-only writes.
 */
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { extractBasicToken } from '../../src/security/basic-token.js';
import {
  DEFAULT_PARAMS,
  hashPassword,
  parseHash,
  verifyPassword,
} from '../../src/security/password-hash.js';
import {
  parseUsers,
  passwordError,
  readUsers,
  usernameError,
  writeUsers,
} from '../../src/security/users-file.js';

const FAST = { ln: 10, r: 8, p: 1 };
const dir = mkdtempSync(join(tmpdir(), 'quarry-creds-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('password hashes', () => {
  it('hash with scrypt and a fresh salt, and verify only the right password', async () => {
    const a = await hashPassword('correct horse', FAST);
    const b = await hashPassword('correct horse', FAST);
    expect(a).toMatch(/^\$scrypt\$ln=10,r=8,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
    expect(a).not.toBe(b);
    expect(await verifyPassword('correct horse', a)).toBe(true);
    expect(await verifyPassword('correct horse', b)).toBe(true);
    expect(await verifyPassword('correct horsf', a)).toBe(false);
    expect(await verifyPassword('', a)).toBe(false);
  });

  it('use OWASP-level cost by default', async () => {
    expect(DEFAULT_PARAMS).toEqual({ ln: 15, r: 8, p: 1 });
    const h = await hashPassword('pw-default');
    expect(parseHash(h)!.params).toEqual(DEFAULT_PARAMS);
    expect(await verifyPassword('pw-default', h)).toBe(true);
  });

  it('treat Unicode passwords by their NFC form', async () => {
    const h = await hashPassword('caf\u00e9!', FAST);
    expect(await verifyPassword('cafe\u0301!', h)).toBe(true);
  });

  it('reject malformed hashes and absurd costs', async () => {
    const good = await hashPassword('secret', FAST);
    for (const bad of [
      'secret',
      '$2a$10$abcdefghijklmnopqrstuv',
      good.replace('ln=10', 'ln=40'),
      good.replace('r=8', 'r=0'),
      good.replace(/\$[^$]+$/, '$'),
    ]) {
      expect(parseHash(bad), bad).toBeNull();
      expect(await verifyPassword('secret', bad)).toBe(false);
    }
  });
});

describe('Basic authentication header', () => {
  const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');

  it('reads user and password, splitting at the first colon', () => {
    expect(extractBasicToken(`Basic ${b64('alice:pa:ss')}`)).toEqual({
      username: 'alice',
      password: 'pa:ss',
    });
    expect(extractBasicToken(`basic   ${b64('bob:')}  `)).toEqual({
      username: 'bob',
      password: '',
    });
    expect(extractBasicToken(`BASIC ${b64('élise:mot')}`)).toEqual({
      username: 'élise',
      password: 'mot',
    });
  });

  it('is no token without the header or with another scheme', () => {
    expect(extractBasicToken(undefined)).toBeNull();
    expect(extractBasicToken('')).toBeNull();
    expect(extractBasicToken('Bearer abc')).toBeNull();
    expect(extractBasicToken('Basic')).toBeNull();
  });

  it.each([
    ['Basic ', 'invalid basic authentication header value'],
    ['Basic !!!!', 'invalid basic authentication header encoding'],
    ['Basic YWJjZA=', 'invalid basic authentication header encoding'],
    ['Basic YWJjZ', 'invalid basic authentication header encoding'],
    [
      `Basic ${Buffer.from('nocolon').toString('base64')}`,
      'invalid basic authentication header value',
    ],
  ])('%s is a 401: %s', (header, reason) => {
    try {
      extractBasicToken(header);
      expect.unreachable();
    } catch (e: any) {
      expect(e.status).toBe(401);
      expect(e.type).toBe('security_exception');
      expect(e.reason).toBe(reason);
      expect(e.headers).toEqual({ 'WWW-Authenticate': 'Basic realm="security" charset="UTF-8"' });
    }
  });
});

describe('users file', () => {
  it('validates names and passwords as ES does', () => {
    expect(usernameError('alice')).toBeNull();
    expect(usernameError('with space')).toBeNull();
    for (const bad of ['', ' lead', 'trail ', 'tab\there', 'ünï', 'x'.repeat(1025)]) {
      expect(usernameError(bad), bad).toMatch(
        /^User names must be at least 1 and no more than 1024/,
      );
    }
    expect(usernameError('a:b')).toBe(
      'User names used with basic authentication cannot contain [:].',
    );
    expect(passwordError('12345')).toBe('passwords must be at least [6] characters long');
    expect(passwordError('123456')).toBeNull();
  });

  it('round-trips through an owner-only file', async () => {
    const path = join(dir, 'sub', 'users.json');
    const password = await hashPassword('secret', FAST);
    writeUsers(
      path,
      new Map([
        ['zed', { password, roles: ['read'] }],
        ['amy', { password, roles: ['write', 'read'], full_name: 'Amy', email: 'a@x.y' }],
      ]),
    );
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const text = readFileSync(path, 'utf8');
    expect(text.indexOf('"amy"')).toBeLessThan(text.indexOf('"zed"'));
    const users = readUsers(path);
    expect([...users.keys()]).toEqual(['amy', 'zed']);
    expect(users.get('amy')).toEqual({
      password,
      roles: ['write', 'read'],
      full_name: 'Amy',
      email: 'a@x.y',
    });
    expect(readUsers(join(dir, 'missing.json')).size).toBe(0);
  });

  it('names the first bad entry', async () => {
    const p = join(dir, 'bad.json');
    const hash = await hashPassword('secret', FAST);
    const cases: Array<[string, string]> = [
      ['{', `users file [${p}] is not valid JSON`],
      ['[]', `users file [${p}] must be an object with a [users] object`],
      ['{"users":{"a":{"password":"plain","roles":[]}}}', 'user [a] has no valid [password] hash'],
      [`{"users":{"a":{"password":"${hash}","roles":"read"}}}`, 'user [a] must have a [roles]'],
      [`{"users":{" a":{"password":"${hash}","roles":[]}}}`, 'user [ a] has an invalid name'],
    ];
    for (const [text, msg] of cases) {
      writeFileSync(p, text);
      expect(() => parseUsers(text, p)).toThrow(msg);
      expect(() => readUsers(p)).toThrow(msg);
    }
  });
});
