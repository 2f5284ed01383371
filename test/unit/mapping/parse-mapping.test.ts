import { describe, expect, it } from 'vitest';
import {
  mappingToJson,
  parseIndexMappings,
  parseMapping,
  lookupField,
} from '../../../src/mapping/index.js';
import { caught, chainOf, ctx, expectError, mapping } from './helpers.js';

const props = (p: Record<string, unknown>) => mapping({ properties: p });
const render = (p: Record<string, unknown>) => mappingToJson(props(p));
const parseErr = (body: unknown) => () => parseMapping('_doc', body, ctx);
const propErr = (p: Record<string, unknown>) => parseErr({ properties: p });

describe('field types and their defaults (ES *FieldMapper.Defaults)', () => {
  const m = props({
    t: { type: 'text' },
    k: { type: 'keyword' },
    l: { type: 'long' },
    d: { type: 'date' },
    b: { type: 'boolean' },
    ip: { type: 'ip' },
    bin: { type: 'binary' },
    g: { type: 'geo_point' },
    sf: { type: 'scaled_float', scaling_factor: 100 },
  });
  const f = (p: string) => m.fieldsByPath.get(p)!;

  it('text: indexed with positions, norms, no doc values, default analyzers', () => {
    expect([f('t').index, f('t').indexOptions, f('t').norms, f('t').docValues]).toEqual([
      true,
      'positions',
      true,
      false,
    ]);
    expect([f('t').analyzer, f('t').searchAnalyzer, f('t').searchQuoteAnalyzer]).toEqual([
      'default',
      'default',
      'default',
    ]);
  });
  it('keyword: docs index options, no norms, doc values', () => {
    expect([f('k').indexOptions, f('k').norms, f('k').docValues]).toEqual(['docs', false, true]);
  });
  it('numbers and dates: doc values, coerce on, ignore_malformed off, default date format', () => {
    expect([f('l').docValues, f('l').coerce, f('l').ignoreMalformed]).toEqual([true, true, false]);
    expect(f('d').format).toBe('strict_date_optional_time||epoch_millis');
  });
  it('binary is neither indexed nor doc-valued by default', () => {
    expect([f('bin').index, f('bin').docValues]).toEqual([false, false]);
  });
  it('renders only the type for default parameters', () => {
    expect(mappingToJson(m)).toEqual({
      properties: {
        b: { type: 'boolean' },
        bin: { type: 'binary' },
        d: { type: 'date' },
        g: { type: 'geo_point' },
        ip: { type: 'ip' },
        k: { type: 'keyword' },
        l: { type: 'long' },
        sf: { type: 'scaled_float', scaling_factor: 100 },
        t: { type: 'text' },
      },
    });
  });
});

