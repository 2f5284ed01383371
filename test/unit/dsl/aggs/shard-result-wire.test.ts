/**
 * Shard aggregation results cross nodes (encode, v8 serialize, decode on the coordinator's own
 * parse of the request) and reduce to exactly what the in-process results reduce to.
 */
import { deserialize, serialize } from 'node:v8';
import { describe, expect, it } from 'vitest';
import {
  decodeShardAggs,
  encodeShardAggs,
  isRenderedAggHit,
} from '../../../../src/dsl/aggs/shard-result-wire.js';
import { parseAggregations, type AggHit } from '../../../../src/dsl/aggs/index.js';
import type { CollectedHit } from '../../../../src/search/collect/top-docs.js';
import { buildIndex, json, search, type SearchOptions } from './helpers/shards.js';

const docs = Array.from({ length: 60 }, (_, i) => ({
  _id: `d${i}`,
  tag: ['red', 'green', 'blue', 'cyan'][i % 4],
  n: (i * 37) % 101,
  price: ((i * 13) % 50) / 4,
  ip: `10.0.0.${i % 7}`,
  day: Date.UTC(2020, 0, 1 + (i % 20), i % 24),
  flag: i % 3 === 0,
}));
const idx = buildIndex(
  {
    tag: 'keyword',
    n: 'long',
    price: 'double',
    ip: 'ip',
    day: { type: 'date', format: 'yyyy-MM-dd HH:mm||epoch_millis' },
    flag: 'boolean',
  },
  docs,
  { shards: 3, refreshEvery: 7 },
);

// the coordinator's view of a hit: rendered on its shard when it crossed nodes
const render = (hits: CollectedHit[]) =>
  hits.map((h) => ({ _id: h.segment.segment.ids[h.doc], sort: h.sort, _score: h.score }));
const fetchHits = (hits: CollectedHit[]) =>
  hits.map((h) => (isRenderedAggHit(h) ? h.rendered : render([h])[0]));

const overTheWire: SearchOptions['shardResult'] = (r, _nodes, origin) => {
  // the sender and the receiver each parse the request themselves
  const data = serialize(encodeShardAggs(r, _nodes, (hits) => render(hits)));
  return decodeShardAggs(deserialize(data), parseAggregations(aggsNow), origin);
};
let aggsNow: unknown = null;

const both = (aggs: unknown, opts: SearchOptions = {}) => {
  aggsNow = aggs;
  const local = json(search(idx, aggs, { ...opts, fetchHits }));
  const wired = json(search(idx, aggs, { ...opts, fetchHits, shardResult: overTheWire }));
  return { local, wired };
};

