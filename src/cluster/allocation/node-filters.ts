/**
 * ES DiscoveryNodeFilters: the `*.routing.allocation.{require,include,exclude}.<attr>` groups.
 * A group's values are comma lists with `*` wildcards; `require` ANDs every entry, `include` and
 * `exclude` OR them. `toString` renders as ES prints filters in decider explanations.
 */
import { fromStateSettings, settingText } from '../state-settings.js';
import { simpleMatch } from '../../engine/index-names.js';
import type { DiscoveryNode } from '../state.js';

export type FilterOp = 'AND' | 'OR';

export interface NodeFilters {
  readonly op: FilterOp;
  /** Attribute to values, in setting order. */
  readonly filters: readonly (readonly [string, readonly string[]])[];
}

/** The filters under `prefix` (e.g. `index.routing.allocation.require`), or null when none. */
export function filtersFrom(
  settings: Readonly<Record<string, string>>,
  prefix: string,
  op: FilterOp,
): NodeFilters | null {
  const out: [string, string[]][] = [];
  for (const [key, v] of Object.entries(fromStateSettings(settings))) {
    if (!key.startsWith(prefix + '.')) continue;
    const value = settingText(v);
    const attr = key.slice(prefix.length + 1);
    if (attr === '') continue;
    const values = value
      .split(',')
      .map((v) => v.trim())
      .filter((v) => v !== '');
    if (values.length > 0) out.push([attr, values]);
  }
  return out.length > 0 ? { op, filters: out } : null;
}

/** Host of a `host:port` address (IPv6 in brackets keeps them off). */
function hostOf(address: string): string {
  const m = /^\[(.*)\]:\d+$/.exec(address);
  if (m) return m[1]!;
  const i = address.lastIndexOf(':');
  return i > 0 ? address.slice(0, i) : address;
}

export function matchNode(f: NodeFilters, node: DiscoveryNode): boolean {
  const and = f.op === 'AND';
  const ip = hostOf(node.transportAddress);
  for (const [attr, values] of f.filters) {
    if (attr === '_ip' || attr === '_host_ip' || attr === '_publish_ip') {
      const match = values.some((v) => simpleMatch(v, ip));
      if (and) {
        if (!match) return false;
        continue;
      }
      if (match) return true;
    } else if (attr === '_host' || attr === '_id' || attr === '_name' || attr === 'name') {
      for (const v of values) {
        const ok =
          attr === '_id'
            ? node.id === v
            : attr === '_host'
              ? simpleMatch(v, ip)
              : simpleMatch(v, node.name);
        if (ok) {
          if (!and) return true;
        } else if (and) return false;
      }
    } else {
      const actual = node.attributes[attr];
      if (actual === undefined) {
        if (and) return false;
        continue;
      }
      for (const v of values) {
        if (simpleMatch(v, actual)) {
          if (!and) return true;
        } else if (and) return false;
      }
    }
  }
  return and;
}

/** ES DiscoveryNodeFilters.toString: `_name:"a OR b",zone:"x"`. */
export function filtersToString(f: NodeFilters): string {
  return f.filters.map(([attr, values]) => `${attr}:"${values.join(` ${f.op} `)}"`).join(',');
}
