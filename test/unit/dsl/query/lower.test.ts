/**
 * Lowering shapes: the Lucene query ES 6.8 builds for each DSL query (checked through its
 * `toString`), with the facts of ES's `*QueryBuilderTests` (field types, analysis, unmapped fields,
 * leniency, boosts, minimum_should_match, rewrites) and lowering errors with ES's exception chain.
 */
import { describe, expect, it } from 'vitest';
import {
  describeQuery,
  lowerQuery,
  parseQuery,
  renderQuery,
  toSearchFilter,
  toSearchQuery,
} from '../../../../src/dsl/query/index.js';
import { bench } from './fixtures.js';
import { chain } from './harness.js';

const b = bench();
const d = (q: unknown) => b.describe(q);
const errorChain = (q: unknown) => chain(b.error(q));

describe('term-level queries', () => {
  it('term per field type', () => {
    expect(d({ term: { tag: 'A' } })).toBe('tag:A');
    expect(d({ term: { ltag: 'FoO' } })).toBe('ltag:foo'); // keyword normalizer
    expect(d({ term: { title: 'The Fox' } })).toBe('title:The Fox'); // text: not analyzed
    expect(d({ term: { age: 30 } })).toBe('age:[30 TO 30]');
    expect(d({ term: { age: '30' } })).toBe('age:[30 TO 30]');
    expect(d({ term: { age: 30.5 } })).toBe('MatchNoDocsQuery("Value [30.5] has a decimal part")');
    expect(d({ term: { price: 1 } })).toBe('price:[1.0 TO 1.0]');
    expect(d({ term: { f: 0.1 } })).toBe('f:[0.1 TO 0.1]');
    expect(d({ term: { hf: 1.3 } })).toBe('hf:[1.2998047 TO 1.2998047]'); // rounded to half precision
    expect(d({ term: { sf: 3.14159 } })).toBe('sf:[314 TO 314]'); // scaled long
    expect(d({ term: { ok: 'true' } })).toBe('ok:T');
    expect(d({ term: { ok: false } })).toBe('ok:F');
    expect(d({ term: { ip: '192.168.0.1' } })).toBe('ip:192.168.0.1');
    expect(d({ term: { ip: '192.168.0.0/16' } })).toBe('ip:192.168.0.0/16');
    expect(d({ term: { date: '2015-01-01' } })).toBe('date:[1420070400000 TO 1420156799999]');
    expect(d({ term: { alias_title: 'fox' } })).toBe('title:fox');
    expect(d({ term: { nothere: 5 } })).toBe('nothere:5');
    expect(d({ term: { tag: { value: 'A', boost: 2 } } })).toBe('(tag:A)^2.0');
  });

  it('term on metadata fields', () => {
    expect(d({ term: { _id: '1' } })).toBe('_id:(1)');
    expect(d({ term: { _index: 'test' } })).toBe('*:*');
    expect(d({ term: { _index: 'te*' } })).toBe('*:*');
    expect(d({ term: { _index: 'other' } })).toBe(
      'MatchNoDocsQuery("Index didn\'t match. Index queried: test vs. other")',
    );
    expect(d({ term: { _type: '_doc' } })).toBe('*:*');
    expect(d({ term: { _type: 'other' } })).toBe(
      'MatchNoDocsQuery("Type list does not contain the index type")',
    );
    expect(d({ term: { _routing: 'r1' } })).toBe('_routing:r1');
    expect(d({ term: { _field_names: 'tag' } })).toBe('_field_names:tag');
    expect(d({ term: { _uid: '_doc#7' } })).toBe('_id:(7)');
  });

  it('terms', () => {
    expect(d({ terms: { tag: ['B', 'A', 'B'] } })).toBe('tag:A tag:B');
    expect(d({ terms: { age: [30, 40.5, '50'] } })).toBe('age:{30 50}');
    expect(d({ terms: { age: [40.5] } })).toBe(
      'MatchNoDocsQuery("All values have a decimal part")',
    );
    expect(d({ terms: { ip: ['10.0.0.1', '192.168.0.1'] } })).toBe('ip:{10.0.0.1 192.168.0.1}');
    expect(d({ terms: { ip: ['10.0.0.0/8', '192.168.0.1'] } })).toBe(
      'ConstantScore(ip:10.0.0.0/8 ip:192.168.0.1)',
    );
    expect(d({ terms: { date: ['2015-01-01'] } })).toBe(
      'ConstantScore(date:[1420070400000 TO 1420156799999])',
    );
    expect(d({ terms: { tag: [] } })).toBe(
      'MatchNoDocsQuery("No terms supplied for "terms" query.")',
    );
    expect(d({ terms: { nothere: ['b', 'a'] } })).toBe('nothere:a nothere:b');
    expect(d({ terms: { _id: ['1', '2'] } })).toBe('_id:(1 2)');
  });

  it('terms over index.max_terms_count is a deprecation warning', () => {
    const local = bench();
    (local.ctx as { maxTermsCount: number }).maxTermsCount = 2;
    local.lower({ terms: { tag: ['a', 'b', 'c'] } });
    expect(local.warnings).toEqual([
      'Deprecated: the number of terms [3] used in the Terms Query request has exceeded the allowed maximum of [2]. This maximum can be set by changing the [index.max_terms_count] index level setting.',
    ]);
  });

  it('range per field type, with ES rounding of bounds', () => {
    expect(d({ range: { age: { gte: 30, lt: 50 } } })).toBe('age:[30 TO 49]');
    expect(d({ range: { age: { gt: 30.5 } } })).toBe('age:[31 TO 2147483647]');
    expect(d({ range: { age: { gt: -1.5, lt: -0.5 } } })).toBe('age:[-1 TO -1]');
    expect(d({ range: { big: { lte: 10 } } })).toBe('big:[-9223372036854775808 TO 10]');
    expect(d({ range: { price: { gt: 1.5 } } })).toBe('price:[1.5000000000000002 TO Infinity]');
    expect(d({ range: { f: { lt: 1 } } })).toBe('f:[-Infinity TO 0.99999994]');
    expect(d({ range: { hf: { gt: 1 } } })).toBe('hf:[1.0009766 TO Infinity]');
    expect(d({ range: { sf: { gte: 3.14, lt: 3.15 } } })).toBe('sf:[314 TO 314]');
    expect(d({ range: { tag: { gte: 'A', lt: 'C' } } })).toBe('tag:[A TO C}');
    expect(d({ range: { ltag: { gt: 'A' } } })).toBe('ltag:{a TO *]');
    expect(d({ range: { ip: { gt: '10.0.0.0', lte: '192.168.0.255' } } })).toBe(
      'ip:[10.0.0.1 TO 192.168.0.255]',
    );
    expect(d({ range: { age: {} } })).toBe('ConstantScore(DocValuesFieldExistsQuery [field=age])');
    expect(d({ range: { nothere: { gte: 1 } } })).toBe('MatchNoDocsQuery("")');
    expect(d({ range: { age: { gte: 1, boost: 2 } } })).toBe('(age:[1 TO 2147483647])^2.0');
  });

  it('date ranges: date math, rounding, formats and time zones', () => {
    // now = 2020-01-15T12:00:00Z
    expect(d({ range: { date: { gte: '2015-01-01', lte: '2015-01-01' } } })).toBe(
      'date:[1420070400000 TO 1420156799999]',
    );
    expect(d({ range: { date: { gt: '2015-01-01', lt: '2015-01-02' } } })).toBe(
      'date:[1420156800000 TO 1420156799999]',
    );
    expect(d({ range: { date: { gte: 'now-1d/d', lt: 'now/d' } } })).toBe(
      'date:[1578960000000 TO 1579046399999]',
    );
    expect(d({ range: { date: { lte: 'now/M' } } })).toBe(
      'date:[-9223372036854775808 TO 1580515199999]',
    );
    expect(d({ range: { date: { gte: '2015-01-01', time_zone: '+01:00' } } })).toBe(
      'date:[1420066800000 TO 9223372036854775807]',
    );
    expect(d({ range: { date: { gte: '01/01/2015', format: 'dd/MM/yyyy' } } })).toBe(
      'date:[1420070400000 TO 9223372036854775807]',
    );
    expect(d({ range: { dmy: { gte: '01/01/2015', lte: '03/01/2015' } } })).toBe(
      'dmy:[1420070400000 TO 1420329599999]',
    );
    expect(d({ range: { date: { gte: 1420070400000 } } })).toBe(
      'date:[1420070400000 TO 9223372036854775807]',
    );
  });

  it('exists on fields, objects, patterns and metadata', () => {
    expect(d({ exists: { field: 'title' } })).toBe(
      'ConstantScore(NormsFieldExistsQuery [field=title])',
    );
    expect(d({ exists: { field: 'tag' } })).toBe(
      'ConstantScore(DocValuesFieldExistsQuery [field=tag])',
    );
    expect(d({ exists: { field: 'unindexed' } })).toBe(
      'ConstantScore(DocValuesFieldExistsQuery [field=unindexed])',
    );
    expect(d({ exists: { field: 'obj' } })).toBe(
      'ConstantScore(DocValuesFieldExistsQuery [field=obj.a] DocValuesFieldExistsQuery [field=obj.b])',
    );
    expect(d({ exists: { field: 'nothere' } })).toBe(
      'MatchNoDocsQuery("No field "nothere" exists in mappings.")',
    );
    expect(d({ exists: { field: 'nothere*' } })).toBe('ConstantScore()');
    expect(d({ exists: { field: '_id' } })).toBe('ConstantScore(*:*)');
  });

  it('prefix, wildcard, regexp, fuzzy', () => {
    expect(d({ prefix: { tag: 'A' } })).toBe('tag:A*');
    expect(d({ prefix: { ltag: 'FO' } })).toBe('ltag:fo*');
    expect(d({ prefix: { title: 'QUI' } })).toBe('title:QUI*'); // not normalized for text
    expect(d({ prefix: { nothere: 'x' } })).toBe('nothere:x*');
    expect(d({ prefix: { _index: 'te' } })).toBe('*:*');
    expect(d({ wildcard: { 'title.raw': 'The*' } })).toBe('title.raw:The*');
    expect(d({ wildcard: { ltag: 'F?O*' } })).toBe('ltag:f?o*');
    expect(d({ wildcard: { nothere: 'x*' } })).toBe('MatchNoDocsQuery("unknown field [nothere]")');
    expect(d({ regexp: { 'title.raw': 'q.*' } })).toBe('title.raw:/q.*/');
    expect(d({ fuzzy: { tag: { value: 'abc', fuzziness: 1 } } })).toBe('tag:abc~1');
    expect(d({ fuzzy: { tag: 'abcdef' } })).toBe('tag:abcdef~2');
    expect(d({ fuzzy: { tag: 'ab' } })).toBe('tag:ab~0');
  });

  it('ids and type', () => {
    expect(d({ ids: { values: ['2', '1'] } })).toBe('_id:(1 2)');
    expect(d({ ids: { type: '_doc', values: ['1'] } })).toBe('_id:(1)');
    expect(d({ ids: { type: 'other', values: ['1'] } })).toBe('_id:()');
    expect(d({ ids: { values: [] } })).toBe('MatchNoDocsQuery("Missing ids in "ids" query.")');
    expect(d({ type: { value: '_doc' } })).toBe('*:*');
    expect(d({ type: { value: 'other' } })).toBe('MatchNoDocsQuery("")');
  });
});

