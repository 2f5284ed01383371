/**
 * `bin/quarry-users`: manage the users file of `xpack.security` (ES: `elasticsearch-users`).
 * Finds the file the way the node does (`--data`, `--config`, `-E path.data=…`,
 * `-E xpack.security.users_file=…`, or `--file`). Passwords come from `-p`, else a hidden prompt
 * on a terminal, else the first line of stdin (a second line, if any, must repeat it).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import readlineSync from 'readline-sync';
import { parseArgs } from './args.js';
import { hashPassword } from '../security/password-hash.js';
import { isRoleName, ROLE_NAMES } from '../security/roles.js';
import { securitySettings } from '../security/settings.js';
import {
  passwordError,
  readUsers,
  usernameError,
  writeUsers,
  type UsersTable,
} from '../security/users-file.js';

export const USERS_USAGE = `Usage: quarry-users <command> [options]
Commands:
  add <username> [-p password] [-r roles]   add a user (roles: comma-separated)
  passwd <username> [-p password]           change a user's password
  roles <username> [-a roles] [-r roles]    add or remove roles (no option: show them)
  remove <username>                         remove a user
  list [username]                           list users and their roles
Roles: ${ROLE_NAMES.join(', ')}
Without -p the password is prompted for on a terminal, or read from the first line of stdin.
Users file: <path.data>/users.json, or xpack.security.users_file; located like bin/quarry does:
  --data DIR, --config FILE, -E path.data=DIR, -E xpack.security.users_file=FILE, or --file FILE`;

/** ES ExitCodes. */
const EXIT = { USAGE: 64, DATA_ERROR: 65, NO_USER: 67, CODE_ERROR: 70, CONFIG: 78 } as const;

class UserError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

interface Options {
  command: string | undefined;
  args: string[];
  password?: string;
  roles?: string;
  add?: string;
  file?: string;
  help: boolean;
  /** Everything else: node location options for parseArgs. */
  rest: string[];
}

function parseOptions(argv: string[]): Options {
  const o: Options = { command: undefined, args: [], help: false, rest: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const value = (): string => {
      const v = argv[++i];
      if (v === undefined) throw new UserError(EXIT.USAGE, `missing value for ${a}`);
      return v;
    };
    if (a === '-h' || a === '--help') o.help = true;
    else if (a === '-p' || a === '--password') o.password = value();
    else if (a === '-r' || a === '--roles' || a === '--remove') o.roles = value();
    else if (a === '-a' || a === '--add') o.add = value();
    else if (a === '--file') o.file = value();
    else if (a === '-E' || a === '--data' || a === '--config') o.rest.push(a, value());
    else if (a.startsWith('-')) o.rest.push(a);
    else if (o.command === undefined) o.command = a;
    else o.args.push(a);
  }
  return o;
}

function usersFile(o: Options, cwd: string, env: NodeJS.ProcessEnv): string {
  if (o.file) return resolve(cwd, o.file);
  let parsed;
  try {
    parsed = parseArgs(o.rest, cwd, env);
  } catch (e) {
    throw new UserError(EXIT.USAGE, (e as Error).message);
  }
  return securitySettings(parsed.settings.raw, parsed.settings.dataPath, cwd).usersFile;
}

function oneUsername(o: Options): string {
  if (o.args.length === 0) throw new UserError(EXIT.USAGE, 'Missing username argument');
  if (o.args.length > 1)
    throw new UserError(
      EXIT.USAGE,
      `Expected a single username argument, found extra: [${o.args.join(', ')}]`,
    );
  const name = o.args[0]!;
  const err = usernameError(name);
  if (err) throw new UserError(EXIT.DATA_ERROR, `Invalid username [${name}]... ${err}`);
  return name;
}

function parseRoles(spec: string | undefined): string[] {
  if (spec === undefined) return [];
  const roles = spec
    .split(',')
    .map((r) => r.trim())
    .filter((r) => r.length > 0);
  const unknown = roles.filter((r) => !isRoleName(r));
  if (unknown.length) {
    throw new UserError(
      EXIT.DATA_ERROR,
      `Unknown roles [${unknown.join(', ')}]; the roles are [${ROLE_NAMES.join(', ')}]`,
    );
  }
  return [...new Set(roles)];
}

export interface PasswordSource {
  isTTY: boolean;
  /** Hidden prompt on the terminal. */
  prompt(question: string): string;
  /** All of stdin. */
  readStdin(): string;
}

const processPasswordSource: PasswordSource = {
  isTTY: Boolean(process.stdin.isTTY),
  prompt: (q) => readlineSync.question(q, { hideEchoBack: true, mask: '' }),
  readStdin: () => readFileSync(0, 'utf8'),
};

