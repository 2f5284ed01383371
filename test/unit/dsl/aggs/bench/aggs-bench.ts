/**
 * Throughput of shard-side aggregation collection over 1M single-valued docs (all matching):
 * terms, terms+avg, range, histogram, date_histogram, cardinality. Segments are built directly
 * from typed arrays (an ordinal column with 1000 terms, a Float64 column, a date column) so only
 * collection is timed. Run: npx tsx test/unit/dsl/aggs/bench/aggs-bench.ts
 */
import type { FieldMapping } from '../../../../../src/mapping/types.js';
import type { LiveSegment, ShardSnapshot } from '../../../../../src/search/index/live-segment.js';
import type { Segment, SegmentField } from '../../../../../src/search/index/segment.js';
import {
  createShardAggregator,
  parseAggregations,
  reduceAggregations,
} from '../../../../../src/dsl/aggs/index.js';
import { field } from '../../../../helpers/fields.js';

const N = Number(process.env.DOCS ?? 1_000_000);
const TERMS = 1000;

function segment(): LiveSegment {
  const dict = Array.from({ length: TERMS }, (_, i) => `term-${String(i).padStart(4, '0')}`);
  const ords = new Int32Array(N);
  const price = new Float64Array(N);
  const ts = new Float64Array(N);
  const users = new Float64Array(N);
  let seed = 12345;
  const rnd = () => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return seed / 4294967296;
  };
  const start = Date.UTC(2020, 0, 1);
  for (let d = 0; d < N; d++) {
    ords[d] = Math.floor(rnd() * TERMS);
    price[d] = Math.floor(rnd() * 100000) / 100;
    ts[d] = start + Math.floor(rnd() * 365 * 86400000);
    users[d] = Math.floor(rnd() * 200000);
  }
  const f = (
    path: string,
    type: SegmentField['type'],
    docValues: SegmentField['docValues'],
  ): SegmentField => ({
    path,
    type,
    inverted: null,
    points: null,
    docValues,
  });
  const fields = new Map<string, SegmentField>([
    [
      'tag',
      f('tag', 'keyword', { kind: 'ordinal', dict, single: ords, offsets: null, ords: null }),
    ],
    [
      'price',
      f('price', 'double', { kind: 'numeric', single: price, offsets: null, values: null }),
    ],
    ['ts', f('ts', 'date', { kind: 'numeric', single: ts, offsets: null, values: null })],
    ['user', f('user', 'long', { kind: 'numeric', single: users, offsets: null, values: null })],
  ]);
  const seg: Segment = {
    id: 1,
    maxDoc: N,
    ids: [],
    idOrder: new Int32Array(0),
    seqNos: new Float64Array(0),
    versions: new Float64Array(0),
    routing: new Map(),
    fields,
    fieldNames: {
      terms: [],
      termStart: new Int32Array(1),
      docs: new Int32Array(0),
      freqs: null,
      posStart: null,
      positions: null,
      norms: null,
      docCount: 0,
      sumTotalTermFreq: 0,
      sumDocFreq: 0,
    },
    nested: new Map(),
  };
  return { segment: seg, live: null, deleted: 0, docBase: 0 };
}

const mappings = new Map<string, FieldMapping>([
  ['tag', field('tag', 'keyword')],
  ['price', field('price', 'double')],
  ['ts', field('ts', 'date')],
  ['user', field('user', 'long')],
]);

const ls = segment();
const snapshot: ShardSnapshot = { generation: 1, segments: [ls], maxDoc: N, numDocs: N };

const only = process.env.ONLY;
const cases: Record<string, unknown> = {
  terms: { t: { terms: { field: 'tag' } } },
  'terms+avg': { t: { terms: { field: 'tag' }, aggs: { a: { avg: { field: 'price' } } } } },
  range: {
    r: { range: { field: 'price', ranges: [{ to: 100 }, { from: 100, to: 500 }, { from: 500 }] } },
  },
  histogram: { h: { histogram: { field: 'price', interval: 50 } } },
  date_histogram: { d: { date_histogram: { field: 'ts', interval: 'day' } } },
  'date_histogram(month)': { d: { date_histogram: { field: 'ts', interval: 'month' } } },
  'cardinality(long)': { c: { cardinality: { field: 'user' } } },
  'cardinality(keyword)': { c: { cardinality: { field: 'tag' } } },
  avg: { a: { avg: { field: 'price' } } },
};

function run(json: unknown): number {
  const nodes = parseAggregations(json);
  const agg = createShardAggregator(nodes, {
    snapshot,
    field: (p) => mappings.get(p),
    compileQuery: () => {
      throw new Error('no queries');
    },
    now: Date.now(),
    maxBuckets: -1,
  });
  // CPU time of this process (the machine may be shared; wall time would count waiting)
  const c0 = process.cpuUsage();
  agg.onSegment(ls, 0);
  for (let d = 0; d < N; d++) agg.collect(d, NaN);
  const res = agg.finish();
  const c1 = process.cpuUsage(c0);
  reduceAggregations(nodes, [res], { maxBuckets: -1 });
  return (c1.user + c1.system) / 1000;
}

console.log(`docs per run: ${N.toLocaleString('en-US')}`);
for (const [name, json] of Object.entries(cases)) {
  if (only && name !== only) continue;
  for (let i = 0; i < 3; i++) run(json); // warm up
  const times: number[] = [];
  for (let i = 0; i < 7; i++) times.push(run(json));
  times.sort((a, b) => a - b);
  const med = times[3]!;
  console.log(
    `${name.padEnd(24)} median ${med.toFixed(2).padStart(8)} ms   best ${times[0]!.toFixed(2).padStart(8)} ms   ${(((N / med) * 1000) / 1e6).toFixed(1)}M docs/s`,
  );
}