describe('full-text queries', () => {
  it('match builds terms, booleans, synonyms and fuzzy queries from analysis', () => {
    expect(d({ match: { title: 'Quick' } })).toBe('title:quick');
    expect(d({ match: { title: 'quick fox' } })).toBe('title:quick title:fox');
    expect(d({ match: { title: { query: 'quick fox', operator: 'and' } } })).toBe(
      '+title:quick +title:fox',
    );
    expect(d({ match: { title: { query: 'a b c', minimum_should_match: '2' } } })).toBe(
      '(title:a title:b title:c)~2',
    );
    expect(d({ match: { title: { query: 'a b c', minimum_should_match: '-1' } } })).toBe(
      '(title:a title:b title:c)~2',
    );
    expect(d({ match: { title: { query: 'quick', minimum_should_match: '100%' } } })).toBe(
      'title:quick',
    );
    expect(d({ match: { english: 'running foxes' } })).toBe('english:run english:fox');
    expect(d({ match: { title: { query: 'quikc brwn', fuzziness: 'AUTO' } } })).toBe(
      'title:quikc~1 title:brwn~1',
    );
    expect(d({ match: { title: { query: 'Quick', analyzer: 'keyword' } } })).toBe('title:Quick');
    expect(d({ match: { wtag: 'x y' } })).toBe('wtag:x wtag:y');
    expect(d({ match: { tag: 'a b' } })).toBe('tag:a b');
    expect(d({ match: { ltag: 'FOO' } })).toBe('ltag:foo');
    expect(d({ match: { age: '30' } })).toBe('age:[30 TO 30]');
    expect(d({ match: { title: { query: 'quick', boost: 3 } } })).toBe('(title:quick)^3.0');
  });

  it('match: unmapped fields, zero terms, leniency and cutoff frequency', () => {
    expect(d({ match: { nothere: 'x' } })).toBe('MatchNoDocsQuery("unmapped fields [nothere]")');
    expect(d({ match: { title: '' } })).toBe(
      'MatchNoDocsQuery("Matching no documents because no terms present")',
    );
    expect(d({ match: { title: { query: '!!', zero_terms_query: 'all' } } })).toBe('*:*');
    expect(d({ match: { age: { query: 'abc', lenient: true } } })).toBe(
      'MatchNoDocsQuery("failed [age] query, caused by number_format_exception:[For input string: "abc"]")',
    );
    expect(d({ match: { title: { query: 'the quick fox', cutoff_frequency: 0.5 } } })).toBe(
      'title:the, title:quick, title:fox',
    );
    expect(
      d({
        match: {
          title: { query: 'the quick fox', cutoff_frequency: 0.5, minimum_should_match: '2' },
        },
      }),
    ).toBe('title:the, title:quick, title:fox');
  });

  it('common terms: search analyzer per field type, analyzer parameter, boost', () => {
    expect(d({ common: { title: 'The quick FOX' } })).toBe('title:the, title:quick, title:fox');
    expect(d({ common: { title: { query: 'quick', boost: 2 } } })).toBe('(title:quick)^2.0');
    // ES keeps minimum_should_match as spec strings: Lucene's `~` suffix never prints
    expect(
      d({
        common: { title: { query: 'a b', minimum_should_match: { low_freq: 2, high_freq: 1 } } },
      }),
    ).toBe('title:a, title:b');
    expect(d({ common: { english: 'the running foxes' } })).toBe('english:run, english:fox');
    expect(d({ common: { title: { query: 'The Fox', analyzer: 'keyword' } } })).toBe(
      'title:The Fox',
    );
    expect(d({ common: { ltag: 'FoO Bar' } })).toBe('ltag:foo bar'); // normalizer, one token
    expect(d({ common: { tag: 'FoO Bar' } })).toBe('tag:FoO Bar');
    expect(d({ common: { alias_title: 'fox' } })).toBe('title:fox');
    expect(d({ common: { nothere: 'The Fox' } })).toBe('nothere:the, nothere:fox');
    expect(d({ common: { age: '30 Years' } })).toBe('age:30, age:years'); // index default analyzer
    expect(d({ common: { title: '!!' } })).toBe('');
    expect(toSearchQuery(parseQuery({ common: { title: 'a b' } }), b.ctx)).toMatchObject({
      kind: 'CommonTerms',
      field: 'title',
      terms: ['a', 'b'],
      cutoff: Math.fround(0.01),
      highFreqOccur: 'should',
      lowFreqOccur: 'should',
    });
    expect(errorChain({ common: { title: { query: 'x', analyzer: 'nope' } } })).toEqual([
      ['query_shard_exception', '[common] analyzer [nope] not found'],
    ]);
  });

  it('match_phrase and match_phrase_prefix', () => {
    expect(d({ match_phrase: { title: 'quick brown' } })).toBe('title:"quick brown"');
    expect(d({ match_phrase: { title: { query: 'the quick', slop: 2 } } })).toBe(
      'title:"the quick"~2',
    );
    expect(d({ match_phrase: { english: 'the running fox' } })).toBe('english:"? run fox"');
    expect(d({ match_phrase: { title: 'fox' } })).toBe('title:fox');
    expect(d({ match_phrase: { tag: 'a b' } })).toBe('tag:a b');
    expect(d({ match_phrase_prefix: { title: 'quick br' } })).toBe('title:"quick br*"');
    expect(d({ match_phrase_prefix: { title: { query: 'br', max_expansions: 3 } } })).toBe(
      'title:"br*"',
    );
    expect(d({ match_phrase_prefix: { tag: 'a' } })).toBe('tag:"a*"');
  });

  it('phrases on fields without positions or on non-text fields', () => {
    expect(errorChain({ match_phrase: { nopos: 'a b' } })).toEqual([
      ['query_shard_exception', expect.stringContaining('failed to create query: {')],
      [
        'illegal_state_exception',
        'field:[nopos] was indexed without position data; cannot run PhraseQuery',
      ],
    ]);
    expect(d({ match_phrase: { nopos: { query: 'a' } } })).toBe('nopos:a');
    expect(
      chain(b.error({ match_phrase: { age: { query: '1 2', analyzer: 'standard' } } }))[1],
    ).toEqual([
      'illegal_state_exception',
      'field:[age] was indexed without position data; cannot run PhraseQuery',
    ]);
    const local = bench();
    expect(local.describe({ match_phrase_prefix: { age: '1' } })).toBe(
      'MatchNoDocsQuery("failed [age] query, caused by illegal_argument_exception:[Attempted to build a phrase prefix query with multiple terms against non-text field [age]]")',
    );
    expect(local.warnings).toEqual([
      'Attempted to build a phrase prefix query with multiple terms against non-text field [age]',
    ]);
  });

  it('multi_match types', () => {
    expect(d({ multi_match: { query: 'quick dog', fields: ['title^2', 'body'] } })).toBe(
      '((title:quick title:dog)^2.0 | (body:quick body:dog))',
    );
    expect(
      d({ multi_match: { query: 'dog', fields: ['title', 'body'], type: 'most_fields' } }),
    ).toBe('(title:dog | body:dog)~1.0');
    expect(d({ multi_match: { query: 'dog', fields: ['title', 'body'], tie_breaker: 0.3 } })).toBe(
      '(title:dog | body:dog)~0.3',
    );
    expect(
      d({ multi_match: { query: 'quick dog', fields: ['title', 'body'], type: 'phrase' } }),
    ).toBe('(title:"quick dog" | body:"quick dog")');
    expect(
      d({ multi_match: { query: 'quick d', fields: ['title', 'body'], type: 'phrase_prefix' } }),
    ).toBe('(title:"quick d*" | body:"quick d*")');
    expect(d({ multi_match: { query: 'dog', fields: ['title'] } })).toBe('title:dog');
    expect(d({ multi_match: { query: 'dog', fields: ['tit*'] } })).toBe(
      '(title:dog | title.raw:dog)',
    );
    expect(d({ multi_match: { query: 'dog', fields: ['nothere'] } })).toBe(
      'MatchNoDocsQuery("unmapped fields [nothere]")',
    );
    expect(
      d({ multi_match: { query: 'dog', fields: ['title', 'body'], use_dis_max: false } }),
    ).toBe('(title:dog | body:dog)~1.0');
  });

  it('multi_match cross_fields blends terms per analyzer group', () => {
    expect(
      d({ multi_match: { query: 'quick dog', fields: ['title', 'body^2'], type: 'cross_fields' } }),
    ).toBe('blended(terms:[title:quick, body:quick^2.0]) blended(terms:[title:dog, body:dog^2.0])');
    expect(
      d({
        multi_match: {
          query: 'quick dog',
          fields: ['title', 'body'],
          type: 'cross_fields',
          operator: 'and',
        },
      }),
    ).toBe('+blended(terms:[title:quick, body:quick]) +blended(terms:[title:dog, body:dog])');
    expect(
      d({ multi_match: { query: '30', fields: ['title', 'tag', 'age'], type: 'cross_fields' } }),
    ).toBe('(title:30 | (age:[30 TO 30] | blended(terms:[tag:30])))');
  });

  it('query_string', () => {
    expect(d({ query_string: { query: 'title:quick AND tag:A' } })).toBe('+title:quick +tag:A');
    expect(d({ query_string: { query: 'quick fox', default_field: 'title' } })).toBe(
      'title:quick title:fox',
    );
    expect(
      d({ query_string: { query: 'quick fox', default_field: 'title', minimum_should_match: 2 } }),
    ).toBe('(title:quick title:fox)~2');
    expect(d({ query_string: { query: 'title:(quick OR lazy) -tag:B' } })).toBe(
      '(title:quick title:lazy) -tag:B',
    );
    expect(d({ query_string: { query: '-tag:B' } })).toBe('-tag:B +*:*');
    expect(d({ query_string: { query: 'age:>35' } })).toBe('age:[36 TO 2147483647]');
    expect(d({ query_string: { query: 'age:[30 TO 40}' } })).toBe('age:[30 TO 39]');
    expect(d({ query_string: { query: 'title:QUI*' } })).toBe('title:qui*');
    expect(d({ query_string: { query: 'title:Q?i*K' } })).toBe('title:q?i*k');
    expect(d({ query_string: { query: 'title:/qu.*/' } })).toBe('title:/qu.*/');
    expect(d({ query_string: { query: 'title:quikc~' } })).toBe('title:quikc~1');
    expect(d({ query_string: { query: 'title:quikc~2' } })).toBe('title:quikc~2');
    expect(d({ query_string: { query: 'title:"quick fox"~3' } })).toBe('title:"quick fox"~3');
    expect(
      d({ query_string: { query: '"quick fox"', default_field: 'title', phrase_slop: 1 } }),
    ).toBe('title:"quick fox"~1');
    expect(d({ query_string: { query: 'title:quick^2' } })).toBe('(title:quick)^2.0');
    expect(d({ query_string: { query: '_exists_:ltag' } })).toBe(
      'ConstantScore(DocValuesFieldExistsQuery [field=ltag])',
    );
    expect(d({ query_string: { query: 'title:*' } })).toBe(
      'ConstantScore(NormsFieldExistsQuery [field=title])',
    );
    expect(d({ query_string: { query: '*' } })).toBe('*:*');
    expect(d({ query_string: { query: 'date:[2015-01-01 TO 2015-02-01}' } })).toBe(
      'date:[1420070400000 TO 1422748799999]',
    );
    expect(
      d({ query_string: { query: 'date:[2015-01-01 TO 2015-01-01]', time_zone: '-01:00' } }),
    ).toBe('date:[1420074000000 TO 1420160399999]');
    expect(d({ query_string: { query: 'dog', fields: ['title^2', 'body'] } })).toBe(
      '((title:dog)^2.0 | body:dog)',
    );
    expect(d({ query_string: { query: 'age:foo' } })).toBe(
      'MatchNoDocsQuery("failed [age] query, caused by number_format_exception:[For input string: "foo"]")',
    );
    expect(d({ query_string: { query: '' } })).toBe(
      'MatchNoDocsQuery("Matching no documents because no terms present")',
    );
  });

  it('query_string errors', () => {
    expect(errorChain({ query_string: { query: 'age:foo', lenient: false } })).toEqual([
      ['query_shard_exception', expect.stringContaining('failed to create query')],
      ['number_format_exception', 'For input string: "foo"'],
    ]);
    expect(
      errorChain({ query_string: { query: 'a', fields: ['title'], default_field: 'b' } }),
    ).toEqual([
      ['query_shard_exception', expect.stringContaining('failed to create query')],
      [
        'query_validation_exception',
        'Validation Failed: 1: [query_string] cannot use [fields] parameter in conjunction with [default_field];',
      ],
    ]);
    expect(errorChain({ query_string: { query: 'title:(a' } })[0]).toEqual([
      'query_shard_exception',
      'Failed to parse query [title:(a]',
    ]);
    expect(
      errorChain({ query_string: { query: 'age:12~0.2', default_field: 'age', lenient: false } }),
    ).toEqual([
      ['query_shard_exception', expect.stringContaining('failed to create query')],
      [
        'illegal_argument_exception',
        'Can only use fuzzy queries on keyword and text fields - not on [age] which is of type [integer]',
      ],
    ]);
    expect(
      errorChain({ query_string: { query: '12*', default_field: 'age', lenient: false } }),
    ).toEqual([
      [
        'query_shard_exception',
        'Can only use prefix queries on keyword and text fields - not on [age] which is of type [integer]',
      ],
    ]);
  });

  it('simple_query_string', () => {
    expect(d({ simple_query_string: { query: 'quick +fox -dog', fields: ['title'] } })).toBe(
      '(+title:quick +title:fox) (-title:dog *:*)',
    );
    expect(d({ simple_query_string: { query: 'fo*', fields: ['title^2', 'body'] } })).toBe(
      '((title:fo*)^2.0 | body:fo*)~1.0',
    );
    expect(d({ simple_query_string: { query: '"quick fox"~1', fields: ['title'] } })).toBe(
      'title:"quick fox"~1',
    );
    expect(d({ simple_query_string: { query: 'quikc~1', fields: ['title'] } })).toBe(
      'title:quikc~1',
    );
    expect(
      d({
        simple_query_string: {
          query: 'quick fox',
          fields: ['title'],
          default_operator: 'and',
        },
      }),
    ).toBe('+title:quick +title:fox');
    expect(
      d({ simple_query_string: { query: 'a b c', fields: ['title'], minimum_should_match: '2' } }),
    ).toBe('(title:a title:b title:c)~2');
  });
});

