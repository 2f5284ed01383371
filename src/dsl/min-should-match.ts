/**
 * `minimum_should_match`: ES `Queries.calculateMinShouldMatch` (a Solr heritage syntax):
 * integers, negative integers, percentages (float math, truncated), negative percentages and
 * conditional specs `3<90%`, `2<-25% 9<-3`. Bad specs fail with Java's exceptions as ES reports.
 */
import { EsError } from '../common/errors.js';
import { javaParseInt, javaToInt, javaTrim } from '../common/java-parse-number.js';

/** Java `String.split(regex)` for a literal single-char separator (trailing empties dropped). */
function javaSplit(s: string, sep: string): string[] {
  const parts = s.split(sep);
  if (parts.length > 1) while (parts.length > 0 && parts[parts.length - 1] === '') parts.pop();
  return parts;
}

const HUNDREDTH = Math.fround(1 / 100);

/** How many optional clauses must match, given `optionalClauseCount` SHOULD clauses. */
export function minShouldMatch(spec: string | number, optionalClauseCount: number): number {
  let result = optionalClauseCount;
  let s = javaTrim(String(spec));

  if (s.includes('<')) {
    // conditional specs: "upperBound<spec" pairs separated by single spaces
    s = s.replace(/(\s+<\s*)|(\s*<\s+)/g, '<');
    for (const part of javaSplit(s, ' ')) {
      const pieces = javaSplit(part, '<');
      const upperBound = javaParseInt(pieces[0]!);
      if (optionalClauseCount <= upperBound) return result;
      const next = pieces[1];
      if (next === undefined) {
        throw new EsError(
          'array_index_out_of_bounds_exception',
          `Index 1 out of bounds for length ${pieces.length}`,
          500,
        );
      }
      result = minShouldMatch(next, optionalClauseCount);
    }
    return result;
  }

  if (s.includes('%')) {
    // assumes '%' is the last char; anything else fails in parseInt as in ES
    const percent = javaParseInt(s.slice(0, -1));
    // float calc = (result * percent) * (1 / 100f)  -- int product, float arithmetic
    const calc = Math.fround(Math.fround(Math.imul(result, percent)) * HUNDREDTH);
    result = calc < 0 ? result + javaToInt(calc) : javaToInt(calc);
  } else {
    const calc = javaParseInt(s);
    result = calc < 0 ? result + calc : calc;
  }
  return result < 0 ? 0 : result;
}
