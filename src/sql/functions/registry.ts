/**
 * The ES SQL 7.10 function registry (SqlFunctionRegistry over ql FunctionRegistry): function groups
 * registered in ES's order, names and aliases sorted within each group (which is the SHOW FUNCTIONS
 * order), case-insensitive lookup through aliases, arity checks with ES's "error building [X]"
 * messages, "Unknown function [x], did you mean ...?" suggestions and SHOW FUNCTIONS [LIKE].
 */
import { findSimilar } from '../../functions/datetime/date-time-field.js';
import { likeToJavaPattern } from '../../functions/like.js';
import type { FunctionDefinition, FunctionListing } from './definition.js';
import {
  AGGREGATE_FUNCTIONS,
  HISTOGRAM_FUNCTIONS,
  STATISTICS_FUNCTIONS,
} from './defs/aggregate.js';
import { CONDITIONAL_FUNCTIONS } from './defs/conditional.js';
import { DATETIME_FUNCTIONS } from './defs/datetime.js';
import { MATH_FUNCTIONS } from './defs/math.js';
import { CAST_FUNCTIONS, GEO_FUNCTIONS, META_FUNCTIONS, SPECIAL_FUNCTIONS } from './defs/misc.js';
import { STRING_FUNCTIONS } from './defs/string.js';
import { WINDOW_ONLY_FUNCTIONS } from './defs/window.js';

/** SqlFunctionRegistry.functions(): the groups, in registration order. */
const GROUPS: ReadonlyArray<readonly FunctionDefinition[]> = [
  AGGREGATE_FUNCTIONS,
  STATISTICS_FUNCTIONS,
  HISTOGRAM_FUNCTIONS,
  CONDITIONAL_FUNCTIONS,
  DATETIME_FUNCTIONS,
  MATH_FUNCTIONS,
  STRING_FUNCTIONS,
  CAST_FUNCTIONS,
  META_FUNCTIONS,
  GEO_FUNCTIONS,
  SPECIAL_FUNCTIONS,
];

/** Every name and alias in SHOW FUNCTIONS order (FunctionRegistry.defs, a LinkedHashMap). */
export const FUNCTION_LISTING: readonly FunctionListing[] = Object.freeze(
  GROUPS.flatMap((group) => {
    const entries: FunctionListing[] = [];
    for (const d of group) {
      for (const n of [d.name, ...d.aliases])
        entries.push({ name: n, type: d.type, definition: d });
    }
    return entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }),
);

const BY_NAME: ReadonlyMap<string, FunctionDefinition> = new Map(
  FUNCTION_LISTING.map((e) => [e.name, e.definition]),
);

/** All definitions, each once, in registration order. */
export const FUNCTIONS: readonly FunctionDefinition[] = Object.freeze(GROUPS.flat());

/** FunctionRegistry.resolveAlias: the primary (upper-case) name for a name or alias. */
export function resolveAlias(name: string): string {
  const up = name.toUpperCase();
  return BY_NAME.get(up)?.name ?? up;
}

/** Case-insensitive lookup by name or alias. */
export function lookupFunction(name: string): FunctionDefinition | null {
  return BY_NAME.get(name.toUpperCase()) ?? null;
}

export const functionExists = (name: string): boolean => BY_NAME.has(name.toUpperCase());

/**
 * FunctionRegistry builder checks: "error building [NAME]: expects exactly one argument" and the
 * DISTINCT check (a parsing_exception at the function's location). Null when the call is fine.
 */
export function checkCall(
  d: FunctionDefinition,
  argCount: number,
  distinct = false,
): string | null {
  const a = d.arity;
  if (a.kind !== 'variadic' && (argCount < a.min || argCount > a.max)) {
    return `error building [${d.name}]: ${a.message}`;
  }
  if (distinct && !d.distinct)
    return `error building [${d.name}]: does not support DISTINCT yet it was specified`;
  return null;
}

export type ResolutionType = 'STANDARD' | 'DISTINCT' | 'EXTRACT';

/**
 * UnresolvedFunction's message for a name the registry lacks: "Unknown function [x]", with
 * "did you mean [y]?" / "did you mean any of [a, b]?" when similar names exist (EXTRACT says
 * "datetime field" and only suggests EXTRACT-viable functions, DISTINCT suggests nothing).
 */
export function unknownFunctionMessage(
  name: string,
  resolutionType: ResolutionType = 'STANDARD',
): string {
  const kind = resolutionType === 'EXTRACT' ? 'datetime field' : 'function';
  if (resolutionType === 'DISTINCT') return `Unknown ${kind} [${name}]`;
  const names = new Set<string>();
  for (const e of FUNCTION_LISTING) {
    const d = e.definition;
    if (resolutionType === 'EXTRACT' && !d.extractViable) continue;
    names.add(d.name);
    for (const a of d.aliases) names.add(a);
  }
  const matches = findSimilar(name.toUpperCase(), names);
  if (matches.length === 0) return `Unknown ${kind} [${name}]`;
  const m = matches.length === 1 ? `[${matches[0]}]` : `any of [${matches.join(', ')}]`;
  return `Unknown ${kind} [${name}], did you mean ${m}?`;
}

/** EXTRACT(field FROM x) on a function that is not a datetime extractor. */
export const invalidExtractMessage = (name: string): string =>
  `Invalid datetime field [${name}]. Use any datetime function.`;

/**
 * Quarry's extension functions as SHOW FUNCTIONS lists them: after every ES function, so ES's own
 * list stays a prefix, in the same order (issue 16). Aggregates with OVER are ES's SUM, AVG...
 * and are listed once, as AGGREGATE.
 */
export const EXTENSION_FUNCTION_LISTING: ReadonlyArray<readonly [string, 'WINDOW']> = Object.freeze(
  WINDOW_ONLY_FUNCTIONS.map((n) => [n, 'WINDOW'] as const),
);

/**
 * SHOW FUNCTIONS [LIKE pattern [ESCAPE e]]: rows of [name, type], ES's functions then Quarry's
 * extensions. ES turns the LIKE pattern into a Java regex and upper-cases it
 * (FunctionRegistry.normalize), so matching is case-insensitive.
 */
export function showFunctions(
  pattern?: string | null,
  escape: string | null = null,
): Array<[string, string]> {
  let re: RegExp | null = null;
  if (pattern !== undefined && pattern !== null && pattern.trim().length > 0) {
    re = new RegExp(likeToJavaPattern(pattern, escape).toUpperCase());
  }
  const rows: Array<[string, string]> = [
    ...FUNCTION_LISTING.map((e): [string, string] => [e.name, e.type]),
    ...EXTENSION_FUNCTION_LISTING.map(([n, t]): [string, string] => [n, t]),
  ];
  return rows.filter(([name]) => re === null || re.test(name));
}

/** SHOW FUNCTIONS columns. */
export const SHOW_FUNCTIONS_COLUMNS = [
  { name: 'name', type: 'KEYWORD' as const },
  { name: 'type', type: 'KEYWORD' as const },
];