describe('compound queries', () => {
  it('bool clause order, pure negative fix and minimum_should_match', () => {
    expect(
      d({
        bool: {
          filter: { range: { age: { gte: 1 } } },
          should: [{ term: { age: 30 } }],
          must_not: { term: { tag: 'B' } },
          must: { match: { title: 'fox' } },
        },
      }),
    ).toBe('+title:fox -tag:B age:[30 TO 30] #age:[1 TO 2147483647]');
    expect(d({ bool: { must_not: { term: { tag: 'B' } } } })).toBe('-tag:B +*:*');
    expect(d({ bool: { must_not: { term: { tag: 'B' } }, adjust_pure_negative: false } })).toBe(
      '-tag:B',
    );
    expect(d({ bool: {} })).toBe('*:*');
    expect(d({ bool: { boost: 2 } })).toBe('(*:*)^2.0');
    expect(
      d({
        bool: { should: [{ term: { tag: 'A' } }, { term: { tag: 'B' } }], minimum_should_match: 1 },
      }),
    ).toBe('(tag:A tag:B)~1');
    expect(d({ bool: { should: { bool: { should: { term: { tag: 'A' } } } } } })).toBe('(tag:A)');
  });

  it('bool in filter context requires a should clause', () => {
    const q = {
      bool: { must: { term: { tag: 'A' } }, should: [{ term: { age: 1 } }, { term: { age: 2 } }] },
    };
    expect(d({ constant_score: { filter: q } })).toBe(
      'ConstantScore((+tag:A age:[1 TO 1] age:[2 TO 2])~1)',
    );
    const local = bench();
    local.describe({ bool: { filter: q } });
    expect(local.warnings[0]).toContain('Should clauses in the filter context');
    expect(d({ bool: { must_not: { bool: { should: [{ term: { tag: 'A' } }] } } } })).toBe(
      '-((tag:A)~1) +*:*',
    );
  });

  it('constant_score, dis_max, boosting, nested, wrapper', () => {
    expect(d({ constant_score: { filter: { term: { tag: 'A' } }, boost: 3 } })).toBe(
      '(ConstantScore(tag:A))^3.0',
    );
    expect(
      d({
        dis_max: {
          queries: [{ term: { tag: 'A' } }, { match: { title: 'fox' } }],
          tie_breaker: 0.3,
        },
      }),
    ).toBe('(tag:A | title:fox)~0.3');
    expect(
      d({
        boosting: {
          positive: { match: { title: 'fox' } },
          negative: { term: { tag: 'B' } },
          negative_boost: 0.5,
        },
      }),
    ).toBe('title:fox/tag:B');
    expect(d({ nested: { path: 'comments', query: { term: { 'comments.author': 'bob' } } } })).toBe(
      'ToParentBlockJoinQuery (comments.author:bob)',
    );
    expect(d({ nested: { path: 'nope', query: { match_all: {} }, ignore_unmapped: true } })).toBe(
      'MatchNoDocsQuery("")',
    );
    const src = Buffer.from('{"term": {"tag": "A"}}').toString('base64');
    expect(d({ wrapper: { query: src } })).toBe('tag:A');
  });

  it('nested errors', () => {
    expect(errorChain({ nested: { path: 'obj', query: { match_all: {} } } })[1]).toEqual([
      'illegal_state_exception',
      '[nested] nested object under path [obj] is not of nested type',
    ]);
    expect(errorChain({ nested: { path: 'nope', query: { match_all: {} } } })[1]).toEqual([
      'illegal_state_exception',
      '[nested] failed to find nested object under path [nope]',
    ]);
  });

  it('wrapper parse errors point into the decoded source', () => {
    const src = Buffer.from('{"term": {"tag": {"bad": 1}}}').toString('base64');
    const e = b.error({ wrapper: { query: src } });
    expect(e.type).toBe('parsing_exception');
    expect(e.reason).toBe('[term] query does not support [bad]');
    expect(e.meta).toMatchObject({ line: 1, col: 26 });
  });

  it('function_score shapes', () => {
    expect(
      d({
        function_score: {
          query: { match: { title: 'fox' } },
          functions: [{ filter: { term: { tag: 'A' } }, weight: 3 }],
        },
      }),
    ).toBe(
      'function score (title:fox, functions: [{filter(tag:A), function [weight(weight) * 3]}])',
    );
  });
});

