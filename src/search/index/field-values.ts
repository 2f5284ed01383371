/**
 * How typed field values become index terms and doc values: booleans as the terms `F`/`T`
 * (as Lucene's BooleanFieldMapper), IPs as 32 hex chars of the 16-byte IPv6 form so byte order is
 * address order, floats rounded to float32 as Lucene stores them.
 */
import type { FieldMapping } from '../../mapping/types.js';

export const TRUE_TERM = 'T';
export const FALSE_TERM = 'F';

export function isNumericType(t: string): boolean {
  switch (t) {
    case 'long':
    case 'integer':
    case 'short':
    case 'byte':
    case 'double':
    case 'float':
    case 'half_float':
    case 'scaled_float':
    case 'date':
    case 'token_count':
      return true;
  }
  return false;
}

export function isKeywordLike(t: string): boolean {
  return t === 'keyword' || t === 'ip';
}

/** The number stored in points/doc values for a numeric field value. */
export function numericValue(field: FieldMapping, v: number): number {
  switch (field.type) {
    case 'float':
      return Math.fround(v);
    case 'scaled_float': {
      const f = field.scalingFactor ?? 1;
      return Math.round(v * f) / f;
    }
    default:
      return v;
  }
}

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));
const V4_PREFIX = '00000000000000000000ffff';

/** Dotted IPv4 straight to hex, without intermediate arrays (the common case on ingest). */
function ipv4ToSortable(ip: string): string | null {
  let out = V4_PREFIX;
  let n = 0;
  let digits = 0;
  let parts = 0;
  for (let i = 0; i <= ip.length; i++) {
    const c = i < ip.length ? ip.charCodeAt(i) : 46;
    if (c >= 48 && c <= 57) {
      n = n * 10 + (c - 48);
      if (++digits > 3) return null;
    } else if (c === 46) {
      if (digits === 0 || n > 255) return null;
      out += HEX[n]!;
      parts++;
      n = 0;
      digits = 0;
    } else return null;
  }
  return parts === 4 ? out : null;
}

/** IPv4/IPv6 text to 32 lowercase hex chars of the 16-byte (IPv4-mapped) address. */
export function ipToSortable(ip: string): string {
  if (!ip.includes(':')) {
    const fast = ipv4ToSortable(ip);
    if (fast) return fast;
  }
  const bytes = parseIp(ip);
  if (!bytes) return ip;
  let s = '';
  for (const b of bytes) s += b.toString(16).padStart(2, '0');
  return s;
}

export function sortableToIp(hex: string): string {
  if (hex.length !== 32) return hex;
  const b: number[] = [];
  for (let i = 0; i < 32; i += 2) b.push(parseInt(hex.slice(i, i + 2), 16));
  const v4 = b.slice(0, 10).every((x) => x === 0) && b[10] === 0xff && b[11] === 0xff;
  if (v4) return `${b[12]}.${b[13]}.${b[14]}.${b[15]}`;
  const groups: number[] = [];
  for (let i = 0; i < 16; i += 2) groups.push((b[i]! << 8) | b[i + 1]!);
  // RFC 5952 compression of the longest run of zero groups.
  let bestStart = -1;
  let bestLen = 0;
  for (let i = 0; i < 8;) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLen && j - i > 1) {
      bestStart = i;
      bestLen = j - i;
    }
    i = j;
  }
  const hexes = groups.map((g) => g.toString(16));
  if (bestStart < 0) return hexes.join(':');
  const left = hexes.slice(0, bestStart).join(':');
  const right = hexes.slice(bestStart + bestLen).join(':');
  return `${left}::${right}`;
}

export function parseIp(ip: string): number[] | null {
  if (ip.includes(':')) return parseIpv6(ip);
  const v4 = parseIpv4(ip);
  if (!v4) return null;
  return [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, ...v4];
}

function parseIpv4(ip: string): number[] | null {
  const parts = ip.split('.');
  if (parts.length !== 4) return null;
  const out: number[] = [];
  for (const p of parts) {
    if (!/^\d{1,3}$/.test(p)) return null;
    const n = Number(p);
    if (n > 255) return null;
    out.push(n);
  }
  return out;
}

function parseIpv6(ip: string): number[] | null {
  let s = ip;
  const pct = s.indexOf('%');
  if (pct >= 0) s = s.slice(0, pct);
  let tail: number[] = [];
  const lastColon = s.lastIndexOf(':');
  if (s.slice(lastColon + 1).includes('.')) {
    const v4 = parseIpv4(s.slice(lastColon + 1));
    if (!v4) return null;
    tail = v4;
    s = s.slice(0, lastColon + 1) + '0:0';
  }
  const dbl = s.split('::');
  if (dbl.length > 2) return null;
  const head = dbl[0] ? dbl[0].split(':') : [];
  const rest = dbl.length === 2 && dbl[1] ? dbl[1].split(':') : [];
  const missing = 8 - head.length - rest.length;
  if (dbl.length === 1 && head.length !== 8) return null;
  if (missing < 0) return null;
  const groups = [...head, ...Array<string>(dbl.length === 2 ? missing : 0).fill('0'), ...rest];
  const out: number[] = [];
  for (const g of groups) {
    if (!/^[0-9a-fA-F]{1,4}$/.test(g)) return null;
    const n = parseInt(g, 16);
    out.push(n >> 8, n & 0xff);
  }
  if (tail.length) out.splice(12, 4, ...tail);
  return out.length === 16 ? out : null;
}
