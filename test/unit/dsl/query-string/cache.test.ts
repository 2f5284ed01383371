/**
 * The parsed query-string AST cache: repeated texts reuse one frozen tree, options the parse
 * reads and the mapping's emptiness answers keep entries apart, errors are never cached, the
 * bound holds, and searches give the same hits whether the tree came from the cache or not.
 */
import { describe, expect, it } from 'vitest';
import { EsError } from '../../../../src/common/errors.js';
import type { QsNode } from '../../../../src/dsl/query-string/ast.js';
import {
  newParseCache,
  parseCacheSize,
  parseQueryStringCached,
  parseSimpleQueryStringCached,
} from '../../../../src/dsl/query-string/cache.js';
import { parseQueryString } from '../../../../src/dsl/query-string/parse.js';
import { Bench } from '../query/harness.js';

const OR = { defaultOperator: 'OR' } as const;

/** The parts of an error that make up ES's error body, down the cause chain. */
function body(e: EsError | undefined): unknown {
  if (!e) return null;
  return {
    type: e.type,
    reason: e.reason,
    status: e.status,
    meta: e.meta,
    cause: body(e.causedBy),
  };
}

function errorOf(f: () => unknown): EsError {
  try {
    f();
  } catch (e) {
    if (e instanceof EsError) return e;
    throw e;
  }
  throw new Error('expected an EsError');
}

/** Parses twice: a text is cached from its second sighting on. */
function warm<T>(f: () => T): T {
  f();
  return f();
}

describe('query_string parse cache', () => {
  it('returns the same frozen tree for a repeated text', () => {
    const c = newParseCache();
    const first = parseQueryStringCached('"some phrase" foo:bar', OR, c);
    expect(parseCacheSize(c)).toBe(0); // a first sighting keeps no tree
    const a = parseQueryStringCached('"some phrase" foo:bar', OR, c);
    expect(a).toEqual(first);
    const b = parseQueryStringCached('"some phrase" foo:bar', OR, c);
    expect(b).toBe(a);
    expect(a).toEqual(parseQueryString('"some phrase" foo:bar', OR));
    expect(Object.isFrozen(a)).toBe(true);
    const bool = a as Extract<QsNode, { kind: 'Bool' }>;
    expect(Object.isFrozen(bool.clauses[0]!.node)).toBe(true);
    expect(() => {
      (bool.clauses[0] as { occur: string }).occur = 'must';
    }).toThrow(TypeError);
    expect(parseCacheSize(c)).toBe(1);
  });

  it('keeps trees apart for options the parse reads', () => {
    const c = newParseCache();
    const or = warm(() => parseQueryStringCached('a b -c', OR, c));
    const and = parseQueryStringCached('a b -c', { defaultOperator: 'AND' }, c);
    expect(parseQueryStringCached('a b -c', OR, c)).toBe(or);
    expect(parseQueryStringCached('a b -c', { defaultOperator: 'AND' }, c)).toBe(and);
    expect(parseCacheSize(c)).toBe(2);
    expect(and).not.toEqual(or);
    expect(and).toEqual(parseQueryString('a b -c', { defaultOperator: 'AND' }));
    // `*` means all fields only when the default field is `*`
    expect(parseQueryStringCached('*', { ...OR, defaultField: '*' }, c)).toEqual({
      kind: 'MatchAll',
    });
    expect(warm(() => parseQueryStringCached('*', { ...OR, defaultField: null }, c))).toEqual({
      kind: 'Wildcard',
      field: null,
      text: '*',
    });
    expect(parseQueryStringCached('*ab', OR, c)).toMatchObject({ kind: 'Wildcard' });
    expect(() => parseQueryStringCached('*ab', { ...OR, allowLeadingWildcard: false }, c)).toThrow(
      EsError,
    );
    expect(warm(() => parseQueryStringCached('a~-1', { ...OR, lenient: true }, c))).toEqual({
      kind: 'MatchNone',
    });
    expect(() => parseQueryStringCached('a~-1', OR, c)).toThrow(EsError);
    expect(parseQueryStringCached('a+b', { ...OR, escape: true }, c)).toEqual(
      parseQueryString('a+b', { ...OR, escape: true }),
    );
  });

  it('throws the same error every time and caches nothing for it', () => {
    const c = newParseCache();
    const opts = { ...OR, index: { name: 'i', uuid: 'u' } };
    const first = errorOf(() => parseQueryStringCached('foo:(bar', opts, c));
    const second = errorOf(() => parseQueryStringCached('foo:(bar', opts, c));
    const third = errorOf(() => parseQueryStringCached('foo:(bar', opts, c));
    expect(third).not.toBe(second);
    expect(body(second)).toEqual(body(first));
    expect(body(third)).toEqual(body(first));
    expect(body(third)).toEqual(body(errorOf(() => parseQueryString('foo:(bar', opts))));
    expect(parseCacheSize(c)).toBe(0);
  });

  it('re-parses when the mapping answers emptiness differently', () => {
    const c = newParseCache();
    let calls = 0;
    const stopThe = {
      ...OR,
      isEmpty: (l: { text: string }) => (calls++, l.text === 'the'),
    };
    const none = { ...OR, isEmpty: () => (calls++, false) };
    const t1 = warm(() => parseQueryStringCached('+the +fox', stopThe, c));
    expect(t1).toEqual(parseQueryString('+the +fox', stopThe));
    expect(t1).toMatchObject({ kind: 'Bool', clauses: [{ occur: 'must', node: { text: 'fox' } }] });
    calls = 0;
    expect(parseQueryStringCached('+the +fox', stopThe, c)).toBe(t1);
    expect(calls).toBe(2); // the recorded leaves are asked again
    const t2 = parseQueryStringCached('+the +fox', none, c);
    expect(t2).toMatchObject({ kind: 'Bool' });
    expect(t2).toEqual(parseQueryString('+the +fox', none));
    expect(parseQueryStringCached('+the +fox', none, c)).toBe(t2);
    expect(parseCacheSize(c)).toBe(1);
  });

  it('holds at most its bound, keeping recently used texts', () => {
    const c = newParseCache(4); // generations of 2 texts
    const a = warm(() => parseQueryStringCached('a', OR, c));
    for (const t of ['b', 'c', 'd', 'e', 'f', 'g']) {
      warm(() => parseQueryStringCached(t, OR, c));
      expect(parseQueryStringCached('a', OR, c)).toBe(a); // used all along: kept
      expect(c.young.size + c.old.size).toBeLessThanOrEqual(4);
      expect(parseCacheSize(c)).toBeLessThanOrEqual(4);
    }
    const b = parseQueryStringCached('b', OR, c); // b went out with an old generation
    expect(b).toEqual({ kind: 'Term', field: null, text: 'b' });
    expect(Object.isFrozen(b)).toBe(false);
  });

  it('parses very long texts without caching them', () => {
    const c = newParseCache();
    const long = 'x '.repeat(5000);
    expect(warm(() => parseQueryStringCached(long, OR, c))).toEqual(parseQueryString(long, OR));
    expect(parseCacheSize(c)).toBe(0);
  });
});

