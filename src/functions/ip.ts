/**
 * IP address text validation as ES InetAddresses.isInetAddress does it (a Guava fork): dotted-quad
 * IPv4 without leading zeros, IPv6 with one optional "::" and an optional trailing IPv4 part.
 */

function isIpv4(s: string): boolean {
  const parts = s.split('.');
  if (parts.length !== 4) return false;
  for (const p of parts) {
    if (p.length === 0 || p.length > 3 || !/^\d+$/.test(p)) return false;
    if (p.length > 1 && p[0] === '0') return false;
    if (Number(p) > 255) return false;
  }
  return true;
}

function isIpv6(s: string): boolean {
  let text = s;
  let groupsForV4 = 0;
  const lastColon = text.lastIndexOf(':');
  if (text.includes('.')) {
    if (lastColon < 0 || !isIpv4(text.slice(lastColon + 1))) return false;
    text = text.slice(0, lastColon + 1) + '0:0';
    groupsForV4 = 0;
  }
  const dbl = text.indexOf('::');
  if (dbl !== text.lastIndexOf('::')) return false;
  const hex = /^[0-9a-fA-F]{1,4}$/;
  const groups = (part: string) => (part === '' ? [] : part.split(':'));
  if (dbl >= 0) {
    const head = groups(text.slice(0, dbl));
    const tail = groups(text.slice(dbl + 2));
    if (![...head, ...tail].every((g) => hex.test(g))) return false;
    return head.length + tail.length + groupsForV4 <= 7;
  }
  const all = text.split(':');
  return all.length === 8 && all.every((g) => hex.test(g));
}

/** ES InetAddresses.isInetAddress. */
export function isValidIp(s: string): boolean {
  return s.includes(':') ? isIpv6(s) : isIpv4(s);
}
