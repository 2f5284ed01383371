/**
 * Rendering helpers shared by every aggregation: doubles as Jackson writes them (NaN and
 * infinities become the strings "NaN", "Infinity", "-Infinity"), `meta`, and typed_keys names.
 */

/** A double as ES's JSON generator writes it. */
export function jnum(v: number): number | string {
  if (Number.isNaN(v)) return 'NaN';
  if (v === Infinity) return 'Infinity';
  if (v === -Infinity) return '-Infinity';
  return v;
}

/** `type#name` under typed_keys, else the name. */
export function typedName(typedKeys: boolean, type: string, name: string): string {
  return typedKeys ? `${type}#${name}` : name;
}

/** Appends `meta` the way InternalAggregation.toXContent does (before the body). */
export function withMeta(meta: Record<string, unknown> | null): Record<string, unknown> {
  return meta ? { meta } : {};
}