describe('lowering errors', () => {
  it('wraps non-shard failures in "failed to create query" with the builder JSON', () => {
    const e = b.error({ term: { age: 'abc' } });
    expect(e.type).toBe('query_shard_exception');
    expect(e.reason).toBe(
      'failed to create query: {\n  "term" : {\n    "age" : {\n      "value" : "abc",\n      "boost" : 1.0\n    }\n  }\n}',
    );
    expect(e.meta).toEqual({ index_uuid: 'uuid', index: 'test' });
    expect(chain(e)[1]).toEqual(['number_format_exception', 'For input string: "abc"']);
  });

  it('keeps query_shard_exceptions as they are', () => {
    expect(errorChain({ prefix: { age: '1' } })).toEqual([
      [
        'query_shard_exception',
        'Can only use prefix queries on keyword and text fields - not on [age] which is of type [integer]',
      ],
    ]);
    expect(errorChain({ term: { geo: 'x' } })).toEqual([
      [
        'query_shard_exception',
        'Geo fields do not support exact searching, use dedicated geo queries instead: [geo]',
      ],
    ]);
    expect(errorChain({ match: { title: { query: 'x', analyzer: 'nope' } } })).toEqual([
      ['query_shard_exception', '[match] analyzer [nope] not found'],
    ]);
  });

  it('reports ES causes for bad values', () => {
    const cause = (q: unknown) => chain(b.error(q))[1];
    expect(cause({ term: { ip: 'x' } })).toEqual([
      'illegal_argument_exception',
      "'x' is not an IP string literal.",
    ]);
    expect(cause({ term: { ok: 'yes' } })).toEqual([
      'illegal_argument_exception',
      "Can't parse boolean value [yes], expected [true] or [false]",
    ]);
    expect(cause({ term: { age: 3000000000 } })).toEqual([
      'illegal_argument_exception',
      'Value [3000000000] is out of range for an integer',
    ]);
    expect(cause({ term: { unindexed: 'x' } })).toEqual([
      'illegal_argument_exception',
      'Cannot search on field [unindexed] since it is not indexed.',
    ]);
    expect(cause({ range: { date: { gte: 'not a date' } } })?.[0]).toBe('parse_exception');
    expect(cause({ fuzzy: { age: 1 } })).toEqual([
      'illegal_argument_exception',
      'Can only use fuzzy queries on keyword and text fields - not on [age] which is of type [integer]',
    ]);
    expect(cause({ regexp: { tag: { value: 'a', rewrite: 'bogus' } } })).toEqual([
      'illegal_argument_exception',
      'Failed to parse rewrite_method [bogus]',
    ]);
    expect(cause({ exists: { field: '_source' } })).toBeUndefined();
  });

  it('enforces index.max_regex_length and max_clause_count', () => {
    const long = 'a'.repeat(1001);
    expect(chain(b.error({ regexp: { tag: long } }))[1]).toEqual([
      'illegal_argument_exception',
      'The length of regex [1001] used in the Regexp Query request has exceeded the allowed maximum of [1000]. This maximum can be set by changing the [index.max_regex_length] index level setting.',
    ]);
    const local = bench();
    (local.ctx as { maxClauseCount: number }).maxClauseCount = 2;
    expect(chain(local.error({ match: { title: 'a b c' } }))[1]).toEqual([
      'too_many_clauses',
      'maxClauseCount is set to 2',
    ]);
  });
});

