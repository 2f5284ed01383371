/**
 * The users file: JSON `{"users": {"<name>": {"password": "<scrypt hash>", "roles": [...]}}}`,
 * optional `full_name`, `email`, `metadata` per user. Parsing validates every entry (ES:
 * FileUserPasswdStore + Validation.Users); writes go through a temporary file and a rename so a
 * running node never reads half a file, with mode 0600 since the file holds password hashes.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { isPasswordHash } from './password-hash.js';

export interface StoredUser {
  password: string;
  roles: string[];
  full_name?: string | null;
  email?: string | null;
  metadata?: Record<string, unknown>;
}

export type UsersTable = Map<string, StoredUser>;

const MIN_NAME = 1;
const MAX_NAME = 1024;
const MIN_PASSWORD = 6;

/** ES: Validation.Users.validateUsername (printable ASCII, no edge spaces); null when valid. */
export function usernameError(name: string): string | null {
  let ok = name.length >= MIN_NAME && name.length <= MAX_NAME;
  for (let i = 0; ok && i < name.length; i++) {
    const c = name.charCodeAt(i);
    if (c < 0x20 || c > 0x7e) ok = false;
  }
  if (ok && (name.startsWith(' ') || name.endsWith(' '))) ok = false;
  if (!ok) {
    return `User names must be at least ${MIN_NAME} and no more than ${MAX_NAME} characters. They can contain alphanumeric characters (a-z, A-Z, 0-9), spaces, punctuation, and printable symbols in the Basic Latin (ASCII) block. Leading or trailing whitespace is not allowed.`;
  }
  // Basic authentication splits `user:password` at the first colon, so such a name can never log in.
  if (name.includes(':')) return 'User names used with basic authentication cannot contain [:].';
  return null;
}

/** ES: Validation.Users.validatePassword. */
export function passwordError(password: string): string | null {
  return password.length >= MIN_PASSWORD
    ? null
    : `passwords must be at least [${MIN_PASSWORD}] characters long`;
}

/** Parses the file's text; throws an Error naming the first bad entry. */
export function parseUsers(text: string, path: string): UsersTable {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    throw new Error(`users file [${path}] is not valid JSON: ${(e as Error).message}`);
  }
  const users = (doc as { users?: unknown } | null)?.users;
  if (typeof doc !== 'object' || doc === null || typeof users !== 'object' || users === null) {
    throw new Error(`users file [${path}] must be an object with a [users] object`);
  }
  const out: UsersTable = new Map();
  for (const [name, raw] of Object.entries(users as Record<string, unknown>)) {
    const bad = (why: string) => new Error(`users file [${path}]: user [${name}] ${why}`);
    const nameErr = usernameError(name);
    if (nameErr) throw bad(`has an invalid name: ${nameErr}`);
    const u = raw as Partial<StoredUser> | null;
    if (typeof u !== 'object' || u === null) throw bad('must be an object');
    if (typeof u.password !== 'string' || !isPasswordHash(u.password))
      throw bad('has no valid [password] hash (use bin/quarry-users to set one)');
    if (!Array.isArray(u.roles) || u.roles.some((r) => typeof r !== 'string'))
      throw bad('must have a [roles] array of strings');
    const user: StoredUser = { password: u.password, roles: [...u.roles] };
    if (typeof u.full_name === 'string' || u.full_name === null) user.full_name = u.full_name;
    if (typeof u.email === 'string' || u.email === null) user.email = u.email;
    if (u.metadata && typeof u.metadata === 'object' && !Array.isArray(u.metadata))
      user.metadata = u.metadata;
    out.set(name, user);
  }
  return out;
}

/** Reads the file; a missing file is an empty table. */
export function readUsers(path: string): UsersTable {
  if (!existsSync(path)) return new Map();
  return parseUsers(readFileSync(path, 'utf8'), path);
}

export function serializeUsers(users: UsersTable): string {
  const obj: Record<string, StoredUser> = {};
  for (const name of [...users.keys()].sort()) obj[name] = users.get(name)!;
  return JSON.stringify({ users: obj }, null, 2) + '\n';
}

/** Replaces the file atomically (temporary file + rename), readable by its owner only. */
export function writeUsers(path: string, users: UsersTable): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, serializeUsers(users), { mode: 0o600 });
  chmodSync(tmp, 0o600);
  renameSync(tmp, path);
}