const cases: Record<string, unknown> = {
  terms: { t: { terms: { field: 'tag', size: 2, show_term_doc_count_error: true } } },
  termsSub: {
    t: { terms: { field: 'tag', order: { m: 'desc' } }, aggs: { m: { max: { field: 'n' } } } },
  },
  numericTerms: { t: { terms: { field: 'n', size: 3, format: '0.00' } } },
  avg: { a: { avg: { field: 'price' } } },
  stats: { s: { stats: { field: 'n' } }, e: { extended_stats: { field: 'price' } } },
  cardinality: { c: { cardinality: { field: 'n' } }, c2: { cardinality: { field: 'tag' } } },
  percentiles: {
    p: { percentiles: { field: 'price', percents: [5, 50, 95] } },
    h: { percentiles: { field: 'n', hdr: { number_of_significant_value_digits: 2 } } },
    r: { percentile_ranks: { field: 'n', values: [10, 50] } },
  },
  dateHistogram: {
    d: {
      date_histogram: {
        field: 'day',
        interval: 'day',
        min_doc_count: 0,
        extended_bounds: { min: '2019-12-30', max: '2020-01-25' },
        time_zone: '+02:00',
        format: 'yyyy-MM-dd',
      },
      aggs: { s: { sum: { field: 'n' } } },
    },
  },
  histogram: {
    h: { histogram: { field: 'n', interval: 10, min_doc_count: 0, offset: 3 } },
  },
  ranges: {
    r: { range: { field: 'price', ranges: [{ to: 3 }, { from: 3, to: 8 }, { from: 8 }] } },
    ip: { ip_range: { field: 'ip', ranges: [{ to: '10.0.0.3' }, { from: '10.0.0.3' }] } },
    dr: { date_range: { field: 'day', ranges: [{ to: '2020-01-10 00:00' }] } },
  },
  filters: {
    f: {
      filters: { filters: { red: { term: { tag: 'red' } }, hi: { range: { n: { gte: 50 } } } } },
    },
    missing: { missing: { field: 'nope' } },
  },
  topHits: {
    t: {
      terms: { field: 'tag' },
      aggs: { top: { top_hits: { size: 2, sort: [{ n: 'desc' }] } } },
    },
    best: { top_hits: { size: 3 } },
  },
  composite: {
    c: {
      composite: {
        size: 5,
        sources: [
          { t: { terms: { field: 'tag' } } },
          { d: { date_histogram: { field: 'day', interval: '1w' } } },
        ],
      },
    },
  },
  pipelines: {
    h: {
      histogram: { field: 'n', interval: 25 },
      aggs: { s: { sum: { field: 'price' } }, d: { derivative: { buckets_path: 's' } } },
    },
    m: { max_bucket: { buckets_path: 'h>s' } },
  },
  more: {
    w: { weighted_avg: { value: { field: 'price' }, weight: { field: 'n' } } },
    m: { matrix_stats: { fields: ['n', 'price'] } },
    s: { sampler: { shard_size: 5 }, aggs: { t: { terms: { field: 'tag' } } } },
    g: { global: {}, aggs: { c: { value_count: { field: 'tag' } } } },
    sig: { significant_terms: { field: 'tag', min_doc_count: 1 } },
    mm: { min: { field: 'day' } },
    adj: {
      adjacency_matrix: {
        filters: { a: { term: { tag: 'red' } }, b: { range: { n: { gte: 20 } } } },
      },
    },
  },
  booleanTerms: { b: { terms: { field: 'flag' } }, v: { value_count: { field: 'n' } } },
};

describe('shard aggregation results over the wire', () => {
  for (const [name, aggs] of Object.entries(cases)) {
    it(`reduces ${name} as in process`, () => {
      const { local, wired } = both(aggs, { query: { range: { n: { gte: 5 } } } });
      expect(wired).toEqual(local);
    });
  }

  it('refuses a result holding a function it does not know (never an incomplete result)', () => {
    const nodes = parseAggregations(cases.avg);
    const odd = { spec: 'x', name: 'a', meta: null, node: nodes[0]!, f: () => 1 };
    expect(() => encodeShardAggs({ aggs: [odd as never], bucketCount: 0 }, nodes, render)).toThrow(
      'aggregation result cannot cross nodes: a function at [aggregations.aggs[0].f]',
    );
  });

  it('ships top_hits hits rendered, without segment references', () => {
    aggsNow = cases.topHits;
    const nodes = parseAggregations(cases.topHits);
    let rendered = 0;
    search(idx, cases.topHits, {
      fetchHits,
      shardResult: (r, n, origin) => {
        const wire = deserialize(serialize(encodeShardAggs(r, n, (h) => render(h))));
        const back = decodeShardAggs(wire, nodes, origin);
        const best = back.aggs.find((a) => a.name === 'best') as unknown as { hits: AggHit[] };
        for (const h of best.hits) {
          expect(isRenderedAggHit(h)).toBe(true);
          expect(h.segment).toBeUndefined();
          expect(h.origin).toBe(origin);
          rendered++;
        }
        return back;
      },
    });
    expect(rendered).toBe(9);
  });
});