describe('public API', () => {
  it('lowerQuery collects _name queries at any depth', () => {
    const { query, namedQueries } = lowerQuery(
      parseQuery({
        bool: {
          _name: 'outer',
          should: [
            { match: { title: { query: 'fox', _name: 'fox' } } },
            { term: { tag: { value: 'A', _name: 'tagA', boost: 2 } } },
          ],
        },
      }),
      b.ctx,
    );
    expect([...namedQueries.keys()].sort()).toEqual(['fox', 'outer', 'tagA']);
    expect(describeQuery(namedQueries.get('tagA')!)).toBe('(tag:A)^2.0');
    expect(namedQueries.get('outer')).toBe(query);
  });

  it('toSearchFilter lowers in filter context; toSearchQuery does not', () => {
    const q = parseQuery({
      bool: { should: [{ term: { tag: 'A' } }], must: { term: { age: 30 } } },
    });
    expect(describeQuery(toSearchQuery(q, b.ctx))).toBe('+age:[30 TO 30] tag:A');
    expect(describeQuery(toSearchFilter(q, b.ctx))).toBe('(+age:[30 TO 30] tag:A)~1');
    const fuzzy = parseQuery({ fuzzy: { tag: 'abc' } });
    expect(toSearchFilter(fuzzy, b.ctx)).toMatchObject({
      kind: 'Fuzzy',
      rewrite: { method: 'constant_score' },
    });
    expect(toSearchQuery(fuzzy, b.ctx)).not.toHaveProperty('rewrite');
  });

  it('renderQuery prints the builder as ES does', () => {
    expect(
      renderQuery(parseQuery({ bool: { must: [{ term: { a: 1 } }], minimum_should_match: '1' } })),
    ).toBe(
      [
        '{',
        '  "bool" : {',
        '    "must" : [',
        '      {',
        '        "term" : {',
        '          "a" : {',
        '            "value" : 1,',
        '            "boost" : 1.0',
        '          }',
        '        }',
        '      }',
        '    ],',
        '    "adjust_pure_negative" : true,',
        '    "minimum_should_match" : "1",',
        '    "boost" : 1.0',
        '  }',
        '}',
      ].join('\n'),
    );
    expect(renderQuery(parseQuery({ ids: { values: [] } }))).toBe(
      '{\n  "ids" : {\n    "type" : [ ],\n    "values" : [ ],\n    "boost" : 1.0\n  }\n}',
    );
  });
});
