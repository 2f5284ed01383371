/**
 * The semantic actions of the classic query parser: Lucene 7.7 `QueryParserBase` (addClause,
 * handleBareTokenQuery, handleQuotedTerm, handleBoost, getBooleanQuery) as overridden by ES 6.8
 * `QueryStringQueryParser` (`_exists_`, `field:>=x` ranges, `*` handling, fuzziness, negative
 * boolean fix-up), producing `QsNode`s instead of Lucene queries.
 */
import type { IToken } from 'chevrotain';
import { EsError, illegalArgument } from '../../common/errors.js';
import { Kind, kindOf } from '../../../grammar/query-string/tokens.js';
import type { Conj, Mods, QsActions } from '../../../grammar/query-string/parser.js';
import type { Occur, QsAnalyzedLeaf, QsClause, QsNode } from './ast.js';
import { withBoost } from './ast.js';
import { discardEscapeChar } from './escape.js';
import { LuceneParseError } from './errors.js';
import { javaParseFloat, javaToInt } from '../../common/java-parse-number.js';

export interface BuildOptions {
  readonly defaultOperator: 'OR' | 'AND';
  readonly allowLeadingWildcard: boolean;
  readonly lenient: boolean;
  /** ES parser's `field`: the single default field (`*` for all), or null when `fields` is used. */
  readonly defaultField: string | null;
  readonly maxRegexLength: number | undefined;
  readonly maxClauseCount: number;
  readonly isEmpty: ((leaf: QsAnalyzedLeaf) => boolean) | undefined;
}

interface MutableClause {
  occur: Occur;
  node: QsNode;
  splice?: true;
}

export type ClauseList = MutableClause[];

const EXISTS_FIELD = '_exists_';

/** Code point count, as Java `String.codePointCount`. */
function codePointCount(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}

