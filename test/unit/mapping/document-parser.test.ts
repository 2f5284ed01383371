import { describe, expect, it } from 'vitest';
import { mappingToJson, parseDocument } from '../../../src/mapping/index.js';
import type { ParsedDocument, RootMapping } from '../../../src/mapping/index.js';
import { caught, chainOf, ctx, expectError, makeCtx, mapping } from './helpers.js';

const empty = mapping({});
const parse = (m: RootMapping, src: unknown, c = ctx) => parseDocument(m, src, c, '1');
/** [path, value] pairs of a parsed document. */
const vals = (d: ParsedDocument) => d.values.map((v) => [v.field.path, v.value]);
const valsOf = (m: RootMapping, src: unknown) => vals(parse(m, src));
const props = (p: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  mapping({ properties: p, ...extra });

describe('dynamic mapping (ES 6.8 defaults)', () => {
  it('maps the README example as GET _mapping shows it', () => {
    const d = parse(empty, {
      title: 'x',
      count: 5,
      price: 1.5,
      ok: true,
      when: '2015-01-01',
      user: { name: 'a' },
    });
    const kw = { type: 'text', fields: { keyword: { type: 'keyword', ignore_above: 256 } } };
    expect(mappingToJson(d.dynamicUpdate!)).toEqual({
      properties: {
        count: { type: 'long' },
        ok: { type: 'boolean' },
        price: { type: 'float' },
        title: kw,
        user: { properties: { name: kw } },
        when: { type: 'date' },
      },
    });
    expect(vals(d)).toEqual([
      ['title', 'x'],
      ['title.keyword', 'x'],
      ['count', 5],
      ['price', 1.5],
      ['ok', true],
      ['when', Date.UTC(2015, 0, 1)],
      ['user.name', 'a'],
      ['user.name.keyword', 'a'],
    ]);
  });
  it('returns no update when the mapping already covers the document', () => {
    const m = parse(empty, { a: 'x', b: { c: 1 } }).dynamicUpdate!;
    expect(parse(m, { a: 'y', b: { c: 2 } }).dynamicUpdate).toBeNull();
  });
  it('detects dates with the second default format and keeps its pattern', () => {
    const d = parse(empty, { d: '2015/01/01 12:10:30' });
    expect(mappingToJson(d.dynamicUpdate!).properties).toEqual({
      d: { type: 'date', format: 'yyyy/MM/dd HH:mm:ss||yyyy/MM/dd||epoch_millis' },
    });
    expect(vals(d)).toEqual([['d', Date.UTC(2015, 0, 1, 12, 10, 30)]]);
  });
  it('never date-detects pure numbers, maps empty strings to text', () => {
    const d = parse(empty, { n: '2015', e: '' });
    expect(d.dynamicUpdate!.fieldsByPath.get('n')?.type).toBe('text');
    expect(d.dynamicUpdate!.fieldsByPath.get('e')?.type).toBe('text');
  });
  it('honours date_detection: false and numeric_detection: true', () => {
    const m = mapping({ date_detection: false, numeric_detection: true });
    const d = parse(m, { d: '2015-01-01', l: '100', f: '100.0' });
    const t = (p: string) => d.dynamicUpdate!.fieldsByPath.get(p)?.type;
    expect([t('d'), t('l'), t('f')]).toEqual(['text', 'long', 'float']);
    expect(vals(d).filter(([p]) => p === 'l' || p === 'f')).toEqual([
      ['l', 100],
      ['f', 100],
    ]);
  });
  it('uses custom dynamic_date_formats', () => {
    const m = mapping({ dynamic_date_formats: ['dd.MM.yyyy'] });
    const d = parse(m, { d: '31.12.2015', x: '2015-01-01' });
    expect(mappingToJson(d.dynamicUpdate!).properties).toMatchObject({
      d: { type: 'date', format: 'dd.MM.yyyy' },
      x: { type: 'text' },
    });
  });
  it('maps arrays by their elements and objects in arrays', () => {
    const d = parse(empty, {
      tags: ['a', 'b'],
      nums: [1, 2, null],
      objs: [{ x: 1 }, { y: 'z' }],
      none: [],
    });
    expect(mappingToJson(d.dynamicUpdate!).properties).toMatchObject({
      nums: { type: 'long' },
      objs: { properties: { x: { type: 'long' }, y: { type: 'text' } } },
      tags: { type: 'text' },
    });
    expect(d.dynamicUpdate!.fieldsByPath.has('none')).toBe(false);
    expect(vals(d).filter(([p]) => p === 'tags' || p === 'nums')).toEqual([
      ['tags', 'a'],
      ['tags', 'b'],
      ['nums', 1],
      ['nums', 2],
    ]);
  });
  it('rejects arrays mixing types as ES does, when merging the update', () => {
    expectError(
      () => parse(empty, { a: [1, 'x'] }),
      'illegal_argument_exception',
      'mapper [a] of different type, current_type [long], merged_type [text]',
    );
    // long and float are one mapper class in ES: no conflict, the later mapper's type wins
    expect(parse(empty, { a: [1.5, 2] }).dynamicUpdate!.fieldsByPath.get('a')?.type).toBe('long');
    expect(parse(empty, { a: [2, 1.5] }).dynamicUpdate!.fieldsByPath.get('a')?.type).toBe('float');
    expectError(
      () => parse(empty, { a: [{ b: 1 }, 5] }),
      'illegal_argument_exception',
      "Can't merge a non object mapping [a] with an object mapping [a]",
    );
  });
  it('expands dotted keys into objects', () => {
    const d = parse(empty, { 'a.b': 1, a: { c: 'x' } });
    expect(mappingToJson(d.dynamicUpdate!).properties).toMatchObject({
      a: { properties: { b: { type: 'long' }, c: { type: 'text' } } },
    });
    expect(vals(d)[0]).toEqual(['a.b', 1]);
  });
  it('dynamic: false skips unknown fields, strict rejects them', () => {
    const m = props({ known: { type: 'keyword' } }, { dynamic: false });
    const d = parse(m, { known: 'k', unknown: 'u', obj: { x: 1 }, arr: [1, 2] });
    expect(vals(d)).toEqual([['known', 'k']]);
    expect(d.dynamicUpdate).toBeNull();
    const s = props({ o: { properties: { x: { type: 'keyword' } } } }, { dynamic: 'strict' });
    expectError(
      () => parse(s, { foo: 1 }),
      'strict_dynamic_mapping_exception',
      'mapping set to strict, dynamic introduction of [foo] within [_doc] is not allowed',
    );
    expectError(
      () => parse(s, { o: { y: 1 } }),
      'strict_dynamic_mapping_exception',
      'mapping set to strict, dynamic introduction of [y] within [o] is not allowed',
    );
    expectError(
      () => parse(s, { arr: [1] }),
      'strict_dynamic_mapping_exception',
      'mapping set to strict, dynamic introduction of [arr] within [_doc] is not allowed',
    );
    expectError(
      () => parse(s, { n: null }),
      'strict_dynamic_mapping_exception',
      'mapping set to strict, dynamic introduction of [n] within [_doc] is not allowed',
    );
  });
  it('inherits dynamic from the nearest object that sets it', () => {
    const m = props(
      { o: { dynamic: true, properties: { i: { properties: {} } } }, s: { properties: {} } },
      { dynamic: 'strict' },
    );
    const d = parse(m, { o: { i: { new: 1 } } });
    expect(d.dynamicUpdate!.fieldsByPath.has('o.i.new')).toBe(true);
    expectError(
      () => parse(m, { s: { new: 1 } }),
      'strict_dynamic_mapping_exception',
      'mapping set to strict, dynamic introduction of [new] within [s] is not allowed',
    );
  });
  it('checks the index limits on dynamic updates', () => {
    const c = makeCtx({ limits: { totalFields: 1 } });
    expectError(
      () => parseDocument(mapping({}, c), { a: 'x' }, c),
      'illegal_argument_exception',
      'Limit of total fields [1] in index [idx] has been exceeded',
    );
  });
});

describe('dynamic templates', () => {
  const tpl = (templates: unknown[], extra: Record<string, unknown> = {}) =>
    mapping({ dynamic_templates: templates, ...extra });
  const typeOf = (m: RootMapping, src: unknown, p: string) =>
    parse(m, src).dynamicUpdate!.fieldsByPath.get(p);

  it('match / unmatch / match_mapping_type, first match wins', () => {
    const m = tpl([
      {
        ints: {
          match_mapping_type: 'long',
          match: 'i_*',
          unmatch: '*_text',
          mapping: { type: 'integer' },
        },
      },
      { strings: { match_mapping_type: 'string', mapping: { type: 'keyword' } } },
      { all: { match: '*', mapping: { type: 'text' } } },
    ]);
    expect(typeOf(m, { i_x: 5 }, 'i_x')?.type).toBe('integer');
    expect(typeOf(m, { i_text: 5 }, 'i_text')?.type).toBe('text');
    expect(typeOf(m, { s: 'v' }, 's')?.type).toBe('keyword');
    expect(typeOf(m, { b: true }, 'b')?.type).toBe('text');
  });
  it('path_match / path_unmatch use the full path', () => {
    const m = tpl([
      {
        p: {
          path_match: 'name.*',
          path_unmatch: '*.middle',
          mapping: { type: 'keyword', copy_to: 'full_name' },
        },
      },
    ]);
    const d = parse(m, { name: { first: 'John', middle: 'Q' } });
    expect(d.dynamicUpdate!.fieldsByPath.get('name.first')?.copyTo).toEqual(['full_name']);
    expect(d.dynamicUpdate!.fieldsByPath.get('name.middle')?.type).toBe('text');
    expect(d.dynamicUpdate!.fieldsByPath.get('full_name')?.type).toBe('text');
  });
  it('regex match_pattern and placeholders', () => {
    const m = tpl([
      {
        r: {
          match_pattern: 'regex',
          match: '^n_\\d+$',
          mapping: { type: '{dynamic_type}', copy_to: '{name}_copy' },
        },
      },
    ]);
    const d = parse(m, { n_1: 3, n_x: 4 });
    expect(d.dynamicUpdate!.fieldsByPath.get('n_1')?.copyTo).toEqual(['n_1_copy']);
    expect(d.dynamicUpdate!.fieldsByPath.get('n_1')?.type).toBe('long');
    expect(d.dynamicUpdate!.fieldsByPath.get('n_x')?.copyTo).toEqual([]);
  });
  it('a template without type takes the dynamic type (strings: text without keyword)', () => {
    const m = tpl([{ t: { match_mapping_type: 'string', mapping: { store: true } } }]);
    const f = typeOf(m, { s: 'x' }, 's')!;
    expect([f.type, f.store, f.fields.size]).toEqual(['text', true, 0]);
  });
  it('object templates can map arrays as geo_point', () => {
    const m = tpl([{ geo: { match: 'loc*', mapping: { type: 'geo_point' } } }]);
    const d = parse(m, { loc: [13.4, 52.5] });
    expect(vals(d)).toEqual([['loc', { lat: 52.5, lon: 13.4 }]]);
  });
  it('date templates inherit the detected format unless they set one', () => {
    const m = tpl(
      [
        { d2: { match_mapping_type: 'date', match: '*2', mapping: {} } },
        {
          d3: {
            match_mapping_type: 'date',
            match: '*3',
            mapping: { format: 'yyyy-MM-dd||epoch_millis' },
          },
        },
      ],
      { dynamic_date_formats: ['yyyy-MM-dd'] },
    );
    const u = parse(m, {
      date1: '2016-11-20',
      date2: '2016-11-20',
      date3: '2016-11-20',
    }).dynamicUpdate!;
    expect(['date1', 'date2', 'date3'].map((p) => u.fieldsByPath.get(p)?.format)).toEqual([
      'yyyy-MM-dd',
      'yyyy-MM-dd',
      'yyyy-MM-dd||epoch_millis',
    ]);
  });
  it('forbids dynamic nested objects through dots', () => {
    const m = tpl([{ n: { match_mapping_type: 'object', mapping: { type: 'nested' } } }]);
    expectError(
      () => parse(m, { 'foo.bar': 42 }),
      'mapper_parsing_exception',
      'It is forbidden to create dynamic nested objects ([foo]) through `copy_to` or dots in field names',
    );
  });
});

describe('value coercion per field type', () => {
  const m = props({
    l: { type: 'long' },
    i: { type: 'integer' },
    s: { type: 'short' },
    b: { type: 'byte' },
    f: { type: 'float' },
    h: { type: 'half_float' },
    d: { type: 'double' },
    strictL: { type: 'long', coerce: false },
    bool: { type: 'boolean' },
    kw: { type: 'keyword', ignore_above: 3 },
    t: { type: 'text' },
  });
  it('numbers from strings and decimals', () => {
    expect(
      valsOf(m, { l: '12', i: 12.7, s: '-3.9', b: '1e2', f: 0.1, h: 0.1, d: '1.5e3' }),
    ).toEqual([
      ['l', 12],
      ['i', 12],
      ['s', -3],
      ['b', 100],
      ['f', Math.fround(0.1)],
      ['h', 0.0999755859375],
      ['d', 1500],
    ]);
    expect(valsOf(m, { l: '12.7', i: '' })).toEqual([['l', 12]]);
  });
  it('number errors with ES 6.8 causes', () => {
    expect(chainOf(() => parse(m, { l: 'abc' }))).toEqual([
      [
        'mapper_parsing_exception',
        "failed to parse field [l] of type [long] in document with id '1'",
      ],
      ['illegal_argument_exception', 'For input string: "abc"'],
    ]);
    expect(chainOf(() => parse(m, { i: 'abc' }))[1]).toEqual([
      'number_format_exception',
      'For input string: "abc"',
    ]);
    expect(chainOf(() => parse(m, { b: 200 }))[1]).toEqual([
      'illegal_argument_exception',
      'Value [200] is out of range for a byte',
    ]);
    expect(chainOf(() => parse(m, { s: '40000' }))[1]).toEqual([
      'illegal_argument_exception',
      'Value [40000] is out of range for a short',
    ]);
    expect(chainOf(() => parse(m, { l: '1e20' }))[1]).toEqual([
      'illegal_argument_exception',
      'Value [1e20] is out of range for a long',
    ]);
    expect(chainOf(() => parse(m, { i: 3000000000 }))[1]).toEqual([
      'json_parse_exception',
      'Numeric value (3000000000) out of range of int',
    ]);
    expect(chainOf(() => parse(m, { l: true }))[1]).toEqual([
      'json_parse_exception',
      'Current token (VALUE_TRUE) not numeric, can not use numeric value accessors',
    ]);
    expect(chainOf(() => parse(m, { f: '1e39' }))[1]).toEqual([
      'illegal_argument_exception',
      '[float] supports only finite values, but got [Infinity]',
    ]);
    expect(chainOf(() => parse(m, { h: 70000 }))[1]).toEqual([
      'illegal_argument_exception',
      '[half_float] supports only finite values, but got [70000.0]',
    ]);
    expect(chainOf(() => parse(m, { strictL: '5' }))[1]).toEqual([
      'illegal_argument_exception',
      'Long value passed as String',
    ]);
    expect(chainOf(() => parse(m, { strictL: 12.7 }))[1]).toEqual([
      'illegal_argument_exception',
      '12.7 cannot be converted to Long without data loss',
    ]);
  });
  it('the root cause of a field failure is the mapper_parsing_exception', () => {
    const body = caught(() => parse(m, { l: 'abc' })).toBody();
    expect(body.error.root_cause).toEqual([
      {
        type: 'mapper_parsing_exception',
        reason: "failed to parse field [l] of type [long] in document with id '1'",
      },
    ]);
  });
  it('booleans: true/false and their strings, "" is false', () => {
    expect(valsOf(m, { bool: [true, 'false', '', 'true'] }).map(([, v]) => v)).toEqual([
      true,
      false,
      false,
      true,
    ]);
    expect(chainOf(() => parse(m, { bool: 'yes' }))).toEqual([
      [
        'mapper_parsing_exception',
        "failed to parse field [bool] of type [boolean] in document with id '1'",
      ],
      [
        'illegal_argument_exception',
        'Failed to parse value [yes] as only [true] or [false] are allowed.',
      ],
    ]);
    expect(chainOf(() => parse(m, { bool: 1 }))[1]).toEqual([
      'json_parse_exception',
      'Current token (VALUE_NUMBER_INT) not of boolean type',
    ]);
  });
  it('keyword: ignore_above, numbers and booleans as text; text keeps any value', () => {
    expect(valsOf(m, { kw: ['abc', 'abcd', 12, false], t: 7 })).toEqual([
      ['kw', 'abc'],
      ['kw', '12'],
      ['t', '7'],
    ]);
    expect(chainOf(() => parse(m, { kw: { a: 1 } }))[1]).toEqual([
      'illegal_state_exception',
      "Can't get text on a START_OBJECT",
    ]);
  });
  it('null_value substitution', () => {
    const n = props({
      l: { type: 'long', null_value: '7' },
      k: { type: 'keyword', null_value: 'NULL' },
      b: { type: 'boolean', null_value: true },
      ip: { type: 'ip', null_value: '127.0.0.1' },
      d: { type: 'date', null_value: '2015-01-01' },
      g: { type: 'geo_point', null_value: '1,2' },
      t: { type: 'text' },
    });
    expect(valsOf(n, { l: null, k: null, b: null, ip: null, d: null, g: null, t: null })).toEqual([
      ['l', 7],
      ['k', 'NULL'],
      ['b', true],
      ['ip', '127.0.0.1'],
      ['d', Date.UTC(2015, 0, 1)],
      ['g', { lat: 1, lon: 2 }],
    ]);
    expect(valsOf(n, { l: [null, 1] })).toEqual([
      ['l', 7],
      ['l', 1],
    ]);
  });
  it('ignore_malformed records the field in `ignored`', () => {
    const im = props({
      n: { type: 'integer', ignore_malformed: true },
      d: { type: 'date', ignore_malformed: true },
      ip: { type: 'ip', ignore_malformed: true },
      g: { type: 'geo_point', ignore_malformed: true },
    });
    const d = parse(im, { n: 'x', d: 'not a date', ip: '1.2.3', g: 'zz!', ok: 1 });
    expect(d.ignored).toEqual(['n', 'd', 'ip', 'g']);
    expect(vals(d)).toEqual([['ok', 1]]);
    // a JSON boolean is not "malformed" for a number: Jackson's error is not an IllegalArgumentException
    expect(chainOf(() => parse(im, { n: true }))[1]![0]).toBe('json_parse_exception');
  });
  it('dates with a field format, epoch millis, and errors', () => {
    const dm = props({
      d: { type: 'date', format: 'yyyy/MM/dd||epoch_millis' },
      e: { type: 'date', format: 'epoch_second' },
    });
    expect(
      valsOf(dm, { d: ['2015/01/02', 1420070400000, '1420070400000'], e: 1420070400 }),
    ).toEqual([
      ['d', Date.UTC(2015, 0, 2)],
      ['d', 1420070400000],
      ['d', 1420070400000],
      ['e', 1420070400000],
    ]);
    expect(chainOf(() => parse(dm, { d: '2015-01-02' }))[1]).toEqual([
      'illegal_argument_exception',
      'Invalid format: "2015-01-02" is malformed at "-01-02"',
    ]);
    const custom = makeCtx({ parseDate: () => 42 });
    expect(vals(parseDocument(dm, { d: 'anything' }, custom))).toEqual([['d', 42]]);
  });
  it('ip addresses are validated and canonicalized', () => {
    const im = props({ ip: { type: 'ip' } });
    expect(
      valsOf(im, {
        ip: ['192.168.0.1', '2001:0db8:0000:0000:0000:0000:0000:0001', '::ffff:1.2.3.4', '::'],
      }),
    ).toEqual([
      ['ip', '192.168.0.1'],
      ['ip', '2001:db8::1'],
      ['ip', '1.2.3.4'],
      ['ip', '::'],
    ]);
    expect(chainOf(() => parse(im, { ip: '01.2.3.4' }))[1]).toEqual([
      'illegal_argument_exception',
      "'01.2.3.4' is not an IP string literal.",
    ]);
  });
  it('scaled_float, token_count, binary', () => {
    const x = props({
      s: { type: 'scaled_float', scaling_factor: 10 },
      c: { type: 'token_count', analyzer: 'standard' },
      b: { type: 'binary', store: true },
      nb: { type: 'binary' },
    });
    expect(valsOf(x, { s: '1.25', c: 'the quick fox', b: 'aGVsbG8=', nb: '!!!' })).toEqual([
      ['s', 1.25],
      ['c', 3],
      ['b', 'aGVsbG8='],
    ]);
    const counting = makeCtx({ countTokens: (a, t) => (a === 'standard' ? t.length : -1) });
    expect(vals(parseDocument(x, { c: 'abcd' }, counting))).toEqual([['c', 4]]);
    expect(chainOf(() => parse(x, { b: 'a!b' }))[1]![0]).toBe('json_parse_exception');
    expect(chainOf(() => parse(x, { s: 'NaN' }))[1]).toEqual([
      'illegal_argument_exception',
      '[scaled_float] only supports finite values, but got [NaN]',
    ]);
  });
  it('range fields normalize bounds to inclusive', () => {
    const r = props({
      i: { type: 'integer_range' },
      f: { type: 'float_range' },
      d: { type: 'date_range', format: 'yyyy-MM-dd' },
      ip: { type: 'ip_range' },
    });
    expect(valsOf(r, { i: { gt: 1, lt: 10 }, d: { gte: '2015-01-01' }, ip: '10.0.0.0/8' })).toEqual(
      [
        ['i', { gte: 2, lte: 9 }],
        ['d', { gte: Date.UTC(2015, 0, 1), lte: 9223372036854775807 }],
        ['ip', { gte: '10.0.0.0', lte: '10.255.255.255' }],
      ],
    );
    expect(valsOf(r, { f: { gt: 1 } })[0]![1]).toEqual({ gte: 1.0000001192092896, lte: Infinity });
    expect(chainOf(() => parse(r, { i: { from: 1 } }))[1]).toEqual([
      'mapper_parsing_exception',
      'error parsing field [i], with unknown parameter [from]',
    ]);
  });
});

describe('geo_point values (ES GeoPointFieldMapper)', () => {
  const m = props({
    loc: { type: 'geo_point' },
    g: { type: 'geo_point', fields: { hash: { type: 'keyword' } } },
  });
  it('accepts object, string, geohash, array and arrays of them', () => {
    expect(
      valsOf(m, {
        loc: [
          { lat: 41.12, lon: -71.34 },
          '41.12,-71.34',
          [-71.34, 41.12],
          'drm3btev3e86',
          { lat: '1.5', lon: 2 },
        ],
      }),
    ).toEqual([
      ['loc', { lat: 41.12, lon: -71.34 }],
      ['loc', { lat: 41.12, lon: -71.34 }],
      ['loc', { lat: 41.12, lon: -71.34 }],
      ['loc', { lat: 41.119999922811985, lon: -71.34000029414892 }],
      ['loc', { lat: 1.5, lon: 2 }],
    ]);
    expect(valsOf(m, { loc: [-71.34, 41.12] })).toEqual([['loc', { lat: 41.12, lon: -71.34 }]]);
    expect(
      valsOf(m, {
        loc: [
          [1, 2],
          [3, 4],
        ],
      }),
    ).toEqual([
      ['loc', { lat: 2, lon: 1 }],
      ['loc', { lat: 4, lon: 3 }],
    ]);
  });
  it('indexes the geohash into multi-fields', () => {
    expect(valsOf(m, { g: { lat: 0, lon: 0 } })).toEqual([
      ['g', { lat: 0, lon: 0 }],
      ['g.hash', 's00000000000'],
    ]);
  });
  it('errors', () => {
    const wrap = ['mapper_parsing_exception', 'failed to parse field [loc] of type [geo_point]'];
    expect(chainOf(() => parse(m, { loc: { lat: 100, lon: 0 } }))).toEqual([
      wrap,
      ['illegal_argument_exception', 'illegal latitude value [100.0] for loc'],
    ]);
    expect(chainOf(() => parse(m, { loc: { lat: 1 } }))).toEqual([
      wrap,
      ['parse_exception', 'field [lon] missing'],
    ]);
    expect(chainOf(() => parse(m, { loc: { lat: 1, lon: 2, z: 3 } }))[1]).toEqual([
      'parse_exception',
      'field must be either [lat], [lon] or [geohash]',
    ]);
    expect(chainOf(() => parse(m, { loc: 'ABC' }))[1]).toEqual([
      'parse_exception',
      'unsupported symbol [A] in geohash [ABC]',
    ]);
    expect(chainOf(() => parse(m, { loc: true }))[1]).toEqual([
      'parse_exception',
      'geo_point expected',
    ]);
  });
  it('normalizes out-of-range points under ignore_malformed', () => {
    const im = props({ loc: { type: 'geo_point', ignore_malformed: true } });
    expect(valsOf(im, { loc: { lat: 91, lon: 181 } })).toEqual([['loc', { lat: 89, lon: 1 }]]);
  });
});

describe('objects, nested documents, copy_to, multi-fields', () => {
  it('skips disabled objects entirely', () => {
    const m = props({ o: { type: 'object', enabled: false }, a: { type: 'keyword' } });
    const d = parse(m, { o: { anything: [1, { x: 'y' }] }, a: 'v' });
    expect(vals(d)).toEqual([['a', 'v']]);
    expect(d.dynamicUpdate).toBeNull();
  });
  it('rejects a concrete value for an object', () => {
    const m = props({ o: { properties: { x: { type: 'keyword' } } } });
    expectError(
      () => parse(m, { o: 'text' }),
      'mapper_parsing_exception',
      'object mapping for [o] tried to parse field [o] as object, but found a concrete value',
    );
    expectError(
      () => parse(m, { o: [{ x: 'a' }, 'b'] }),
      'mapper_parsing_exception',
      'object mapping for [o] tried to parse field [o] as object, but found a concrete value',
    );
  });
  it('produces nested documents, with include_in_parent/root copies', () => {
    const m = props({
      n: {
        type: 'nested',
        include_in_parent: true,
        properties: {
          a: { type: 'keyword' },
          inner: { type: 'nested', include_in_root: true, properties: { b: { type: 'long' } } },
        },
      },
      top: { type: 'keyword' },
    });
    const d = parse(m, { top: 't', n: [{ a: 'x', inner: { b: 1 } }, { a: 'y' }] });
    expect(d.nested.map((n) => [n.path, vals(n.doc)])).toEqual([
      ['n', [['n.a', 'x']]],
      ['n', [['n.a', 'y']]],
    ]);
    expect(d.nested[0]!.doc.nested.map((n) => [n.path, vals(n.doc)])).toEqual([
      ['n.inner', [['n.inner.b', 1]]],
    ]);
    // root: its own field, n.inner.b (include_in_root), then each n document (include_in_parent)
    expect(vals(d)).toEqual([
      ['top', 't'],
      ['n.inner.b', 1],
      ['n.a', 'x'],
      ['n.a', 'y'],
    ]);
  });
  it('cannot write through a nested object with a dotted name', () => {
    const m = props({ foo: { type: 'nested', properties: { bar: { type: 'integer' } } } });
    expectError(
      () => parse(m, { 'foo.bar': 123 }),
      'mapper_parsing_exception',
      'Cannot add a value for field [foo.bar] since one of the intermediate objects is mapped as a nested object: [foo]',
    );
  });
  it('copy_to existing and new fields, once (no chained copies)', () => {
    const m = props({
      first: { type: 'text', copy_to: ['full', 'dyn.copy'] },
      full: { type: 'text', copy_to: 'other' },
      other: { type: 'keyword' },
      n: {
        type: 'nested',
        properties: { x: { type: 'keyword', copy_to: ['n.y', 'top'] }, y: { type: 'keyword' } },
      },
      top: { type: 'keyword' },
    });
    const d = parse(m, { first: 'John', n: { x: 'v' } });
    expect(vals(d)).toEqual([
      ['first', 'John'],
      ['full', 'John'],
      ['dyn.copy', 'John'],
      ['dyn.copy.keyword', 'John'],
      ['top', 'v'],
    ]);
    expect(vals(d.nested[0]!.doc)).toEqual([
      ['n.x', 'v'],
      ['n.y', 'v'],
    ]);
    expect(d.dynamicUpdate!.fieldsByPath.get('dyn.copy')?.type).toBe('text');
  });
  it('writes multi-fields with their own coercion', () => {
    const m = props({
      n: { type: 'long', fields: { k: { type: 'keyword' }, t: { type: 'text' } } },
    });
    expect(valsOf(m, { n: '15' })).toEqual([
      ['n', 15],
      ['n.k', '15'],
      ['n.t', '15'],
    ]);
  });
  it('reports document field names with their parents', () => {
    const d = parse(
      props({ a: { properties: { b: { type: 'text', fields: { raw: { type: 'keyword' } } } } } }),
      { a: { b: 'x' } },
    );
    expect([...d.fieldNames].sort()).toEqual(['a', 'a.b', 'a.b.raw']);
  });
});

describe('document structure errors', () => {
  const m = props({
    a: { type: 'alias', path: 'k' },
    k: { type: 'keyword' },
    c: { type: 'keyword', copy_to: 'a' },
  });
  it('metadata fields and names', () => {
    expectError(
      () => parse(m, { _id: 1 }),
      'mapper_parsing_exception',
      'Field [_id] is a metadata field and cannot be added inside a document. Use the index API request parameters.',
    );
    expect(chainOf(() => parse(m, { '': 1 }))).toEqual([
      ['mapper_parsing_exception', 'failed to parse'],
      ['illegal_argument_exception', 'field name cannot be an empty string'],
    ]);
    expect(chainOf(() => parse(m, { 'top..foo': 1 }))[1]).toEqual([
      'illegal_argument_exception',
      'object field starting or ending with a [.] makes object resolution ambiguous: [top..foo]',
    ]);
    expect(chainOf(() => parse(m, { 'top. ': 1 }))[1]).toEqual([
      'illegal_argument_exception',
      "object field cannot contain only whitespace: ['top. ']",
    ]);
  });
  it('aliases cannot be written or copied to', () => {
    expect(chainOf(() => parse(m, { a: 'x' }))[1]).toEqual([
      'illegal_argument_exception',
      'Cannot write to a field alias [a].',
    ]);
    expect(chainOf(() => parse(m, { c: 'x' }))[1]).toEqual([
      'illegal_argument_exception',
      'Cannot copy to a field alias [a].',
    ]);
  });
  it('dotted names cannot go through a field', () => {
    const f = props({ foo: { type: 'long' } });
    expectError(
      () => parse(f, { 'foo.bar.baz': 1 }),
      'mapper_parsing_exception',
      'Could not dynamically add mapping for field [foo.bar.baz]. Existing mapping for [foo] must be of type object but found [long].',
    );
  });
  it('the source must be an object', () => {
    expectError(
      () => parse(m, [1]),
      'mapper_parsing_exception',
      'Malformed content, must start with an object',
    );
  });
  it('geo_shape values are checked but not indexed', () => {
    const g = props({ geo: { type: 'geo_shape' } });
    expect(valsOf(g, { geo: { type: 'point', coordinates: [1, 2] } })).toEqual([]);
    expect(chainOf(() => parse(g, { geo: 123 }))).toEqual([
      ['mapper_parsing_exception', 'failed to parse field [geo] of type [geo_shape]'],
      ['parse_exception', 'shape must be an object consisting of type and coordinates'],
    ]);
  });
});

describe('completion fields (ES CompletionFieldMapper)', () => {
  const m = props({
    title: { type: 'completion', fields: { raw: { type: 'keyword' } } },
    ctx: {
      type: 'completion',
      max_input_length: 3,
      contexts: [{ name: 'genre', type: 'category' }],
    },
  });
  it('renders ES defaults', () => {
    expect(mappingToJson(m).properties).toEqual({
      ctx: {
        type: 'completion',
        analyzer: 'simple',
        preserve_separators: true,
        preserve_position_increments: true,
        max_input_length: 3,
        contexts: [{ name: 'genre', type: 'category' }],
      },
      title: {
        type: 'completion',
        analyzer: 'simple',
        preserve_separators: true,
        preserve_position_increments: true,
        max_input_length: 50,
        fields: { raw: { type: 'keyword' } },
      },
    });
  });
  it('takes strings, objects and arrays, keeping the highest weight per input', () => {
    expect(valsOf(m, { title: ['doctor', { input: ['doctor', 'nurse'], weight: 3 }] })).toEqual([
      ['title', { input: 'doctor', weight: 3 }],
      ['title', { input: 'nurse', weight: 3 }],
      ['title.raw', 'doctor'],
      ['title.raw', 'nurse'],
    ]);
    expect(valsOf(m, { ctx: { input: 'abcdef', contexts: { genre: 'x' } } })).toEqual([
      ['ctx', { input: 'abc', weight: 1, contexts: { genre: ['x'] } }],
    ]);
    expect(parse(m, { title: ' ' }).ignored).toEqual(['title']);
  });
  it('rejects malformed suggestions', () => {
    expect(chainOf(() => parse(m, { title: 5 }))).toEqual([
      ['mapper_parsing_exception', 'failed to parse'],
      [
        'parsing_exception',
        'failed to parse [title]: expected text or object, but got VALUE_NUMBER',
      ],
    ]);
    expect(chainOf(() => parse(m, { title: { input: 'a', weight: -1 } }))[1]).toEqual([
      'illegal_argument_exception',
      'weight must be in the interval [0..2147483647], but was [-1]',
    ]);
    expect(chainOf(() => parse(m, { title: { input: 'a', contexts: {} } }))[1]).toEqual([
      'illegal_argument_exception',
      'contexts field is not supported for field: [title]',
    ]);
    expect(chainOf(() => parse(m, { title: { inputs: 'a' } }))[1]![1]).toMatch(
      /^unknown field name \[inputs\], must be one of \[/,
    );
  });
});
