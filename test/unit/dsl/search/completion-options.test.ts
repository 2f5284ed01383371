/**
 * Completion suggester options as ES 6.8 parses them: the top-level `regex`, `completion.regex`
 * (RegexOptions) and `completion.fuzzy` (FuzzyOptions: true or an object), with ES's errors.
 */
import { describe, expect, it } from 'vitest';
import { EsError } from '../../../../src/common/errors.js';
import { parseSuggest } from '../../../../src/dsl/search/suggest.js';
import { DEFAULT_FUZZY } from '../../../../src/dsl/search/suggest-parse.js';

const err = (f: () => unknown): [string, string | null] => {
  try {
    f();
  } catch (e) {
    if (e instanceof EsError) return [e.type, e.reason];
    throw e;
  }
  throw new Error('expected an error');
};

const completion = (s: Record<string, unknown>) => {
  const n = parseSuggest({ s })[0]!;
  if (n.type !== 'completion') throw new Error('completion expected');
  return n;
};

describe('completion regex', () => {
  it('is its own field, not a prefix, and keeps the global text away', () => {
    const n = parseSuggest({ text: 'g', s: { regex: 'l[a-z]zy', completion: { field: 't' } } })[0]!;
    expect([n.regex, n.prefix, n.text]).toEqual(['l[a-z]zy', null, null]);
  });

  it('reads flags by name or value and the state budget', () => {
    const n = completion({
      regex: 'x',
      completion: {
        field: 't',
        regex: { flags: 'INTERSECTION|COMPLEMENT', max_determinized_states: 50 },
      },
    });
    expect(n.regexOptions).toEqual({ flags: 3, maxDeterminizedStates: 50 });
    expect(
      completion({ regex: 'x', completion: { field: 't', regex: { flags_value: 4 } } })
        .regexOptions,
    ).toEqual({ flags: 4, maxDeterminizedStates: 10_000 });
  });

  it('rejects bad options', () => {
    expect(
      err(() => completion({ regex: 'x', completion: { field: 't', regex: { flags: 'NOPE' } } })),
    ).toEqual(['illegal_argument_exception', 'Unknown regexp flag [NOPE]']);
    expect(
      err(() => completion({ regex: 'x', completion: { field: 't', regex: { flags: true } } })),
    ).toEqual(['parse_exception', 'regex flags supports string or number']);
    expect(
      err(() =>
        completion({
          regex: 'x',
          completion: { field: 't', regex: { max_determinized_states: -1 } },
        }),
      ),
    ).toEqual(['illegal_argument_exception', 'maxDeterminizedStates must not be negative']);
    expect(err(() => completion({ regex: 'x', completion: { field: 't', regex: 'ALL' } }))).toEqual(
      [
        'x_content_parse_exception',
        "[completion] regex doesn't support values of type: VALUE_STRING",
      ],
    );
    expect(
      err(() => completion({ regex: 'x', completion: { field: 't', regex: { what: 1 } } })),
    ).toEqual(['x_content_parse_exception', '[regex] unknown field [what], parser not found']);
  });
});

describe('completion fuzzy', () => {
  it('takes true for the defaults and false for none', () => {
    expect(completion({ prefix: 'x', completion: { field: 't', fuzzy: true } }).fuzzy).toEqual({
      editDistance: 1,
      transpositions: true,
      minLength: 3,
      prefixLength: 1,
      unicodeAware: false,
      maxDeterminizedStates: 10_000,
    });
    expect(completion({ prefix: 'x', completion: { field: 't', fuzzy: false } }).fuzzy).toBeNull();
  });

  it('reads every option; AUTO without text is one edit', () => {
    const n = completion({
      prefix: 'x',
      completion: {
        field: 't',
        fuzzy: {
          fuzziness: 2,
          transpositions: false,
          min_length: 4,
          prefix_length: 0,
          unicode_aware: true,
          max_determinized_states: 9,
        },
      },
    });
    expect(n.fuzzy).toEqual({
      editDistance: 2,
      transpositions: false,
      minLength: 4,
      prefixLength: 0,
      unicodeAware: true,
      maxDeterminizedStates: 9,
    });
    const auto = completion({
      prefix: 'x',
      completion: { field: 't', fuzzy: { fuzziness: 'AUTO' } },
    });
    expect(auto.fuzzy).toEqual({ ...DEFAULT_FUZZY, editDistance: 1 });
  });

  it('rejects bad options', () => {
    const bad = (fuzzy: unknown) =>
      err(() => completion({ prefix: 'x', completion: { field: 't', fuzzy } }));
    expect(bad({ fuzziness: -1 })).toEqual([
      'illegal_argument_exception',
      'fuzziness must be between 0 and 2',
    ]);
    expect(bad({ min_length: -1 })).toEqual([
      'illegal_argument_exception',
      'fuzzyMinLength must not be negative',
    ]);
    expect(bad({ prefix_length: -2 })).toEqual([
      'illegal_argument_exception',
      'fuzzyPrefixLength must not be negative',
    ]);
    expect(bad({ nope: 1 })).toEqual([
      'x_content_parse_exception',
      '[fuzzy] unknown field [nope], parser not found',
    ]);
    expect(bad('yes')).toEqual([
      'x_content_parse_exception',
      "[completion] fuzzy doesn't support values of type: VALUE_STRING",
    ]);
  });
});
