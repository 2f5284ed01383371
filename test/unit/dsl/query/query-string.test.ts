/**
 * query_string / simple_query_string lowering, ported from ES 6.8 QueryStringQueryBuilderTests and
 * SimpleQueryStringBuilderTests facts: fields and patterns, boosts, stop words, quote analyzer and
 * quote_field_suffix, phrase slop, analyzed prefixes, fuzziness, cross_fields, default fields.
 */
import { describe, expect, it } from 'vitest';
import { Bench } from './harness.js';

const b = new Bench({
  properties: {
    mapped_string: { type: 'text' },
    mapped_string_2: { type: 'keyword' },
    mapped_int: { type: 'integer' },
    mapped_date: { type: 'date' },
    mapped_geo_point: { type: 'geo_point' },
    mapped_string_alias: { type: 'alias', path: 'mapped_string' },
  },
}).index([
  { mapped_string: 'quick brown fox', mapped_string_2: 'foo bar', mapped_int: 12 },
  { mapped_string: 'the lazy dog', mapped_string_2: 'other' },
]);
const d = (q: Record<string, unknown>) => b.describe({ query_string: q });
const sqs = (q: Record<string, unknown>) => b.describe({ simple_query_string: q });

describe('QueryStringQueryBuilderTests facts', () => {
  it('terms, phrases, boosts', () => {
    expect(d({ query: '*:*' })).toBe('*:*');
    expect(d({ query: 'test', default_field: 'mapped_string' })).toBe('mapped_string:test');
    expect(d({ query: '"term1 term2"', default_field: 'mapped_string', phrase_slop: 3 })).toBe(
      'mapped_string:"term1 term2"~3',
    );
    expect(d({ query: 'mapped_string:boosted^2' })).toBe('(mapped_string:boosted)^2.0');
    expect(d({ query: 'mapped_string:boosted^2', boost: 2 })).toBe('(mapped_string:boosted)^4.0');
    expect(d({ query: '((mapped_string:boosted^2) AND (mapped_string:foo^1.5))^3' })).toBe(
      '(+(mapped_string:boosted)^2.0 +(mapped_string:foo)^1.5)^3.0',
    );
    expect(d({ query: 'test1 test2', fields: ['mapped_string'] })).toBe(
      'mapped_string:test1 mapped_string:test2',
    );
    expect(d({ query: '(foo bar)^2', fields: ['mapped_string'], minimum_should_match: '2' })).toBe(
      '((mapped_string:foo mapped_string:bar)~2)^2.0',
    );
  });

  it('several fields: dis_max per term, field boosts, patterns', () => {
    expect(d({ query: 'test', fields: ['mapped_string', 'mapped_string_2'] })).toBe(
      '(mapped_string:test | mapped_string_2:test)',
    );
    expect(d({ query: 'test', fields: ['mapped_string^2.2', 'mapped_string_2'] })).toBe(
      '((mapped_string:test)^2.2 | mapped_string_2:test)',
    );
    expect(d({ query: 'foo bar', fields: ['mapped_string', 'mapped_string_2'] })).toBe(
      '((mapped_string:foo mapped_string:bar) | mapped_string_2:foo bar)',
    );
    expect(
      d({ query: 'foo bar', fields: ['mapped_string', 'mapped_string_2'], type: 'phrase' }),
    ).toBe('(mapped_string:"foo bar" | mapped_string_2:foo bar)');
    expect(d({ query: 'test', fields: ['mapped_str*'] })).toBe(
      '(mapped_string:test | mapped_string:test | mapped_string_2:test)',
    );
    // QueryStringQueryParser.newUnmappedFieldQuery(field) with the parser's null field
    expect(d({ query: 'foo bar', fields: ['invalid*'] })).toBe(
      'MatchNoDocsQuery("unmapped fields [null]")',
    );
    expect(d({ query: 'mapped_string:foo bar', fields: ['invalid*'] })).toBe(
      'mapped_string:foo MatchNoDocsQuery("unmapped fields [null]")',
    );
  });

  it('fuzziness: AUTO by term length, explicit edits, prefix length', () => {
    expect(d({ query: 'aa~', default_field: 'mapped_string' })).toBe('mapped_string:aa~0');
    expect(d({ query: 'aaaa~auto', default_field: 'mapped_string' })).toBe('mapped_string:aaaa~1');
    expect(d({ query: 'aaaaaaa~', default_field: 'mapped_string' })).toBe(
      'mapped_string:aaaaaaa~2',
    );
    expect(
      d({
        query: 'text~2',
        fields: ['mapped_string'],
        fuzzy_prefix_length: 2,
        fuzzy_max_expansions: 5,
      }),
    ).toBe('mapped_string:text~2');
  });

  it('_exists_ and wildcards on fields', () => {
    expect(d({ query: 'mapped_string:*' })).toBe(
      'ConstantScore(NormsFieldExistsQuery [field=mapped_string])',
    );
    expect(d({ query: '_exists_:mapped_string' })).toBe(
      'ConstantScore(NormsFieldExistsQuery [field=mapped_string])',
    );
    expect(d({ query: '_exists_:"mapped_string"' })).toBe(
      'ConstantScore(NormsFieldExistsQuery [field=mapped_string])',
    );
    expect(d({ query: '_all:*' })).toBe('*:*');
    expect(d({ query: '*' })).toBe('*:*');
  });

  it('stop words, quote analyzer, quote_field_suffix', () => {
    expect(d({ query: 'the quick fox', fields: ['mapped_string'], analyzer: 'stop' })).toBe(
      'mapped_string:quick mapped_string:fox',
    );
    expect(
      d({ query: 'the quick fox', fields: ['mapped_string', 'mapped_string_2'], analyzer: 'stop' }),
    ).toBe(
      '((mapped_string:quick mapped_string:fox) | (mapped_string_2:quick mapped_string_2:fox))',
    );
    expect(d({ query: 'the* quick fox', fields: ['mapped_string'], analyzer: 'stop' })).toBe(
      'mapped_string:the* mapped_string:quick mapped_string:fox',
    );
    expect(
      d({
        query: 'ONE "TWO THREE"',
        fields: ['mapped_string'],
        analyzer: 'whitespace',
        quote_analyzer: 'simple',
      }),
    ).toBe('mapped_string:ONE mapped_string:"two three"');
    expect(d({ query: 'bar', fields: ['mapped_string'], quote_field_suffix: '_2' })).toBe(
      'mapped_string:bar',
    );
    expect(d({ query: '"bar"', fields: ['mapped_string'], quote_field_suffix: '_2' })).toBe(
      'mapped_string_2:bar',
    );
    expect(d({ query: '"bar"', fields: ['mapped_string'], quote_field_suffix: '.quote' })).toBe(
      'mapped_string:bar',
    );
  });

  it('phrase slop and analyzed prefixes', () => {
    expect(d({ query: 'quick fox', fields: ['mapped_string'], type: 'phrase' })).toBe(
      'mapped_string:"quick fox"',
    );
    expect(
      d({ query: 'quick fox', fields: ['mapped_string'], type: 'phrase', phrase_slop: 2 }),
    ).toBe('mapped_string:"quick fox"~2');
    expect(d({ query: '"quick fox"~2', fields: ['mapped_string'], phrase_slop: 10 })).toBe(
      'mapped_string:"quick fox"~2',
    );
    expect(
      d({
        query: 'quick* @&*',
        fields: ['mapped_string'],
        analyzer: 'standard',
        analyze_wildcard: true,
      }),
    ).toBe('mapped_string:quick*');
    expect(
      d({
        query: 'first foo-bar-foobar* last',
        default_field: 'mapped_string',
        analyze_wildcard: true,
      }),
    ).toBe(
      'mapped_string:first (mapped_string:foo mapped_string:bar mapped_string:foobar*) mapped_string:last',
    );
  });

  it('cross_fields over index default fields', () => {
    const local = new Bench(
      { properties: { mapped_string: { type: 'text' }, mapped_string_2: { type: 'keyword' } } },
      { context: { defaultFields: ['mapped_string', 'mapped_string_2'] } },
    );
    expect(
      local.describe({
        query_string: { query: 'foo', analyzer: 'whitespace', type: 'cross_fields' },
      }),
    ).toBe('blended(terms:[mapped_string:foo, mapped_string_2:foo])');
    expect(
      local.describe({
        query_string: {
          query: 'foo mapped_string:10',
          analyzer: 'whitespace',
          type: 'cross_fields',
        },
      }),
    ).toBe('blended(terms:[mapped_string:foo, mapped_string_2:foo]) mapped_string:10');
  });

  it('numeric and geo fields: errors unless lenient', () => {
    expect(
      b.error({ query_string: { query: '12~0.2', default_field: 'mapped_int' } }).causedBy?.reason,
    ).toBe(
      'Can only use fuzzy queries on keyword and text fields - not on [mapped_int] which is of type [integer]',
    );
    expect(d({ query: '12~0.2', default_field: 'mapped_int', lenient: true })).toContain(
      'MatchNoDocsQuery',
    );
    expect(b.error({ query_string: { query: '12*', default_field: 'mapped_int' } }).reason).toBe(
      'Can only use prefix queries on keyword and text fields - not on [mapped_int] which is of type [integer]',
    );
    expect(
      b.error({ query_string: { query: '2,3', default_field: 'mapped_geo_point' } }).reason,
    ).toBe(
      'Geo fields do not support exact searching, use dedicated geo queries instead: [mapped_geo_point]',
    );
    expect(d({ query: 'mapped_int:12' })).toBe('mapped_int:[12 TO 12]');
    expect(d({ query: 'mapped_int:[10 TO 20]' })).toBe('mapped_int:[10 TO 20]');
    // JodaDateMathParser: rounding up fills only missing time fields (2014-01-01T23:59:59.999)
    expect(d({ query: 'mapped_date:[2012 TO 2014]', time_zone: 'Europe/Paris' })).toBe(
      'mapped_date:[1325372400000 TO 1388617199999]',
    );
  });

  it('searches', () => {
    expect(b.ids({ query_string: { query: 'quick AND brown' } })).toEqual(['0']);
    expect(b.ids({ query_string: { query: 'mapped_string_2:"foo bar"' } })).toEqual(['0']);
    expect(b.ids({ query_string: { query: 'mapped_int:>10' } })).toEqual(['0']);
    expect(b.ids({ query_string: { query: 'NOT fox', default_field: 'mapped_string' } })).toEqual([
      '1',
    ]);
  });
});

