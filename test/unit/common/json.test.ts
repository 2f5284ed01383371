import { describe, expect, it } from 'vitest';
import { materialize, RawJson, stringifyRaw } from '../../../src/common/json.js';

describe('stringifyRaw', () => {
  it('writes RawJson fragments verbatim and everything else as JSON.stringify does', () => {
    const out = stringifyRaw({
      a: 1,
      src: new RawJson('{"x": [1, 2],  "y":"\\u00e9"}'),
      list: [NaN, Infinity, new RawJson('"s"'), undefined],
      skip: undefined,
      when: new Date(0),
    });
    expect(out).toBe(
      '{"a":1,"src":{"x": [1, 2],  "y":"\\u00e9"},"list":[null,null,"s",null],"when":"1970-01-01T00:00:00.000Z"}',
    );
  });

  it('leaves strings that look like placeholders alone', () => {
    const tricky = '\u00010:0\u0001';
    const out = stringifyRaw({ t: tricky, r: new RawJson('true') });
    expect(JSON.parse(out)).toEqual({ t: tricky, r: true });
  });

  it('splices many fragments in order, adjacent ones and ones between look-alike strings', () => {
    const hits = Array.from({ length: 12 }, (_, i) => ({
      n: i,
      s: new RawJson(`{"d":${i}}`),
      t: i % 2 ? '\u0001x:1\u0001' : `"${i}"`,
      u: [new RawJson(`[${i}]`), new RawJson('null')],
    }));
    const out = stringifyRaw({ hits });
    expect(JSON.parse(out)).toEqual({
      hits: hits.map((h, i) => ({ n: i, s: { d: i }, t: h.t, u: [[i], null] })),
    });
  });

  it('handles a top-level fragment and values JSON.stringify drops', () => {
    expect(stringifyRaw(new RawJson('[1,2]'))).toBe('[1,2]');
    expect(stringifyRaw(undefined)).toBe('null');
  });

  it('gives plain JSON.stringify the parsed fragment', () => {
    expect(JSON.stringify({ s: new RawJson('{"a": 1}') })).toBe('{"s":{"a":1}}');
    expect(materialize({ s: new RawJson('{"a": 1}') })).toEqual({ s: { a: 1 } });
  });

  it('keeps the fragments of nested calls apart', () => {
    const inner = { toJSON: () => stringifyRaw({ i: new RawJson('1') }) };
    expect(stringifyRaw({ a: new RawJson('2'), b: inner, c: new RawJson('3') })).toBe(
      '{"a":2,"b":"{\\"i\\":1}","c":3}',
    );
  });
});
