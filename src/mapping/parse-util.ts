/**
 * Small helpers shared by the mapping parsers: the "unsupported parameters" check of ES
 * DocumentMapperParser.checkNoRemainingFields and Java class names used in some messages.
 */
import { mapperParsing } from './errors.js';
import { javaToString } from './java-numbers.js';

/** ES DocumentMapperParser.checkNoRemainingFields(fieldName, map). */
export function checkNoRemaining(fieldName: string, node: ReadonlyMap<string, unknown>): void {
  checkNoRemainingWith(`Mapping definition for [${fieldName}] has unsupported parameters: `, node);
}

export function checkNoRemainingWith(message: string, node: ReadonlyMap<string, unknown>): void {
  if (node.size === 0) return;
  let rest = '';
  for (const [k, v] of node) rest += ` [${k} : ${javaToString(v)}]`;
  throw mapperParsing(message + rest);
}

/** `getClass()` as Java prints it for a value parsed from JSON. */
export function javaClassName(v: unknown): string {
  if (typeof v === 'string') return 'class java.lang.String';
  if (typeof v === 'boolean') return 'class java.lang.Boolean';
  if (typeof v === 'number') {
    if (!Number.isInteger(v)) return 'class java.lang.Double';
    return Math.abs(v) <= 2147483647 ? 'class java.lang.Integer' : 'class java.lang.Long';
  }
  if (Array.isArray(v)) return 'class java.util.ArrayList';
  return 'class java.util.LinkedHashMap';
}
