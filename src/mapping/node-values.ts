/**
 * Reading mapping parameter values the way Elasticsearch's XContentMapValues / TypeParsers do:
 * strict booleans ("true"/"false" only), Java int/float/double parsing, Java toString of values.
 */
import { EsError } from '../common/errors.js';
import { illegalArgument, numberFormat } from './errors.js';
import { javaToString, parseJavaDouble } from './java-numbers.js';

/** ES Booleans.parseBoolean: only "true"/"false". */
export function parseStrictBoolean(value: string): boolean {
  if (value === 'false') return false;
  if (value === 'true') return true;
  throw illegalArgument(`Failed to parse value [${value}] as only [true] or [false] are allowed.`);
}

/** ES XContentMapValues.nodeBooleanValue(node, name). */
export function nodeBooleanValue(node: unknown, name: string): boolean {
  try {
    return parseStrictBoolean(javaToString(node));
  } catch (e) {
    throw illegalArgument(`Could not convert [${name}] to boolean`, e as EsError);
  }
}

/** ES TypeParsers.nodeBooleanValue(fieldName, propertyName, node) for 6.x indices. */
export const fieldBooleanValue = (fieldName: string, prop: string, node: unknown): boolean =>
  nodeBooleanValue(node, `${fieldName}.${prop}`);

/** ES XContentMapValues.nodeIntegerValue: Numbers.toIntExact or Integer.parseInt. */
export function nodeIntegerValue(node: unknown): number {
  if (typeof node === 'number') {
    if (!Number.isInteger(node)) return Math.trunc(node); // Number#intValue of a Double
    if (node < -2147483648 || node > 2147483647) throw arithmetic('integer overflow');
    return node;
  }
  const s = javaToString(node);
  if (!/^[+-]?\d+$/.test(s)) throw numberFormat(`For input string: "${s}"`);
  const v = Number(s);
  if (v < -2147483648 || v > 2147483647) throw numberFormat(`For input string: "${s}"`);
  return v;
}

/** ES XContentMapValues.nodeFloatValue (Float.parseFloat for strings). */
export function nodeFloatValue(node: unknown): number {
  if (typeof node === 'number') return Math.fround(node);
  return Math.fround(parseJavaDouble(javaToString(node)));
}

/** ES XContentMapValues.nodeDoubleValue. */
export function nodeDoubleValue(node: unknown): number {
  if (typeof node === 'number') return node;
  return parseJavaDouble(javaToString(node));
}

const arithmetic = (msg: string) => new EsError('arithmetic_exception', msg, 400);
