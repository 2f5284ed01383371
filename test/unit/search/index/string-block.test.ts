/**
 * A decoded segment keeps its `_id`s encoded: the list reads like a read-only string array, and
 * `lookupId` finds ids in the block (ASCII compared as bytes, others decoded) as it finds them in
 * a built segment.
 */
import { describe, expect, it } from 'vitest';
import { decodeSegment, encodeSegment } from '../../../../src/search/index/segment-codec.js';
import { lookupId, type Segment } from '../../../../src/search/index/segment.js';
import { stringBlockOf } from '../../../../src/search/index/string-block.js';
import { emptyInverted } from '../../../helpers/segments.js';

function segmentWithIds(ids: string[]): Segment {
  const order = Int32Array.from(ids.keys()).sort((a, b) =>
    ids[a]! < ids[b]! ? -1 : ids[a]! > ids[b]! ? 1 : 0,
  );
  return {
    id: 1,
    maxDoc: ids.length,
    ids,
    idOrder: order,
    seqNos: new Float64Array(ids.length),
    versions: new Float64Array(ids.length),
    routing: new Map(),
    fields: new Map(),
    fieldNames: emptyInverted(),
    nested: new Map(),
  };
}

const IDS = ['b', 'a', 'zz', 'é', 'a\u{1F600}', 'a\uFFFD', 'ab', '', '10', '9'];

describe('encoded _id lists', () => {
  it('read like a read-only string array', () => {
    const seg = decodeSegment(encodeSegment(segmentWithIds(IDS)));
    const ids = seg.ids;
    expect(stringBlockOf(ids)).toBeDefined();
    expect(ids.length).toBe(IDS.length);
    expect(ids[3]).toBe('é');
    expect(ids[4]).toBe('a\u{1F600}');
    expect(ids[IDS.length]).toBeUndefined();
    expect([...ids]).toEqual(IDS);
    expect(ids.map((s) => s.length)).toEqual(IDS.map((s) => s.length));
    expect(Array.from([2, 0], (d) => ids[d])).toEqual(['zz', 'b']);
    expect(ids).toEqual(IDS);
    expect(Array.isArray(ids)).toBe(true);
    expect(() => {
      (ids as string[])[0] = 'x';
    }).toThrow(TypeError);
    expect(() => (ids as string[]).push('x')).toThrow(TypeError);
    expect(ids[0]).toBe('b');
  });

  it('are searched by lookupId like a built segment', () => {
    const built = segmentWithIds(IDS);
    const seg = decodeSegment(encodeSegment(built));
    for (const id of [...IDS, 'c', 'a\u{1F601}', 'aa', '1', 'zzz', '\uFFFF', 'ab\u00e9'])
      expect(lookupId(seg, id)).toBe(lookupId(built, id));
    expect(lookupId(seg, 'zz')).toBe(2);
    expect(lookupId(seg, '')).toBe(7);
    expect(lookupId(seg, 'missing')).toBe(-1);
  });
});
