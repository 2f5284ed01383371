import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isEsError } from '../../../../src/common/errors.js';
import {
  parseQueryString,
  type QueryStringOptions,
} from '../../../../src/dsl/query-string/parse.js';
import type { QsNode } from '../../../../src/dsl/query-string/ast.js';
import { ALL, B, F, FIX, NONE, P, PFX, R, RE, T, W, mn, mu, sh, spl } from './helpers.js';

const p = (q: string, o: Partial<QueryStringOptions> = {}): QsNode =>
  parseQueryString(q, { defaultOperator: 'OR', ...o });
const and = (q: string, o: Partial<QueryStringOptions> = {}): QsNode =>
  parseQueryString(q, { defaultOperator: 'AND', ...o });

// Expected trees follow Lucene's QueryParserTestBase / TestQueryParser assertions (facts only),
// before analysis: Lucene's "a b" strings become our Term/Bool nodes.
describe('parseQueryString: Lucene boolean operators (QueryParserTestBase.testSimple)', () => {
  const cases: Array<[string, QsNode]> = [
    ['a AND b', B(mu(T('a')), mu(T('b')))],
    ['(a AND b)', B(mu(T('a')), mu(T('b')))],
    ['c OR (a AND b)', B(sh(T('c')), sh(B(mu(T('a')), mu(T('b')))))],
    ['a AND NOT b', B(mu(T('a')), mn(T('b')))],
    ['a AND -b', B(mu(T('a')), mn(T('b')))],
    ['a AND !b', B(mu(T('a')), mn(T('b')))],
    ['a && b', B(mu(T('a')), mu(T('b')))],
    ['a OR b', B(sh(T('a')), sh(T('b')))],
    ['a || b', B(sh(T('a')), sh(T('b')))],
    ['a OR !b', B(sh(T('a')), mn(T('b')))],
    ['a OR -b', B(sh(T('a')), mn(T('b')))],
    ['+term -term term', B(mu(T('term')), mn(T('term')), sh(T('term')))],
    ['foo:term AND field:anotherTerm', B(mu(T('term', 'foo')), mu(T('anotherTerm', 'field')))],
    ['term AND "phrase phrase"', B(mu(T('term')), mu(P('phrase phrase')))],
    ['"hello there"', P('hello there')],
    ['hello', T('hello')],
    [
      '(foo OR bar) AND (baz OR boo)',
      B(mu(B(sh(T('foo')), sh(T('bar')))), mu(B(sh(T('baz')), sh(T('boo'))))),
    ],
    ['((a OR b) AND NOT c) OR d', B(sh(B(mu(B(sh(T('a')), sh(T('b')))), mn(T('c')))), sh(T('d')))],
    [
      '+(apple "steve jobs") -(foo bar baz)',
      B(mu(B(sh(T('apple')), sh(P('steve jobs')))), mn(T('foo bar baz'))),
    ],
    [
      '+title:(dog OR cat) -author:"bob dole"',
      B(mu(B(sh(T('dog', 'title')), sh(T('cat', 'title')))), mn(P('bob dole', 'author'))),
    ],
    // QueryParserBase.addClause: a conjunction re-qualifies the previous clause
    ['a AND b OR c', B(mu(T('a')), mu(T('b')), sh(T('c')))],
    ['a OR b AND c', B(sh(T('a')), mu(T('b')), mu(T('c')))],
    ['A AND B OR C AND D', B(mu(T('A')), mu(T('B')), mu(T('C')), mu(T('D')))],
    ['a AND -b AND c', B(mu(T('a')), mn(T('b')), mu(T('c')))],
    ['-a AND b', B(mn(T('a')), mu(T('b')))],
    ['a || b && !c', B(sh(T('a')), mu(T('b')), mn(T('c')))],
    ['a OR NOT b', B(sh(T('a')), mn(T('b')))],
  ];
  for (const [q, ast] of cases) it(q, () => expect(p(q)).toEqual(ast));

  it('"+A +B +C +D" equals "A AND B OR C AND D" (testPrecedence)', () => {
    expect(p('A AND B OR C AND D')).toEqual(p('+A +B +C +D'));
  });
});

