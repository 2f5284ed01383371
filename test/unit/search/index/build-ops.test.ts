import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { SegmentBuilder } from '../../../../src/search/index/segment-builder.js';
import {
  applyOps,
  encodable,
  fieldForWorker,
  OpsWriter,
  type OpsChunk,
} from '../../../../src/search/index/build-ops.js';
import { encodeSegment } from '../../../../src/search/index/segment-codec.js';
import type { FieldMapping } from '../../../../src/mapping/types.js';
import { doc, field, standardResolver } from '../../../helpers/fields.js';

const FIELDS = [
  field('title', 'text'),
  field('tag', 'keyword'),
  field('n', 'long'),
  field('ok', 'boolean'),
  field('ip', 'ip'),
];

type Op =
  | { kind: 'add'; id: string; routing: string | null; values: Array<[number, string | number | boolean]>; ignored: string[] } // prettier-ignore
  | { kind: 'del'; doc: number };

const value = (f: number): fc.Arbitrary<string | number | boolean> =>
  f === 0
    ? fc.string({ maxLength: 40 })
    : f === 1
      ? fc.string({ maxLength: 8 })
      : f === 2
        ? fc.integer({ min: -1000, max: 1000 })
        : f === 3
          ? fc.boolean()
          : fc.constantFrom('10.0.0.1', '192.168.1.20', '::1');

const addOp = fc.record({
  kind: fc.constant('add' as const),
  id: fc.string({ minLength: 1, maxLength: 6 }),
  routing: fc.option(fc.string({ maxLength: 4 })),
  values: fc.array(
    fc.nat(FIELDS.length - 1).chain((f) => value(f).map((v) => [f, v] as [number, typeof v])),
    { maxLength: 6 },
  ),
  ignored: fc.array(fc.constantFrom('n', 'ip'), { maxLength: 1 }),
});

function run(ops: Op[], chunkBytes: number) {
  const direct = new SegmentBuilder(standardResolver);
  const chunks: OpsChunk[] = [];
  const w = new OpsWriter((c) => chunks.push(c), chunkBytes);
  const fields: FieldMapping[] = [];
  const copies: FieldMapping[] = [];
  const nos = new Map<FieldMapping, number>();
  const fieldNo = (f: FieldMapping) => {
    let no = nos.get(f);
    if (no === undefined) {
      no = fields.push(f) - 1;
      nos.set(f, no);
      copies.push(fieldForWorker(f));
    }
    return no;
  };
  let n = 0;
  ops.forEach((op, i) => {
    if (op.kind === 'del') {
      if (op.doc >= n) return;
      direct.markDeleted(op.doc);
      w.delete(op.doc);
      return;
    }
    const d = { ...doc(op.values.map(([f, v]) => [FIELDS[f]!, v])), ignored: op.ignored };
    expect(encodable(d)).toBe(true);
    direct.add(op.id, d, i, 1 + i, op.routing);
    w.add(op.id, d, fieldNo, i, 1 + i, op.routing);
    n++;
  });
  w.flush();
  const replayed = new SegmentBuilder(standardResolver);
  for (const c of chunks) applyOps(c, copies, replayed);
  return { direct, replayed, chunks };
}

describe('indexing operations as bytes', () => {
  it('replayed into a builder (through worker copies of the fields) build the same segment', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(addOp, fc.record({ kind: fc.constant('del' as const), doc: fc.nat(30) })), { minLength: 1, maxLength: 40 }), // prettier-ignore
        fc.constantFrom(64, 256, 1 << 20),
        (ops, chunkBytes) => {
          const { direct, replayed } = run(ops as Op[], chunkBytes);
          expect(replayed.size).toBe(direct.size);
          expect(replayed.liveSize).toBe(direct.liveSize);
          if (direct.liveSize === 0) return;
          expect(encodeSegment(replayed.build()).equals(encodeSegment(direct.build()))).toBe(true);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('never splits an operation across chunks, even one larger than a chunk', () => {
    const long = 'word '.repeat(200);
    const ops: Op[] = Array.from({ length: 20 }, (_, i) => ({
      kind: 'add',
      id: `d${i}`,
      routing: null,
      values: [[0, i % 3 === 0 ? long : `short ${i}`]],
      ignored: [],
    }));
    const { direct, replayed, chunks } = run(ops, 128);
    expect(chunks.length).toBeGreaterThan(1);
    expect(encodeSegment(replayed.build()).equals(encodeSegment(direct.build()))).toBe(true);
  });

  it('hands a turn of few writes over at its size, not a whole chunk each turn', () => {
    const chunks: OpsChunk[] = [];
    const w = new OpsWriter((c) => chunks.push(c), 1 << 20);
    const d = { ...doc([[FIELDS[0]!, 'a few words']]), ignored: [] };
    for (let i = 0; i < 50; i++) {
      w.add(`d${i}`, d, () => 0, i, 1, null);
      w.flush(); // one single-document request per turn
    }
    expect(chunks).toHaveLength(50);
    for (const c of chunks) expect(c.bytes.byteLength).toBe(c.length);
    const total = chunks.reduce((n, c) => n + c.bytes.byteLength, 0);
    expect(total).toBeLessThan(50 * 200);
  });

  it('keeps nested documents and object values on the main thread', () => {
    const d = doc([[FIELDS[0]!, 'x']]);
    expect(encodable(d)).toBe(true);
    expect(encodable({ ...d, nested: [{ path: 'p', doc: d }] })).toBe(false);
    expect(encodable(doc([[field('loc', 'geo_point'), { lat: 1, lon: 2 } as never]]))).toBe(false);
  });
});
