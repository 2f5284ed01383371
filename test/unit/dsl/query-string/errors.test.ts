import { describe, expect, it } from 'vitest';
import { parseQueryString } from '../../../../src/dsl/query-string/parse.js';
import { errorOf } from './helpers.js';

// Messages follow JavaCC's ParseException/TokenMgrError rendering over Lucene FastCharStream
// (0-based columns). The first line is what ES users see; the "Was expecting" lists are pinned
// from JavaCC's choice-point bookkeeping for Lucene 7.7 QueryParser.jj.
const parse = (q: string) => () =>
  parseQueryString(q, { defaultOperator: 'OR', index: { name: 'test', uuid: 'u1' } });

/** The innermost cause: JavaCC's exception as ES renders it. */
function inner(q: string): { type: string; reason: string } {
  const e = errorOf(parse(q));
  const c = e.caused_by as { caused_by: { type: string; reason: string } };
  return c.caused_by;
}

const list = (...items: string[]) => items.map((i) => `    ${i}\n`).join('') + '    ';
const CLAUSE = [
  '<BAREOPER> ...',
  '"(" ...',
  '"*" ...',
  '<QUOTED> ...',
  '<TERM> ...',
  '<PREFIXTERM> ...',
  '<WILDTERM> ...',
  '<REGEXPTERM> ...',
  '"[" ...',
  '"{" ...',
  '<NUMBER> ...',
];
const START = ['<NOT> ...', '"+" ...', '"-" ...', ...CLAUSE];
const LOOP = ['<AND> ...', '<OR> ...', ...START];
/** After a clause: EOF or `)`, the query loop, and the optional suffixes still open. */
function afterClause(closer: 'EOF' | ')', suffix: { carat?: boolean; fuzzy?: boolean }): string {
  const items = [
    ...(closer === 'EOF' ? ['<EOF> '] : []),
    ...LOOP.slice(0, 6),
    '"(" ...',
    ...(closer === ')' ? ['")" ...'] : []),
    '"*" ...',
    ...(suffix.carat ? ['"^" ...'] : []),
    '<QUOTED> ...',
    '<TERM> ...',
    ...(suffix.fuzzy ? ['<FUZZY_SLOP> ...'] : []),
    '<PREFIXTERM> ...',
    '<WILDTERM> ...',
    '<REGEXPTERM> ...',
    '"[" ...',
    '"{" ...',
    '<NUMBER> ...',
  ];
  return `Was expecting one of:\n${list(...items)}`;
}

describe('query_string parse errors: ES wrapping', () => {
  it('query_shard_exception > parse_exception "Cannot parse" > JavaCC parse_exception', () => {
    const reason =
      'Encountered "<EOF>" at line 1, column 4.\nWas expecting one of:\n' + list(...CLAUSE);
    expect(errorOf(parse('foo:'))).toEqual({
      root_cause: [
        {
          type: 'query_shard_exception',
          reason: 'Failed to parse query [foo:]',
          index_uuid: 'u1',
          index: 'test',
        },
      ],
      type: 'query_shard_exception',
      reason: 'Failed to parse query [foo:]',
      index_uuid: 'u1',
      index: 'test',
      caused_by: {
        type: 'parse_exception',
        reason: `Cannot parse 'foo:': ${reason}`,
        caused_by: { type: 'parse_exception', reason },
      },
    });
  });

  it('lexical errors are token_mgr_error', () => {
    const e = errorOf(parse('"some phrase'));
    expect(e.caused_by).toEqual({
      type: 'parse_exception',
      reason:
        'Cannot parse \'"some phrase\': Lexical error at line 1, column 13.  Encountered: <EOF> after : "\\"some phrase"',
      caused_by: {
        type: 'token_mgr_error',
        reason: 'Lexical error at line 1, column 13.  Encountered: <EOF> after : "\\"some phrase"',
      },
    });
  });

  it('escape: true reports the escaped text in "Cannot parse" and the original in "Failed"', () => {
    // nothing in an escaped string can fail, except a lone trailing backslash pair
    const e = errorOf(() => parseQueryString('a\\u00', { defaultOperator: 'OR', escape: false }));
    expect(e.reason).toBe('Failed to parse query [a\\u00]');
    expect((e.caused_by as { reason: string }).reason).toBe(
      "Cannot parse 'a\\u00': Truncated unicode escape sequence.",
    );
  });
});

