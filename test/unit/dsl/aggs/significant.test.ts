/**
 * significant_terms against rest-api-spec search.aggregation/30_sig_terms.yml, plus the
 * heuristics' formulas (ES JLHScore, MutualInformation, ChiSquare, GND, PercentageScore,
 * ScriptHeuristic), background filters, deleted docs, shards and typed keys.
 */
import { describe, expect, it } from 'vitest';
import { significanceScore } from '../../../../src/dsl/aggs/bucket/significant-terms.js';
import { buildIndex, errorOf, json, search } from './helpers/shards.js';

const goodbad = [
  { text: 'good', class: 'good' },
  { text: 'good', class: 'good' },
  { text: 'bad', class: 'bad' },
  { text: 'bad', class: 'bad' },
  { text: 'good bad', class: 'good' },
  { text: 'good bad', class: 'bad' },
  { text: 'bad', class: 'bad' },
];
const mapping = { text: { type: 'text' as const, fielddata: true }, class: 'keyword' as const };

describe('significant_terms (30)', () => {
  it('Default index: the class term stands out in each class bucket', () => {
    const idx = buildIndex(mapping, goodbad, { shards: 1 });
    const r = json(
      search(idx, {
        class: {
          terms: { field: 'class' },
          aggs: { sig_terms: { significant_terms: { field: 'text' } } },
        },
      }),
    ) as { class: { buckets: Array<{ key: string; sig_terms: unknown }> } };
    // bad: subset 4 docs (bad in 4, good in 1), background 7 docs (bad in 5, good in 4)
    expect(r.class.buckets[0]).toEqual({
      key: 'bad',
      doc_count: 4,
      sig_terms: {
        doc_count: 4,
        bg_count: 7,
        buckets: [{ key: 'bad', doc_count: 4, score: (1 - 5 / 7) * (1 / (5 / 7)), bg_count: 5 }],
      },
    });
    expect(r.class.buckets[1]).toEqual({
      key: 'good',
      doc_count: 3,
      sig_terms: {
        doc_count: 3,
        bg_count: 7,
        buckets: [{ key: 'good', doc_count: 3, score: (1 - 4 / 7) * (1 / (4 / 7)), bg_count: 4 }],
      },
    });
  });

  it('IP test: keys render as addresses without key_as_string; include/exclude; no regex', () => {
    const idx = buildIndex({ ip: 'ip' }, [{ ip: '::1' }, {}], { shards: 1 });
    const query = { exists: { field: 'ip' } };
    const r = json(
      search(
        idx,
        { ip_terms: { significant_terms: { field: 'ip', min_doc_count: 1 } } },
        { query },
      ),
    ) as { ip_terms: { buckets: Array<Record<string, unknown>> } };
    expect(r.ip_terms.buckets).toEqual([{ key: '::1', doc_count: 1, score: 1, bg_count: 1 }]);
    const inc = json(
      search(
        idx,
        { ip_terms: { significant_terms: { field: 'ip', min_doc_count: 1, include: ['::1'] } } },
        { query },
      ),
    ) as { ip_terms: { buckets: unknown[] } };
    expect(inc.ip_terms.buckets).toHaveLength(1);
    const exc = json(
      search(
        idx,
        { ip_terms: { significant_terms: { field: 'ip', min_doc_count: 1, exclude: ['::1'] } } },
        { query },
      ),
    ) as { ip_terms: { buckets: unknown[] } };
    expect(exc.ip_terms.buckets).toHaveLength(0);
    const e = errorOf(() =>
      search(idx, { ip_terms: { significant_terms: { field: 'ip', exclude: '127.*' } } }),
    );
    expect(e.status).toBeGreaterThanOrEqual(400);
    expect(e.error.reason).toMatch(/cannot support regular expression style include\/exclude/);
  });

  it('reduces across shards (sizes and frequencies summed, rescored), typed keys', () => {
    const idx = buildIndex(mapping, goodbad, { shards: 3 });
    const r = json(
      search(
        idx,
        {
          class: {
            terms: { field: 'class' },
            aggs: { s: { significant_terms: { field: 'text', min_doc_count: 1 } } },
          },
          un: { significant_terms: { field: 'nope' } },
        },
        { typedKeys: true },
      ),
    ) as Record<string, { buckets: Array<Record<string, { buckets: unknown[] }>> }>;
    // The "bad" class bucket exists on shards 0 (docs 4, 7) and 2 (docs 3, 6) only: their maxDocs
    // (3 + 2) make the superset, and a term's background is summed over the shards reporting it
    // (as ES does: "good" is not a candidate on shard 0).
    const bad = r['sterms#class']!.buckets[0]!['sigsterms#s']!;
    expect(bad).toEqual({
      doc_count: 4,
      bg_count: 5,
      buckets: [
        { key: 'bad', doc_count: 4, score: (1 - 4 / 5) * (1 / (4 / 5)), bg_count: 4 },
        { key: 'good', doc_count: 1, score: (1 / 4 - 1 / 5) * (1 / 4 / (1 / 5)), bg_count: 1 },
      ],
    });
    expect(r['sigsterms#un']).toEqual({ buckets: [] });
  });

  it('deleted docs still count in the background (maxDoc and docFreq), not in the subset', () => {
    const idx = buildIndex(mapping, goodbad, { shards: 1, deletes: ['7'] });
    const r = json(
      search(idx, {
        class: { terms: { field: 'class' }, aggs: { s: { significant_terms: { field: 'text' } } } },
      }),
    ) as {
      class: {
        buckets: Array<{
          s: { doc_count: number; bg_count: number; buckets: Array<{ bg_count: number }> };
        }>;
      };
    };
    const bad = r.class.buckets[0]!.s;
    expect(bad.doc_count).toBe(3);
    expect(bad.bg_count).toBe(7);
    expect(bad.buckets[0]!.bg_count).toBe(5);
  });

  it('background_filter, long keys, floating point rejected', () => {
    const idx = buildIndex(
      { n: 'long', d: 'double', class: 'keyword' },
      [
        { n: 1, class: 'a' },
        { n: 1, class: 'a' },
        { n: 1, class: 'a' },
        { n: 2, class: 'b' },
        { n: 2, class: 'b' },
        { n: 1, class: 'b' },
        { n: 3, class: 'b', d: 1.5 },
      ],
      { shards: 1 },
    );
    const r = json(
      search(
        idx,
        {
          s: {
            significant_terms: {
              field: 'n',
              min_doc_count: 1,
              background_filter: { term: { class: 'b' } },
            },
          },
        },
        { query: { term: { class: 'a' } } },
      ),
    ) as { s: { doc_count: number; bg_count: number; buckets: Array<Record<string, unknown>> } };
    // subset: 3 docs all n=1; background: class b (4 docs), n=1 in 1 of them
    expect(r.s.doc_count).toBe(3);
    expect(r.s.bg_count).toBe(4);
    expect(r.s.buckets).toEqual([{ key: 1, doc_count: 3, score: (1 - 1 / 4) * 4, bg_count: 1 }]);
    const e = errorOf(() => search(idx, { s: { significant_terms: { field: 'd' } } }));
    expect(e.error.type).toBe('unsupported_operation_exception');
    expect(e.error.reason).toBe('No support for examining floating point numerics');
  });

  it('heuristics: parse errors', () => {
    const idx = buildIndex(mapping, goodbad, { shards: 1 });
    const err = (h: Record<string, unknown>) =>
      JSON.stringify(
        errorOf(() => search(idx, { s: { significant_terms: { field: 'text', ...h } } })),
      );
    expect(err({ jlh: { x: 1 } })).toMatch(
      /failed to parse \[jlh\] significance heuristic. expected an empty object, but found \[FIELD_NAME\] instead/,
    );
    expect(err({ chi_square: { foo: true } })).toMatch(
      /failed to parse \[chi_square\] significance heuristic. unknown field \[foo\]/,
    );
    expect(err({ script_heuristic: {} })).toMatch(/no script found in script_heuristic/);
  });

  it('heuristics: scores as ES computes them, and each one selects the class term', () => {
    // subsetFreq 4, subsetSize 4, supersetFreq 5, supersetSize 7
    expect(significanceScore({ kind: 'percentage' }, 4, 4, 5, 7)).toBe(0.8);
    expect(
      significanceScore(
        { kind: 'chi_square', includeNegatives: false, backgroundIsSuperset: true },
        4,
        4,
        5,
        7,
      ),
    ).toBeCloseTo((7 * Math.pow(4 * 2 - 0 * 1, 2)) / (4 * 5 * 2 * 3), 12);
    expect(significanceScore({ kind: 'gnd', backgroundIsSuperset: true }, 4, 4, 5, 7)).toBeCloseTo(
      Math.exp(-(Math.log(5) - Math.log(4)) / (Math.log(7) - Math.log(4))),
      12,
    );
    const mi = significanceScore(
      { kind: 'mutual_information', includeNegatives: false, backgroundIsSuperset: true },
      4,
      4,
      5,
      7,
    );
    expect(mi).toBeGreaterThan(0);
    expect(
      significanceScore(
        { kind: 'mutual_information', includeNegatives: false, backgroundIsSuperset: true },
        1,
        4,
        4,
        7,
      ),
    ).toBe(-Infinity);
    expect(() =>
      significanceScore(
        { kind: 'chi_square', includeNegatives: false, backgroundIsSuperset: true },
        5,
        5,
        4,
        7,
      ),
    ).toThrow(/subsetFreq > supersetFreq, does your background filter not include all documents/);
    const idx = buildIndex(mapping, goodbad, { shards: 1 });
    for (const h of [
      { mutual_information: {} },
      { chi_square: {} },
      { gnd: {} },
      { percentage: {} },
      {
        script_heuristic: {
          script: 'params._subset_freq / (params._superset_freq - params._subset_freq + 1.0)',
        },
      },
    ]) {
      const r = json(
        search(idx, {
          class: {
            terms: { field: 'class' },
            aggs: { s: { significant_terms: { field: 'text', min_doc_count: 1, ...h } } },
          },
        }),
      ) as { class: { buckets: Array<{ key: string; s: { buckets: Array<{ key: string }> } }> } };
      for (const b of r.class.buckets) expect(b.s.buckets[0]!.key).toBe(b.key);
    }
  });
});