describe('parseQueryString: default operator AND (testSimpleDAO, testTabNewlineCarriageReturn)', () => {
  it('a run of plain terms is one multi-word clause', () => {
    expect(and('term term term')).toEqual(T('term term term'));
  });
  it('operators split runs', () => {
    expect(and('term +term term')).toEqual(B(mu(T('term')), mu(T('term')), mu(T('term'))));
    expect(and('term term +term')).toEqual(B(spl('must', T('term term')), mu(T('term'))));
    expect(and('term +term +term')).toEqual(B(mu(T('term')), mu(T('term')), mu(T('term'))));
    expect(and('-term term term')).toEqual(B(mn(T('term')), spl('must', T('term term'))));
  });
  for (const q of [
    '+weltbank +worlbank',
    '+weltbank\n+worlbank',
    'weltbank \n+worlbank',
    'weltbank \n +worlbank',
    '+weltbank\r+worlbank',
    'weltbank \r+worlbank',
    'weltbank \r +worlbank',
    '+weltbank\r\n+worlbank',
    'weltbank \r\n+worlbank',
    'weltbank \r \n +worlbank',
    '+weltbank\t+worlbank',
    'weltbank \t +worlbank',
  ]) {
    it(JSON.stringify(q), () => expect(and(q)).toEqual(B(mu(T('weltbank')), mu(T('worlbank')))));
  }
  it('OR makes the previous clause optional, AND required', () => {
    expect(and('a OR b')).toEqual(B(sh(T('a')), sh(T('b'))));
    expect(and('A AND B OR C AND D')).toEqual(B(mu(T('A')), sh(T('B')), mu(T('C')), mu(T('D'))));
    expect(and('-a OR b')).toEqual(B(mn(T('a')), sh(T('b'))));
    expect(and('+a OR b')).toEqual(B(sh(T('a')), sh(T('b'))));
  });
});

describe('parseQueryString: multi-word runs (splitOnWhitespace=false)', () => {
  it('joins TERMs, keeps field and escapes', () => {
    expect(p('term term term')).toEqual(T('term term term'));
    expect(p('term\u3000term\u3000term')).toEqual(T('term term term'));
    expect(p('title:(quick brown)')).toEqual(T('quick brown', 'title'));
    expect(p('book.\\*:(quick brown)')).toEqual(T('quick brown', 'book.*'));
    expect(p('a \\"b c\\" d')).toEqual(T('a "b c" d'));
    expect(p('foo \\&\\& bar')).toEqual(T('foo && bar'));
    expect(p('foo \\|| bar')).toEqual(T('foo || bar'));
    expect(p('foo \\AND bar')).toEqual(T('foo AND bar'));
  });
  it('stops before a term followed by : * ~ ^ AND OR', () => {
    expect(p('a b c:d')).toEqual(B(spl('should', T('a b')), sh(T('d', 'c'))));
    expect(p('germ term^2.0')).toEqual(B(sh(T('germ')), sh(T('term', null, { boost: 2 }))));
    expect(p('a b AND c')).toEqual(B(sh(T('a')), mu(T('b')), mu(T('c'))));
    expect(p('a b c~2')).toEqual(B(spl('should', T('a b')), sh(F('c', 2))));
    expect(p('a b*')).toEqual(B(sh(T('a')), sh(PFX('b'))));
    expect(p('quick brown +fox -news')).toEqual(
      B(spl('should', T('quick brown')), mu(T('fox')), mn(T('news'))),
    );
  });
  it('groups and boosts', () => {
    expect(p('(germ term)^2.0')).toEqual(T('germ term', null, { boost: 2 }));
    expect(p('"john smith"^2 (foo bar)^4')).toEqual(
      B(sh(P('john smith', null, { boost: 2 })), sh(T('foo bar', null, { boost: 4 }))),
    );
    expect(p('term 1.0 1 2')).toEqual(T('term 1.0 1 2'));
  });
  it('bare operators followed by whitespace are terms (LUCENE-2566)', () => {
    expect(p('a - b')).toEqual(B(sh(T('a')), sh(T('-')), sh(T('b'))));
    expect(p('a + b')).toEqual(B(sh(T('a')), sh(T('+')), sh(T('b'))));
    expect(p('a ! b')).toEqual(B(sh(T('a')), sh(T('!')), sh(T('b'))));
  });
  it('punctuation inside terms (testPunct)', () => {
    expect(p('a&b')).toEqual(T('a&b'));
    expect(p('a&&b')).toEqual(T('a&&b'));
    expect(p('.NET')).toEqual(T('.NET'));
    expect(p('foo-bar+baz')).toEqual(T('foo-bar+baz'));
  });
});

