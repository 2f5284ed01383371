import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { gallop, gallopNear } from '../../../../src/search/index/gallop.js';
import { termOrd } from '../../../../src/search/index/term-lookup.js';
import type { InvertedField } from '../../../../src/search/index/segment.js';

describe('gallopNear', () => {
  it('finds what gallop finds, near or far, from any start', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 0, max: 400 }), { maxLength: 120 }),
        fc.nat(120),
        fc.integer({ min: -1, max: 402 }),
        (xs, lo0, target) => {
          const docs = Int32Array.from(xs.sort((a, b) => a - b));
          const lo = Math.min(lo0, docs.length);
          expect(gallopNear(docs, lo, docs.length, target)).toBe(
            gallop(docs, lo, docs.length, target),
          );
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('termOrd', () => {
  const field = (terms: string[]) => ({ terms }) as unknown as InvertedField;

  it('finds every term of a hashed dictionary and nothing else', () => {
    // enough terms for the hash table; short ones share hash slots (linear probing)
    const terms = Array.from({ length: 3000 }, (_, i) => i.toString(36)).sort();
    const inv = field(terms);
    terms.forEach((t, i) => expect(termOrd(inv, t)).toBe(i));
    for (const t of ['', 'zzzz', '-1', 'a0a', 'A', '\u00e9']) expect(termOrd(inv, t)).toBe(-1);
  });

  it('agrees with indexOf on random dictionaries', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.string({ maxLength: 4 }), { minLength: 64, maxLength: 300 }),
        fc.array(fc.string({ maxLength: 4 }), { maxLength: 40 }),
        (ts, probes) => {
          const terms = ts.sort();
          const inv = field(terms);
          for (const p of [...probes, ...terms.slice(0, 20)])
            expect(termOrd(inv, p)).toBe(terms.indexOf(p));
        },
      ),
      { numRuns: 100 },
    );
  });
});
