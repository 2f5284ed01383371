/**
 * Java's string forms of values, as the upstream runner produces them: `Double.toString` for
 * doubles and `Object.toString` for maps/lists/scalars. The runner needs them where upstream calls
 * `toString()` — stash substitution in strings, `catch: /regex/` against the error object, and
 * truthiness (`is_true`/`is_false` compare `toString()` results).
 */
/** `Double.toString(d)` (ES runner: bodies serialised by Jackson write doubles this way). */
export function javaDoubleToString(d: number): string {
  if (Number.isNaN(d)) return 'NaN';
  if (d === Infinity) return 'Infinity';
  if (d === -Infinity) return '-Infinity';
  if (d === 0) return Object.is(d, -0) ? '-0.0' : '0.0';
  const abs = Math.abs(d);
  if (abs >= 1e-3 && abs < 1e7) {
    const s = String(d);
    return s.includes('.') ? s : s + '.0';
  }
  // Computerized scientific notation: one digit before the point, at least one after.
  const [mant, exp] = d.toExponential().split('e') as [string, string];
  const m = mant.includes('.') ? mant : mant + '.0';
  return `${m}E${Number(exp)}`;
}

/** `String.valueOf(o)` for a value parsed from JSON/YAML (maps print as `{k=v, ...}`). */
export function javaToString(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return v;
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : javaDoubleToString(v);
  if (typeof v === 'bigint') return v.toString();
  if (hasJavaString(v)) return v.toJavaString();
  if (Array.isArray(v)) return '[' + v.map(javaToString).join(', ') + ']';
  if (typeof v === 'object') {
    return (
      '{' +
      Object.entries(v as Record<string, unknown>)
        .map(([k, x]) => `${k}=${javaToString(x)}`)
        .join(', ') +
      '}'
    );
  }
  return String(v);
}

/** Values that know their Java form (json-value.ts `NumberLiteral`). */
function hasJavaString(v: unknown): v is { toJavaString(): string } {
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof (v as { toJavaString?: unknown }).toJavaString === 'function'
  );
}
