/**
 * `bin/quarry-users` driven through piped stdin (and, in-process, through a terminal prompt):
 * add, passwd, roles, remove and list with ES's messages and exit codes; the file is found the
 * way the node finds it; a node started with `--auth` accepts the users it writes, and notices
 * a password change without a restart.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runUsers, type PasswordSource } from '../../src/cli/users-main.js';
import { startChildNode, USERS_BIN } from '../ops/child-node.js';

const dirs: string[] = [];
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), 'quarry-users-'));
  dirs.push(d);
  return d;
};
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function users(args: string[], input = '', cwd?: string) {
  const r = spawnSync(process.execPath, [USERS_BIN, ...args], {
    input,
    encoding: 'utf8',
    ...(cwd ? { cwd } : {}),
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

const basic = (u: string, p: string) => ({
  authorization: `Basic ${Buffer.from(`${u}:${p}`).toString('base64')}`,
});

describe('bin/quarry-users', () => {
  it('manages users through piped stdin, with ES messages and exit codes', () => {
    const dir = tmp();
    const file = join(dir, 'users.json');
    const add = users(['add', 'alice', '-r', 'read', '--data', dir], 'alice-secret\n');
    expect(add).toEqual({
      code: 0,
      out: `added user [alice] with roles [read] to [${file}]\n`,
      err: '',
    });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(
      users(['add', 'bob', '-r', 'write,read', '--data', dir], 'bob-secret\nbob-secret\n').code,
    ).toBe(0);
    expect(users(['add', 'root', '-p', 'root-secret', '-r', 'superuser', '--data', dir]).code).toBe(
      0,
    );

    expect(users(['list', '--data', dir]).out).toBe(
      'alice          : read\nbob            : write,read\nroot           : superuser\n',
    );
    expect(users(['list', 'bob', '--data', dir]).out).toBe('bob            : write,read\n');

    expect(users(['add', 'alice', '--data', dir], 'another-pw\n')).toMatchObject({
      code: 70,
      err: 'ERROR: User [alice] already exists\n',
    });
    expect(users(['add', 'carl', '--data', dir], 'short\n')).toMatchObject({
      code: 65,
      err: 'ERROR: Invalid password...passwords must be at least [6] characters long\n',
    });
    expect(users(['add', 'carl', '--data', dir], 'first-pw\nsecond-pw\n')).toMatchObject({
      code: 65,
      err: 'ERROR: Password mismatch\n',
    });
    expect(
      users(['add', 'carl', '-r', 'admin,read', '-p', 'carl-pw', '--data', dir]),
    ).toMatchObject({
      code: 65,
      err: 'ERROR: Unknown roles [admin]; the roles are [superuser, read, write]\n',
    });
    expect(users(['add', ' carl', '-p', 'carl-pw', '--data', dir]).err).toMatch(
      /^ERROR: Invalid username \[ carl\]\.\.\. User names must be at least 1/,
    );
    expect(users(['add', '--data', dir])).toMatchObject({
      code: 64,
      err: 'ERROR: Missing username argument\n',
    });
    expect(users(['passwd', 'zoe', '--data', dir], 'zoe-secret\n')).toMatchObject({
      code: 67,
      err: "ERROR: User [zoe] doesn't exist\n",
    });
    expect(users(['frobnicate', '--data', dir]).code).toBe(64);

    expect(users(['roles', 'bob', '-r', 'write', '-a', 'superuser', '--data', dir]).out).toBe(
      'bob            : read,superuser\n',
    );
    expect(users(['remove', 'bob', '--data', dir])).toMatchObject({
      code: 0,
      out: 'removed user [bob]\n',
    });
    expect(users(['remove', 'bob', '--data', dir]).code).toBe(67);
    expect(users(['list', '--data', dir]).out).toBe(
      'alice          : read\nroot           : superuser\n',
    );

    const stored = JSON.parse(readFileSync(file, 'utf8'));
    expect(Object.keys(stored.users)).toEqual(['alice', 'root']);
    expect(stored.users.alice.password).toMatch(/^\$scrypt\$ln=15,r=8,p=1\$/);
    expect(readFileSync(file, 'utf8')).not.toContain('alice-secret');
  });

  it('finds the file like the node: path.data, users_file relative to the cwd, or --file', () => {
    const dir = tmp();
    expect(users(['list', '-E', `path.data=${dir}`]).out).toBe('No users found\n');
    expect(
      users(['add', 'x', '-p', 'x-secret', '-E', 'xpack.security.users_file=conf/u.json'], '', dir)
        .code,
    ).toBe(0);
    expect(existsSync(join(dir, 'conf', 'u.json'))).toBe(true);
    expect(users(['list', '--file', 'conf/u.json'], '', dir).out).toBe('x              : -\n');
    expect(users(['list', '--bogus']).err).toBe('ERROR: unknown option [--bogus]\n');
  });

  it('prompts twice on a terminal', async () => {
    const dir = tmp();
    const asked: string[] = [];
    const answers = ['tty-secret', 'tty-secret', 'one-secret', 'two-secret'];
    const tty: PasswordSource = {
      isTTY: true,
      prompt: (q) => {
        asked.push(q);
        return answers.shift()!;
      },
      readStdin: () => {
        throw new Error('stdin is a terminal');
      },
    };
    const out: string[] = [];
    const err: string[] = [];
    const io = {
      cwd: dir,
      env: {},
      out: (s: string) => out.push(s),
      err: (s: string) => err.push(s),
      password: tty,
    };
    expect(await runUsers(['add', 'tina', '--data', dir], io)).toBe(0);
    expect(asked).toEqual(['Enter new password: ', 'Retype new password: ']);
    expect(await runUsers(['passwd', 'tina', '--data', dir], io)).toBe(65);
    expect(err).toEqual(['ERROR: Password mismatch']);
  });

  it('writes users a node started with --auth accepts, and changes that apply live', async () => {
    const dir = tmp();
    expect(users(['add', 'ops', '-r', 'superuser', '--data', dir], 'ops-secret-1\n').code).toBe(0);
    const node = await startChildNode(dir, ['--auth']);
    try {
      expect((await fetch(node.url + '/')).status).toBe(401);
      const me = await fetch(node.url + '/_xpack/security/_authenticate', {
        headers: basic('ops', 'ops-secret-1'),
      });
      expect(me.status).toBe(200);
      expect(((await me.json()) as any).roles).toEqual(['superuser']);

      expect(users(['passwd', 'ops', '--data', dir], 'ops-secret-2\n').code).toBe(0);
      const deadline = Date.now() + 5000;
      let oldStatus = 200;
      while (Date.now() < deadline && oldStatus === 200) {
        oldStatus = (await fetch(node.url + '/', { headers: basic('ops', 'ops-secret-1') })).status;
        if (oldStatus === 200) await new Promise((r) => setTimeout(r, 100));
      }
      expect(oldStatus).toBe(401);
      expect((await fetch(node.url + '/', { headers: basic('ops', 'ops-secret-2') })).status).toBe(
        200,
      );
    } finally {
      node.signal('SIGTERM');
      expect(await node.exited).toBe(0);
    }
  });
});
