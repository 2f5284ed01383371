/**
 * Parsing of the `aggs` object with ES 6.8's errors (AggregatorFactories.parseAggregators,
 * ObjectParser, NamedXContentRegistry), the tree shape (sub-aggregations vs pipelines, pipeline
 * dependency order) and shard-time validation errors.
 */
import { describe, expect, it } from 'vitest';
import { parseAggregations, validateAggregations } from '../../../../src/dsl/aggs/index.js';
import { errorOf } from './helpers/shards.js';

const parseError = (json: unknown) => errorOf(() => parseAggregations(json)).error;

describe('parseAggregations', () => {
  it('builds the tree: sub-aggregations, pipelines and meta', () => {
    const nodes = parseAggregations({
      t: {
        meta: { a: 1 },
        terms: { field: 'k' },
        aggs: {
          s: { sum: { field: 'v' } },
          r: { bucket_script: { buckets_path: { x: 's' }, script: 'params.x' } },
        },
      },
    });
    expect(nodes).toHaveLength(1);
    const t = nodes[0]!;
    expect(t.name).toBe('t');
    expect(t.type).toBe('terms');
    expect(t.meta).toEqual({ a: 1 });
    expect(t.subAggs.map((n) => n.name)).toEqual(['s']);
    expect(t.pipelines.map((n) => n.name)).toEqual(['r']);
  });

  it('orders pipelines by their buckets_path dependencies', () => {
    const nodes = parseAggregations({
      h: {
        histogram: { field: 'n', interval: 1 },
        aggs: {
          c: { cumulative_sum: { buckets_path: 'd' } },
          d: { derivative: { buckets_path: 's' } },
          s: { sum: { field: 'v' } },
        },
      },
    });
    validateAggregations(nodes);
    expect(nodes[0]!.pipelines.map((n) => n.name)).toEqual(['d', 'c']);
    const cyclic = parseAggregations({
      h: {
        histogram: { field: 'n', interval: 1 },
        aggs: {
          a: { derivative: { buckets_path: 'b' } },
          b: { derivative: { buckets_path: 'a' } },
        },
      },
    });
    expect(() => validateAggregations(cyclic)).toThrow(
      'Cyclical dependency found with pipeline aggregator [a]',
    );
  });

  it('reports ES parse errors', () => {
    expect(parseError({ n: 'x' })).toMatchObject({
      type: 'parsing_exception',
      reason:
        'Aggregation definition for [n starts with a [VALUE_STRING], expected a [START_OBJECT].',
    });
    expect(parseError({ y: { x: 'foo' } })).toMatchObject({
      type: 'parsing_exception',
      reason: 'Expected [START_OBJECT] under [x], but got a [VALUE_STRING] in [y]',
    });
    // the missing-name case of AggregatorFactoriesTests.testMissingName
    expect(
      parseError({
        by_date: {
          date_histogram: { field: 'timestamp', interval: 'month' },
          aggs: { cardinality: { field: 'tag' } },
        },
      }),
    ).toMatchObject({
      reason: 'Expected [START_OBJECT] under [field], but got a [VALUE_STRING] in [cardinality]',
    });
    expect(parseError({ n: { terms: { field: 'a' }, avg: { field: 'b' } } })).toMatchObject({
      type: 'parsing_exception',
      reason: 'Found two aggregation type definitions in [n]: [terms] and [avg]',
    });
    expect(parseError({ n: { terms: { field: 'a' }, aggs: {}, aggregations: {} } })).toMatchObject({
      reason: 'Found two sub aggregation definitions under [n]',
    });
    expect(parseError({ 'a>b': { avg: { field: 'x' } } })).toMatchObject({
      type: 'parsing_exception',
      reason:
        "Invalid aggregation name [a>b]. Aggregation names must be alpha-numeric and can only contain '_' and '-'",
    });
    expect(parseError({ n: { meta: {} } })).toMatchObject({
      reason: 'Missing definition for aggregation [n]',
    });
    expect(parseError({ n: { foo: {} } })).toMatchObject({
      type: 'named_object_not_found_exception',
      reason: 'unable to parse BaseAggregationBuilder with name [foo]: parser not found',
    });
    expect(
      errorOf(() =>
        parseAggregations({ n: { avg: { field: 'x' }, aggs: { m: { max: { field: 'y' } } } } }),
      ),
    ).toMatchObject({
      status: 500,
      error: {
        type: 'aggregation_initialization_exception',
        reason: 'Aggregator [n] of type [avg] cannot accept sub-aggregations',
      },
    });
    expect(parseError({ n: { avg: { field: 'x', bogus: 1 } } })).toMatchObject({
      type: 'x_content_parse_exception',
      reason: '[avg] unknown field [bogus], parser not found',
    });
    expect(parseError({ n: { avg: { field: ['x'] } } })).toMatchObject({
      type: 'x_content_parse_exception',
      reason: "[avg] field doesn't support values of type: START_ARRAY",
    });
    expect(parseError({ n: { avg: { field: 'x', value_type: 'string' } } })).toMatchObject({
      reason: '[avg] failed to parse field [value_type]',
      caused_by: {
        type: 'parsing_exception',
        reason:
          'Aggregation [avg] was configured with an incompatible value type [string]. It can only work on value of type [numeric]',
      },
    });
    expect(
      parseError({ t: { terms: { field: 'k', order: { _count: 'sideways' } } } }),
    ).toMatchObject({
      caused_by: { reason: 'Unknown order direction [sideways]' },
    });
    expect(
      parseError({ d: { derivative: { buckets_path: 'x', gap_policy: 'nope' } } }),
    ).toMatchObject({
      reason: 'Invalid gap policy: [nope], accepted values: [skip, insert_zeros]',
    });
  });

  it('accepts the script forms ES accepts', () => {
    const nodes = parseAggregations({
      a: { avg: { script: 'doc.x.value' } },
      b: { avg: { script: { source: 'doc.x.value', lang: 'painless', params: { p: 1 } } } },
      c: { avg: { script: { inline: 'doc.x.value' } } },
    });
    expect(
      nodes.map(
        (n) => (n.params as { source: { script: { source: string } } }).source.script.source,
      ),
    ).toEqual(['doc.x.value', 'doc.x.value', 'doc.x.value']);
  });
});
