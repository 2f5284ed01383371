/**
 * `stringifyRawBytes` (the compact response writer) against the string writer it replaced: the
 * same bytes for search-shaped answers with many hits whose `_source` is held as stored bytes or
 * as text, odd sources (non-ASCII, escapes, exponents, nested arrays, odd spacing), non-ASCII
 * outside the fragments, placeholder look-alikes, and stored bytes that are not UTF-8.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  materialize,
  RawJson,
  RenderedJson,
  stringifyPretty,
  stringifyRaw,
  stringifyRawBytes,
} from '../../../src/common/json.js';

const bytesOf = (out: string | Buffer): Buffer => (typeof out === 'string' ? Buffer.from(out) : out); // prettier-ignore

/** What the response writer sent before: the string writer's text, encoded as UTF-8. */
const before = (body: unknown): Buffer => Buffer.from(stringifyRaw(body));

/** A search answer around `sources`, each one a hit. */
function answer(sources: RawJson[], ids: (i: number) => string = (i) => `id-${i}`): object {
  return {
    took: 3,
    timed_out: false,
    _shards: { total: 1, successful: 1, skipped: 0, failed: 0 },
    hits: {
      total: sources.length,
      max_score: 1.5e-7,
      hits: sources.map((s, i) => ({
        _index: 'debian',
        _type: '_doc',
        _id: ids(i),
        _score: i % 3 === 0 ? null : 11.133489608764648 / (i + 1),
        _source: s,
        ...(i % 4 === 1 ? { sort: [i, `k${i}`], fields: { n: [i, -0, 1e21] } } : {}),
      })),
    },
  };
}

/** Sources spelled as a client might send them: the writer must copy them byte for byte. */
const ODD = [
  '{ "name" : "node-browserify-sign",\n\t"n": 1 }',
  '{"t":"\\u00e9\\n\\"q\\"\\\\ \\ud83d\\ude00 \\u0000","e":[1e5,1E+2,-2.5e-3,0.0,-0,1.0e308]}',
  '{"u":"é€😀 ṩ ﬃ 日本語 \u2028\u2029","a":[[[]],[{"b":[1,[2,[3,{}]]]}]],"z":null}',
  '{"big":123456789012345678901234567890,"f":true,"x":[]}',
  '{}',
  '[1,2,3]',
  '"a string source"',
  `{"long":"${'x'.repeat(70_000)}","é":"${'é'.repeat(5_000)}"}`,
];

/** Random sources (JSON as JSON.stringify spells it, or odd spellings), held as bytes or text. */
const randomSources = fc
  .array(
    fc.tuple(
      fc.oneof(
        fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)),
        fc.constantFrom(...ODD.slice(0, 7)),
      ),
      fc.boolean(),
    ),
    { maxLength: 25 },
  )
  .map((srcs) => srcs.map(([t, b]) => (b ? RawJson.ofUtf8(Buffer.from(t)) : new RawJson(t))));
const randomIds = fc.array(fc.string({ unit: 'grapheme' }), { minLength: 25, maxLength: 25 });