describe('query_string parse errors: syntax (JavaCC ParseException)', () => {
  const cases: Array<[string, string]> = [
    ['foo:', 'Encountered "<EOF>" at line 1, column 4.\nWas expecting one of:\n' + list(...CLAUSE)],
    [
      'a:)',
      'Encountered " ")" ") "" at line 1, column 2.\nWas expecting one of:\n' + list(...CLAUSE),
    ],
    [
      '+)',
      'Encountered " ")" ") "" at line 1, column 1.\nWas expecting one of:\n' + list(...CLAUSE),
    ],
    [
      'AND a',
      'Encountered " <AND> "AND "" at line 1, column 0.\nWas expecting one of:\n' + list(...START),
    ],
    [
      '()',
      'Encountered " ")" ") "" at line 1, column 1.\nWas expecting one of:\n' + list(...START),
    ],
    [
      'a AND )',
      'Encountered " ")" ") "" at line 1, column 6.\nWas expecting one of:\n' + list(...START),
    ],
    ['a^', 'Encountered "<EOF>" at line 1, column 2.\nWas expecting:\n' + list('<NUMBER> ...')],
    [
      '[a b]',
      'Encountered " <RANGE_GOOP> "b "" at line 1, column 3.\nWas expecting:\n' + list('"TO" ...'),
    ],
    [
      '[a TO',
      'Encountered "<EOF>" at line 1, column 5.\nWas expecting one of:\n' +
        list('"TO" ...', '<RANGE_QUOTED> ...', '<RANGE_GOOP> ...'),
    ],
    [
      '[a TO b',
      'Encountered "<EOF>" at line 1, column 7.\nWas expecting one of:\n' +
        list('"]" ...', '"}" ...'),
    ],
    [
      'a)',
      'Encountered " ")" ") "" at line 1, column 1.\n' +
        afterClause('EOF', { carat: true, fuzzy: true }),
    ],
    [
      'field:term:with:colon some more terms',
      'Encountered " ":" ": "" at line 1, column 10.\n' +
        afterClause('EOF', { carat: true, fuzzy: true }),
    ],
    [
      'city.*:foo',
      'Encountered " ":" ": "" at line 1, column 6.\n' +
        afterClause('EOF', { carat: true, fuzzy: true }),
    ],
    [
      '(sub query)^5.0^2.0 plus more',
      'Encountered " "^" "^ "" at line 1, column 15.\n' + afterClause('EOF', {}),
    ],
    [
      'secret AND illegal) AND access:confidential',
      'Encountered " ")" ") "" at line 1, column 18.\n' +
        afterClause('EOF', { carat: true, fuzzy: true }),
    ],
    [
      'a^2)',
      'Encountered " ")" ") "" at line 1, column 3.\n' + afterClause('EOF', { fuzzy: true }),
    ],
    [
      'a~1)',
      'Encountered " ")" ") "" at line 1, column 3.\n' + afterClause('EOF', { carat: true }),
    ],
    ['a~1^2)', 'Encountered " ")" ") "" at line 1, column 5.\n' + afterClause('EOF', {})],
    ['a^2~1)', 'Encountered " ")" ") "" at line 1, column 5.\n' + afterClause('EOF', {})],
    [
      '[a TO b])',
      'Encountered " ")" ") "" at line 1, column 8.\n' + afterClause('EOF', { carat: true }),
    ],
    [
      '(a))',
      'Encountered " ")" ") "" at line 1, column 3.\n' + afterClause('EOF', { carat: true }),
    ],
    ['(foo bar', 'Encountered "<EOF>" at line 1, column 8.\n' + afterClause(')', {})],
    [
      '(foo',
      'Encountered "<EOF>" at line 1, column 4.\n' + afterClause(')', { carat: true, fuzzy: true }),
    ],
    ['foo bar))', 'Encountered " ")" ") "" at line 1, column 7.\n' + afterClause('EOF', {})],
    [
      '(item:\\\\ item:ABCD\\\\))',
      'Encountered " ")" ") "" at line 1, column 21.\n' + afterClause('EOF', { carat: true }),
    ],
  ];
  for (const [q, reason] of cases) {
    it(q, () => expect(inner(q)).toEqual({ type: 'parse_exception', reason }));
  }
});

