/**
 * The keyword-family types of ES 7.10's x-pack mappers, `constant_keyword` and `wildcard`, kept as
 * keyword fields that remember the type they were declared with (7.10 field caps report their
 * family, `keyword`, so search and SQL treat them as keywords). Their parsers follow 7.10's
 * parametrized mappers: only their own parameters, anything else is an unknown parameter.
 */
import type { FieldDef } from './model.js';
import type { KeywordFamily } from './types.js';
import { mapperParsing } from './errors.js';
import { isMap } from './field-draft.js';
import type { Node, ParserCtx } from './field-draft.js';
import { javaToString } from './java-numbers.js';
import { parseFieldDef } from './parse-field.js';

export const KEYWORD_FAMILY: ReadonlySet<string> = new Set<KeywordFamily>([
  'constant_keyword',
  'wildcard',
]);

export const isKeywordFamily = (t: string): t is KeywordFamily => KEYWORD_FAMILY.has(t);

/** The parameters each type takes besides `type` (7.10 Builder.getParameters, plus multi-fields and copy_to for wildcard). */
const PARAMS: Readonly<Record<KeywordFamily, ReadonlySet<string>>> = {
  constant_keyword: new Set(['value', 'meta']),
  wildcard: new Set(['ignore_above', 'null_value', 'meta', 'fields', 'copy_to']),
};

/** ES ParametrizedFieldMapper's `meta` checks. */
function parseMeta(name: string, v: unknown): Record<string, string> {
  if (!isMap(v)) throw mapperParsing(`[meta] must be an object, got ${javaToString(v)}`);
  const out: Record<string, string> = {};
  for (const [k, x] of Object.entries(v)) {
    if (typeof x !== 'string') {
      throw mapperParsing(
        `[meta] values can only be strings, but got ${x === null ? 'null' : typeof x} for field [${k}]`,
      );
    }
    out[k] = x;
  }
  void name;
  return out;
}

/** Parses a `constant_keyword` or `wildcard` field mapping into a keyword FieldDef. */
export function parseKeywordFamilyDef(
  name: string,
  type: KeywordFamily,
  node: Node,
  pc: ParserCtx,
): FieldDef {
  let value: string | undefined;
  let meta: Record<string, string> | undefined;
  for (const [prop, v] of [...node]) {
    if (prop === 'type') continue;
    if (!PARAMS[type].has(prop)) {
      throw mapperParsing(`unknown parameter [${prop}] on mapper [${name}] of type [${type}]`);
    }
    if (prop === 'value') {
      if (v !== null && typeof v !== 'number' && typeof v !== 'string') {
        throw mapperParsing(
          `Property [value] on field [${name}] must be a number or a string, but got [${javaToString(v)}]`,
        );
      }
      if (v !== null) value = javaToString(v);
      node.delete(prop);
    } else if (prop === 'meta') {
      meta = parseMeta(name, v);
      node.delete(prop);
    }
  }
  // the remaining wildcard parameters mean what they mean on a keyword
  const def = parseFieldDef(name, 'keyword', node, pc);
  return {
    ...def,
    core: {
      ...def.core,
      keywordFamily: type,
      ...(value !== undefined ? { constantValue: value } : {}),
      ...(meta !== undefined ? { meta } : {}),
    },
  };
}