describe('parseQueryString: boosts, slop, fuzziness', () => {
  it('boosts (float, nested boosts multiply)', () => {
    expect(p('term^2')).toEqual(T('term', null, { boost: 2 }));
    expect(p('(term)^2.0')).toEqual(T('term', null, { boost: 2 }));
    expect(p('"germ term"^2.0')).toEqual(P('germ term', null, { boost: 2 }));
    expect(p('/[A-Z][123]/^0.5')).toEqual(RE('[A-Z][123]', null, { boost: 0.5 }));
    expect(p('((a)^2)^3')).toEqual(T('a', null, { boost: 6 }));
    expect(p('a^1.1')).toEqual(T('a', null, { boost: Math.fround(1.1) }));
    expect(p('(a b c)^3')).toEqual(T('a b c', null, { boost: 3 }));
    expect(p('(a -b)^3')).toEqual({ ...B(sh(T('a')), mn(T('b'))), boost: 3 });
  });
  it('phrase slop (testSlop)', () => {
    expect(p('"term germ"~2')).toEqual(P('term germ', null, { slop: 2 }));
    expect(p('"term germ"~2 flork')).toEqual(
      B(sh(P('term germ', null, { slop: 2 })), sh(T('flork'))),
    );
    expect(p('"term"~2')).toEqual(P('term', null, { slop: 2 }));
    expect(p('"term germ"~2^2')).toEqual(P('term germ', null, { slop: 2, boost: 2 }));
    expect(p('"term germ"^2~2')).toEqual(P('term germ', null, { slop: 2, boost: 2 }));
    expect(p('"a b"~2.7')).toEqual(P('a b', null, { slop: 2 }));
    // Lucene ignores a slop it cannot read: the request's phrase_slop applies
    expect(p('"a b"~')).toEqual(P('a b'));
    expect(p('"a b"~x')).toEqual(P('a b'));
  });
  it('fuzzy terms (testWildcard, ES handleBareFuzzy)', () => {
    expect(p('term~')).toEqual(F('term', 'AUTO'));
    expect(p('term~1')).toEqual(F('term', 1));
    expect(p('term~^3')).toEqual({ ...F('term', 'AUTO'), boost: 3 });
    expect(p('term^3~')).toEqual({ ...F('term', 'AUTO'), boost: 3 });
    expect(p('term~2^3')).toEqual({ ...F('term', 2), boost: 3 });
    // ES Fuzziness.build(x).asDistance: min(2, (int) x), AUTO by code point length
    expect(p('term~0.7')).toEqual(F('term', 0));
    expect(p('term~1.1')).toEqual(F('term', 1));
    expect(p('term~5')).toEqual(F('term', 2));
    expect(p('ab~AUTO')).toEqual(F('ab', 0));
    expect(p('abc~auto')).toEqual(F('abc', 1));
    expect(p('abcdef~AUTO')).toEqual(F('abcdef', 2));
    expect(p('a:b\\-c~')).toEqual(F('b-c', 'AUTO', 'a'));
    expect(p('quikc~ brwn~ foks~')).toEqual(
      B(sh(F('quikc', 'AUTO')), sh(F('brwn', 'AUTO')), sh(F('foks', 'AUTO'))),
    );
  });
  it('fuzziness errors are ES runtime errors, not parse errors', () => {
    expect(() => p('foo~abc')).toThrowError(/For input string: "ABC"/);
    let err: unknown;
    try {
      p('foo~abc');
    } catch (e) {
      err = e;
    }
    expect((err as { type: string }).type).toBe('number_format_exception');
    expect(() => p('foo~-1')).toThrowError('Valid edit distances are [0, 1, 2] but was [-1]');
    expect(p('foo~-1', { lenient: true })).toEqual(NONE);
  });
});

