import { deserialize, serialize } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { RawJson } from '../../../../src/common/json.js';
import { decodeRendered, encodeRendered } from '../../../../src/cluster/search/wire.js';

describe('rendered hits on the wire', () => {
  it('keeps raw _source text and renders values with toJSON as the response would', () => {
    // a script value holding a callback (a date warning on deprecated accessors)
    const date = { millis: 0, warn: (m: string) => m, toJSON: () => '1970-01-01T00:00:00.000Z' };
    const hit = { _source: new RawJson('{"a":1}'), fields: { d: [date], n: [1.5] } };
    const back = decodeRendered(deserialize(serialize(encodeRendered(hit)))) as typeof hit;
    expect(back._source).toBeInstanceOf(RawJson);
    expect((back._source as RawJson).text).toBe('{"a":1}');
    expect(back.fields).toEqual({ d: ['1970-01-01T00:00:00.000Z'], n: [1.5] });
    expect(JSON.stringify(back.fields)).toBe(JSON.stringify(hit.fields));
  });
});
