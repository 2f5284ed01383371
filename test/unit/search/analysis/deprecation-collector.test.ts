/**
 * The deprecation collector (deprecations.ts) is on only while a collection runs: nested and
 * overlapping collections each keep their own sink, and nothing is collected once all are done.
 */
import { describe, expect, it } from 'vitest';
import {
  collectDeprecations,
  deprecated,
  mayReportDeprecations,
} from '../../../../src/search/analysis/deprecations.js';

const tick = () => new Promise((r) => setTimeout(r, 1));

describe('deprecation collector', () => {
  it('overlapping async collections keep their sinks; none collect after they end', async () => {
    const a: string[] = [];
    const b: string[] = [];
    const pa = collectDeprecations(a, async () => {
      await tick();
      deprecated('from a');
      await tick();
      deprecated('a again');
    });
    const pb = collectDeprecations(b, async () => {
      deprecated('from b');
      await tick();
      await tick();
      deprecated('b late');
    });
    await Promise.all([pa, pb]);
    deprecated('after');
    expect(a).toEqual(['from a', 'a again']);
    expect(b).toEqual(['from b', 'b late']);
    // a later collection collects again (the store is re-enabled)
    const c: string[] = [];
    await collectDeprecations(c, async () => {
      await tick();
      deprecated('c');
    });
    expect(c).toEqual(['c']);
  });

  it('a throwing or rejecting collection ends too', async () => {
    const s: string[] = [];
    expect(() =>
      collectDeprecations(s, () => {
        deprecated('x');
        throw new Error('boom');
      }),
    ).toThrow('boom');
    await expect(
      collectDeprecations(s, async () => {
        await tick();
        throw new Error('late');
      }),
    ).rejects.toThrow('late');
    const nested: string[] = [];
    collectDeprecations(s, () => collectDeprecations(nested, () => deprecated('inner')));
    expect(s).toEqual(['x']);
    expect(nested).toEqual(['inner']);
  });

  it('analysis settings naming reporting components are recognised', () => {
    expect(mayReportDeprecations({})).toBe(false);
    expect(mayReportDeprecations({ analyzer: { a: { tokenizer: 'standard' } } })).toBe(false);
    expect(mayReportDeprecations({ analyzer: { a: { char_filter: ['htmlStrip'] } } })).toBe(true);
    expect(mayReportDeprecations({ tokenizer: { t: { type: 'nGram' } } })).toBe(true);
    expect(mayReportDeprecations({ filter: { f: { type: 'edge_ngram' } } })).toBe(true);
    expect(mayReportDeprecations({ filter: { f: { type: 'delimited_payload_filter' } } })).toBe(
      true,
    );
  });
});