describe('rendering (ES toXContent order, non-default parameters only)', () => {
  it('keeps ES key order, not the request order', () => {
    const json = render({
      f: { norms: false, analyzer: 'english', type: 'text', store: true, boost: 2, copy_to: 'all' },
      all: { type: 'text' },
    });
    expect(Object.keys(json.properties as object)).toEqual(['all', 'f']);
    const f = (json.properties as Record<string, Record<string, unknown>>).f!;
    expect(Object.keys(f)).toEqual(['type', 'boost', 'store', 'norms', 'copy_to', 'analyzer']);
    expect(f.copy_to).toEqual(['all']);
  });
  it('renders boolean-ish strings normalized, and floats as Java floats', () => {
    const json = render({ k: { type: 'keyword', index: 'false', boost: 1.1, doc_values: 'true' } });
    expect(json.properties).toEqual({ k: { type: 'keyword', boost: 1.1, index: false } });
  });
  it('renders search analyzers only when they differ', () => {
    const json = render({
      a: { type: 'text', analyzer: 'standard' },
      b: { type: 'text', analyzer: 'english', search_analyzer: 'english' },
      c: { type: 'text', analyzer: 'english', search_analyzer: 'simple' },
      d: {
        type: 'text',
        analyzer: 'english',
        search_analyzer: 'simple',
        search_quote_analyzer: 'stop',
      },
    });
    expect(json.properties).toEqual({
      a: { type: 'text', analyzer: 'standard' },
      b: { type: 'text', analyzer: 'english' },
      c: { type: 'text', analyzer: 'english', search_analyzer: 'simple' },
      d: {
        type: 'text',
        analyzer: 'english',
        search_analyzer: 'simple',
        search_quote_analyzer: 'stop',
      },
    });
  });
  it('renders multi-fields sorted by name', () => {
    const json = render({
      t: {
        type: 'text',
        fields: { z: { type: 'keyword' }, a: { type: 'keyword', ignore_above: 10 } },
      },
    });
    expect(json.properties).toEqual({
      t: {
        type: 'text',
        fields: { a: { type: 'keyword', ignore_above: 10 }, z: { type: 'keyword' } },
      },
    });
  });
  it('renders explicit coerce / ignore_malformed and numeric null_value as numbers', () => {
    const json = render({
      n: { type: 'integer', coerce: false, ignore_malformed: 'true', null_value: '5' },
      f: { type: 'float', null_value: 0.1 },
    });
    expect(json.properties).toEqual({
      f: { type: 'float', null_value: 0.1 },
      n: { type: 'integer', ignore_malformed: true, coerce: false, null_value: 5 },
    });
  });
  it('renders date format and locale, ip null_value canonically', () => {
    const json = render({
      d: { type: 'date', format: 'yyyy-MM-dd', locale: 'en-us', null_value: '2015-01-01' },
      ip: { type: 'ip', null_value: '::ffff:1.2.3.4' },
    });
    expect(json.properties).toEqual({
      d: { type: 'date', null_value: '2015-01-01', format: 'yyyy-MM-dd', locale: 'en_US' },
      ip: { type: 'ip', null_value: '1.2.3.4' },
    });
  });
  it('renders objects: type only when empty, dynamic as a string, nested flags', () => {
    const json = render({
      empty: { type: 'object' },
      o: { dynamic: false, properties: { a: { type: 'long' } } },
      s: { type: 'object', dynamic: 'STRICT', enabled: false },
      n: { type: 'nested', include_in_parent: true, properties: { x: { type: 'keyword' } } },
    });
    expect(json.properties).toEqual({
      empty: { type: 'object' },
      n: { type: 'nested', include_in_parent: true, properties: { x: { type: 'keyword' } } },
      o: { dynamic: 'false', properties: { a: { type: 'long' } } },
      s: { type: 'object', dynamic: 'strict', enabled: false },
    });
  });
  it('renders root settings and metadata fields in ES order', () => {
    const m = mapping({
      properties: { a: { type: 'keyword' } },
      date_detection: false,
      _source: { excludes: ['secret'] },
      _routing: { required: true },
      dynamic: 'strict',
      _meta: { owner: 'me' },
      numeric_detection: true,
      dynamic_templates: [
        { strings: { match_mapping_type: 'string', mapping: { type: 'keyword' } } },
      ],
      dynamic_date_formats: ['yyyy-MM-dd'],
    });
    const json = mappingToJson(m);
    expect(Object.keys(json)).toEqual([
      'dynamic',
      '_meta',
      '_routing',
      '_source',
      'dynamic_date_formats',
      'dynamic_templates',
      'date_detection',
      'numeric_detection',
      'properties',
    ]);
    expect(json.dynamic_templates).toEqual([
      { strings: { match_mapping_type: 'string', mapping: { type: 'keyword' } } },
    ]);
    expect(json._source).toEqual({ excludes: ['secret'] });
    expect(m.routingRequired).toBe(true);
    expect(m.source.excludes).toEqual(['secret']);
  });
  it('renders an empty mapping as {}', () => {
    expect(mappingToJson(mapping({}))).toEqual({});
  });
});