describe('parseQueryString: prefix, wildcard, regexp, star (testWildcard, testStarParsing, testRegexps)', () => {
  it('prefix and wildcard terms', () => {
    expect(p('term*')).toEqual(PFX('term'));
    expect(p('term*^2')).toEqual(PFX('term', null, { boost: 2 }));
    expect(p('term*germ')).toEqual(W('term*germ'));
    expect(p('term*germ^3')).toEqual(W('term*germ', null, { boost: 3 }));
    expect(p('qu?ck bro*')).toEqual(B(sh(W('qu?ck')), sh(PFX('bro'))));
    expect(p('t*erm*')).toEqual(W('t*erm*'));
    expect(p('*term*')).toEqual(W('*term*'));
    expect(p('foo:zoo*')).toEqual(PFX('zoo', 'foo'));
    expect(p('foo:zoo*^2')).toEqual(PFX('zoo', 'foo', { boost: 2 }));
  });
  it('wildcards keep their escapes, prefixes do not', () => {
    expect(p('foo\\?ba?r')).toEqual(W('foo\\?ba?r'));
    expect(p('a:b\\-?c')).toEqual(W('b\\-?c', 'a'));
    expect(p('a:b\\\\?c')).toEqual(W('b\\\\?c', 'a'));
    expect(p('a:b\\-c*')).toEqual(PFX('b-c', 'a'));
    expect(p('a:b\\\\c*')).toEqual(PFX('b\\c', 'a'));
    expect(p('fo\\*o*')).toEqual(PFX('fo*o'));
  });
  it('star forms (ES getWildcardQuery)', () => {
    expect(p('*:*')).toEqual(ALL);
    expect(p('(*:*)')).toEqual(ALL);
    expect(p('*:foo')).toEqual(T('foo', '*'));
    expect(p('foo:*')).toEqual({ kind: 'Exists', field: 'foo' });
    expect(p('foo:*^2')).toEqual({ kind: 'Exists', field: 'foo', boost: 2 });
    expect(p('city.\\*:*')).toEqual({ kind: 'Exists', field: 'city.*' });
    expect(p('_all:*')).toEqual(ALL);
    expect(p('*', { defaultField: '*' })).toEqual(ALL);
    expect(p('*', { defaultField: '_all' })).toEqual(ALL);
    expect(p('*', { defaultField: 'title' })).toEqual({ kind: 'Exists', field: 'title' });
    expect(p('*')).toEqual(W('*'));
    expect(p('**')).toEqual(W('**'));
  });
  it('leading wildcards are allowed unless disabled', () => {
    expect(p('*foo')).toEqual(W('*foo'));
    expect(p('?foo')).toEqual(W('?foo'));
    const off = { allowLeadingWildcard: false };
    expect(cause(() => p('*foo', off))).toEqual({
      type: 'parse_exception',
      reason: "Cannot parse '*foo': '*' or '?' not allowed as first character in WildcardQuery",
      caused_by: {
        type: 'parse_exception',
        reason: "'*' or '?' not allowed as first character in WildcardQuery",
      },
    });
    expect(cause(() => p('?foo', off)).reason).toMatch(/'\*' or '\?' not allowed/);
    expect(cause(() => p('\\*foo*', off)).reason).toBe(
      "Cannot parse '\\*foo*': '*' not allowed as first character in PrefixQuery",
    );
    expect(p('foo:*', off)).toEqual({ kind: 'Exists', field: 'foo' });
  });
  it('regexps keep their source, escapes included', () => {
    expect(p('/[a-z][123]/')).toEqual(RE('[a-z][123]'));
    expect(p('/[a-z]\\/[123]/')).toEqual(RE('[a-z]\\/[123]'));
    expect(p('/[a-z]\\*[123]/')).toEqual(RE('[a-z]\\*[123]'));
    expect(p('field:/http.*/')).toEqual(RE('http.*', 'field'));
    expect(p('/http~0.5/')).toEqual(RE('http~0.5'));
    expect(p('name:/joh?n(ath[oa]n)/')).toEqual(RE('joh?n(ath[oa]n)', 'name'));
    expect(p('"/boo/"')).toEqual(P('/boo/'));
    expect(p('\\/boo\\/')).toEqual(T('/boo/'));
    expect(p('field:/foo/ field:/bar/')).toEqual(B(sh(RE('foo', 'field')), sh(RE('bar', 'field'))));
    expect(p('/foo/ /bar/')).toEqual(B(sh(RE('foo')), sh(RE('bar'))));
    expect(p('/a\\/b')).toEqual(B(sh(RE('a\\')), sh(T('b'))));
    expect(p('/[a-z]\\/[123]/ AND path:"/etc/init.d/" OR "/etc\\/init\\[.\\]d/lucene/" ')).toEqual(
      B(mu(RE('[a-z]\\/[123]')), mu(P('/etc/init.d/', 'path')), sh(P('/etc/init[.]d/lucene/'))),
    );
  });
  it('regex length limit (index.max_regex_length)', () => {
    expect(() => p('/abcdef/', { maxRegexLength: 5 })).toThrowError(
      'The length of regex [6] used in the [query_string] has exceeded the allowed maximum of [5]. This maximum can be set by changing the [index.max_regex_length] index level setting.',
    );
    expect(p('/abcde/', { maxRegexLength: 5 })).toEqual(RE('abcde'));
  });
});

