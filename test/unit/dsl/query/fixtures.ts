/**
 * Shared test fixtures: a mapping with every field kind the lowering treats differently (close to
 * ES's AbstractBuilderTestCase), a small corpus, and Lucene 7.7 BM25 computed by hand.
 */
import { byte4ToInt, intToByte4 } from '../../../../src/search/index/norms.js';
import { Bench } from './harness.js';

export const MAPPING = {
  properties: {
    title: { type: 'text', fields: { raw: { type: 'keyword' } } },
    body: { type: 'text' },
    english: { type: 'text', analyzer: 'english' },
    nopos: { type: 'text', index_options: 'freqs' },
    tag: { type: 'keyword' },
    ltag: { type: 'keyword', normalizer: 'lowercase' },
    wtag: { type: 'keyword', split_queries_on_whitespace: true },
    unindexed: { type: 'keyword', index: false },
    age: { type: 'integer' },
    big: { type: 'long' },
    price: { type: 'double' },
    f: { type: 'float' },
    hf: { type: 'half_float' },
    sf: { type: 'scaled_float', scaling_factor: 100 },
    date: { type: 'date' },
    dmy: { type: 'date', format: 'dd/MM/yyyy||epoch_millis' },
    ok: { type: 'boolean' },
    ip: { type: 'ip' },
    geo: { type: 'geo_point' },
    bin: { type: 'binary' },
    alias_title: { type: 'alias', path: 'title' },
    obj: { properties: { a: { type: 'keyword' }, b: { type: 'long' } } },
    comments: {
      type: 'nested',
      properties: {
        author: { type: 'keyword' },
        stars: { type: 'integer' },
        text: { type: 'text' },
      },
    },
  },
};

export const DOCS: Array<[string, Record<string, unknown>]> = [
  [
    '1',
    {
      title: 'The quick brown fox',
      body: 'jumps over the lazy dog',
      english: 'running foxes',
      tag: 'A',
      ltag: 'Foo',
      age: 30,
      big: 10000000000,
      price: 1.5,
      f: 0.1,
      hf: 1.25,
      sf: 3.14159,
      date: '2015-01-01',
      dmy: '02/01/2015',
      ok: true,
      ip: '192.168.0.1',
      obj: { a: 'x' },
      comments: [
        { author: 'kim', stars: 5, text: 'great fox' },
        { author: 'bob', stars: 1, text: 'lazy' },
      ],
    },
  ],
  [
    '2',
    {
      title: 'quick fox quick fox',
      tag: 'B',
      age: 40,
      price: 2.5,
      f: 0.2,
      date: '2015-06-01T10:00:00Z',
      ok: false,
      ip: '10.0.0.1',
      obj: { b: 3 },
      comments: [{ author: 'bob', stars: 3, text: 'quick fox' }],
    },
  ],
  ['3', { title: 'lazy dogs', tag: 'a', ltag: 'FOO', age: 50, date: 1420070400000, ip: '::1' }],
  ['4', { body: 'the brown dog', wtag: 'x', age: [20, 60] }],
];

export const bench = (): Bench => new Bench(MAPPING).index(DOCS);

const f = Math.fround;

/** Lucene 7.7 BM25 by hand (k1 = 1.2, b = 0.75, one-byte norms), as the engine must compute it. */
export function bm25(
  tf: number,
  dl: number,
  df: number,
  docCount: number,
  sumTtf: number,
  boost = 1,
): number {
  const k1 = f(1.2);
  const b = f(0.75);
  const idf = f(Math.log(1 + (docCount - df + 0.5) / (df + 0.5)));
  const avgdl = f(sumTtf / docCount);
  const decoded = byte4ToInt(intToByte4(dl));
  const norm = f(k1 * f(f(1 - b) + f(f(b * decoded) / avgdl)));
  const weight = f(f(boost * idf) * f(k1 + 1));
  return f(f(weight * tf) / f(tf + norm));
}
