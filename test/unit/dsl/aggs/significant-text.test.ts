/**
 * significant_text: the rest-api-spec 90_sig_text.yml cases at the aggregator level (terms from
 * re-analysed `_source`, once per doc; duplicate runs filtered per bucket), plus the pieces:
 * DuplicateByteSequenceSpotter counting, the token filter, source value extraction, parsing.
 */
import { describe, expect, it } from 'vitest';
import {
  dedupTokens,
  DuplicateSequenceSpotter,
  extractRawValues,
  parseSignificantText,
} from '../../../../src/dsl/aggs/bucket/significant-text.js';
import { standardResolver } from '../../../helpers/fields.js';
import { buildIndex, errorOf, json, search } from './helpers/shards.js';

type Doc = { text: string; class: string };

function index(docs: Doc[]) {
  const idx = buildIndex({ text: 'text', class: 'keyword' }, docs);
  const byId = new Map(docs.map((d, i) => [String(i + 1), d]));
  const context = () => ({
    sourceOf: (ls: { segment: { ids: string[] } }, doc: number) =>
      byId.get(ls.segment.ids[doc]!) ?? null,
    indexAnalyzer: standardResolver.indexAnalyzer,
  });
  return { idx, context };
}

const sigKeys = (r: Record<string, unknown>) =>
  (
    json(r) as {
      class: { buckets: Array<{ key: string; sig_text: { buckets: Array<{ key: string }> } }> };
    }
  ).class.buckets.map((b) => [b.key, b.sig_text.buckets.map((x) => x.key)]);

describe('significant_text (90_sig_text.yml)', () => {
  it('Default index: the class word is the significant text of each class', () => {
    const { idx, context } = index([
      { text: 'good', class: 'good' },
      { text: 'good', class: 'good' },
      { text: 'bad', class: 'bad' },
      { text: 'bad', class: 'bad' },
      { text: 'good bad', class: 'good' },
      { text: 'good bad', class: 'bad' },
      { text: 'bad', class: 'bad' },
    ]);
    const r = search(
      idx,
      {
        class: {
          terms: { field: 'class' },
          aggs: { sig_text: { significant_text: { field: 'text' } } },
        },
      },
      { context },
    );
    expect(sigKeys(r)).toEqual([
      ['bad', ['bad']],
      ['good', ['good']],
    ]);
    const bad = (json(r) as any).class.buckets[0].sig_text;
    expect(bad.doc_count).toBe(4);
    expect(bad.bg_count).toBe(7);
    expect(bad.buckets[0]).toMatchObject({ key: 'bad', doc_count: 4, bg_count: 5 });
  });

  it('Dedup noise: repeated runs of six tokens are dropped within a bucket', () => {
    const { idx, context } = index([
      { text: 'good noisewords1 g1 g2 g3 g4 g5 g6', class: 'good' },
      { text: 'good  noisewords2 g1 g2 g3 g4 g5 g6', class: 'good' },
      { text: 'bad noisewords3 b1 b2 b3 b4 b5 b6', class: 'bad' },
      { text: 'bad noisewords4 b1 b2 b3 b4 b5 b6', class: 'bad' },
      { text: 'good bad noisewords5 gb1 gb2 gb3 gb4 gb5 gb6', class: 'good' },
      { text: 'good bad noisewords6 gb1 gb2 gb3 gb4 gb5 gb6', class: 'bad' },
      { text: 'bad noisewords7 b1 b2 b3 b4 b5 b6', class: 'bad' },
    ]);
    const aggs = (dedup: boolean) => ({
      class: {
        terms: { field: 'class' },
        aggs: { sig_text: { significant_text: { field: 'text', filter_duplicate_text: dedup } } },
      },
    });
    expect(sigKeys(search(idx, aggs(true), { context }))).toEqual([
      ['bad', ['bad']],
      ['good', ['good']],
    ]);
    // without the filter, b1..b6 reach min_doc_count 3 in the bad class
    const noisy = sigKeys(search(idx, aggs(false), { context }));
    expect(noisy[0]![1]).toContain('b1');
  });

  it('counts a term once per doc over all source_fields, honours include', () => {
    const { idx, context } = index([
      { text: 'x x y', class: 'a' },
      { text: 'x z', class: 'a' },
      { text: 'x', class: 'a' },
      { text: 'q', class: 'b' },
    ]);
    const r = json(
      search(
        idx,
        {
          s: {
            significant_text: {
              field: 'text',
              source_fields: ['text', 'class'],
              min_doc_count: 1,
              include: ['x', 'a'],
            },
          },
        },
        { context, query: { term: { class: 'a' } } },
      ),
    ) as any;
    expect(r.s.doc_count).toBe(3);
    const byKey = Object.fromEntries(r.s.buckets.map((b: any) => [b.key, b.doc_count]));
    expect(byKey).toEqual({ x: 3, a: 3 });
  });

  it('fails on an unmapped field when it collects', () => {
    const { idx, context } = index([{ text: 'x', class: 'a' }]);
    expect(
      errorOf(() => search(idx, { s: { significant_text: { field: 'nope' } } }, { context })).error
        .reason,
    ).toBe('Aggregation [s] cannot process field [nope] since it is not present');
  });
});

describe('duplicate text filtering', () => {
  it('counts prior sightings of each run of six token bytes', () => {
    const s = new DuplicateSequenceSpotter();
    const run = [1, 2, 3, 4, 5, 6];
    expect(run.map((b) => s.add(b))).toEqual([0, 0, 0, 0, 0, 0]);
    s.startNewSequence();
    expect(run.map((b) => s.add(b))).toEqual([0, 0, 0, 0, 0, 1]);
    expect(s.add(1)).toBe(0);
  });

  it('drops the tokens of a repeated run, keeps the rest', () => {
    const s = new DuplicateSequenceSpotter();
    const a = 'p q r s t u'.split(' ');
    expect(dedupTokens(['w', ...a], s)).toEqual(['w', ...a]);
    s.startNewSequence();
    expect(dedupTokens(['v', ...a, 'z'], s)).toEqual(['v', 'z']);
  });
});

describe('extractRawValues / parse', () => {
  it('reads dotted paths through objects and arrays', () => {
    const src = { a: [{ b: 'x' }, { b: ['y', 'z'] }], 'c.d': 1, c: { d: 2 } };
    expect(extractRawValues(src, 'a.b')).toEqual(['x', 'y', 'z']);
    expect(extractRawValues(src, 'c.d').sort()).toEqual([1, 2]);
    expect(extractRawValues(src, 'missing')).toEqual([]);
  });

  it('parses the builder fields and rejects unknown ones', () => {
    const p = parseSignificantText(
      { field: 'f', filter_duplicate_text: true, source_fields: ['a', 'b'], size: 3, gnd: {} },
      'n',
    );
    expect([p.field, p.filterDuplicateText, p.sourceFields, p.size, p.heuristic.kind]).toEqual([
      'f',
      true,
      ['a', 'b'],
      3,
      'gnd',
    ]);
    expect(() => parseSignificantText({ field: 'f', script: 'x' }, 'n')).toThrow();
  });
});