describe('parseQueryString: ranges (testRange, ES one-sided ranges)', () => {
  const cases: Array<[string, QsNode]> = [
    ['[ a TO z]', R(null, 'a', 'z')],
    ['[ a TO z}', R(null, 'a', 'z', true, false)],
    ['{ a TO z]', R(null, 'a', 'z', false, true)],
    ['{ a TO z }', R(null, 'a', 'z', false, false)],
    ['[ a TO * ]', R(null, 'a', null)],
    ['[ * TO z ]', R(null, null, 'z')],
    ['[ * TO * ]', R(null, null, null)],
    ['{ a TO * ]', R(null, 'a', null, false, true)],
    ['{ a TO z }^2.0', R(null, 'a', 'z', false, false, { boost: 2 })],
    ['[ a TO z] OR bar', B(sh(R(null, 'a', 'z')), sh(T('bar')))],
    ['[ a TO z] AND bar', B(mu(R(null, 'a', 'z')), mu(T('bar')))],
    [
      '( bar blar { a TO z}) ',
      B(spl('should', T('bar blar')), sh(R(null, 'a', 'z', false, false))),
    ],
    [
      'gack ( bar blar { a TO z}) ',
      B(sh(T('gack')), sh(B(spl('should', T('bar blar')), sh(R(null, 'a', 'z', false, false))))),
    ],
    ['date:[2012-01-01 TO 2012-12-31]', R('date', '2012-01-01', '2012-12-31')],
    ['count:[10 TO *]', R('count', '10', null)],
    ['date:{* TO 2012-01-01}', R('date', null, '2012-01-01', false, false)],
    ['count:[1 TO 5}', R('count', '1', '5', true, false)],
    // ES getRangeQuery: a quoted or escaped "*" is open too (Lucene keeps it literal)
    ['[\\* TO "*"]', R(null, null, null)],
    ['[\\*a TO "*b"]', R(null, '*a', '*b')],
    ['["*" TO *]', R(null, null, null)],
    ['[TO TO TO]', R(null, 'TO', 'TO')],
    ['[TOM TO TOP]', R(null, 'TOM', 'TOP')],
    ['[ a\\- TO a\\+ ]', R(null, 'a-', 'a+')],
    ['[ a\\: TO a\\~ ]', R(null, 'a:', 'a~')],
    ['[ a\\\\ TO a\\* ]', R(null, 'a\\', 'a*')],
    [
      '["c\\:\\\\temp\\\\\\~foo0.txt" TO "c\\:\\\\temp\\\\\\~foo9.txt"]',
      R(null, 'c:\\temp\\~foo0.txt', 'c:\\temp\\~foo9.txt'),
    ],
    ['["a b" TO "c\\"d"]', R(null, 'a b', 'c"d')],
    ['[""x TO y]', R(null, '""x', 'y')],
    ['age:>10', R('age', '10', null, false, true)],
    ['age:>=10', R('age', '10', null, true, true)],
    ['age:<10', R('age', null, '10', true, false)],
    ['age:<=10', R('age', null, '10', true, true)],
    ['age:(>=10 AND <20)', B(mu(R('age', '10', null)), mu(R('age', null, '20', true, false)))],
    ['age:(+>=10 +<20)', B(mu(R('age', '10', null)), mu(R('age', null, '20', true, false)))],
    ['age:>=10^2', R('age', '10', null, true, true, { boost: 2 })],
    ['age:>', T('>', 'age')],
    ['age:>=', R('age', '=', null, false, true)],
  ];
  for (const [q, ast] of cases) it(q, () => expect(p(q)).toEqual(ast));

  it('unfielded one-sided ranges need a default field', () => {
    expect(p('>=10', { defaultField: '*' })).toEqual(R(null, '10', null));
    expect(p('>=10', { defaultField: 'age' })).toEqual(R(null, '10', null));
    expect(p('>=10')).toEqual(T('>=10'));
  });
});

