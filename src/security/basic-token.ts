/**
 * The `Authorization: Basic …` header as x-pack reads it (ES: UsernamePasswordToken.extractToken):
 * no header or another scheme is "no token" (null); a Basic header that is empty, not base64 or
 * without a colon is a 401 of its own.
 */
import type { EsError } from '../common/errors.js';
import { authenticationError } from './errors.js';

export interface BasicToken {
  username: string;
  password: string;
}

const PREFIX = 'basic ';

/** Java's Base64 decoder: the standard alphabet, padding optional but never a lone last char. */
function strictBase64(s: string): Buffer | null {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(s)) return null;
  const body = s.replace(/=+$/, '');
  if (body.length % 4 === 1) return null;
  if (s.length !== body.length && s.length % 4 !== 0) return null;
  return Buffer.from(body, 'base64');
}

export function extractBasicToken(header: string | undefined): BasicToken | null {
  if (header === undefined || header.length === 0) return null;
  if (header.slice(0, PREFIX.length).toLowerCase() !== PREFIX) return null;
  const fail = (why: string): EsError => authenticationError(why);
  if (header.length === PREFIX.length) throw fail('invalid basic authentication header value');
  const bytes = strictBase64(header.slice(PREFIX.length).trim());
  if (!bytes) throw fail('invalid basic authentication header encoding');
  const text = bytes.toString('utf8');
  const colon = text.indexOf(':');
  if (colon < 0) throw fail('invalid basic authentication header value');
  return { username: text.slice(0, colon), password: text.slice(colon + 1) };
}