describe('mapping structure', () => {
  it('turns dotted names into objects (ES parseProperties)', () => {
    const m = props({ 'a.b.c': { type: 'keyword' }, 'a.d': { type: 'long' } });
    expect(mappingToJson(m)).toEqual({
      properties: {
        a: { properties: { b: { properties: { c: { type: 'keyword' } } }, d: { type: 'long' } } },
      },
    });
    expect(m.objectsByPath.has('a.b')).toBe(true);
    expect(lookupField(m, 'a.b.c')?.type).toBe('keyword');
  });
  it('derives object type from properties or a lone enabled flag', () => {
    const m = props({ o: { properties: {} }, e: { enabled: false } });
    expect(m.objectsByPath.get('e')?.enabled).toBe(false);
    expect(m.objectsByPath.get('o')?.type).toBe('object');
  });
  it('accepts [] for empty properties and fields (PHP clients)', () => {
    const m = props({ a: { type: 'text', fields: [] }, o: { properties: [] }, x: [] });
    expect(m.fieldsByPath.get('a')?.fields.size).toBe(0);
    expect(m.fieldsByPath.has('x')).toBe(false);
  });
  it('unwraps a body keyed by the type name', () => {
    const m = parseMapping('_doc', { _doc: { properties: { a: { type: 'long' } } } }, ctx);
    expect(m.fieldsByPath.get('a')?.type).toBe('long');
  });
  it('resolves aliases in lookupField', () => {
    const m = props({ a: { type: 'long' }, b: { type: 'alias', path: 'a' } });
    expect(lookupField(m, 'b')?.path).toBe('a');
    expect(m.fieldsByPath.get('b')?.type).toBe('alias');
    expect(mappingToJson(m).properties).toEqual({
      a: { type: 'long' },
      b: { type: 'alias', path: 'a' },
    });
  });
  it('drops redundant include_in_root (ES fixRedundantIncludes)', () => {
    const m = props({
      n: {
        type: 'nested',
        include_in_parent: true,
        properties: { m: { type: 'nested', include_in_parent: true, include_in_root: true } },
      },
    });
    expect(m.objectsByPath.get('n.m')?.includeInRoot).toBe(false);
  });
});

