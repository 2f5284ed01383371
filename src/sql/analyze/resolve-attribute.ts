/**
 * Column references against a list of attributes (ES Analyzer.resolveAgainstList and
 * handleSpecialFields): a name matches an attribute's name or its qualified name (`emp.salary`);
 * several matches are ambiguous; fields with conflicting mappings, unsupported types or compound
 * (object/nested) types resolve to ES's explanatory messages.
 */
import { isPrimitive } from '../../functions/data-types.js';
import { findSimilar } from '../../functions/datetime/date-time-field.js';
import { DATA_TYPES } from '../../functions/data-types.js';
import type { Attribute, Src, Unresolved } from '../expression/nodes.js';

export const qualifiedName = (a: Attribute): string =>
  a.qualifier !== null && a.qualifier !== undefined ? `${a.qualifier}.${a.name}` : a.name;

/** `qualifiedName(a) === name`, without building the qualified name for every candidate. */
function isQualifiedName(a: Attribute, name: string): boolean {
  const q = a.qualifier;
  if (q === null || q === undefined) return false;
  return (
    name.length === q.length + 1 + a.name.length &&
    name.charCodeAt(q.length) === 46 && // '.'
    name.startsWith(q) &&
    name.endsWith(a.name)
  );
}

export function unresolved(name: string, message: string, src: Src, custom = true): Unresolved {
  return { kind: 'Unresolved', name, message, custom, dataType: 'UNSUPPORTED', src };
}

/** ES UnresolvedAttribute.errorMessage with StringUtils.findSimilar suggestions. */
export function unknownColumn(
  name: string,
  candidates: readonly Attribute[],
  src: Src,
): Unresolved {
  const names = candidates
    .filter((a) => a.dataType !== 'UNSUPPORTED' && isPrimitive(a.dataType))
    .map((a) => a.name);
  const matches = findSimilar(name, names);
  let msg = `Unknown column [${name}]`;
  if (matches.length > 0) {
    msg += `, did you mean ${matches.length === 1 ? `[${matches[0]}]` : `any of [${matches.join(', ')}]`}?`;
  }
  return unresolved(name, msg, src, false);
}

/**
 * Resolves `name` against `attrs`; null when nothing matches (the caller decides whether to look
 * elsewhere). `allowCompound` lets `obj.*` resolve an object field.
 */
export function resolveAgainst(
  name: string,
  attrs: readonly Attribute[],
  src: Src,
  allowCompound = false,
): Attribute | Unresolved | null {
  const matches: Attribute[] = [];
  const seen = new Set<string>();
  for (const a of attrs) {
    if (a.name === name || isQualifiedName(a, name)) {
      const key = `${a.kind}${a.id}`;
      if (!seen.has(key)) {
        seen.add(key);
        matches.push(a);
      }
    }
  }
  if (matches.length === 0) return null;
  if (matches.length > 1) {
    const refs = matches
      .map((a) => {
        const shown =
          a.kind === 'Field' && a.qualifier !== null ? `"${a.qualifier}"."${a.name}"` : a.name;
        return `line ${a.src.line}:${a.src.column} [${shown}]`;
      })
      .sort();
    return unresolved(
      name,
      `Reference [${name}] is ambiguous (to disambiguate use quotes or qualifiers); matches any of [${refs.join(', ')}]`,
      src,
    );
  }
  const a = matches[0]!;
  if (a.kind === 'Field') {
    const f = a.field;
    if (f.invalid !== null) {
      return unresolved(
        name,
        `Cannot use field [${a.name}] due to ambiguities being ${f.invalid}`,
        src,
      );
    }
    if (a.dataType === 'UNSUPPORTED') {
      return unresolved(
        name,
        f.unsupportedInherited !== null
          ? `Cannot use field [${a.name}] with unsupported type [${f.esType}] in hierarchy (field [${f.unsupportedInherited}])`
          : `Cannot use field [${a.name}] with unsupported type [${f.esType}]`,
        src,
      );
    }
    if (!allowCompound && !isPrimitive(a.dataType)) {
      return unresolved(
        name,
        `Cannot use field [${a.name}] type [${DATA_TYPES[a.dataType].typeName}] only its subfields`,
        src,
      );
    }
  }
  return { ...a, src };
}
