import { describe, expect, it } from 'vitest';
import {
  getField,
  hasField,
  removeField,
  setField,
  sourceOf,
} from '../../../src/ingest/document.js';
import { docOf } from './helpers.js';

describe('IngestDocument field paths', () => {
  it('reads through maps and list indices, with ES messages for missing parts', () => {
    const d = docOf({ a: { b: [{ c: 1 }, { c: 2 }] } });
    expect(getField(d, 'a.b.1.c')).toBe(2);
    expect(getField(d, '_source.a.b.0.c')).toBe(1);
    expect(getField(d, '_index')).toBe('i');
    expect(() => getField(d, 'a.x')).toThrow('field [x] not present as part of path [a.x]');
    expect(() => getField(d, 'a.b.5')).toThrow(
      '[5] is out of bounds for array with length [2] as part of path [a.b.5]',
    );
    expect(() => getField(d, 'a.b.x')).toThrow(
      '[x] is not an integer, cannot be used as an index as part of path [a.b.x]',
    );
    expect(() => getField(d, 'a.b.0.c.d')).toThrow(
      'cannot resolve [d] from object of type [java.lang.Integer] as part of path [a.b.0.c.d]',
    );
    expect(() => getField(d, '')).toThrow('path cannot be null nor empty');
  });

  it('sets, appends and removes, creating parent maps', () => {
    const d = docOf({ list: [1] });
    setField(d, 'x.y.z', 'v');
    setField(d, 'list', 2, true);
    setField(d, 'list', [3, 4], true);
    setField(d, 'fresh', 'a', true);
    setField(d, '_ingest.note', 'n');
    expect(sourceOf(d)).toEqual({ list: [1, 2, 3, 4], x: { y: { z: 'v' } }, fresh: ['a'] });
    expect(d.ingestMetadata.note).toBe('n');
    removeField(d, 'x.y.z');
    removeField(d, 'list.0');
    expect(sourceOf(d)).toEqual({ list: [2, 3, 4], x: { y: {} }, fresh: ['a'] });
    expect(hasField(d, 'x.y')).toBe(true);
    expect(hasField(d, 'x.y.z')).toBe(false);
    expect(() => setField(d, 'list.x.y', 1)).toThrow(
      '[x] is not an integer, cannot be used as an index as part of path [list.x.y]',
    );
    expect(() => removeField(d, 'nope')).toThrow('field [nope] not present as part of path [nope]');
  });

  it('keeps metadata apart from the source', () => {
    const d = docOf({ f: 1 });
    expect(sourceOf(d)).toEqual({ f: 1 });
    expect(typeof d.ingestMetadata.timestamp).toBe('string');
  });
});
