/** String processors: lowercase, uppercase, trim, urldecode, bytes, gsub. */
import { EsError, illegalArgument } from '../../common/errors.js';
import { configErrorFor, readBoolean, readString } from '../config.js';
import { setField } from '../document.js';
import { castString, fieldValue, leaf, stringProcessor, type ProcessorFactory } from './common.js';

/** Java String.trim: strips code points <= U+0020 at both ends. */
export const javaTrim = (s: string) => s.replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, '');

/** URLDecoder.decode(s, UTF-8): `+` is a space. */
export function urlDecode(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    throw illegalArgument(`URLDecoder: Illegal hex characters in escape (%) pattern`);
  }
}

const BYTE_UNITS: Array<[string, number]> = [
  ['pb', 1024 ** 5],
  ['tb', 1024 ** 4],
  ['gb', 1024 ** 3],
  ['mb', 1024 ** 2],
  ['kb', 1024],
  ['p', 1024 ** 5],
  ['t', 1024 ** 4],
  ['g', 1024 ** 3],
  ['m', 1024 ** 2],
  ['k', 1024],
  ['b', 1],
];

/** ByteSizeValue.parseBytesSizeValue(value, field).getBytes(). */
export function parseBytes(value: string, setting: string): number {
  const s = value.trim().toLowerCase();
  for (const [unit, mult] of BYTE_UNITS) {
    if (!s.endsWith(unit)) continue;
    const num = s.slice(0, -unit.length).trim();
    if (/^-?\d+$/.test(num)) return Number(num) * mult;
    if (/^-?\d*\.\d+$|^-?\d+\.\d*$/.test(num)) {
      const bytes = Number(num) * mult;
      return Math.trunc(bytes);
    }
    throw new EsError('parse_exception', `failed to parse [${value}]`, 400, {
      causedBy: new EsError('number_format_exception', `For input string: "${num}"`, 400),
    });
  }
  if (s === '0' || s === '-1') return Number(s);
  throw new EsError(
    'parse_exception',
    `failed to parse setting [${setting}] with value [${value}] as a size in bytes: unit is missing or unrecognized`,
    400,
  );
}

const gsub: ProcessorFactory = (c) => {
  const field = readString(c, 'field');
  const pattern = readString(c, 'pattern');
  const replacement = readString(c, 'replacement');
  const ignoreMissing = readBoolean(c, 'ignore_missing', false);
  const target = readString(c, 'target_field', field);
  let re: RegExp;
  try {
    re = new RegExp(pattern, 'gu');
  } catch (e) {
    throw configErrorFor(c, 'pattern', `Invalid regex pattern. ${(e as Error).message}`);
  }
  // Java's replacement syntax: $1 groups and backslash escapes
  const repl = replacement.replace(
    /\\(.)|\$(\d+)|\$\{(\w+)\}|\$/g,
    (m, esc, num, name) =>
    esc !== undefined ? (esc === '$' ? '$$' : esc) : num !== undefined ? `$${num}` : name !== undefined ? `$<${name}>` : '$$', // prettier-ignore
  );
  return leaf(c, (doc) => {
    const v = fieldValue(doc, field, ignoreMissing);
    if ((v === undefined || v === null) && ignoreMissing) return;
    if (v === null || v === undefined)
      throw illegalArgument(`field [${field}] is null, cannot match pattern.`);
    setField(doc, target, castString(v, field).replace(re, repl));
  });
};

export const STRING_PROCESSORS: Record<string, ProcessorFactory> = {
  lowercase: stringProcessor((s) => s.toLowerCase()),
  uppercase: stringProcessor((s) => s.toUpperCase()),
  trim: stringProcessor(javaTrim),
  urldecode: stringProcessor(urlDecode),
  bytes: (c, r) => {
    const field = c.config.field;
    return stringProcessor((s) => parseBytes(s, String(field)))(c, r);
  },
  gsub,
};
