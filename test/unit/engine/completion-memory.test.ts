import { describe, expect, it } from 'vitest';
import { completionMemory } from '../../../src/engine/segment-stats.js';
import type { ShardSnapshot } from '../../../src/search/index/live-segment.js';
import type { InvertedField, SegmentField } from '../../../src/search/index/segment.js';

const inverted = (terms: string[]): InvertedField => ({
  terms,
  termStart: Int32Array.from({ length: terms.length + 1 }, (_, i) => i),
  docs: Int32Array.from(terms, (_, i) => i),
  freqs: null,
  posStart: null,
  positions: null,
  norms: null,
  docCount: terms.length,
  sumTotalTermFreq: terms.length,
  sumDocFreq: terms.length,
});

const field = (path: string, type: string, terms: string[]): SegmentField =>
  ({ path, type, inverted: inverted(terms), points: null, docValues: null }) as SegmentField;

const snapshot = (...fields: SegmentField[][]): ShardSnapshot =>
  ({
    segments: fields.map((fs) => ({
      segment: { fields: new Map(fs.map((f) => [f.path, f])) },
      live: null,
      deleted: 0,
    })),
  }) as unknown as ShardSnapshot;

describe('completion memory (ES CompletionStats)', () => {
  it('sums each completion field over the segments, skipping other and empty fields', () => {
    const one = completionMemory(
      snapshot([field('bar.completion', 'completion', ['b\u0000bar\u00001'])]),
    );
    const bytes = one.get('bar.completion')!;
    expect(bytes).toBeGreaterThan(0);
    const m = completionMemory(
      snapshot(
        [
          field('bar.completion', 'completion', ['b\u0000bar\u00001']),
          field('bar', 'text', ['bar']),
          field('baz.completion', 'completion', []),
        ],
        [field('bar.completion', 'completion', ['b\u0000bar\u00001'])],
      ),
    );
    expect([...m.keys()]).toEqual(['bar.completion']);
    expect(m.get('bar.completion')).toBe(2 * bytes);
  });

  it('is empty for a shard without segments', () => {
    expect(completionMemory(snapshot()).size).toBe(0);
  });
});
