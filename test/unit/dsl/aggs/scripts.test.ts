/**
 * Scripts as value sources (`script` instead of `field`, value scripts with `_value`), the forms
 * ES SQL emits (InternalSqlScriptUtils calls in metrics and composite sources), 6.8's default
 * values for missing doc values (with its deprecation warning), and terms on `_index`.
 */
import { describe, expect, it } from 'vitest';
import type { ScriptDate } from '../../../../src/dsl/script/index.js';
import { buildIndex, json, search } from './helpers/shards.js';

const idx = buildIndex(
  { n: 'long', d: 'double', k: 'keyword', t: 'date' },
  [
    { n: 1, d: 1.5, k: 'a', t: '2020-01-01' },
    { n: 2, d: 2.5, k: 'b', t: '2020-02-01' },
    { n: 3, k: 'a', t: '2021-01-01' },
    { k: 'c' },
  ],
  { shards: 2 },
);

const methods = {
  'InternalSqlScriptUtils.docValue': (doc: unknown, f: unknown) => {
    const v = (doc as { get(f: string): { isEmpty(): boolean; get(i: number): unknown } }).get(
      f as string,
    );
    return v.isEmpty() ? null : v.get(0);
  },
  'InternalSqlScriptUtils.mul': (a: unknown, b: unknown) =>
    a === null ? null : (a as number) * (b as number),
  'InternalSqlScriptUtils.dateTimeChrono': (d: unknown) =>
    d === null ? null : new Date((d as ScriptDate).getMillis()).getUTCFullYear(),
};

describe('scripts in aggregations', () => {
  it('metric and terms scripts, value scripts', () => {
    const warnings: string[] = [];
    const r = json(
      search(
        idx,
        {
          a: { avg: { script: "doc['n'].value * 2" } },
          b: { sum: { field: 'n', script: '_value * 10' } },
          c: { terms: { script: "doc['k'].value + '!'" } },
          h: { terms: { field: 'n', script: '_value + 100' } },
        },
        { warnings },
      ),
    );
    // doc 4 has no `n`: 6.8 reads 0 and warns
    expect(r).toEqual({
      a: { value: 3 },
      b: { value: 60 },
      c: {
        doc_count_error_upper_bound: 0,
        sum_other_doc_count: 0,
        buckets: [
          { key: 'a!', doc_count: 2 },
          { key: 'b!', doc_count: 1 },
          { key: 'c!', doc_count: 1 },
        ],
      },
      h: {
        doc_count_error_upper_bound: 0,
        sum_other_doc_count: 0,
        buckets: [
          { key: 101, doc_count: 1 },
          { key: 102, doc_count: 1 },
          { key: 103, doc_count: 1 },
        ],
      },
    });
    expect(warnings).toEqual([
      "returning default values for missing document values is deprecated. Set system property '-Des.scripting.exception_for_missing_value=true' to make behaviour compatible with future major versions!",
    ]);
  });

  it('ES SQL shapes: scripted metric arguments and a scripted composite source', () => {
    const r = json(
      search(
        idx,
        {
          m: {
            max: {
              script: {
                source:
                  'InternalSqlScriptUtils.mul(InternalSqlScriptUtils.docValue(doc,params.v0),params.v1)',
                lang: 'painless',
                params: { v0: 'd', v1: 2 },
              },
            },
          },
          groupby: {
            composite: {
              size: 1000,
              sources: [
                {
                  y: {
                    terms: {
                      script: {
                        source:
                          'InternalSqlScriptUtils.dateTimeChrono(InternalSqlScriptUtils.docValue(doc,params.v0), params.v1, params.v2)',
                        lang: 'painless',
                        params: { v0: 't', v1: 'Z', v2: 'YEAR' },
                      },
                      missing_bucket: true,
                      value_type: 'long',
                      order: 'asc',
                    },
                  },
                },
              ],
            },
          },
        },
        { scriptMethods: methods },
      ),
    );
    expect(r).toEqual({
      m: { value: 5 },
      groupby: {
        after_key: { y: 2021 },
        buckets: [
          { key: { y: null }, doc_count: 1 },
          { key: { y: 2020 }, doc_count: 2 },
          { key: { y: 2021 }, doc_count: 1 },
        ],
      },
    });
  });

  it('terms and cardinality on _index', () => {
    const r = json(
      search(idx, { i: { terms: { field: '_index' } }, c: { cardinality: { field: '_index' } } }),
    );
    expect(r).toEqual({
      i: {
        doc_count_error_upper_bound: 0,
        sum_other_doc_count: 0,
        buckets: [{ key: 'test', doc_count: 4 }],
      },
      c: { value: 1 },
    });
  });
});

describe('terms scripts reading _score', () => {
  it('get the matching score (not NaN) and key it as a double', () => {
    const r = json(
      search(idx, { s: { terms: { script: '_score' } } }, { query: { match_all: {} } }),
    ) as { s: { buckets: Array<{ key: string; doc_count: number }> } };
    expect(r.s.buckets).toEqual([{ key: '1.0', doc_count: 4 }]);
  });

  it('metric scripts reading _score get it too', () => {
    const r = json(
      search(
        idx,
        {
          sum: { sum: { script: '_score * 2' } },
          max: { max: { script: '_score' } },
          vc: { value_count: { script: '_score' } },
          card: { cardinality: { script: '_score' } },
          pct: { percentiles: { script: '_score', percents: [50] } },
          w: { weighted_avg: { value: { script: '_score' }, weight: { script: '_score' } } },
        },
        { query: { match_all: {} } },
      ),
    ) as Record<string, Record<string, unknown>>;
    expect(r.sum!.value).toBe(8);
    expect(r.max!.value).toBe(1);
    expect(r.vc!.value).toBe(4);
    expect(r.card!.value).toBe(1);
    expect(r.pct!.values).toEqual({ '50.0': 1 });
    expect(r.w!.value).toBe(1);
  });

  it('a script value that contains itself fails the aggregation', () => {
    expect(() =>
      search(idx, {
        s: { terms: { script: 'def x = [:] ; def y = [:] ; x.a = y ; y.a = x ; return x' } },
      }),
    ).toThrow('Iterable object is self-referencing itself');
  });
});
