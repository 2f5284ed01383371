/**
 * Authentication against the users file (ES: FileRealm with its CachingUsernamePasswordRealm).
 * The file is re-read when it changes, checked at most once a second, so `bin/quarry-users`
 * takes effect on a running node; a file that stops parsing keeps the last good table. Verified
 * passwords are cached as a salted SHA-256 so only the first request of a user pays for scrypt.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { statSync } from 'node:fs';
import { extractBasicToken } from './basic-token.js';
import { failedAuthentication, missingToken } from './errors.js';
import { hashPassword, verifyPassword } from './password-hash.js';
import { readUsers, type StoredUser, type UsersTable } from './users-file.js';

export interface AuthenticatedUser {
  username: string;
  roles: string[];
  full_name: string | null;
  email: string | null;
  metadata: Record<string, unknown>;
  enabled: boolean;
}

/** ES: Realms adds the file realm as `default_file` when none is configured. */
export const REALM = { name: 'default_file', type: 'file' } as const;

export interface FileRealmOptions {
  /** Warnings about the users file (reload failures). */
  log?: (message: string) => void;
  /** Minimum time between checks of the file for changes. */
  reloadCheckMs?: number;
}

const MAX_CACHED = 10_000;

export class FileRealm {
  private users: UsersTable = new Map();
  private stamp = '';
  private checkedAt = 0;
  private readonly cacheSalt = randomBytes(16);
  /** user → digest of the last verified password, valid while the stored hash is unchanged. */
  private readonly cache = new Map<string, { hash: string; digest: Buffer }>();
  /** One scrypt per (user, password) at a time, however many requests arrive together. */
  private readonly inflight = new Map<string, Promise<boolean>>();
  /** Checked for unknown users so a failure takes as long whether or not the user exists. */
  private dummyHash: Promise<string> | null = null;

  constructor(
    readonly path: string,
    private readonly opts: FileRealmOptions = {},
  ) {}

  /** Reads the file now; throws when it cannot be parsed (a node refuses to start on that). */
  load(): number {
    this.stamp = this.fileStamp();
    this.users = readUsers(this.path);
    this.checkedAt = Date.now();
    this.cache.clear();
    return this.users.size;
  }

  get size(): number {
    return this.users.size;
  }

  private fileStamp(): string {
    try {
      const st = statSync(this.path);
      return `${st.ino}:${st.size}:${st.mtimeMs}`;
    } catch {
      return 'missing';
    }
  }

  private maybeReload(): void {
    const now = Date.now();
    if (now - this.checkedAt < (this.opts.reloadCheckMs ?? 1000)) return;
    this.checkedAt = now;
    const stamp = this.fileStamp();
    if (stamp === this.stamp) return;
    this.stamp = stamp;
    try {
      this.users = readUsers(this.path);
      this.cache.clear();
    } catch (e) {
      this.opts.log?.(
        `failed to reload users file, keeping the previous users: ${(e as Error).message}`,
      );
    }
  }

  private digest(password: string): Buffer {
    return createHash('sha256').update(this.cacheSalt).update(password, 'utf8').digest();
  }

  private async check(name: string, user: StoredUser, password: string): Promise<boolean> {
    const digest = this.digest(password);
    const hit = this.cache.get(name);
    if (hit && hit.hash === user.password) return timingSafeEqual(hit.digest, digest);
    const key = `${name}\u0000${digest.toString('base64')}`;
    let pending = this.inflight.get(key);
    if (!pending) {
      pending = verifyPassword(password, user.password).finally(() => this.inflight.delete(key));
      this.inflight.set(key, pending);
    }
    const ok = await pending;
    if (ok) {
      if (this.cache.size >= MAX_CACHED) this.cache.delete(this.cache.keys().next().value!);
      this.cache.set(name, { hash: user.password, digest });
    }
    return ok;
  }

  /**
   * Authenticates a request from its Authorization header; `uri` is named in failures.
   * Throws ES's 401 security_exception for a missing token or bad credentials.
   */
  async authenticate(authorization: string | undefined, uri: string): Promise<AuthenticatedUser> {
    const token = extractBasicToken(authorization);
    if (!token) throw missingToken(uri);
    this.maybeReload();
    const user = this.users.get(token.username);
    if (!user) {
      this.dummyHash ??= hashPassword(randomBytes(16).toString('hex'));
      await verifyPassword(token.password, await this.dummyHash);
      throw failedAuthentication(token.username, uri);
    }
    if (!(await this.check(token.username, user, token.password))) {
      throw failedAuthentication(token.username, uri);
    }
    return {
      username: token.username,
      roles: [...user.roles],
      full_name: user.full_name ?? null,
      email: user.email ?? null,
      metadata: user.metadata ?? {},
      enabled: true,
    };
  }
}
