/**
 * Elasticsearch versions and `skip` sections (ES: Version.fromString, section/SkipSection,
 * VersionRange, Features). A test is skipped when the node's version lies in one of its ranges
 * (`"6.0.0 - 6.3.99"`, open ends, `all`, comma-separated lists) or when it needs a runner feature
 * this runner does not declare.
 */

/** Features this runner implements (upstream Features.SUPPORTED minus node_selector). */
export const SUPPORTED_FEATURES: ReadonlySet<string> = new Set([
  'catch_unauthorized',
  'default_shards',
  'embedded_stash_key',
  'headers',
  'stash_in_key',
  'stash_in_path',
  'stash_path_replace',
  'warnings',
  'yaml',
  'contains',
  'transform_and_set',
  'arbitrary_key',
  'allowed_warnings',
  // Features.areAllSupported: `no_xpack` holds (there is no X-Pack), `xpack` does not.
  'no_xpack',
]);

/** Version.fromString → the numeric id (major*1e6 + minor*1e4 + revision*100 + build). */
export function parseVersionId(text: string): number {
  const v = text.trim().replace(/-SNAPSHOT$/, '');
  const parts = v.split(/[.-]/);
  if (parts.length < 3 || parts.length > 4) {
    throw new Error(
      `the version needs to contain major, minor, and revision, and optionally the build: ${text}`,
    );
  }
  const [major, minor, revision] = parts.slice(0, 3).map((p) => {
    if (!/^\d+$/.test(p)) throw new Error(`unable to parse version ${text}`);
    return Number(p);
  }) as [number, number, number];
  let build = 99;
  const b = parts[3];
  if (b !== undefined) {
    const betaOffset = major < 5 ? 0 : 25;
    if (b.startsWith('alpha')) build = Number(b.slice(5));
    else if (/^[Bb]eta/.test(b)) build = betaOffset + Number(b.slice(4));
    else if (/^(RC|rc)/.test(b)) build = 50 + Number(b.slice(2));
    else throw new Error(`unable to parse version ${text}`);
    if (!Number.isInteger(build)) throw new Error(`unable to parse version ${text}`);
  }
  return major * 1_000_000 + minor * 10_000 + revision * 100 + build;
}

/** A range whose open ends are the first known version and the current one. */
export interface VersionRange {
  lower: number | 'first';
  upper: number | 'current';
}

/** SkipSection.parseVersionRanges. */
export function parseVersionRanges(raw: string): VersionRange[] {
  if (raw.trim() === 'all') return [{ lower: 'first', upper: 'current' }];
  return raw.split(',').map((r) => {
    const ends = r.split('-');
    // "6.0.0-alpha1 - 6.1.0" would split the build too; rejoin on the spaced dash then.
    const spaced = r.split(/\s+-\s*|\s*-\s+/);
    const pair = ends.length === 2 ? ends : spaced.length === 2 ? spaced : null;
    if (!pair) throw new Error(`version range malformed: ${raw}`);
    const lower = pair[0]!.trim();
    const upper = pair[1]!.trim();
    return {
      lower: lower === '' ? 'first' : parseVersionId(lower),
      upper: upper === '' ? 'current' : parseVersionId(upper),
    };
  });
}

export function rangeContains(range: VersionRange, current: number): boolean {
  const lower = range.lower === 'first' ? 0 : range.lower;
  const upper = range.upper === 'current' ? current : range.upper;
  return current >= lower && current <= upper;
}

export interface SkipSpec {
  /** Empty when the skip section only lists features. */
  ranges: VersionRange[];
  features: string[];
  reason: string | null;
}

/** SkipSection.skip; returns the skip message, or null when the section must run. */
export function skipReason(skip: SkipSpec | null, current: number): string | null {
  if (!skip) return null;
  const unsupported = skip.features.filter((f) => !SUPPORTED_FEATURES.has(f));
  const inRange = skip.ranges.some((r) => rangeContains(r, current));
  if (!inRange && unsupported.length === 0) return null;
  const parts: string[] = [];
  if (inRange) parts.push(`version: ${skip.reason ?? '(no reason)'}`);
  if (unsupported.length > 0) parts.push(`unsupported features [${unsupported.join(', ')}]`);
  return parts.join('; ');
}
