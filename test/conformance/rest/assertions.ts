/**
 * The assertion sections (ES: test/rest/yaml/section/*Assertion): `match` (deep equality, numbers
 * of different kinds compared as doubles, `/regex/` in COMMENTS mode), `length`, `is_true`,
 * `is_false` (Java `toString()` truthiness), `gt`/`gte`/`lt`/`lte` (natural ordering, same kind
 * only) and `contains`. Each returns null when it holds, or a failure message.
 */
import { javaToString } from './java-format.js';
import { NumberLiteral, toPlain } from './json-value.js';
import { asRegexLiteral, compileJavaRegex } from './java-regex.js';
import { javaClass } from './object-path.js';

export interface AssertionFailure {
  message: string;
  expected?: unknown;
  actual?: unknown;
}

/** IsTrueAssertion / IsFalseAssertion: false for null, "", "0" and "false" (any case). */
export function isTruthy(v: unknown): boolean {
  if (v === null || v === undefined) return false;
  const s = javaToString(v);
  return !(s === '' || s === '0' || s.toLowerCase() === 'false');
}

export function assertMatch(
  field: string,
  actual: unknown,
  expected: unknown,
): AssertionFailure | null {
  const regex = asRegexLiteral(expected);
  if (regex !== null) {
    if (typeof actual !== 'string') {
      return {
        message: `field [${field}] was expected to be of type String but is an instanceof [${javaClass(actual)}]`,
        expected,
        actual,
      };
    }
    let re: RegExp;
    try {
      re = compileJavaRegex(regex, { comments: true });
    } catch (e) {
      return { message: `invalid regex [${regex}]: ${(e as Error).message}`, expected };
    }
    return re.test(actual)
      ? null
      : {
          message: `field [${field}] was expected to match the provided regex but didn't`,
          expected,
          actual,
        };
  }
  if (expected === null || expected === undefined) {
    return actual === null || actual === undefined
      ? null
      : {
          message: `field [${field}] should be null but was [${javaToString(actual)}]`,
          expected: null,
          actual,
        };
  }
  if (actual === null || actual === undefined) {
    return { message: `field [${field}] is null`, expected, actual: null };
  }
  const diff = firstDifference(actual, expected, field);
  return diff === null
    ? null
    : { message: `${field} didn't match expected value: ${diff}`, expected, actual };
}

/** Deep equality; numbers compare as doubles. Returns a description of the first mismatch. */
export function firstDifference(actual: unknown, expected: unknown, at: string): string | null {
  const a = actual instanceof NumberLiteral ? actual.valueOf() : actual;
  const e = expected instanceof NumberLiteral ? expected.valueOf() : expected;
  if (typeof a === 'number' && typeof e === 'number') {
    return a === e || (Number.isNaN(a) && Number.isNaN(e))
      ? null
      : `[${at}] expected [${e}] but was [${a}]`;
  }
  if (Array.isArray(e)) {
    if (!Array.isArray(a)) return `[${at}] expected a list but was [${javaToString(a)}]`;
    if (a.length !== e.length) return `[${at}] expected a list of ${e.length} but was ${a.length}`;
    for (let i = 0; i < e.length; i++) {
      const d = firstDifference(a[i], e[i], `${at}.${i}`);
      if (d) return d;
    }
    return null;
  }
  if (e !== null && typeof e === 'object') {
    if (a === null || typeof a !== 'object' || Array.isArray(a)) {
      return `[${at}] expected a map but was [${javaToString(a)}]`;
    }
    const am = a as Record<string, unknown>;
    const em = e as Record<string, unknown>;
    for (const k of Object.keys(em)) {
      if (!Object.hasOwn(am, k))
        return `[${at}.${k}] expected [${javaToString(em[k])}] but was missing`;
      const d = firstDifference(am[k], em[k], `${at}.${k}`);
      if (d) return d;
    }
    for (const k of Object.keys(am)) {
      if (!Object.hasOwn(em, k))
        return `[${at}.${k}] was not expected but was [${javaToString(am[k])}]`;
    }
    return null;
  }
  if (a === e) return null;
  return `[${at}] expected [${javaToString(e)}] (${javaClass(e)}) but was [${javaToString(a)}] (${javaClass(a)})`;
}

