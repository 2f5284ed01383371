/**
 * ES `Fuzziness`: parsing of `fuzziness` values (`0|1|2`, `"AUTO"`, `"AUTO:low,high"`, numeric
 * strings) with ES's errors, and `asDistance`, which turns it into an edit distance for a term
 * (AUTO counts code points: under `low` 0 edits, under `high` 1, else 2).
 */
import { EsError, illegalArgument, parseException } from '../../common/errors.js';
import { codePointCount } from './code-points.js';
import { javaParseFloat, javaParseInt, javaToInt } from '../../common/java-parse-number.js';

export type Fuzziness =
  | { readonly auto: true; readonly low: number; readonly high: number }
  | { readonly auto: false; readonly value: string };

export const AUTO: Fuzziness = { auto: true, low: 3, high: 6 };

/** ES `Fuzziness.AUTO` (`AUTO:low,high`) distance for `term`. */
export function autoFuzziness(term: string, low = 3, high = 6): number {
  const len = codePointCount(term);
  return len < low ? 0 : len < high ? 1 : 2;
}

/** ES `Fuzziness.parse` for a JSON string or number. */
export function parseFuzziness(value: string | number): Fuzziness {
  const text = String(value);
  const upper = text.toUpperCase();
  if (upper === 'AUTO') return AUTO;
  if (upper.startsWith('AUTO:')) return parseCustomAuto(text);
  // integers 0..2 and anything else become a Fuzziness holding the (upper-cased) text
  if (text.length === 0) throw illegalArgument("fuzziness can't be null!");
  return { auto: false, value: upper };
}

function parseCustomAuto(text: string): Fuzziness {
  const limits = text.slice('AUTO:'.length).split(',');
  while (limits.length > 1 && limits[limits.length - 1] === '') limits.pop();
  if (limits.length !== 2) throw parseException('failed to find low and high distance values');
  let low: number;
  let high: number;
  try {
    low = javaParseInt(limits[0]!);
    high = javaParseInt(limits[1]!);
  } catch (e) {
    if (e instanceof EsError) {
      throw new EsError('parse_exception', `failed to parse [${text}] as a "auto:int,int"`, 400, {
        causedBy: e,
      });
    }
    throw e;
  }
  if (low < 0 || high < 0 || low > high) {
    throw illegalArgument(
      'fuzziness wrongly configured, must be: lowDistance > 0, highDistance > 0 and lowDistance <= highDistance ',
    );
  }
  return { auto: true, low, high };
}

/**
 * ES `Fuzziness.asDistance(text)`: AUTO by code point length (5 when there is no text), else
 * `min(2, (int) value)`. May be negative or throw `number_format_exception` for bad values.
 */
export function asDistance(f: Fuzziness, text?: string | null): number {
  if (f.auto) {
    const len = text == null ? 5 : codePointCount(text);
    return len < f.low ? 0 : len < f.high ? 1 : 2;
  }
  return Math.min(2, javaToInt(javaParseFloat(f.value)));
}

/** `asDistance` checked as ES `Fuzziness.fromEdits` (query_string's fuzzy terms). */
export function editsFor(f: Fuzziness, text?: string | null): 0 | 1 | 2 {
  const d = asDistance(f, text);
  if (d !== 0 && d !== 1 && d !== 2) {
    throw illegalArgument(`Valid edit distances are [0, 1, 2] but was [${d}]`);
  }
  return d;
}