describe('SimpleQueryStringBuilderTests facts', () => {
  it('default operator, flags, fields', () => {
    expect(sqs({ query: 'foo bar', fields: ['mapped_string'] })).toBe(
      'mapped_string:foo mapped_string:bar',
    );
    expect(sqs({ query: 'foo bar', fields: ['mapped_string'], default_operator: 'and' })).toBe(
      '+mapped_string:foo +mapped_string:bar',
    );
    expect(sqs({ query: 'foo | bar', fields: ['mapped_string'], flags: 'NONE' })).toBe(
      'mapped_string:foo mapped_string:bar',
    );
    expect(sqs({ query: 'test', fields: ['mapped_string', 'mapped_string_2'] })).toBe(
      '(mapped_string:test | mapped_string_2:test)~1.0',
    );
    // default fields `*`: every searchable field, lenient, most_fields (tie breaker 1)
    const all = sqs({ query: 'test' });
    expect(all.startsWith('(') && all.endsWith(')~1.0')).toBe(true);
    expect(all.slice(1, -5).split(' | ').sort()).toEqual([
      'MatchNoDocsQuery("failed [mapped_date] query, caused by parse_exception:[failed to parse date field [test] with format [strict_date_optional_time||epoch_millis]]")',
      'MatchNoDocsQuery("failed [mapped_int] query, caused by number_format_exception:[For input string: "test"]")',
      'mapped_string:test',
      'mapped_string:test',
      'mapped_string_2:test',
    ]);
  });

  it('prefixes, phrases and fuzzy terms per field', () => {
    expect(sqs({ query: 'qu*', fields: ['mapped_string', 'mapped_string_2'] })).toBe(
      '(mapped_string:qu* | mapped_string_2:qu*)~1.0',
    );
    expect(sqs({ query: '"quick fox"~2', fields: ['mapped_string'] })).toBe(
      'mapped_string:"quick fox"~2',
    );
    expect(sqs({ query: 'quikc~2', fields: ['mapped_string'] })).toBe('mapped_string:quikc~2');
    expect(sqs({ query: 'foo*', fields: ['mapped_int'], lenient: true })).toBe(
      'MatchNoDocsQuery("failed query, caused by Can only use prefix queries on keyword and text fields - not on [mapped_int] which is of type [integer]")',
    );
    expect(sqs({ query: 'quick-fox*', fields: ['mapped_string'], analyze_wildcard: true })).toBe(
      'mapped_string:quick mapped_string:fox*',
    );
  });
});
