/**
 * Throughput of shard-side aggregation collection over 1M single-valued docs (all matching):
 * terms, terms+avg, range, histogram, date_histogram, cardinality. Segments are built directly
 * from typed arrays (an ordinal column with 1000 terms, a Float64 column, a date column) so only
 * collection is timed (process CPU time: the machine may be shared). Each case is measured
 * through collect(doc, score) per doc (the executor's contract) and through collectBatch()
 * with 1024-doc batches, after a warm-up of many small collections; "floor" lines time
 * hand-written loops over the same columns without the framework.
 * Run: npx tsx test/unit/dsl/aggs/bench/aggs-bench.ts   (env: ONLY=<case>, DOCS=<n>, WARMUP=<n>)
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
import { emptyInverted } from '../../../../helpers/segments.js';

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
    ranges: null,
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
    fieldNames: emptyInverted(),
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

/** The executor's per-doc loop (kept in its own function so it stays optimized across runs). */
function feed(agg: ReturnType<typeof createShardAggregator>, n: number): void {
  for (let d = 0; d < n; d++) agg.collect(d, NaN);
}

/** An executor handing over batches of matching docs (collectBatch). */
const batch = new Int32Array(1024);
function feedBatches(agg: ReturnType<typeof createShardAggregator>, n: number): void {
  for (let s = 0; s < n; s += batch.length) {
    const m = Math.min(batch.length, n - s);
    for (let i = 0; i < m; i++) batch[i] = s + i;
    agg.collectBatch(batch, m, null);
  }
}

function run(json: unknown, docs = N, batches = false): number {
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
  if (batches) feedBatches(agg, docs);
  else feed(agg, docs);
  const res = agg.finish();
  const c1 = process.cpuUsage(c0);
  reduceAggregations(nodes, [res], { maxBuckets: -1 });
  return (c1.user + c1.system) / 1000;
}

/**
 * Floors for comparison: hand-written loops over the same columns without the aggregation
 * framework, i.e. what this machine needs just to touch the data (arrays passed as parameters,
 * as the aggregators get them; a closure over constant arrays would be constant-folded and look
 * several times faster).
 */
function countLoop(counts: Int32Array, ords: Int32Array, n: number): void {
  for (let d = 0; d < n; d++) counts[ords[d]!]!++;
}
function countSumLoop(
  counts: Int32Array,
  sums: Float64Array,
  ords: Int32Array,
  values: Float64Array,
  n: number,
): void {
  for (let d = 0; d < n; d++) {
    const b = ords[d]!;
    counts[b]!++;
    sums[b]! += values[d]!;
  }
}
function floors(): void {
  const ords = (ls.segment.fields.get('tag')!.docValues as { single: Int32Array }).single;
  const price = (ls.segment.fields.get('price')!.docValues as { single: Float64Array }).single;
  const time = (f: () => void): number => {
    const ts: number[] = [];
    for (let i = 0; i < 15; i++) {
      const c0 = process.cpuUsage();
      f();
      const c1 = process.cpuUsage(c0);
      ts.push((c1.user + c1.system) / 1000);
    }
    return ts.sort((a, b) => a - b)[7]!;
  };
  const t1 = time(() => countLoop(new Int32Array(TERMS), ords, N));
  const t2 = time(() =>
    countSumLoop(new Int32Array(TERMS), new Float64Array(TERMS), ords, price, N),
  );
  console.log(
    `floor (hand-written loops, no framework): count by ordinal ${t1.toFixed(2)} ms, count+sum by ordinal ${t2.toFixed(2)} ms`,
  );
}

console.log(`docs per run: ${N.toLocaleString('en-US')}`);
if (!only) floors();
for (const [name, json] of Object.entries(cases)) {
  if (only && name !== only) continue;
  // Warm up the way a server does (many small collections first) so the JIT sees the hot loops
  // before it compiles the long per-doc loop, then a few full runs.
  const stats = (batches: boolean): [number, number] => {
    for (let i = 0; i < Number(process.env.WARMUP ?? 200); i++) run(json, 10_000, batches);
    for (let i = 0; i < 3; i++) run(json, N, batches);
    const times: number[] = [];
    for (let i = 0; i < 7; i++) times.push(run(json, N, batches));
    times.sort((a, b) => a - b);
    return [times[3]!, times[0]!];
  };
  const [med, best] = stats(false);
  const [bmed, bbest] = stats(true);
  const rate = (ms: number) => `${(((N / ms) * 1000) / 1e6).toFixed(1)}M docs/s`;
  console.log(
    `${name.padEnd(22)} collect(): median ${med.toFixed(2).padStart(7)} ms (best ${best.toFixed(2).padStart(7)}) ${rate(med).padStart(15)}   collectBatch(): median ${bmed.toFixed(2).padStart(7)} ms (best ${bbest.toFixed(2).padStart(7)}) ${rate(bmed).padStart(15)}`,
  );
}
