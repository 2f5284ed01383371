/**
 * How DocumentParser resolves a document key against an object mapper (ES DocumentParser
 * .splitAndValidatePath / getMapper): dotted keys walk through (non-nested) objects, and key
 * spellings ES refuses are rejected with its messages.
 */
import { EsError } from '../common/errors.js';
import type { Dynamic } from './types.js';
import type { FieldNode, ObjectNode } from './build.js';
import { illegalArgument, mapperParsing } from './errors.js';
import { javaSplit } from './ip.js';

/** The object mapper the parser is inside: an existing one, or one created for this document. */
export interface ObjectScope {
  readonly path: string;
  readonly name: string;
  readonly nested: boolean;
  readonly enabled: boolean;
  /** The object's own `dynamic` (null checks use it, ES parseNullValue). */
  readonly dynamic?: Dynamic | undefined;
  readonly effDynamic: Dynamic;
  readonly includeInParent?: boolean | undefined;
  readonly includeInRoot?: boolean | undefined;
  readonly properties: ReadonlyMap<string, FieldNode | ObjectNode>;
  /** False for objects created dynamically by this document. */
  readonly existing: boolean;
}

export type Mapper = FieldNode | ObjectScope;

export const isField = (m: Mapper): m is FieldNode => (m as FieldNode).kind === 'field';

export function strict(parent: ObjectScope, name: string): EsError {
  return new EsError(
    'strict_dynamic_mapping_exception',
    `mapping set to strict, dynamic introduction of [${name}] within [${parent.path === '' ? parent.name : parent.path}] is not allowed`,
    400,
  );
}

const SINGLE: string[] = [''];

/** ES DocumentParser.splitAndValidatePath. */
export function splitAndValidatePath(key: string): string[] {
  if (key.indexOf('.') < 0) {
    if (key.length === 0) throw illegalArgument('field name cannot be an empty string');
    SINGLE[0] = key;
    return SINGLE;
  }
  const parts = javaSplit(key, '.');
  for (const part of parts) {
    if (part.trim().length === 0 || !/\S/.test(part)) {
      if (part.length > 0)
        throw illegalArgument(`object field cannot contain only whitespace: ['${key}']`);
      throw illegalArgument(
        `object field starting or ending with a [.] makes object resolution ambiguous: [${key}]`,
      );
    }
  }
  if (parts.length === 0) {
    throw new EsError(
      'array_index_out_of_bounds_exception',
      'Index -1 out of bounds for length 0',
      500,
    );
  }
  return parts;
}

/** ES DocumentParser.getMapper: a child by (possibly dotted) name. */
export function getMapper(parent: ObjectScope, key: string, paths: string[]): Mapper | undefined {
  if (paths.length === 1) {
    return parent.properties.get(paths[0]!);
  }
  let obj = parent;
  for (let i = 0; i < paths.length - 1; i++) {
    const m = obj.properties.get(paths[i]!);
    if (m === undefined || m.kind !== 'object') return undefined;
    obj = m;
    if (obj.nested) {
      throw mapperParsing(
        `Cannot add a value for field [${key}] since one of the intermediate objects is mapped as a nested object: [${obj.path}]`,
      );
    }
  }
  return obj.properties.get(paths[paths.length - 1]!);
}
