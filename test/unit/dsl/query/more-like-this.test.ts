import { describe, expect, it } from 'vitest';
import { Bench, chain } from './harness.js';

const docs: Array<[string, Record<string, unknown>]> = [
  ['1', { body: 'the quick brown fox jumps', tag: 'animal' }],
  ['2', { body: 'the quick brown dog', tag: 'animal' }],
  ['3', { body: 'a slow green turtle', tag: 'reptile' }],
  ['4', { body: 'quick quick fox', tag: 'animal' }],
];

const bench = new Bench({
  properties: { body: { type: 'text' }, tag: { type: 'keyword' }, n: { type: 'long' } },
}).index(docs);

// documents are read as a terms lookup would read them
const source = new Map(docs);
const withLookup = new Bench(
  { properties: { body: { type: 'text' }, tag: { type: 'keyword' }, n: { type: 'long' } } },
  { context: { termsLookup: (_i, _t, id) => (source.has(id) ? [source.get(id)] : null) } },
).index(docs);

const mlt = (o: Record<string, unknown>) => ({
  more_like_this: { min_term_freq: 1, min_doc_freq: 1, ...o },
});

describe('more_like_this', () => {
  it('finds documents sharing terms with the liked text', () => {
    const ids = bench.ids(mlt({ fields: ['body'], like: 'quick fox' }));
    expect(ids.sort()).toEqual(['1', '2', '4']);
  });

  it('applies stop words, minimum_should_match and unliked text', () => {
    expect(bench.ids(mlt({ fields: ['body'], like: 'turtle', stop_words: ['turtle'] }))).toEqual(
      [],
    );
    expect(
      bench.ids(mlt({ fields: ['body'], like: 'quick fox', minimum_should_match: '100%' })).sort(),
    ).toEqual(['1', '4']);
    expect(bench.ids(mlt({ fields: ['body'], like: 'quick fox', unlike: 'quick' })).sort()).toEqual(
      ['1', '4'],
    );
  });

  it('likes documents, excluding them unless include', () => {
    expect(withLookup.ids(mlt({ fields: ['body'], like: [{ _id: '4' }] })).sort()).toEqual([
      '1',
      '2',
    ]);
    expect(
      withLookup.ids(mlt({ fields: ['body'], like: [{ _id: '4' }], include: true })).sort(),
    ).toEqual(['1', '2', '4']);
    // an artificial document uses all its fields, keywords included
    expect(withLookup.ids(mlt({ like: [{ doc: { tag: 'reptile' } }] }))).toEqual(['3']);
  });

  it('refuses unsupported fields and a missing like', () => {
    expect(chain(bench.error(mlt({ fields: ['n'], like: 'x' }))).at(-1)).toEqual([
      'illegal_argument_exception',
      'more_like_this only supports text/keyword fields: [n]',
    ]);
    expect(bench.error({ more_like_this: { fields: ['body'] } }).reason).toBe(
      "more_like_this requires 'like' to be specified",
    );
  });
});

describe('more_like_this documents read before the search', () => {
  it('are found in the parsed query, once per target index without _index', async () => {
    const { termsLookupsIn } = await import('../../../../src/dsl/query/terms-lookup-once.js');
    const { parseQuery } = await import('../../../../src/dsl/query/index.js');
    const q = parseQuery({
      more_like_this: {
        like: [{ _id: '1' }, { _index: 'other', _type: 't', _id: '2', routing: 'r' }, 'text'],
        unlike: { doc: { a: 1 } },
      },
    });
    expect(termsLookupsIn([q], ['i1', 'i2'])).toEqual([
      { index: 'i1', type: '_doc', id: '1', path: '', routing: null },
      { index: 'i2', type: '_doc', id: '1', path: '', routing: null },
      { index: 'other', type: 't', id: '2', path: '', routing: 'r' },
    ]);
  });
});
