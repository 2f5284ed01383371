/** Term queries carry no display of their own: describeQuery prints them as Lucene does. */
import { describe, expect, it } from 'vitest';
import { describeQuery } from '../../../../src/dsl/query/index.js';
import { boosted, withDisplay } from '../../../../src/dsl/query/lower/build.js';
import { rawTerm, termDisplay } from '../../../../src/dsl/query/lower/term-queries.js';

describe('term display', () => {
  it('prints field:term, with its boost, as a display of field:term would', () => {
    const q = rawTerm('state', 'TX');
    expect(q).toEqual({ kind: 'Term', field: 'state', term: 'TX', boost: 1 });
    const shown = withDisplay({ ...q }, termDisplay('state', 'TX'));
    expect(describeQuery(q)).toBe('state:TX');
    expect(describeQuery(shown)).toBe('state:TX');
    expect(describeQuery(boosted(q, 2))).toBe('(state:TX)^2.0');
    expect(describeQuery(boosted(shown, 2))).toBe('(state:TX)^2.0');
  });
});