describe('parseQueryString: fields and escapes (testEscaped)', () => {
  const cases: Array<[string, QsNode]> = [
    ['\\[brackets', T('[brackets')],
    ['\\\\', T('\\')],
    ['\\+blah', T('+blah')],
    ['\\(blah', T('(blah')],
    ['\\-blah', T('-blah')],
    ['\\!blah', T('!blah')],
    ['\\{blah', T('{blah')],
    ['\\}blah', T('}blah')],
    ['\\:blah', T(':blah')],
    ['\\^blah', T('^blah')],
    ['\\]blah', T(']blah')],
    ['\\"blah', T('"blah')],
    ['\\)blah', T(')blah')],
    ['\\~blah', T('~blah')],
    ['\\*blah', T('*blah')],
    ['\\?blah', T('?blah')],
    ['\\a', T('a')],
    ['\\*', T('*')],
    ['a\\-b:c', T('c', 'a-b')],
    ['a\\+b:c', T('c', 'a+b')],
    ['a\\:b:c', T('c', 'a:b')],
    ['a\\\\b:c', T('c', 'a\\b')],
    ['a:b\\-c', T('b-c', 'a')],
    ['a:b\\+c', T('b+c', 'a')],
    ['a:b\\:c', T('b:c', 'a')],
    ['a:b\\\\c', T('b\\c', 'a')],
    ['a\\\\\\+b', T('a\\+b')],
    ['"a \\"b c\\" d"', P('a "b c" d')],
    ['"a \\+b c d"', P('a +b c d')],
    ['c\\:\\\\temp\\\\\\~foo.txt', T('c:\\temp\\~foo.txt')],
    ['a\\u0062c', T('abc')],
    ['XY\\u005a', T('XYZ')],
    ['XY\\u005A', T('XYZ')],
    ['"a \\\\\\u0028\\u0062\\" c"', P('a \\(b" c')],
    ['(item:\\\\ item:ABCD\\\\)', B(sh(T('\\', 'item')), sh(T('ABCD\\', 'item')))],
    ['("a\\\\") or ("b")', B(sh(P('a\\')), sh(T('or')), sh(P('b')))],
    ['city.\\*:foo', T('foo', 'city.*')],
    ['a\\.b:foo', T('foo', 'a.b')],
    ['_exists_:title', { kind: 'Exists', field: 'title' }],
    ['_exists_:"foo bar"', { kind: 'Exists', field: 'foo bar' }],
    [
      '_exists_:(a OR b)',
      B(sh({ kind: 'Exists', field: 'a' }), sh({ kind: 'Exists', field: 'b' })),
    ],
    ['status:active', T('active', 'status')],
    ['title:(quick OR brown)', B(sh(T('quick', 'title')), sh(T('brown', 'title')))],
    ['author:"John Smith"', P('John Smith', 'author')],
  ];
  for (const [q, ast] of cases) it(q, () => expect(p(q)).toEqual(ast));

  it('_exists_ as the default field', () => {
    expect(p('foo', { defaultField: '_exists_' })).toEqual({ kind: 'Exists', field: 'foo' });
  });
});

