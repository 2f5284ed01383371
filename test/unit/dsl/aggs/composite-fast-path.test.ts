/**
 * The composite aggregator's integer-keyed path (composite-keys.ts) against its general path:
 * the same aggregation over the same documents, once with SQL's script helpers (docValue marked
 * as first-value, so CASE scripts are decided on the column) and once with an unmarked but
 * equivalent docValue (which sends every source through the general path). Keyword, numeric,
 * histogram and CASE-script sources, multi-valued and missing values, missing_bucket, `missing`,
 * orders, an avg sub-aggregation, shards/segments/deletions and after_key paging must agree.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SCRIPT_METHODS } from '../../../../src/functions/index.js';
import { sqlScriptMethods } from '../../../../src/sql/execute/script-bridge.js';
import { buildIndex, json, search } from './helpers/shards.js';

type Methods = Record<string, (...a: unknown[]) => unknown>;

const raw: Methods = {};
for (const [k, fn] of Object.entries(SCRIPT_METHODS)) {
  raw[`InternalQlScriptUtils.${k}`] = fn as (...a: unknown[]) => unknown;
  raw[`InternalSqlScriptUtils.${k}`] = fn as (...a: unknown[]) => unknown;
}
const marked = sqlScriptMethods(raw);
const unmarked: Methods = { ...marked };
for (const ns of ['InternalQlScriptUtils', 'InternalSqlScriptUtils']) {
  const f = marked[`${ns}.docValue`]!;
  unmarked[`${ns}.docValue`] = (...a) => f(...a);
}

/** What ES SQL emits for CASE WHEN v < t0 THEN 'a' WHEN v >= t1 AND v <> t2 THEN 'b' ELSE 'c'. */
const CASE_SCRIPT = {
  source:
    'InternalQlScriptUtils.nullSafeFilter(InternalQlScriptUtils.lt(InternalQlScriptUtils.docValue(doc,params.v0),params.v1)) ? params.v2 : ' +
    'InternalQlScriptUtils.nullSafeFilter(InternalQlScriptUtils.and(InternalQlScriptUtils.gte(InternalQlScriptUtils.docValue(doc,params.v0),params.v3),' +
    'InternalQlScriptUtils.neq(InternalQlScriptUtils.docValue(doc,params.v0),params.v4))) ? params.v5 : params.v6',
  lang: 'painless',
};

const caseArb = fc.record({
  docs: fc.array(
    fc.record({
      k: fc.array(fc.constantFrom('a', 'b', 'c', 'd', 'e'), { maxLength: 2 }),
      v: fc.array(fc.integer({ min: -3, max: 6 }), { maxLength: 2 }),
      x: fc.option(fc.double({ min: -5, max: 5, noNaN: true }), { nil: undefined }),
    }),
    { minLength: 1, maxLength: 60 },
  ),
  shards: fc.integer({ min: 1, max: 3 }),
  refreshEvery: fc.integer({ min: 1, max: 20 }),
  deleteEvery: fc.integer({ min: 0, max: 7 }),
  size: fc.integer({ min: 1, max: 9 }),
  thresholds: fc.tuple(
    fc.integer({ min: -3, max: 6 }),
    fc.integer({ min: -3, max: 6 }),
    fc.integer({ min: -3, max: 6 }),
  ),
  sources: fc.subarray(['k', 'v', 'h', 'case', 'xcase', 'kmiss'] as const, { minLength: 1 }),
  missingBucket: fc.boolean(),
  desc: fc.boolean(),
  avg: fc.boolean(),
});

type Case = typeof caseArb extends fc.Arbitrary<infer T> ? T : never;

function sourceJson(name: string, c: Case): object {
  const order = c.desc ? 'desc' : 'asc';
  const mb = { missing_bucket: c.missingBucket };
  const [t0, t1, t2] = c.thresholds;
  const script = (field: string) => ({
    ...CASE_SCRIPT,
    params: { v0: field, v1: t0, v2: 'low', v3: t1, v4: t2, v5: 'mid', v6: 'high' },
  });
  switch (name) {
    case 'k':
      return { k: { terms: { field: 'k', order, ...mb } } };
    case 'kmiss':
      return { kmiss: { terms: { field: 'k', missing: 'zz' } } };
    case 'v':
      return { v: { terms: { field: 'v', order, ...mb } } };
    case 'h':
      return { h: { histogram: { field: 'v', interval: 3, ...mb } } };
    case 'case':
      return { case: { terms: { script: script('v'), value_type: 'string', order, ...mb } } };
    default:
      return { xcase: { terms: { script: script('x'), value_type: 'string', ...mb } } };
  }
}

function pages(idx: ReturnType<typeof buildIndex>, c: Case, methods: Methods): unknown[] {
  const out: unknown[] = [];
  let after: Record<string, unknown> | undefined;
  for (let page = 0; page < 200; page++) {
    const r = json(
      search(
        idx,
        {
          g: {
            composite: {
              size: c.size,
              sources: c.sources.map((s) => sourceJson(s, c)),
              ...(after ? { after } : {}),
            },
            ...(c.avg ? { aggs: { a: { avg: { field: 'x' } } } } : {}),
          },
        },
        { scriptMethods: methods },
      ),
    ) as { g: { buckets: Array<Record<string, unknown>>; after_key?: Record<string, unknown> } };
    out.push(...r.g.buckets);
    if (r.g.buckets.length < c.size || !r.g.after_key) break;
    after = r.g.after_key;
  }
  return out;
}

