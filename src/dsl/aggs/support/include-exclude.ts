/**
 * terms `include` / `exclude` (ES IncludeExclude): a regular expression matched against the whole
 * term, exact value sets (parsed with the field's format for numbers, dates and IPs), or hash
 * partitions `{partition, num_partitions}` (murmur3_x86_32 seed 31 of the UTF-8 term for strings,
 * floorMod(mix64(value)) for longs and sortable-long doubles).
 */
import { EsError, illegalArgument } from '../../../common/errors.js';
import { murmur3x86_32 } from '../../../common/murmur3.js';
import { isObj, tokenOf, toLong } from '../parse/object-parser.js';
import type { DocFormat } from './doc-format.js';
import { doubleToSortableLong, floorMod64, hexBytes, longBits, mix64, utf8 } from './hash64.js';

export interface IncludeExclude {
  includeRegex: string | null;
  excludeRegex: string | null;
  includeValues: string[] | null;
  excludeValues: string[] | null;
  partition: number | null;
  numPartitions: number | null;
}

const empty = (): IncludeExclude => ({
  includeRegex: null,
  excludeRegex: null,
  includeValues: null,
  excludeValues: null,
  partition: null,
  numPartitions: null,
});

export function parseInclude(json: unknown): IncludeExclude {
  const ie = empty();
  if (typeof json === 'string') ie.includeRegex = json;
  else if (Array.isArray(json)) ie.includeValues = parseArray(json);
  else if (isObj(json)) {
    for (const [k, v] of Object.entries(json)) {
      if (k === 'num_partitions') ie.numPartitions = toLong(v);
      else if (k === 'partition') ie.partition = toLong(v);
      else
        throw new EsError(
          'parse_exception',
          `Unknown parameter in Include/Exclude clause: ${k}`,
          400,
        );
    }
    if (ie.partition === null)
      throw illegalArgument('Missing [partition] parameter for partition-based include');
    if (ie.numPartitions === null)
      throw illegalArgument('Missing [num_partitions] parameter for partition-based include');
    if (ie.partition < 0 || ie.partition >= ie.numPartitions) {
      throw illegalArgument(
        `Partition must be >=0 and < numPartition which is ${ie.numPartitions}`,
      );
    }
  } else throw illegalArgument(`Unrecognized token for an include [${tokenOf(json)}]`);
  return ie;
}

export function parseExclude(json: unknown): IncludeExclude {
  const ie = empty();
  if (typeof json === 'string') ie.excludeRegex = json;
  else if (Array.isArray(json)) ie.excludeValues = parseArray(json);
  else throw illegalArgument(`Unrecognized token for an exclude [${tokenOf(json)}]`);
  return ie;
}

function parseArray(a: unknown[]): string[] {
  return [
    ...new Set(
      a.map((v) => {
        if (typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean') {
          throw new EsError(
            'parse_exception',
            'Array elements in include/exclude clauses should be string values',
            400,
          );
        }
        return String(v);
      }),
    ),
  ].sort();
}

const isPartition = (ie: IncludeExclude) => ie.partition !== null;
const isRegex = (ie: IncludeExclude) => ie.includeRegex !== null || ie.excludeRegex !== null;

/** IncludeExclude.merge. */
export function mergeIncludeExclude(
  inc: IncludeExclude | null,
  exc: IncludeExclude | null,
): IncludeExclude | null {
  if (!inc) return exc;
  if (!exc) return inc;
  if (isPartition(inc))
    throw illegalArgument('Cannot specify any excludes when using a partition-based include');
  const im = isRegex(inc) ? 'regex' : 'set';
  const em = isRegex(exc) ? 'regex' : 'set';
  if (im !== em)
    throw illegalArgument(`Cannot mix a ${im}-based include with a ${em}-based method`);
  return { ...inc, excludeRegex: exc.excludeRegex, excludeValues: exc.excludeValues };
}

export function isRegexBased(ie: IncludeExclude): boolean {
  return isRegex(ie);
}

/** Lucene RegExp (whole-term match); the common syntax is shared with JS. */
function toRegExp(re: string): RegExp {
  try {
    return new RegExp(`^(?:${re})$`, 'u');
  } catch {
    throw illegalArgument(`invalid regular expression [${re}]`);
  }
}

/** Filter on terms (strings). */
export function stringFilter(ie: IncludeExclude, format: DocFormat): (term: string) => boolean {
  if (ie.partition !== null) {
    const n = ie.numPartitions!;
    const p = ie.partition;
    return (t) => {
      const b = format.kind === 'ip' ? hexBytes(t) : utf8(t);
      const h = murmur3x86_32(b, 0, b.length, 31);
      return ((h % n) + n) % n === p;
    };
  }
  if (isRegex(ie)) {
    const inc = ie.includeRegex !== null ? toRegExp(ie.includeRegex) : null;
    const exc = ie.excludeRegex !== null ? toRegExp(ie.excludeRegex) : null;
    return (t) => (!inc || inc.test(t)) && (!exc || !exc.test(t));
  }
  const inc = ie.includeValues ? new Set(ie.includeValues.map((v) => format.parseTerm(v))) : null;
  const exc = ie.excludeValues ? new Set(ie.excludeValues.map((v) => format.parseTerm(v))) : null;
  return (t) => (!inc || inc.has(t)) && (!exc || !exc.has(t));
}

/** Filter on numeric values (LongFilter / double filter). */
export function numericFilter(
  ie: IncludeExclude,
  format: DocFormat,
  floating: boolean,
  aggName: string,
  now: () => number,
): (v: number) => boolean {
  if (isRegex(ie)) {
    throw new EsError(
      'aggregation_execution_exception',
      `Aggregation [${aggName}] cannot support regular expression style include/exclude settings as they can only be applied to string fields. Use an array of numeric values for include/exclude clauses used to filter numeric fields`,
      500,
    );
  }
  if (ie.partition !== null) {
    const n = ie.numPartitions!;
    const p = ie.partition;
    return (v) => floorMod64(mix64(floating ? doubleToSortableLong(v) : longBits(v)), n) === p;
  }
  const parse = (s: string) => {
    if (floating) {
      const d = Number(s);
      if (Number.isNaN(d))
        throw new EsError('number_format_exception', `For input string: "${s}"`, 400);
      return d;
    }
    // DocValueFormat.parseLong: dates and booleans through the format, numbers floored
    const d = format.parseDouble(s, false, now);
    return Math.floor(d);
  };
  const inc = ie.includeValues ? new Set(ie.includeValues.map(parse)) : null;
  const exc = ie.excludeValues ? new Set(ie.excludeValues.map(parse)) : null;
  return (v) => (!inc || inc.has(v)) && (!exc || !exc.has(v));
}