describe('mapping parse errors (ES 6.8 wording)', () => {
  it('unknown and removed types', () => {
    expectError(
      propErr({ bar: { type: 'foo' } }),
      'mapper_parsing_exception',
      'No handler for type [foo] declared on field [bar]',
    );
    expectError(
      propErr({ s: { type: 'string' } }),
      'mapper_parsing_exception',
      'No handler for type [string] declared on field [s]',
    );
    expectError(
      propErr({ x: { store: true } }),
      'mapper_parsing_exception',
      'No type specified for field [x]',
    );
  });
  it('unsupported parameters', () => {
    expectError(
      propErr({ x: { type: 'keyword', foo: 'bar', analyzer: 'standard' } }),
      'mapper_parsing_exception',
      'Mapping definition for [x] has unsupported parameters:  [foo : bar] [analyzer : standard]',
    );
    expectError(
      propErr({ n: { type: 'long', norms: false } }),
      'mapper_parsing_exception',
      'Mapping definition for [n] has unsupported parameters:  [norms : false]',
    );
    expectError(
      parseErr({ foo: 1, properties: {} }),
      'mapper_parsing_exception',
      'Root mapping definition has unsupported parameters:  [foo : 1]',
    );
  });
  it('booleans must be true or false', () => {
    expect(chainOf(propErr({ x: { type: 'keyword', index: 'no' } }))).toEqual([
      ['illegal_argument_exception', 'Could not convert [x.index] to boolean'],
      [
        'illegal_argument_exception',
        'Failed to parse value [no] as only [true] or [false] are allowed.',
      ],
    ]);
    expect(chainOf(parseErr({ date_detection: 'yes' }))[0]).toEqual([
      'illegal_argument_exception',
      'Could not convert [date_detection] to boolean',
    ]);
  });
  it('analyzers and normalizers must exist', () => {
    expectError(
      propErr({ t: { type: 'text', analyzer: 'nope' } }),
      'mapper_parsing_exception',
      'analyzer [nope] not found for field [t]',
    );
    expectError(
      propErr({ t: { type: 'text', search_analyzer: 'standard' } }),
      'mapper_parsing_exception',
      'analyzer on field [t] must be set when search_analyzer is set',
    );
    expectError(
      propErr({ t: { type: 'text', analyzer: 'standard', search_quote_analyzer: 'standard' } }),
      'mapper_parsing_exception',
      'analyzer and search_analyzer on field [t] must be set when search_quote_analyzer is set',
    );
    expectError(
      propErr({ k: { type: 'keyword', normalizer: 'x' } }),
      'mapper_parsing_exception',
      'normalizer [x] not found for field [k]',
    );
    expectError(
      propErr({ c: { type: 'token_count' } }),
      'mapper_parsing_exception',
      "Analyzer must be set for field [c] but wasn't.",
    );
    expectError(
      propErr({ c: { type: 'token_count', analyzer: 'nope' } }),
      'mapper_parsing_exception',
      'Analyzer [nope] not found for field [c]',
    );
  });
  it('type-specific checks', () => {
    expectError(
      propErr({ s: { type: 'scaled_float' } }),
      'illegal_argument_exception',
      'Field [s] misses required parameter [scaling_factor]',
    );
    expectError(
      propErr({ t: { type: 'text', doc_values: true } }),
      'illegal_argument_exception',
      '[text] fields do not support doc values',
    );
    expectError(
      propErr({ k: { type: 'keyword', index_options: 'positions' } }),
      'illegal_argument_exception',
      'The [keyword] field does not support positions, got [index_options]=positions',
    );
    expectError(
      propErr({ k: { type: 'keyword', index_options: 'all' } }),
      'parse_exception',
      'failed to parse index option [all]',
    );
    expectError(
      propErr({ t: { type: 'text', index_options: 'freqs', position_increment_gap: 10 } }),
      'illegal_argument_exception',
      'Cannot set position_increment_gap on field [t] without positions enabled',
    );
    expectError(
      propErr({ k: { type: 'keyword', ignore_above: -1 } }),
      'illegal_argument_exception',
      '[ignore_above] must be positive, got -1',
    );
    expectError(
      propErr({ b: { type: 'binary', index: true } }),
      'illegal_argument_exception',
      'mapper [b] has different [index] values from other types of the same index',
    );
    expectError(
      propErr({ r: { type: 'integer_range', null_value: 1 } }),
      'mapper_parsing_exception',
      'Property [null_value] is not supported for [integer_range] field types.',
    );
    expectError(
      propErr({ r: { type: 'long_range', format: 'yyyy' } }),
      'illegal_argument_exception',
      'field [r] of type [LONG] should not define a dateTimeFormatter unless it is a DATE type',
    );
    expectError(
      propErr({ a: { type: 'alias' } }),
      'mapper_parsing_exception',
      'The [path] property must be specified for field [a].',
    );
    expectError(
      propErr({ t: { type: 'text', index_prefixes: { min_chars: 3, max_chars: 2 } } }),
      'illegal_argument_exception',
      'min_chars [3] must be less than max_chars [2]',
    );
  });
  it('null values', () => {
    expectError(
      propErr({ k: { type: 'keyword', store: null } }),
      'mapper_parsing_exception',
      '[store] must not have a [null] value',
    );
    expectError(
      propErr({ k: { type: 'keyword', null_value: null } }),
      'mapper_parsing_exception',
      'Property [null_value] cannot be null.',
    );
    expectError(
      propErr({ n: { type: 'integer', null_value: 'abc' } }),
      'number_format_exception',
      'For input string: "abc"',
    );
    expectError(
      propErr({ n: { type: 'byte', null_value: 300 } }),
      'illegal_argument_exception',
      'Value [300] is out of range for a byte',
    );
    expectError(
      propErr({ n: { type: 'long', null_value: 1.5 } }),
      'illegal_argument_exception',
      'Value [1.5] has a decimal part',
    );
    expectError(
      propErr({ i: { type: 'ip', null_value: 'x' } }),
      'illegal_argument_exception',
      "'x' is not an IP string literal.",
    );
  });
  it('field names', () => {
    expectError(
      propErr({ '': { type: 'keyword' } }),
      'illegal_argument_exception',
      'name cannot be empty string',
    );
    expectError(
      propErr({ 'a..b': { type: 'keyword' } }),
      'illegal_argument_exception',
      'name cannot be empty string',
    );
  });
  it('_all and include_in_all are gone in 6.x', () => {
    expectError(
      propErr({ t: { type: 'text', include_in_all: false } }),
      'mapper_parsing_exception',
      '[include_in_all] is not allowed for indices created on or after version 6.0.0 as [_all] is deprecated. As a replacement, you can use an [copy_to] on mapping fields to create your own catch all field.',
    );
    expectError(
      parseErr({ _all: { enabled: true } }),
      'illegal_argument_exception',
      'Enabling [_all] is disabled in 6.0. As a replacement, you can use [copy_to] on mapping fields to create your own catch all field.',
    );
    expect(mappingToJson(mapping({ _all: { enabled: false } }))).toEqual({
      _all: { enabled: false },
    });
  });
  it('metadata fields', () => {
    expectError(
      parseErr({ _id: { store: true } }),
      'mapper_parsing_exception',
      '_id is not configurable',
    );
    expectError(
      parseErr({ _source: { foo: 1 } }),
      'mapper_parsing_exception',
      'Mapping definition for [_source] has unsupported parameters:  [foo : 1]',
    );
    expectError(
      parseErr({ _routing: true }),
      'illegal_argument_exception',
      '[_parent] must be an object containing [type]',
    );
  });
  it('multi-fields', () => {
    expectError(
      propErr({ t: { type: 'text', fields: { 'a.b': { type: 'keyword' } } } }),
      'mapper_parsing_exception',
      "Field name [a.b] which is a multi field of [t] cannot contain '.'",
    );
    expectError(
      propErr({ t: { type: 'text', fields: { o: { type: 'object' } } } }),
      'mapper_parsing_exception',
      'Type [object] cannot be used in multi field',
    );
    expectError(
      propErr({ t: { type: 'text', fields: { raw: { index: false } } } }),
      'mapper_parsing_exception',
      'no type specified for property [raw]',
    );
    expectError(
      propErr({ t: { type: 'text', fields: { raw: { type: 'keyword', copy_to: 'x' } } } }),
      'mapper_parsing_exception',
      'copy_to in multi fields is not allowed. Found the copy_to in field [raw] which is within a multi field.',
    );
    expectError(
      propErr({ t: { type: 'text', fields: { raw: { type: 'keyword', foo: 1 } } } }),
      'mapper_parsing_exception',
      'Mapping definition for [fields] has unsupported parameters:  [foo : 1]',
    );
  });
  it('conflicting duplicate names inside one mapping', () => {
    expectError(
      propErr({ 'a.b': { type: 'keyword' }, a: { type: 'keyword' } }),
      'illegal_argument_exception',
      "Can't merge a non object mapping [a] with an object mapping [a]",
    );
    expectError(
      propErr({ a: { type: 'keyword' }, 'a.b': { type: 'keyword' } }),
      'illegal_argument_exception',
      'mapper [a] of different type, current_type [keyword], merged_type [ObjectMapper]',
    );
  });
  it('renders dynamic templates as DynamicTemplate.toXContent', () => {
    const json = mappingToJson(
      mapping({
        dynamic_templates: [
          { a: { match_mapping_type: 'string', mapping: { store: true } } },
          { b: { unmatch: 'first_name', match: '*name', mapping: { store: true } } },
          {
            c: { match: '^a$', match_pattern: 'regex', mapping: { type: 'keyword', store: true } },
          },
        ],
      }),
    );
    expect(json.dynamic_templates).toEqual([
      { a: { match_mapping_type: 'string', mapping: { store: true } } },
      { b: { match: '*name', unmatch: 'first_name', mapping: { store: true } } },
      { c: { match: '^a$', match_pattern: 'regex', mapping: { store: true, type: 'keyword' } } },
    ]);
    expect(JSON.stringify((json.dynamic_templates as unknown[])[2])).toBe(
      '{"c":{"match":"^a$","match_pattern":"regex","mapping":{"store":true,"type":"keyword"}}}',
    );
  });
  it('dynamic templates and date formats', () => {
    expectError(
      parseErr({ dynamic_templates: [{ t: { mapping: {} } }] }),
      'mapper_parsing_exception',
      'template must have match, path_match or match_mapping_type set {mapping={}}',
    );
    expectError(
      parseErr({ dynamic_templates: [{ t: { match: '*' } }] }),
      'mapper_parsing_exception',
      'template must have mapping set',
    );
    expectError(
      parseErr({ dynamic_templates: [{ t: { match_mapping_type: 'foo', mapping: {} } }] }),
      'illegal_argument_exception',
      'No field type matched on [foo], possible values are [object, string, long, double, boolean, date, binary]',
    );
    expectError(
      parseErr({ dynamic_templates: [{ t: { match: '*', mapping: {}, foo: 1 } }] }),
      'illegal_argument_exception',
      'Illegal dynamic template parameter: [foo]',
    );
    expectError(
      parseErr({
        dynamic_templates: [{ a: { match: '*', mapping: {} }, b: { match: '*', mapping: {} } }],
      }),
      'mapper_parsing_exception',
      'A dynamic template must be defined with a name',
    );
    expectError(
      parseErr({ dynamic_templates: [{ t: { match: '[', match_pattern: 'regex', mapping: {} } }] }),
      'illegal_argument_exception',
      'Pattern [[] of type [regex] is invalid. Cannot create dynamic template [t].',
    );
    expectError(
      parseErr({ dynamic_date_formats: ['epoch_millis'] }),
      'mapper_parsing_exception',
      'Epoch [epoch_millis] is not supported as dynamic date format',
    );
    expect(caught(propErr({ d: { type: 'date', format: 'yyyy-qq' } })).reason).toBe(
      'Invalid format: [yyyy-qq]: Illegal pattern component: qq',
    );
  });
});