/** ES UsersTool.parsePassword: `-p`, or typed twice, or (here) piped in. */
function readPassword(o: Options, src: PasswordSource): string {
  const check = (pw: string) => {
    const err = passwordError(pw);
    if (err) throw new UserError(EXIT.DATA_ERROR, `Invalid password...${err}`);
    return pw;
  };
  if (o.password !== undefined) return check(o.password);
  if (src.isTTY) {
    const pw = check(src.prompt('Enter new password: '));
    if (src.prompt('Retype new password: ') !== pw)
      throw new UserError(EXIT.DATA_ERROR, 'Password mismatch');
    return pw;
  }
  const lines = src.readStdin().split(/\r?\n/);
  const pw = check(lines[0] ?? '');
  if (lines.length > 1 && lines[1] !== '' && lines[1] !== pw)
    throw new UserError(EXIT.DATA_ERROR, 'Password mismatch');
  return pw;
}

function load(path: string): UsersTable {
  try {
    return readUsers(path);
  } catch (e) {
    throw new UserError(EXIT.CONFIG, (e as Error).message);
  }
}

function existing(users: UsersTable, name: string) {
  const u = users.get(name);
  if (!u) throw new UserError(EXIT.NO_USER, `User [${name}] doesn't exist`);
  return u;
}

const line = (name: string, roles: string[]) =>
  `${name.padEnd(15)}: ${roles.length ? roles.join(',') : '-'}`;

/** Runs one command; returns the exit code. Output goes to `out`, errors to `err`. */
export async function runUsers(
  argv: string[],
  io: {
    cwd: string;
    env: NodeJS.ProcessEnv;
    out: (s: string) => void;
    err: (s: string) => void;
    password?: PasswordSource;
  },
): Promise<number> {
  try {
    const o = parseOptions(argv);
    if (o.help || o.command === undefined) {
      (o.help ? io.out : io.err)(USERS_USAGE);
      return o.help ? 0 : EXIT.USAGE;
    }
    const path = usersFile(o, io.cwd, io.env);
    const src = io.password ?? processPasswordSource;
    switch (o.command) {
      case 'add':
      case 'useradd': {
        const name = oneUsername(o);
        const users = load(path);
        if (users.has(name)) throw new UserError(EXIT.CODE_ERROR, `User [${name}] already exists`);
        const roles = parseRoles(o.roles);
        const password = await hashPassword(readPassword(o, src));
        users.set(name, { password, roles });
        writeUsers(path, users);
        io.out(`added user [${name}] with roles [${roles.join(',')}] to [${path}]`);
        return 0;
      }
      case 'passwd': {
        const name = oneUsername(o);
        const users = load(path);
        const user = existing(users, name);
        user.password = await hashPassword(readPassword(o, src));
        writeUsers(path, users);
        io.out(`changed the password of user [${name}]`);
        return 0;
      }
      case 'roles': {
        const name = oneUsername(o);
        const users = load(path);
        const user = existing(users, name);
        if (o.add === undefined && o.roles === undefined) {
          io.out(line(name, user.roles));
          return 0;
        }
        const drop = new Set(parseRoles(o.roles));
        const roles = user.roles.filter((r) => !drop.has(r));
        for (const r of parseRoles(o.add)) if (!roles.includes(r)) roles.push(r);
        user.roles = roles;
        writeUsers(path, users);
        io.out(line(name, roles));
        return 0;
      }
      case 'remove':
      case 'userdel': {
        const name = oneUsername(o);
        const users = load(path);
        existing(users, name);
        users.delete(name);
        writeUsers(path, users);
        io.out(`removed user [${name}]`);
        return 0;
      }
      case 'list': {
        const users = load(path);
        if (o.args.length > 0) {
          const name = oneUsername(o);
          io.out(line(name, existing(users, name).roles));
          return 0;
        }
        if (users.size === 0) {
          io.out('No users found');
          return 0;
        }
        for (const name of [...users.keys()].sort()) io.out(line(name, users.get(name)!.roles));
        return 0;
      }
      default:
        throw new UserError(EXIT.USAGE, `unknown command [${o.command}]\n${USERS_USAGE}`);
    }
  } catch (e) {
    if (e instanceof UserError) {
      io.err(`ERROR: ${e.message}`);
      return e.code;
    }
    throw e;
  }
}

export async function main(argv: string[]): Promise<void> {
  const code = await runUsers(argv, {
    cwd: process.cwd(),
    env: process.env,
    out: (s) => process.stdout.write(s + '\n'),
    err: (s) => process.stderr.write(s + '\n'),
  });
  process.exitCode = code;
}
