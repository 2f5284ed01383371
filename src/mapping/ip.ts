/**
 * IP address literals as Elasticsearch reads them (ES InetAddresses.forString: no leading zeros in
 * IPv4 octets, `::` compression, embedded dotted quads) and prints them (toAddrString: RFC 5952
 * compression; IPv4-mapped IPv6 addresses become plain IPv4 as InetAddress.getByAddress does).
 */
import { EsError } from '../common/errors.js';
import { illegalArgument } from './errors.js';

/** 4 or 16 address bytes, or null when `s` is not an IP string literal. */
export function ipToBytes(s: string): Uint8Array | null {
  let hasColon = false;
  let hasDot = false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 46) hasDot = true;
    else if (c === 58) {
      if (hasDot) return null;
      hasColon = true;
    } else if (!isHex(c)) return null;
  }
  if (hasColon) {
    let str = s;
    if (hasDot) {
      const last = str.lastIndexOf(':');
      const quad = v4(str.slice(last + 1));
      if (!quad) return null;
      str =
        str.slice(0, last + 1) +
        ((quad[0]! << 8) | quad[1]!).toString(16) +
        ':' +
        ((quad[2]! << 8) | quad[3]!).toString(16);
    }
    return v6(str);
  }
  return hasDot ? v4(s) : null;
}

const isHex = (c: number) => (c >= 48 && c <= 57) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);

function v4(s: string): Uint8Array | null {
  const parts = s.split('.');
  if (parts.length !== 4) return null;
  const out = new Uint8Array(4);
  for (let i = 0; i < 4; i++) {
    const p = parts[i]!;
    if (p.length === 0 || p.length > 3 || !/^\d+$/.test(p)) return null;
    if (p.length > 1 && p[0] === '0') return null; // leading zeros are ambiguous (octal?)
    const v = Number(p);
    if (v > 255) return null;
    out[i] = v;
  }
  return out;
}

function v6(s: string): Uint8Array | null {
  const parts = s.split(':');
  if (parts.length < 3 || parts.length > 9) return null;
  let skip = -1;
  for (let i = 1; i < parts.length - 1; i++) {
    if (parts[i]!.length === 0) {
      if (skip >= 0) return null;
      skip = i;
    }
  }
  let hi: number;
  let lo: number;
  if (skip >= 0) {
    hi = skip;
    lo = parts.length - skip - 1;
    if (parts[0]!.length === 0 && --hi !== 0) return null;
    if (parts[parts.length - 1]!.length === 0 && --lo !== 0) return null;
  } else {
    hi = parts.length;
    lo = 0;
  }
  const skipped = 8 - (hi + lo);
  if (skip >= 0 ? skipped < 1 : skipped !== 0) return null;
  const out = new Uint8Array(16);
  let o = 0;
  const put = (p: string): boolean => {
    if (p.length === 0 || p.length > 4) return false;
    const v = parseInt(p, 16);
    out[o++] = v >> 8;
    out[o++] = v & 0xff;
    return true;
  };
  for (let i = 0; i < hi; i++) if (!put(parts[i]!)) return null;
  o += skipped * 2;
  for (let i = lo; i > 0; i--) if (!put(parts[parts.length - i]!)) return null;
  return out;
}

/** ES InetAddresses.toAddrString of the InetAddress Java builds from these bytes. */
export function bytesToIp(b: Uint8Array): string {
  if (b.length === 16 && isV4Mapped(b)) b = b.subarray(12);
  if (b.length === 4) return `${b[0]}.${b[1]}.${b[2]}.${b[3]}`;
  const h: number[] = [];
  for (let i = 0; i < 8; i++) h.push((b[2 * i]! << 8) | b[2 * i + 1]!);
  let bestStart = -1;
  let bestLen = -1;
  let start = -1;
  for (let i = 0; i <= 8; i++) {
    if (i < 8 && h[i] === 0) {
      if (start < 0) start = i;
    } else if (start >= 0) {
      if (i - start > bestLen) {
        bestStart = start;
        bestLen = i - start;
      }
      start = -1;
    }
  }
  if (bestLen >= 2) for (let i = bestStart; i < bestStart + bestLen; i++) h[i] = -1;
  let out = '';
  let lastNum = false;
  for (let i = 0; i < 8; i++) {
    const isNum = h[i]! >= 0;
    if (isNum) {
      if (lastNum) out += ':';
      out += h[i]!.toString(16);
    } else if (i === 0 || lastNum) out += '::';
    lastNum = isNum;
  }
  return out;
}