describe('parseIndexMappings (index creation)', () => {
  it('wraps parse errors as MapperService does, root cause being the inner exception', () => {
    const e = caught(() =>
      parseIndexMappings({ _doc: { properties: { bar: { type: 'foo' } } } }, ctx),
    );
    expect(e.toBody()).toEqual({
      error: {
        root_cause: [
          {
            type: 'mapper_parsing_exception',
            reason: 'No handler for type [foo] declared on field [bar]',
          },
        ],
        type: 'mapper_parsing_exception',
        reason: 'Failed to parse mapping [_doc]: No handler for type [foo] declared on field [bar]',
        caused_by: {
          type: 'mapper_parsing_exception',
          reason: 'No handler for type [foo] declared on field [bar]',
        },
      },
      status: 400,
    });
  });
  it('keeps a Java exception cause out of the root causes', () => {
    const e = caught(() =>
      parseIndexMappings({ _doc: { properties: { '': { type: 'keyword' } } } }, ctx),
    );
    expect(e.toBody().error.root_cause).toEqual([
      {
        type: 'mapper_parsing_exception',
        reason: 'Failed to parse mapping [_doc]: name cannot be empty string',
      },
    ]);
    expect((e.toBody().error.caused_by as { type: string }).type).toBe(
      'illegal_argument_exception',
    );
  });
  it('rejects more than one type', () => {
    expectError(
      () => parseIndexMappings({ t1: {}, t2: {} }, ctx),
      'illegal_argument_exception',
      'Rejecting mapping update to [idx] as the final mapping would have more than 1 type: [t1, t2]',
    );
  });
  it('rejects an empty type name as the root object mapper does', () => {
    expect(chainOf(() => parseIndexMappings({ '': {} }, ctx))).toEqual([
      ['mapper_parsing_exception', 'Failed to parse mapping []: name cannot be empty string'],
      ['illegal_argument_exception', 'name cannot be empty string'],
    ]);
  });
  it('validates type names', () => {
    expectError(
      () => parseIndexMappings({ _foo: {} }, ctx),
      'invalid_type_name_exception',
      "mapping type name [_foo] can't start with '_' unless it is called [_doc]",
    );
  });
  it('applies _default_ and returns null without types', () => {
    expect(parseIndexMappings({}, ctx)).toBeNull();
    expect(parseIndexMappings(undefined, ctx)).toBeNull();
    const m = parseIndexMappings(
      {
        _default_: { dynamic: 'strict', properties: { a: { type: 'keyword' } } },
        t: { properties: { b: { type: 'long' } } },
      },
      ctx,
    )!;
    expect(m.dynamic).toBe('strict');
    expect([...m.fieldsByPath.keys()].sort()).toEqual(['a', 'b']);
  });
  it('checks the total fields limit', () => {
    const p: Record<string, unknown> = {};
    for (let i = 0; i < 11; i++) p[`f${i}`] = { type: 'keyword' };
    expectError(
      () =>
        parseIndexMappings({ _doc: { properties: p } }, { ...ctx, limits: { totalFields: 10 } }),
      'illegal_argument_exception',
      'Limit of total fields [10] in index [idx] has been exceeded',
    );
  });
});