export function createActions(o: BuildOptions): QsActions<QsNode, ClauseList> {
  const vanished = (leaf: QsAnalyzedLeaf): QsNode | null =>
    o.isEmpty && o.isEmpty(leaf) ? null : leaf;

  /** ES QueryStringQueryParser.getFieldQuery(field, text, quoted=false). */
  const fieldQuery = (field: string | null, text: string): QsNode | null => {
    const actual = field ?? o.defaultField;
    if (actual === EXISTS_FIELD) return { kind: 'Exists', field: text };
    // ES: `age:>=10` style one-sided ranges, only when a field applies
    if (actual !== null && text.length > 1) {
      if (text[0] === '>') {
        if (text.length > 2 && text[1] === '=')
          return range(field, text.slice(2), null, true, true);
        return range(field, text.slice(1), null, false, true);
      }
      if (text[0] === '<') {
        if (text.length > 2 && text[1] === '=')
          return range(field, null, text.slice(2), true, true);
        return range(field, null, text.slice(1), true, false);
      }
    }
    return vanished({ kind: 'Term', field, text });
  };

  /** ES getRangeQuery: `*` is open-ended even when it was quoted. */
  const range = (
    field: string | null,
    lower: string | null,
    upper: string | null,
    includeLower: boolean,
    includeUpper: boolean,
  ): QsNode => ({
    kind: 'Range',
    field,
    lower: lower === '*' ? null : lower,
    upper: upper === '*' ? null : upper,
    includeLower,
    includeUpper,
  });

  /** ES getWildcardQuery + Lucene's leading-wildcard check. */
  const wildcard = (field: string | null, termStr: string): QsNode => {
    const actual = field ?? o.defaultField;
    if (termStr === '*' && actual !== null) {
      if (actual === '*' || actual === '_all') return { kind: 'MatchAll' };
      return { kind: 'Exists', field: actual };
    }
    if (!o.allowLeadingWildcard && (termStr.startsWith('*') || termStr.startsWith('?'))) {
      throw new LuceneParseError("'*' or '?' not allowed as first character in WildcardQuery");
    }
    return { kind: 'Wildcard', field, text: termStr };
  };

  const prefix = (field: string | null, termStr: string): QsNode | null => {
    if (!o.allowLeadingWildcard && termStr.startsWith('*')) {
      throw new LuceneParseError("'*' not allowed as first character in PrefixQuery");
    }
    return vanished({ kind: 'Prefix', field, text: termStr });
  };

  const regexp = (field: string | null, termStr: string): QsNode => {
    if (o.maxRegexLength !== undefined && termStr.length > o.maxRegexLength) {
      throw illegalArgument(
        `The length of regex [${termStr.length}] used in the [query_string] has exceeded the allowed maximum of [${o.maxRegexLength}]. This maximum can be set by changing the [index.max_regex_length] index level setting.`,
      );
    }
    return { kind: 'Regexp', field, text: termStr };
  };

  /** ES handleBareFuzzy: `~` uses the request fuzziness, `~x` is `Fuzziness.build(x)`. */
  const fuzzy = (field: string | null, slop: IToken, termImage: string): QsNode => {
    if (slop.image.length === 1) {
      return { kind: 'Term', field, text: termImage, fuzzy: { edits: 'AUTO' } };
    }
    const spec = slop.image.slice(1);
    let edits: number;
    if (spec.toUpperCase() === 'AUTO') {
      // Fuzziness.AUTO.asDistance(termImage): AUTO:3,6 on the code point length
      const len = codePointCount(termImage);
      edits = len < 3 ? 0 : len < 6 ? 1 : 2;
    } else {
      // new Fuzziness(spec) keeps it upper-cased; asDistance = min(2, (int) parseFloat)
      edits = Math.min(2, javaToInt(javaParseFloat(spec.toUpperCase())));
    }
    if (edits < 0) {
      // Fuzziness.fromEdits in getFuzzyQuerySingle, which `lenient` turns into no match
      if (o.lenient) return { kind: 'MatchNone' };
      throw illegalArgument(`Valid edit distances are [0, 1, 2] but was [${edits}]`);
    }
    return { kind: 'Term', field, text: termImage, fuzzy: { edits } };
  };

  const required = (conj: Conj, mods: Mods): Occur | null => {
    const prohibited = mods === '-';
    let req: boolean;
    if (o.defaultOperator === 'OR') req = mods === '+' || (conj === 'AND' && !prohibited);
    else req = !prohibited && conj !== 'OR';
    if (req && !prohibited) return 'must';
    if (!req && !prohibited) return 'should';
    if (!req && prohibited) return 'must_not';
    return null;
  };

  return {
    field: (t) => discardEscapeChar(t.image),

    bareTerm(field, t, fuzzySlop) {
      const kind = kindOf(t.tokenType);
      // BAREOPER ("+ ") stands for its operator character
      const image = kind === Kind.BAREOPER ? t.image.slice(0, 1) : t.image;
      const termImage = discardEscapeChar(image);
      switch (kind) {
        case Kind.STAR:
        case Kind.WILDTERM:
          return wildcard(field, image);
        case Kind.PREFIXTERM:
          return prefix(field, discardEscapeChar(image.slice(0, -1)));
        case Kind.REGEXPTERM:
          return regexp(field, image.slice(1, -1));
        default:
          return fuzzySlop ? fuzzy(field, fuzzySlop, termImage) : fieldQuery(field, termImage);
      }
    },

    quotedTerm(field, t, fuzzySlop) {
      let slop: number | undefined;
      if (fuzzySlop) {
        try {
          slop = javaToInt(javaParseFloat(fuzzySlop.image.slice(1)));
        } catch (e) {
          if (!(e instanceof EsError)) throw e; // Lucene ignores an unparsable slop
        }
      }
      const text = discardEscapeChar(t.image.slice(1, -1));
      const actual = field ?? o.defaultField;
      if (actual === EXISTS_FIELD) return { kind: 'Exists', field: text };
      return vanished(
        slop === undefined
          ? { kind: 'Phrase', field, text }
          : { kind: 'Phrase', field, text, slop },
      );
    },

    range(field, goop1, goop2, startInclusive, endInclusive) {
      const part = (g: IToken): string | null => {
        if (kindOf(g.tokenType) === Kind.RANGE_QUOTED) return g.image.slice(1, -1);
        return g.image === '*' ? null : g.image;
      };
      const p1 = part(goop1);
      const p2 = part(goop2);
      const lower = p1 === null ? null : discardEscapeChar(p1);
      const upper = p2 === null ? null : discardEscapeChar(p2);
      return range(field, lower, upper, startInclusive, endInclusive);
    },

    multiTerm: (field, terms) =>
      fieldQuery(field, discardEscapeChar(terms.map((t) => t.image).join(' '))),

    boost(q, boost) {
      if (!boost || q === null) return q;
      return withBoost(q, javaParseFloat(boost.image));
    },

    newClauses: () => [],

    addClause(clauses, conj, mods, q) {
      const last = clauses[clauses.length - 1];
      // a conjunction re-qualifies the previous clause, even if this one vanished
      if (last && conj === 'AND' && last.occur !== 'must_not') last.occur = 'must';
      if (last && o.defaultOperator === 'AND' && conj === 'OR' && last.occur !== 'must_not') {
        last.occur = 'should';
      }
      if (q === null) return;
      const occur = required(conj, mods);
      if (occur === null) throw new Error('Clause cannot be both required and prohibited');
      clauses.push({ occur, node: q });
    },

    addMultiTermClauses(clauses, q) {
      if (q === null) return;
      const occur: Occur = o.defaultOperator === 'OR' ? 'should' : 'must';
      clauses.push(q.kind === 'Term' ? { occur, node: q, splice: true } : { occur, node: q });
    },

    finishQuery(clauses, first) {
      if (clauses.length === 1 && first !== null) return first;
      if (clauses.length === 0) return null;
      const out: QsClause[] = clauses.map((c) => ({ ...c }));
      // ES QueryStringQueryParser.getBooleanQuery -> Queries.fixNegativeQueryIfNeeded
      if (out.every((c) => c.occur === 'must_not')) {
        out.push({ occur: 'must', node: { kind: 'MatchAll' } });
      }
      if (out.length > o.maxClauseCount) {
        throw new LuceneParseError(
          'too many boolean clauses',
          'too_many_clauses',
          `maxClauseCount is set to ${o.maxClauseCount}`,
        );
      }
      return { kind: 'Bool', clauses: out };
    },
  };
}