describe('parseQueryString: negative queries, empty input, ES options', () => {
  it('purely negative Bools get a MatchAll must clause (ES fixNegativeQueryIfNeeded)', () => {
    expect(p('NOT a')).toEqual(B(mn(T('a')), FIX));
    expect(p('-a')).toEqual(B(mn(T('a')), FIX));
    expect(p('-a -b')).toEqual(B(mn(T('a')), mn(T('b')), FIX));
    expect(p('(-a) b')).toEqual(B(sh(B(mn(T('a')), FIX)), sh(T('b'))));
    expect(p('a -(b)')).toEqual(B(sh(T('a')), mn(T('b'))));
    expect(p('+a')).toEqual(B(mu(T('a'))));
    expect(and('NOT a')).toEqual(B(mn(T('a')), FIX));
  });
  it('blank input matches nothing', () => {
    expect(p('')).toEqual(NONE);
    expect(p('  \t ')).toEqual(NONE);
  });
  it('escape: true searches the string literally', () => {
    expect(p('a:b', { escape: true })).toEqual(T('a:b'));
    expect(p('a-b (c)', { escape: true })).toEqual(T('a-b (c)'));
    expect(p('title:(x', { escape: true })).toEqual(T('title:(x'));
  });
  it('too many boolean clauses', () => {
    const e = expectError(() => p('one -two three', { maxClauseCount: 2 }));
    expect(e.caused_by).toEqual({
      type: 'parse_exception',
      reason: "Cannot parse 'one -two three': too many boolean clauses",
      caused_by: { type: 'too_many_clauses', reason: 'maxClauseCount is set to 2' },
    });
    expect(p('one -two', { maxClauseCount: 2 })).toEqual(B(sh(T('one')), mn(T('two'))));
  });
});

describe('parseQueryString: leaves that analyze to nothing (testQPA, testStopwords)', () => {
  const stop = new Set(['stop', 'the', 'foo']);
  const isEmpty = (leaf: { text: string }): boolean => stop.has(leaf.text);
  const q = (s: string, o: Partial<QueryStringOptions> = {}) => p(s, { isEmpty, ...o });
  it('vanished clauses are skipped but their conjunctions still apply', () => {
    expect(q('term stop^3.0 term')).toEqual(B(sh(T('term')), sh(T('term'))));
    expect(q('term +stop term')).toEqual(B(sh(T('term')), sh(T('term'))));
    expect(q('term -stop term')).toEqual(B(sh(T('term')), sh(T('term'))));
    expect(q('drop AND (stop) AND roll')).toEqual(B(mu(T('drop')), mu(T('roll'))));
    expect(q('term +(stop) term')).toEqual(B(sh(T('term')), sh(T('term'))));
    expect(q('drop AND stop AND roll')).toEqual(B(mu(T('drop')), mu(T('roll'))));
    expect(q('term +stop')).toEqual(T('term'));
    expect(q('a stop AND b')).toEqual(B(mu(T('a')), mu(T('b'))));
    expect(q('stop -b')).toEqual(B(mn(T('b')), FIX));
  });
  it('a query that vanishes entirely matches nothing', () => {
    for (const s of ['stop^3', 'stop', '(stop)^3', '((stop))^3', '(stop^3)', '((stop)^3)']) {
      expect(q(s)).toEqual(NONE);
    }
    expect(q('field:the OR field:foo')).toEqual(NONE);
    expect(q('"the"')).toEqual(NONE);
  });
});

/** The `caused_by` of the query_shard_exception thrown by `f`. */
function cause(f: () => unknown): { type: string; reason: string } {
  return expectError(f).caused_by as { type: string; reason: string };
}

function expectError(f: () => unknown): Record<string, unknown> {
  try {
    f();
  } catch (e) {
    return (e as { toErrorObject(): Record<string, unknown> }).toErrorObject();
  }
  throw new Error('expected an error');
}

describe('parseQueryString on arbitrary input', () => {
  const allowed = [
    'query_shard_exception',
    'number_format_exception',
    'illegal_argument_exception',
  ];
  const wellFormed = (n: QsNode): boolean =>
    n.kind !== 'Bool' || (n.clauses.length > 0 && n.clauses.every((c) => wellFormed(c.node)));
  it('returns a well-formed tree or an ES error, never anything else', () => {
    const ch = fc.constantFrom(
      ...'ab AND OR NOT+-!():^[]"{}~*?\\/ TO 12.5&|_exists_:>=<'.split(''),
    );
    fc.assert(
      fc.property(fc.array(ch, { maxLength: 24 }), fc.boolean(), (cs, andOp) => {
        try {
          const node = parseQueryString(cs.join(''), {
            defaultOperator: andOp ? 'AND' : 'OR',
            defaultField: '*',
          });
          expect(wellFormed(node)).toBe(true);
        } catch (e) {
          expect(isEsError(e) && allowed.includes(e.type), String(e)).toBe(true);
        }
      }),
      { numRuns: 3000 },
    );
  });
});