describe('query_string parse errors: lexical (JavaCC TokenMgrError)', () => {
  const cases: Array<[string, string]> = [
    ['"foo', 'Lexical error at line 1, column 5.  Encountered: <EOF> after : "\\"foo"'],
    ['a AND "foo', 'Lexical error at line 1, column 11.  Encountered: <EOF> after : "\\"foo"'],
    ['/abc', 'Lexical error at line 1, column 5.  Encountered: <EOF> after : "/abc"'],
    ['XY\\', 'Lexical error at line 1, column 4.  Encountered: <EOF> after : ""'],
    ['\\', 'Lexical error at line 1, column 2.  Encountered: <EOF> after : ""'],
    ['foo]', 'Lexical error at line 1, column 5.  Encountered: <EOF> after : ""'],
    ['foo] bar', 'Lexical error at line 1, column 4.  Encountered: "]" (93), after : ""'],
    ['a}b', 'Lexical error at line 1, column 2.  Encountered: "}" (125), after : ""'],
    ['a^x', 'Lexical error at line 1, column 4.  Encountered: <EOF> after : ""'],
    ['a^x y', 'Lexical error at line 1, column 3.  Encountered: "x" (120), after : ""'],
    ['a^ 2', 'Lexical error at line 1, column 3.  Encountered: " " (32), after : ""'],
    ['a^\n2', 'Lexical error at line 1, column 3.  Encountered: "\\n" (10), after : ""'],
    ['a]\n', 'Lexical error at line 1, column 2.  Encountered: "]" (93), after : ""'],
    ['a "b\n', 'Lexical error at line 2, column 0.  Encountered: <EOF> after : "\\"b\\n"'],
    ['é]', 'Lexical error at line 1, column 3.  Encountered: <EOF> after : ""'],
    ['"é', 'Lexical error at line 1, column 3.  Encountered: <EOF> after : "\\"\\u00e9"'],
    // JavaCC lexes lazily: the parse error comes first when the parser never needs the token
    // beyond it; a lookahead that reaches it (here the multi-term check) raises it instead
    ['a b "foo', 'Lexical error at line 1, column 9.  Encountered: <EOF> after : "\\"foo"'],
    ['\\u00 "foo', 'Lexical error at line 1, column 10.  Encountered: <EOF> after : "\\"foo"'],
  ];
  for (const [q, reason] of cases) {
    it(JSON.stringify(q), () => expect(inner(q)).toEqual({ type: 'token_mgr_error', reason }));
  }

  it('a syntax error before the unlexable text wins', () => {
    expect(inner('a) "foo').type).toBe('parse_exception');
    expect(inner('a) "foo').reason).toMatch(/^Encountered " "\)" "\) "" at line 1, column 1\./);
  });
});

describe('query_string parse errors: actions (QueryParserBase ParseException)', () => {
  const cases: Array<[string, string]> = [
    ['XY\\u005G', 'Non-hex character in Unicode escape sequence: G'],
    ['XY\\u005', 'Truncated unicode escape sequence.'],
    ['[a\\ TO b]', 'Term can not end with escape character.'],
    ['["a\\" TO b]', 'Term can not end with escape character.'],
    ['/a\\u00/', 'Non-hex character in Unicode escape sequence: /'],
    ['fie\\u00ld:x', 'Non-hex character in Unicode escape sequence: l'],
    // actions run as soon as their construct is complete, before later syntax errors
    ['XY\\u005G)', 'Non-hex character in Unicode escape sequence: G'],
    ['\\u00 foo)', 'Non-hex character in Unicode escape sequence:  '],
  ];
  for (const [q, reason] of cases) {
    it(q, () => expect(inner(q)).toEqual({ type: 'parse_exception', reason }));
  }

  it('an incomplete construct fails on syntax before its action runs', () => {
    expect(inner('XY\\u005G^').reason).toMatch(/^Encountered "<EOF>" at line 1, column 9\./);
  });
});
