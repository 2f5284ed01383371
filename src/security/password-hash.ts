/**
 * Password hashes for the users file: scrypt (node:crypto) with a random 16-byte salt, stored as
 * a PHC-style string `$scrypt$ln=15,r=8,p=1$<salt>$<hash>` so the cost can change later without
 * invalidating existing entries. Hashing and checking run on libuv's pool, off the event loop.
 */
import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

export interface ScryptParams {
  /** log2 of the CPU/memory cost N. */
  ln: number;
  r: number;
  p: number;
}

/** 32 MiB per hash (128·N·r bytes): OWASP's scrypt floor is N=2^15 with r=8. */
export const DEFAULT_PARAMS: ScryptParams = { ln: 15, r: 8, p: 1 };
const KEY_LEN = 32;
const SALT_LEN = 16;

function derive(password: string, salt: Buffer, prm: ScryptParams, len: number): Promise<Buffer> {
  const N = 2 ** prm.ln;
  return new Promise((res, rej) =>
    scrypt(
      password.normalize('NFC'),
      salt,
      len,
      { N, r: prm.r, p: prm.p, maxmem: 256 * N * prm.r + 1024 * 1024 },
      (err, key) => (err ? rej(err) : res(key)),
    ),
  );
}

const b64 = (b: Buffer) => b.toString('base64').replace(/=+$/, '');

export async function hashPassword(
  password: string,
  prm: ScryptParams = DEFAULT_PARAMS,
): Promise<string> {
  const salt = randomBytes(SALT_LEN);
  const key = await derive(password, salt, prm, KEY_LEN);
  return `$scrypt$ln=${prm.ln},r=${prm.r},p=${prm.p}$${b64(salt)}$${b64(key)}`;
}

interface ParsedHash {
  params: ScryptParams;
  salt: Buffer;
  key: Buffer;
}

/** Parses a stored hash; null when it is not one this module wrote (or has absurd costs). */
export function parseHash(encoded: string): ParsedHash | null {
  const m = /^\$scrypt\$ln=(\d+),r=(\d+),p=(\d+)\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/.exec(
    encoded,
  );
  if (!m) return null;
  const params = { ln: Number(m[1]), r: Number(m[2]), p: Number(m[3]) };
  // Bounds keep a hand-edited file from asking for gigabytes or minutes per check.
  if (params.ln < 1 || params.ln > 20 || params.r < 1 || params.r > 32) return null;
  if (params.p < 1 || params.p > 16) return null;
  const salt = Buffer.from(m[4]!, 'base64');
  const key = Buffer.from(m[5]!, 'base64');
  if (salt.length < 8 || key.length < 16) return null;
  return { params, salt, key };
}

export function isPasswordHash(encoded: string): boolean {
  return parseHash(encoded) !== null;
}

/** Constant-time check of a password against a stored hash; false for malformed hashes. */
export async function verifyPassword(password: string, encoded: string): Promise<boolean> {
  const h = parseHash(encoded);
  if (!h) return false;
  const key = await derive(password, h.salt, h.params, h.key.length);
  return timingSafeEqual(key, h.key);
}