function isV4Mapped(b: Uint8Array): boolean {
  for (let i = 0; i < 10; i++) if (b[i] !== 0) return false;
  return b[10] === 0xff && b[11] === 0xff;
}

/**
 * `s` itself when it is a canonical dotted-quad IPv4 literal (no leading zeros, octets <= 255),
 * else undefined: the allocation-free path for the common case.
 */
export function canonicalIpv4(s: string): string | undefined {
  const n = s.length;
  if (n < 7 || n > 15) return undefined;
  let parts = 0;
  let v = 0;
  let len = 0;
  for (let i = 0; i <= n; i++) {
    const c = i === n ? 46 : s.charCodeAt(i);
    if (c === 46) {
      if (len === 0 || v > 255) return undefined;
      parts++;
      v = 0;
      len = 0;
    } else if (c >= 48 && c <= 57) {
      if (len === 1 && v === 0) return undefined; // leading zero
      v = v * 10 + (c - 48);
      if (++len > 3) return undefined;
    } else return undefined;
  }
  return parts === 4 ? s : undefined;
}

/** Validates and canonicalizes; throws illegal_argument_exception as ES does. */
export function canonicalIp(s: string): string {
  const b = ipToBytes(s);
  if (!b) throw illegalArgument(`'${s}' is not an IP string literal.`);
  return bytesToIp(b);
}

/** ES InetAddresses.parseCidr → [lower, upper] address bytes (host bits cleared / set). */
export function parseCidr(masked: string): [Uint8Array, Uint8Array] {
  const fields = javaSplit(masked, '/');
  if (fields.length !== 2) throw illegalArgument(`Expected [ip/prefix] but was [${masked}]`);
  const addrStr = fields[0]!;
  let addr = ipToBytes(addrStr);
  if (!addr) throw illegalArgument(`'${addrStr}' is not an IP string literal.`);
  if (addr.length === 16 && isV4Mapped(addr)) addr = addr.slice(12);
  if (addrStr.includes(':') && addr.length === 4) {
    throw illegalArgument(
      `CIDR notation is not allowed with IPv6-mapped IPv4 address [${addrStr} as it introduces ambiguity as to whether the prefix length should be interpreted as a v4 prefix length or a v6 prefix length`,
    );
  }
  const p = fields[1]!;
  if (!/^[+-]?\d+$/.test(p) || Math.abs(Number(p)) > 2147483647) {
    throw new EsError('number_format_exception', `For input string: "${p}"`, 400);
  }
  const prefix = Number(p);
  if (prefix < 0 || prefix > addr.length * 8) {
    throw illegalArgument(
      `Illegal prefix length [${prefix}] in [${masked}]. Must be 0-32 for IPv4 ranges, 0-128 for IPv6 ranges`,
    );
  }
  const lower = addr.slice();
  const upper = addr.slice();
  for (let i = prefix; i < 8 * addr.length; i++) {
    const m = 1 << (7 - (i & 7));
    lower[i >> 3]! &= ~m;
    upper[i >> 3]! |= m;
  }
  return [lower, upper];
}

/** Java String.split(regex) for a literal single-char separator: trailing empty strings dropped. */
export function javaSplit(s: string, sep: string): string[] {
  if (s.length === 0) return [''];
  const parts = s.split(sep);
  while (parts.length > 0 && parts[parts.length - 1] === '') parts.pop();
  return parts;
}
