import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tokenize } from '../../../../grammar/query-string/lexer.js';
import { Kind, TOKEN_IMAGE, kindOf } from '../../../../grammar/query-string/tokens.js';

// A brute-force JavaCC token manager: every token of QueryParser.jj as a full-match regex,
// longest match first, ties to the earlier declaration, lexical states switched as in the .jj.
const TS = String.raw`(?:[^ \t\n\r\u3000+\-!():^\[\]"{}~*?\\/]|\\[\s\S])`;
const TC = `(?:${TS}|[-+])`;
const WS = String.raw`[ \t\n\r\u3000]`;
type Def = [number, RegExp];
const re = (src: string) => new RegExp(`^(?:${src})$`);
const DEFAULT: Def[] = [
  [-1, re(WS)],
  [Kind.AND, re('AND|&&')],
  [Kind.OR, re(String.raw`OR|\|\|`)],
  [Kind.NOT, re('NOT|!')],
  [Kind.PLUS, re(String.raw`\+`)],
  [Kind.MINUS, re('-')],
  [Kind.BAREOPER, re(String.raw`[+\-!]${WS}`)],
  [Kind.LPAREN, re(String.raw`\(`)],
  [Kind.RPAREN, re(String.raw`\)`)],
  [Kind.COLON, re(':')],
  [Kind.STAR, re(String.raw`\*`)],
  [Kind.CARAT, re(String.raw`\^`)],
  [Kind.QUOTED, re(String.raw`"(?:[^"\\]|\\[\s\S])*"`)],
  [Kind.TERM, re(`${TS}${TC}*`)],
  [Kind.FUZZY_SLOP, re(String.raw`~(?:[0-9]+(?:(?:\.[0-9]+)?${TC}*)|${TC}*)`)],
  [Kind.PREFIXTERM, re(String.raw`\*|${TS}${TC}*\*`)],
  [Kind.WILDTERM, re(String.raw`(?:${TS}|[*?])(?:${TC}|[*?])*`)],
  [Kind.REGEXPTERM, re(String.raw`/(?:[^/]|\\/)*/`)],
  [Kind.RANGEIN_START, re(String.raw`\[`)],
  [Kind.RANGEEX_START, re(String.raw`\{`)],
];
const BOOST: Def[] = [[Kind.NUMBER, re(String.raw`[0-9]+(?:\.[0-9]+)?`)]];
const RANGE: Def[] = [
  [-1, re(WS)],
  [Kind.RANGE_TO, re('TO')],
  [Kind.RANGEIN_END, re(String.raw`\]`)],
  [Kind.RANGEEX_END, re(String.raw`\}`)],
  [Kind.RANGE_QUOTED, re(String.raw`"(?:[^"]|\\")+"`)],
  [Kind.RANGE_GOOP, re(String.raw`[^ \]}]+`)],
];

function reference(text: string): { tokens: Array<[number, string, number]>; errorAt: number } {
  const out: Array<[number, string, number]> = [];
  let defs = DEFAULT;
  let s = 0;
  while (s < text.length) {
    let hit: [number, number] | null = null;
    for (let len = text.length - s; len > 0 && !hit; len--) {
      const piece = text.slice(s, s + len);
      const d = defs.find(([, r]) => r.test(piece));
      if (d) hit = [d[0], len];
    }
    if (!hit) return { tokens: out, errorAt: s };
    const [kind, len] = hit;
    if (kind >= 0) out.push([kind, text.slice(s, s + len), s]);
    if (kind === Kind.CARAT) defs = BOOST;
    else if (kind === Kind.NUMBER) defs = DEFAULT;
    else if (kind === Kind.RANGEIN_START || kind === Kind.RANGEEX_START) defs = RANGE;
    else if (kind === Kind.RANGEIN_END || kind === Kind.RANGEEX_END) defs = DEFAULT;
    s += len;
  }
  return { tokens: out, errorAt: -1 };
}

function actual(text: string): { tokens: Array<[number, string, number]>; errorAt: number } {
  const r = tokenize(text);
  const tokens = r.tokens
    .filter((t) => kindOf(t.tokenType) !== undefined)
    .map((t): [number, string, number] => [kindOf(t.tokenType)!, t.image, t.startOffset]);
  return { tokens, errorAt: r.error ? r.error.offset : -1 };
}

const named = (ts: Array<[number, string, number]>) =>
  ts.map(([k, img]) => `${TOKEN_IMAGE[k]}:${img}`);

describe('query_string lexer (JavaCC token manager emulation)', () => {
  it('longest match, earlier declaration on ties', () => {
    const cases: Array<[string, string[]]> = [
      ['AND ANDY', ['<AND>:AND', '<TERM>:ANDY']],
      [
        'foo* foo*bar * ** ?',
        ['<PREFIXTERM>:foo*', '<WILDTERM>:foo*bar', '"*":*', '<WILDTERM>:**', '<WILDTERM>:?'],
      ],
      ['a&&b && ||', ['<TERM>:a&&b', '<AND>:&&', '<OR>:||']],
      [
        '+a + -b - !c ! NOT',
        [
          '"+":+',
          '<TERM>:a',
          '<BAREOPER>:+ ',
          '"-":-',
          '<TERM>:b',
          '<BAREOPER>:- ',
          '<NOT>:!',
          '<TERM>:c',
          '<BAREOPER>:! ',
          '<NOT>:NOT',
        ],
      ],
      [
        'a~ b~2 c~0.5x d~AUTO',
        [
          '<TERM>:a',
          '<FUZZY_SLOP>:~',
          '<TERM>:b',
          '<FUZZY_SLOP>:~2',
          '<TERM>:c',
          '<FUZZY_SLOP>:~0.5x',
          '<TERM>:d',
          '<FUZZY_SLOP>:~AUTO',
        ],
      ],
      [
        'a^2.5 b^3.',
        ['<TERM>:a', '"^":^', '<NUMBER>:2.5', '<TERM>:b', '"^":^', '<NUMBER>:3', '<TERM>:.'],
      ],
      [
        '[TO TO TOM] {"a b" TO *}',
        [
          '"[":[',
          '"TO":TO',
          '"TO":TO',
          '<RANGE_GOOP>:TOM',
          '"]":]',
          '"{":{',
          '<RANGE_QUOTED>:"a b"',
          '"TO":TO',
          '<RANGE_GOOP>:*',
          '"}":}',
        ],
      ],
      ['/a\\/b/ /x\\/', ['<REGEXPTERM>:/a\\/b/', '<REGEXPTERM>:/x\\/']],
      ['"a\\"b" a\\ b', ['<QUOTED>:"a\\"b"', '<TERM>:a\\ b']],
      ['a\u3000b', ['<TERM>:a', '<TERM>:b']],
    ];
    for (const [q, want] of cases) expect(named(actual(q).tokens), q).toEqual(want);
  });

  it('stops at the first character no token can start', () => {
    expect(actual('foo]').errorAt).toBe(3);
    expect(actual('a "b').errorAt).toBe(2);
    expect(actual('a^ 2').errorAt).toBe(2);
    expect(actual('x\\').errorAt).toBe(1);
    expect(actual('[a}b').errorAt).toBe(-1);
  });

  it('agrees with a brute-force longest-match token manager on random text', () => {
    const ch = fc.constantFrom(...'aAbNOTRD01.+-!():^[]"{}~*?\\/ \t&|é\u3000');
    fc.assert(
      fc.property(fc.array(ch, { maxLength: 14 }), (cs) => {
        const text = cs.join('');
        expect(actual(text), JSON.stringify(text)).toEqual(reference(text));
      }),
      { numRuns: 4000 },
    );
  });
});