describe('stringifyRawBytes', () => {
  it('writes odd sources held as bytes or text exactly as the string writer did', () => {
    const asBytes = ODD.map((t) => RawJson.ofUtf8(Buffer.from(t)));
    const asText = ODD.map((t) => new RawJson(t));
    for (const sources of [asBytes, asText, [...asBytes, ...asText]]) {
      const body = answer(sources);
      const out = stringifyRawBytes(body);
      expect(Buffer.isBuffer(out)).toBe(true);
      expect(bytesOf(out).equals(before(body))).toBe(true);
    }
    // bytes held as bytes are never decoded on the way out
    const held = RawJson.ofUtf8(Buffer.from(ODD[2]!));
    stringifyRawBytes(answer([held]));
    expect(held.bytes).not.toBeNull();
  });

  it('equals JSON.stringify of the parsed answer when the sources are canonical JSON', () => {
    const values = [
      { name: 'n', description: 'a\nb "c" \\ é 😀', size: 32, r: [1.5e-7, -1e21, 0.1] },
      { nested: [[1, [2, [3]]], { a: { b: { c: [null, true, false] } } }] },
      { s: '\u0001placeholder-ish\u0001', lone: '\ud800 x \udfff' },
    ];
    const body = answer(values.map((v) => RawJson.ofUtf8(Buffer.from(JSON.stringify(v)))));
    expect(bytesOf(stringifyRawBytes(body)).toString()).toBe(JSON.stringify(materialize(body)));
  });

  it('handles non-ASCII and lone surrogates outside the fragments', () => {
    const sources = ODD.slice(0, 4).map((t) => RawJson.ofUtf8(Buffer.from(t)));
    const ids = (i: number) => ['ü-1', '日本-2', '\ud800-lone', '😀'][i]!;
    const body = answer(sources, ids);
    expect(bytesOf(stringifyRawBytes(body)).equals(before(body))).toBe(true);
  });

  it('keeps strings that look like placeholders, adjacent and top-level fragments', () => {
    const r = (t: string) => RawJson.ofUtf8(Buffer.from(t));
    const cases: unknown[] = [
      { t: '\u00010:0\u0001', r: r('true'), u: '\u00011:0\u0001' },
      [r('1'), r('2'), r('{"a":[]}')],
      r('[1,2]'),
      { a: [r('null'), undefined, NaN, Infinity, r('"é"')], d: new Date(0), skip: undefined },
      // a fragment held as text with a lone surrogate: encoded as U+FFFD, as the string was
      { t: new RawJson('"\ud800 and \udfff"'), u: r('1') },
    ];
    for (const body of cases) expect(bytesOf(stringifyRawBytes(body)).equals(before(body))).toBe(true); // prettier-ignore
  });

  it('answers plain values (no fragment) with the JSON.stringify text', () => {
    expect(stringifyRawBytes({ count: 3, _shards: { total: 1 } })).toBe(
      '{"count":3,"_shards":{"total":1}}',
    );
    expect(stringifyRawBytes(undefined)).toBe('null');
    expect(stringifyRawBytes('é')).toBe('"é"');
  });

  it('writes stored bytes that are not UTF-8 as the decoded text, as before', () => {
    // an encoded surrogate and an overlong '/', which the JSON parser accepts as Jackson does
    const bad = Buffer.concat([
      Buffer.from('{"s":"'),
      Buffer.from([0xed, 0xa0, 0x80, 0xc0, 0xaf]),
      Buffer.from('"}'),
    ]);
    const raw = RawJson.ofUtf8(bad);
    expect(raw.bytes).toBeNull();
    const body = answer([raw, RawJson.ofUtf8(Buffer.from('{"ok":1}'))]);
    const out = bytesOf(stringifyRawBytes(body));
    expect(out.equals(Buffer.from(stringifyRaw(answer([new RawJson(bad.toString()), new RawJson('{"ok":1}')]))))).toBe(true); // prettier-ignore
    expect(out.includes(Buffer.from([0xed, 0xa0]))).toBe(false);
  });

  it('decodes bytes lazily for readers of the text', () => {
    const raw = RawJson.ofUtf8(Buffer.from('{"a":"é"}'));
    expect(raw.text).toBe('{"a":"é"}');
    expect(JSON.stringify({ s: raw })).toBe('{"s":{"a":"é"}}');
    expect(materialize([raw])).toEqual([{ a: 'é' }]);
  });

  it('matches the string writer on random answers (property)', () => {
    fc.assert(
      fc.property(randomSources, randomIds, (raws, ids) => {
        const body = answer(raws, (i) => ids[i]!);
        return bytesOf(stringifyRawBytes(body)).equals(before(body));
      }),
      { numRuns: 300 },
    );
  });

  it('equals JSON.stringify of the parsed fragments on random canonical answers (property)', () => {
    // outside a stringifyRaw call a fragment serialises as its parsed value: an oracle that
    // shares nothing with the writers when every source is spelled as JSON.stringify spells it
    fc.assert(
      fc.property(
        fc.array(fc.jsonValue({ maxDepth: 4 }), { maxLength: 25 }),
        randomIds,
        (values, ids) => {
          const raws = values.map((v) => RawJson.ofUtf8(Buffer.from(JSON.stringify(v))));
          const body = answer(raws, (i) => ids[i]!);
          return bytesOf(stringifyRawBytes(body)).equals(Buffer.from(JSON.stringify(body)));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('a value rendered ahead of its answer writes the same bytes, and reads as the value', () => {
    fc.assert(
      fc.property(randomSources, randomIds, (raws, ids) => {
        const inner = answer(raws, (i) => ids[i]!);
        const rendered = RenderedJson.of(inner);
        const wrapped = { took: 1, items: rendered };
        const plain = { took: 1, items: inner };
        return (
          bytesOf(stringifyRawBytes(wrapped)).equals(bytesOf(stringifyRawBytes(plain))) &&
          stringifyRaw(wrapped) === stringifyRaw(plain) &&
          stringifyPretty(wrapped) === stringifyPretty(plain) &&
          JSON.stringify(wrapped) === JSON.stringify(plain)
        );
      }),
      { numRuns: 200 },
    );
    const v = { a: [1, 'é'], b: null };
    expect(materialize({ x: RenderedJson.of(v) })).toEqual({ x: v });
  });
});
