import { describe, expect, it } from 'vitest';
import { profileQuery, profileShard } from '../../../../src/dsl/search/profile.js';
import { boolQuery, matchAll, termQuery } from '../../../../src/search/query/query.js';

describe('search profile (ES SearchProfileShardResults)', () => {
  it('names queries by their Lucene class with their Lucene description', () => {
    const p = profileQuery(termQuery('otherField', 'foo'));
    expect(p).toMatchObject({ type: 'TermQuery', description: 'otherField:foo', time_in_nanos: 0 });
    expect(Object.keys(p.breakdown as object)).toContain('create_weight_count');
    expect(profileQuery(matchAll()).type).toBe('MatchAllDocsQuery');
  });

  it('lists one search with the query and top-hits collector per shard', () => {
    const s = profileShard('n1', 'test', 2, boolQuery({ must: [termQuery('f', 'x')] }));
    expect(s.id).toBe('[n1][test][2]');
    const searches = s.searches as Array<Record<string, unknown>>;
    expect(searches).toHaveLength(1);
    expect((searches[0]!.query as Array<{ type: string }>)[0]!.type).toBe('BooleanQuery');
    expect(s.aggregations).toEqual([]);
  });
});