export function assertLength(
  field: string,
  actual: unknown,
  expected: unknown,
): AssertionFailure | null {
  const want =
    typeof expected === 'number' ? Math.trunc(expected) : Number.parseInt(String(expected), 10);
  if (!Number.isFinite(want)) return { message: `length is not a valid number`, expected };
  let got: number;
  if (typeof actual === 'string') got = actual.length;
  else if (Array.isArray(actual)) got = actual.length;
  else if (actual !== null && typeof actual === 'object') got = Object.keys(actual).length;
  else
    return {
      message: `value is of unsupported type [${javaClass(actual)}]`,
      expected: want,
      actual,
    };
  return got === want
    ? null
    : { message: `field [${field}] doesn't have length [${want}]`, expected: want, actual: got };
}

export type CompareOp = 'gt' | 'gte' | 'lt' | 'lte';

const OP_TEXT: Record<CompareOp, string> = {
  gt: 'greater than',
  gte: 'greater than or equal to',
  lt: 'less than',
  lte: 'less than or equal to',
};

/** Comparable#compareTo: both numbers or both strings; anything else is a cast error. */
export function assertCompare(
  op: CompareOp,
  field: string,
  actual: unknown,
  expected: unknown,
): AssertionFailure | null {
  const a = toPlain(actual);
  const e = toPlain(expected);
  const fail = {
    message: `field [${field}] is not ${OP_TEXT[op]} [${javaToString(e)}]`,
    expected: e,
    actual: a,
  };
  if (a === null || a === undefined || typeof a === 'object' || typeof a === 'boolean') {
    if (typeof a === 'boolean' && typeof e === 'boolean')
      return compareWith(op, Number(a) - Number(e)) ? null : fail;
    return {
      message: `value of [${field}] is not comparable (got [${javaClass(a)}])`,
      expected: e,
      actual: a,
    };
  }
  if (typeof a !== typeof e) {
    return {
      message: `cast error while checking (field [${field}] is not ${OP_TEXT[op]} [${javaToString(e)}]): ${javaClass(a)} vs ${javaClass(e)}`,
      expected: e,
      actual: a,
    };
  }
  const cmp =
    typeof a === 'number' ? a - (e as number) : a < (e as string) ? -1 : a > (e as string) ? 1 : 0;
  return compareWith(op, cmp) ? null : fail;
}

function compareWith(op: CompareOp, cmp: number): boolean {
  switch (op) {
    case 'gt':
      return cmp > 0;
    case 'gte':
      return cmp >= 0;
    case 'lt':
      return cmp < 0;
    case 'lte':
      return cmp <= 0;
  }
}

/** ContainsAssertion: some object in the actual list has all the expected entries. */
export function assertContains(
  field: string,
  actual: unknown,
  expected: unknown,
): AssertionFailure | null {
  if (
    !(expected !== null && typeof expected === 'object' && !Array.isArray(expected)) ||
    !Array.isArray(actual)
  ) {
    return {
      message: `'contains' only supports checking an object against a list of objects`,
      expected,
      actual,
    };
  }
  const want = expected as Record<string, unknown>;
  const keys = Object.keys(want);
  const candidates = actual.filter(
    (x): x is Record<string, unknown> =>
      x !== null &&
      typeof x === 'object' &&
      !Array.isArray(x) &&
      keys.every((k) => Object.hasOwn(x, k)),
  );
  if (candidates.length === 0) {
    return {
      message: `${field} expected to be a list with at least one object that has keys: [${keys.join(', ')}] but it was ${javaToString(actual)}`,
      expected,
      actual,
    };
  }
  const ok = candidates.some((c) => keys.every((k) => firstDifference(c[k], want[k], k) === null));
  return ok
    ? null
    : {
        message: `${field} expected to be a list with at least on object that matches ${javaToString(want)} but was ${javaToString(candidates)}`,
        expected,
        actual,
      };
}
