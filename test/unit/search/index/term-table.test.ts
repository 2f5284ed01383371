import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { sortedTermIds, TermTable } from '../../../../src/search/index/term-table.js';
import {
  SegmentBuilder,
  type AnalysisResolver,
} from '../../../../src/search/index/segment-builder.js';
import { AnalysisRegistry } from '../../../../src/search/analysis/index.js';
import type { Analyzer } from '../../../../src/search/analysis/types.js';
import { doc, field, standardResolver } from '../../../helpers/fields.js';

describe('TermTable', () => {
  it('gives dense ids in insertion order and finds them again across growth', () => {
    const t = new TermTable();
    const words = Array.from({ length: 5000 }, (_, i) => `w${i * 7919}`);
    words.forEach((w, i) => expect(t.id(w)).toBe(i));
    words.forEach((w, i) => expect(t.id(w)).toBe(i));
    expect(t.size).toBe(5000);
    expect(t.terms).toEqual(words);
  });

  it('looks up lowercased ASCII slices as the same terms', () => {
    const t = new TermTable();
    expect(t.id('hello')).toBe(0);
    const text = 'say HeLLo World';
    expect(t.idLowerAscii(text, 4, 9)).toBe(0);
    expect(t.idLowerAscii(text, 10, 15)).toBe(1);
    expect(t.terms[1]).toBe('world');
    expect(t.id('world')).toBe(1);
    expect(t.idLowerAscii('hell', 0, 4)).toBe(2);
  });
});

describe('sortedTermIds', () => {
  const units = fc.constantFrom('a', 'b', 'ab', '\u0000', '\u00ff', '\u0100', '\uffff', 'é', 'z');
  const term = fc.array(units, { maxLength: 7 }).map((u) => u.join(''));

  it('orders ids like a string sort, ties past the 4-unit prefix included', () => {
    fc.assert(
      fc.property(fc.uniqueArray(term, { maxLength: 60 }), (terms) => {
        const ids = Array.from(sortedTermIds(terms));
        expect(ids.map((i) => terms[i])).toEqual(terms.slice().sort());
      }),
      { numRuns: 300 },
    );
  });

  it('keeps only the accepted ids', () => {
    const terms = ['delta', 'alpha', 'charlie', 'bravo', ''];
    expect(Array.from(sortedTermIds(terms, (t) => t !== 2))).toEqual([4, 1, 3, 0]);
  });
});

describe('indexer fast path for the standard analyzer', () => {
  const std = AnalysisRegistry.builtin.analyzer('standard')!;
  it('is enabled for standard and not for other chains', () => {
    expect(std.asciiStandardLower).toBe(255);
    expect(AnalysisRegistry.builtin.analyzer('simple')!.asciiStandardLower).toBeUndefined();
    expect(AnalysisRegistry.builtin.analyzer('english')!.asciiStandardLower).toBeUndefined();
  });

  // The same chain without the flag: every token goes through the generic pipeline.
  const generic: Analyzer = {
    name: 'standard',
    positionIncrementGap: std.positionIncrementGap,
    analyze: (t, s, p, o) => std.analyze(t, s, p, o),
  };
  const genericResolver: AnalysisResolver = { ...standardResolver, indexAnalyzer: () => generic };

  const build = (r: AnalysisResolver, texts: string[][]) => {
    const f = field('body', 'text');
    const b = new SegmentBuilder(r);
    texts.forEach((vals, i) => b.add(String(i), doc(vals.map((v) => [f, v])), i, 1));
    const seg = b.build();
    const inv = seg.fields.get('body')?.inverted;
    if (!inv) return null;
    return {
      terms: inv.terms,
      docs: Array.from(inv.docs),
      freqs: Array.from(inv.freqs ?? []),
      positions: Array.from(inv.positions ?? []),
      norms: Array.from(inv.norms ?? []),
      sumTotalTermFreq: inv.sumTotalTermFreq,
    };
  };

  const asciiText = fc
    .array(
      fc.oneof(
        fc.constantFrom(
          'Foo',
          'bar',
          'BAZ',
          "don't",
          '3.14',
          'a_b',
          'x:y',
          'U.S.A.',
          '1,000',
          'ab12',
        ),
        fc.string({ maxLength: 12 }).map((s) => s.replace(/[^\x00-\x7f]/g, '')),
      ),
      { maxLength: 20 },
    )
    .map((ws) => ws.join(' '));

  it('produces the same postings, positions and norms as the generic chain', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(asciiText, { minLength: 1, maxLength: 3 }), {
          minLength: 1,
          maxLength: 8,
        }),
        (texts) => {
          expect(build(standardResolver, texts)).toEqual(build(genericResolver, texts));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('mixes with non-ASCII values of the same field', () => {
    const texts = [['Ünïcode Word', 'plain WORD'], ['word café'], ['CAFÉ plain']];
    expect(build(standardResolver, texts)).toEqual(build(genericResolver, texts));
  });
});

describe('sortedTermIds on long shared prefixes', () => {
  it('orders many terms with a long common prefix (the radix refinement path)', () => {
    const terms = Array.from(
      { length: 3000 },
      (_, i) => `00000000000000000000ffff${((i * 2654435761) >>> 0).toString(16).padStart(8, '0')}`,
    );
    terms.push(
      '00000000000000000000ffff',
      '00000000000000000000fff',
      '00000000000000000000ffff\u0000',
    );
    const ids = Array.from(sortedTermIds(terms));
    expect(ids.map((i) => terms[i])).toEqual(terms.slice().sort());
  });

  it('orders large groups whatever their units (property)', () => {
    const unit = fc.constantFrom('p', 'q', '\u0000', '\u00fe', '\u00ff', '\u0100', 'é');
    const tail = fc.array(unit, { maxLength: 9 }).map((u) => u.join(''));
    fc.assert(
      fc.property(fc.uniqueArray(tail, { minLength: 20, maxLength: 120 }), (tails) => {
        const terms = tails.map((t) => `prefix/${t}`);
        const ids = Array.from(sortedTermIds(terms));
        expect(ids.map((i) => terms[i])).toEqual(terms.slice().sort());
      }),
      { numRuns: 200 },
    );
  });
});