describe('composite integer-keyed path agrees with the general path', () => {
  it('keyword / numeric / histogram / CASE script sources, paged by after_key', () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        const deletes: string[] = [];
        if (c.deleteEvery > 0)
          for (let i = 0; i < c.docs.length; i += c.deleteEvery) deletes.push(String(i + 1));
        const idx = buildIndex(
          { k: 'keyword', v: 'long', x: 'double' },
          c.docs.map((d) => ({
            ...(d.k.length ? { k: d.k } : {}),
            ...(d.v.length ? { v: d.v } : {}),
            ...(d.x !== undefined ? { x: d.x } : {}),
          })),
          { shards: c.shards, refreshEvery: c.refreshEvery, deletes },
        );
        expect(pages(idx, c, marked)).toEqual(pages(idx, c, unmarked));
      }),
      { numRuns: 150 },
    );
  });

  it('CASE over a numeric column buckets like the script (missing values included)', () => {
    const idx = buildIndex({ size: 'long', c: 'keyword' }, [
      { size: 10, c: 'x' },
      { size: 999, c: 'x' },
      { size: 1000, c: 'y' },
      { size: 50000, c: 'x' },
      { size: 100000, c: 'x' },
      { c: 'y' },
      { size: [5, 200000] },
    ]);
    const script = {
      source:
        'InternalQlScriptUtils.nullSafeFilter(InternalQlScriptUtils.lt(InternalQlScriptUtils.docValue(doc,params.v0),params.v1)) ? params.v2 : ' +
        'InternalQlScriptUtils.nullSafeFilter(InternalQlScriptUtils.lt(InternalQlScriptUtils.docValue(doc,params.v0),params.v3)) ? params.v4 : params.v5',
      params: { v0: 'size', v1: 1000, v2: '*-1000', v3: 100000, v4: '1000-100000', v5: '100000-*' },
    };
    const r = json(
      search(
        idx,
        {
          g: {
            composite: {
              sources: [{ b: { terms: { script, value_type: 'string', missing_bucket: true } } }],
            },
          },
        },
        { scriptMethods: marked },
      ),
    ) as { g: { buckets: Array<{ key: { b: string }; doc_count: number }> } };
    // a missing size is null: no WHEN holds, so ELSE; [5, 200000] reads its first value, 5
    expect(r.g.buckets.map((b) => [b.key.b, b.doc_count])).toEqual([
      ['*-1000', 3],
      ['1000-100000', 2],
      ['100000-*', 2],
    ]);
  });

  it('CASE over single-valued doubles counted by region agrees with the script, at and between thresholds', () => {
    // fractional and negative thresholds, values at, just beside and between them, -0.0 and
    // missing values: the region counts (no sub-aggregation) must bucket as the script does
    const xs = [-7, -1.5, -1, -0.999, -0, 0, 0.25, 0.5, 0.5000001, 2, 3, 3, 1e300, -1e300];
    const docs = [];
    for (let i = 0; i < 300; i++) docs.push(i % 17 === 0 ? {} : { x: xs[i % xs.length]! });
    const idx = buildIndex({ x: 'double' }, docs, { shards: 2, refreshEvery: 40, deletes: [] });
    const script = {
      source:
        'InternalQlScriptUtils.nullSafeFilter(InternalQlScriptUtils.lt(InternalQlScriptUtils.docValue(doc,params.v0),params.v1)) ? params.v2 : ' +
        'InternalQlScriptUtils.nullSafeFilter(InternalQlScriptUtils.lte(InternalQlScriptUtils.docValue(doc,params.v0),params.v3)) ? params.v4 : ' +
        'InternalQlScriptUtils.nullSafeFilter(InternalQlScriptUtils.neq(InternalQlScriptUtils.docValue(doc,params.v0),params.v5)) ? params.v6 : params.v7',
      params: { v0: 'x', v1: -1, v2: 'a', v3: 0.5, v4: 'b', v5: 3, v6: 'c', v7: 'd' },
    };
    const run = (methods: Methods) =>
      json(
        search(
          idx,
          { g: { composite: { sources: [{ b: { terms: { script, value_type: 'string', missing_bucket: true } } }] } } }, // prettier-ignore
          { scriptMethods: methods },
        ),
      ) as { g: { buckets: Array<{ key: { b: string }; doc_count: number }> } };
    const fast = run(marked).g.buckets.map((b) => [b.key.b, b.doc_count]);
    expect(fast).toEqual(run(unmarked).g.buckets.map((b) => [b.key.b, b.doc_count]));
    expect(fast.map((b) => b[0])).toEqual(['a', 'b', 'c', 'd']);
  });
});
