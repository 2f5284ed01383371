/**
 * A small option parser for `quarry import` and `quarry export`: `--name value`, `--name=value`,
 * flags, short aliases, positional arguments. Throws with the reason on an unknown option or a
 * missing value.
 */

export interface ToolArgs {
  readonly positional: readonly string[];
  readonly values: ReadonlyMap<string, string>;
  readonly flags: ReadonlySet<string>;
}

export function parseToolArgs(
  argv: readonly string[],
  spec: { values: readonly string[]; flags: readonly string[]; aliases?: Record<string, string> },
): ToolArgs {
  const positional: string[] = [];
  const values = new Map<string, string>();
  const flags = new Set<string>();
  for (let i = 0; i < argv.length; i++) {
    let a = argv[i]!;
    if (spec.aliases?.[a]) a = spec.aliases[a]!;
    if (!a.startsWith('-') || a === '-') {
      positional.push(a);
      continue;
    }
    const eq = a.indexOf('=');
    const name = (eq > 0 ? a.slice(0, eq) : a).replace(/^--?/, '');
    if (spec.flags.includes(name) && eq < 0) flags.add(name);
    else if (spec.values.includes(name)) {
      const v = eq > 0 ? a.slice(eq + 1) : argv[++i];
      if (v === undefined) throw new Error(`missing value for --${name}`);
      values.set(name, v);
    } else throw new Error(`unknown option [${argv[i]}]`);
  }
  return { positional, values, flags };
}

/** A positive integer option. */
export function intOption(args: ToolArgs, name: string, dflt: number): number {
  const v = args.values.get(name);
  if (v === undefined) return dflt;
  const n = Number(v);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`--${name} must be a positive integer, got [${v}]`); // prettier-ignore
  return n;
}