describe('simple_query_string parse cache', () => {
  it('shares trees per text and flags, and keeps flag spellings apart', () => {
    const c = newParseCache();
    const a = warm(() => parseSimpleQueryStringCached('foo* "a b"', OR, c));
    expect(parseSimpleQueryStringCached('foo* "a b"', OR, c)).toBe(a);
    const none = parseSimpleQueryStringCached('foo* "a b"', { ...OR, flags: 'NONE' }, c);
    expect(none).not.toEqual(a);
    expect(parseSimpleQueryStringCached('foo* "a b"', { ...OR, flags: 'NONE' }, c)).toBe(none);
    expect(parseCacheSize(c)).toBe(2);
    for (let i = 0; i < 2; i++) {
      expect(() => parseSimpleQueryStringCached('x', { ...OR, flags: 'BOGUS' }, c)).toThrow(
        'Unknown simple_query_string flag [BOGUS]',
      );
    }
    expect(parseCacheSize(c)).toBe(2);
  });
});

describe('searches through the DSL with cached trees', () => {
  const docs = [{ body: 'the quick fox' }, { body: 'a quick fox' }, { body: 'slow dog' }];
  const plain = new Bench({ properties: { body: { type: 'text' } } }).index(docs);
  const stop = new Bench(
    { properties: { body: { type: 'text', analyzer: 'stop' } } },
    { analysis: { analysis: { analyzer: { stop: { type: 'stop' } } } } },
  ).index(docs);
  const kw = new Bench({ properties: { body: { type: 'keyword' } } }).index([
    ...docs,
    { body: 'quick fox' },
  ]);
  const ids = (b: Bench, q: unknown) => b.search(q).hits;

  it('repeats give identical hits, equal to match_phrase', () => {
    const q = { query_string: { query: '"quick fox"', default_field: 'body' } };
    const first = ids(plain, q);
    expect(first.map((h) => h.id).sort()).toEqual(['0', '1']);
    expect(ids(plain, q)).toEqual(first);
    expect(ids(plain, q)).toEqual(first); // from the cached tree
    expect(ids(plain, { match_phrase: { body: 'quick fox' } })).toEqual(first);
    const s = { simple_query_string: { query: '"quick fox"', fields: ['body'] } };
    expect(ids(plain, s)).toEqual(first);
    expect(ids(plain, s)).toEqual(first);
    expect(ids(plain, s)).toEqual(first);
  });

  it('the same text on two mappings follows each mapping', () => {
    const q = { query_string: { query: '+the +fox', default_field: 'body' } };
    for (let i = 0; i < 3; i++) {
      expect(ids(plain, q).map((h) => h.id)).toEqual(['0']);
      expect(
        ids(stop, q)
          .map((h) => h.id)
          .sort(),
      ).toEqual(['0', '1']);
    }
  });

  it('a cached tree lowers afresh for each mapping', () => {
    const q = { query_string: { query: '"quick fox"', default_field: 'body' } };
    for (let i = 0; i < 3; i++) {
      expect(
        ids(plain, q)
          .map((h) => h.id)
          .sort(),
      ).toEqual(['0', '1']);
      expect(ids(kw, q).map((h) => h.id)).toEqual(['3']);
    }
  });
});
