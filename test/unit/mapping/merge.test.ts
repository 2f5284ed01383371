import { describe, expect, it } from 'vitest';
import { mappingToJson, mergeMapping, parseMapping } from '../../../src/mapping/index.js';
import type { RootMapping } from '../../../src/mapping/index.js';
import { ctx, expectError, mapping } from './helpers.js';

const put = (current: RootMapping, body: unknown, c = ctx) =>
  mergeMapping(current, parseMapping('_doc', body, c), c);
const putProps = (current: RootMapping, p: Record<string, unknown>) =>
  put(current, { properties: p });

describe('mergeMapping: additions (PUT _mapping)', () => {
  const base = mapping({
    properties: {
      text1: { type: 'text', analyzer: 'whitespace' },
      obj: { properties: { a: { type: 'keyword' } } },
    },
  });

  it('adds fields, objects and multi-fields (REST indices.put_mapping/10_basic)', () => {
    const m = put(base, {
      properties: {
        text1: { type: 'text', analyzer: 'whitespace', fields: { text_raw: { type: 'keyword' } } },
        'subfield.text3': { type: 'text' },
        obj: { properties: { b: { type: 'long' } } },
      },
    });
    expect(mappingToJson(m)).toEqual({
      properties: {
        obj: { properties: { a: { type: 'keyword' }, b: { type: 'long' } } },
        subfield: { properties: { text3: { type: 'text' } } },
        text1: { type: 'text', analyzer: 'whitespace', fields: { text_raw: { type: 'keyword' } } },
      },
    });
    expect(m.fieldsByPath.get('text1.text_raw')?.parentField).toBe('text1');
  });
  it('keeps multi-fields the update does not repeat', () => {
    const a = putProps(base, {
      text1: { type: 'text', analyzer: 'whitespace', fields: { raw: { type: 'keyword' } } },
    });
    const b = putProps(a, { text1: { type: 'text', analyzer: 'whitespace' } });
    expect(b.fieldsByPath.has('text1.raw')).toBe(true);
  });
  it('lets updatable parameters change (ignore_above, boost, search_analyzer)', () => {
    const m0 = mapping({ properties: { k: { type: 'keyword', ignore_above: 10 } } });
    const m1 = putProps(m0, { k: { type: 'keyword', ignore_above: 20, boost: 2 } });
    expect(m1.fieldsByPath.get('k')?.ignoreAbove).toBe(20);
    const m2 = putProps(base, {
      text1: { type: 'text', analyzer: 'whitespace', search_analyzer: 'simple' },
    });
    expect(m2.fieldsByPath.get('text1')?.searchAnalyzer).toBe('simple');
  });
  it('keeps coerce / ignore_malformed unless the update sets them', () => {
    const m0 = mapping({ properties: { n: { type: 'long', coerce: false } } });
    const m1 = putProps(m0, { n: { type: 'long' } });
    expect(m1.fieldsByPath.get('n')?.coerce).toBe(false);
    expect(mappingToJson(m1).properties).toEqual({ n: { type: 'long', coerce: false } });
    const m2 = putProps(m1, { n: { type: 'long', coerce: true } });
    expect(m2.fieldsByPath.get('n')?.coerce).toBe(true);
  });
  it('changes dynamic and root settings only when given', () => {
    const m0 = mapping({ dynamic: 'strict', date_detection: false });
    const m1 = put(m0, { properties: { a: { type: 'long' } } });
    expect([m1.dynamic, m1.dateDetection]).toEqual(['strict', false]);
    const m2 = put(m1, { dynamic: true, numeric_detection: true });
    expect([m2.dynamic, m2.dateDetection, m2.numericDetection]).toEqual([true, false, true]);
    expect(mappingToJson(m2)).toMatchObject({
      dynamic: 'true',
      date_detection: false,
      numeric_detection: true,
    });
  });
  it('replaces _meta and dynamic_templates wholesale', () => {
    const m0 = mapping({
      _meta: { a: 1 },
      dynamic_templates: [{ t1: { match: 'x', mapping: {} } }],
    });
    const m1 = put(m0, {
      _meta: { b: 2 },
      dynamic_templates: [{ t2: { match: 'y', mapping: {} } }],
    });
    expect(m1.meta).toEqual({ b: 2 });
    expect(m1.dynamicTemplates.map((t) => t.name)).toEqual(['t2']);
  });
});

describe('mergeMapping: conflicts (ES wording)', () => {
  const base = mapping({
    properties: {
      foo: { type: 'long' },
      title: { type: 'text' },
      k: { type: 'keyword' },
      d: { type: 'date' },
      x: { properties: { y: { type: 'keyword' } } },
      n: { type: 'nested' },
      e: { type: 'object', enabled: false },
      a: { type: 'alias', path: 'k' },
      s: { type: 'scaled_float', scaling_factor: 10 },
    },
  });
  it('field type changes', () => {
    expectError(
      () => putProps(base, { foo: { type: 'text' } }),
      'illegal_argument_exception',
      'mapper [foo] of different type, current_type [long], merged_type [text]',
    );
    expectError(
      () => putProps(base, { foo: { type: 'integer' } }),
      'illegal_argument_exception',
      'mapper [foo] cannot be changed from type [long] to [integer]',
    );
    expectError(
      () => putProps(base, { k: { properties: {} } }),
      'illegal_argument_exception',
      'mapper [k] of different type, current_type [keyword], merged_type [ObjectMapper]',
    );
    expectError(
      () => putProps(base, { x: { type: 'keyword' } }),
      'illegal_argument_exception',
      "Can't merge a non object mapping [x] with an object mapping [x]",
    );
    expectError(
      () => putProps(base, { x: { properties: { y: { type: 'long' } } } }),
      'illegal_argument_exception',
      'mapper [x.y] of different type, current_type [keyword], merged_type [long]',
    );
  });
  it('parameter conflicts are reported as "conflicts with existing mapping in other types"', () => {
    expectError(
      () => putProps(base, { title: { type: 'text', analyzer: 'english' } }),
      'illegal_argument_exception',
      'Mapper for [title] conflicts with existing mapping in other types:\n[mapper [title] has different [analyzer]]',
    );
    expectError(
      () => putProps(base, { k: { type: 'keyword', index: false, doc_values: false } }),
      'illegal_argument_exception',
      'Mapper for [k] conflicts with existing mapping in other types:\n[mapper [k] has different [index] values, mapper [k] has different [doc_values] values]',
    );
    expectError(
      () => putProps(base, { k: { type: 'keyword', norms: true } }),
      'illegal_argument_exception',
      'Mapper for [k] conflicts with existing mapping in other types:\n[mapper [k] has different [norms] values, cannot change from disable to enabled]',
    );
    expectError(
      () => putProps(base, { d: { type: 'date', format: 'yyyy' } }),
      'illegal_argument_exception',
      'Mapper for [d] conflicts with existing mapping in other types:\n[mapper [d] has different [format] values]',
    );
    expectError(
      () => putProps(base, { s: { type: 'scaled_float', scaling_factor: 100 } }),
      'illegal_argument_exception',
      'Mapper for [s] conflicts with existing mapping in other types:\n[mapper [s] has different [scaling_factor] values]',
    );
    expectError(
      () => putProps(base, { title: { type: 'text', index_phrases: true } }),
      'illegal_argument_exception',
      'mapper [title] has different index_phrases settings, current [false], merged [true]',
    );
  });
  it('text norms may be disabled but not re-enabled', () => {
    const m = putProps(base, { title: { type: 'text', norms: false } });
    expect(m.fieldsByPath.get('title')?.norms).toBe(false);
    expectError(
      () => putProps(m, { title: { type: 'text', norms: true } }),
      'illegal_argument_exception',
      'Mapper for [title] conflicts with existing mapping in other types:\n[mapper [title] has different [norms] values, cannot change from disable to enabled]',
    );
  });
  it('object kind and enabled changes', () => {
    expectError(
      () => putProps(base, { n: { type: 'object' } }),
      'illegal_argument_exception',
      "object mapping [n] can't be changed from nested to non-nested",
    );
    expectError(
      () => putProps(base, { x: { type: 'nested' } }),
      'illegal_argument_exception',
      "object mapping [x] can't be changed from non-nested to nested",
    );
    expectError(
      () => putProps(base, { e: { type: 'object', enabled: true } }),
      'mapper_exception',
      "Can't update attribute for type [_doc.e.enabled] in index mapping",
    );
  });
  it('aliases', () => {
    expectError(
      () => putProps(base, { a: { type: 'keyword' } }),
      'illegal_argument_exception',
      'Cannot merge a field alias mapping [a] with a mapping that is not for a field alias.',
    );
    expectError(
      () => putProps(base, { k: { type: 'alias', path: 'foo' } }),
      'illegal_argument_exception',
      'mapper [k] of different type, current_type [keyword], merged_type [FieldAliasMapper]',
    );
    expectError(
      () => putProps(base, { b: { type: 'alias', path: 'missing' } }),
      'illegal_argument_exception',
      'Invalid [path] value [missing] for field alias [b]: an alias must refer to an existing field in the mappings.',
    );
    expectError(
      () => putProps(base, { b: { type: 'alias', path: 'b' } }),
      'illegal_argument_exception',
      'Invalid [path] value [b] for field alias [b]: an alias cannot refer to itself.',
    );
    expectError(
      () => putProps(base, { b: { type: 'alias', path: 'a' } }),
      'illegal_argument_exception',
      'Invalid [path] value [a] for field alias [b]: an alias cannot refer to another alias.',
    );
    expectError(
      () =>
        putProps(base, { n: { type: 'nested', properties: { al: { type: 'alias', path: 'k' } } } }),
      'illegal_argument_exception',
      "Invalid [path] value [k] for field alias [n.al]: an alias must have the same nested scope as its target. The alias's nested scope is [n], but the target is not nested.",
    );
    const m = putProps(base, {
      title: { type: 'text', fields: { raw: { type: 'keyword' } } },
      r: { type: 'alias', path: 'title.raw' },
    });
    expect(m.fieldsByPath.get('r')?.aliasPath).toBe('title.raw');
  });
  it('copy_to targets', () => {
    expectError(
      () => putProps(base, { c: { type: 'keyword', copy_to: 'x' } }),
      'illegal_argument_exception',
      'Cannot copy to field [x] since it is mapped as an object',
    );
    expectError(
      () =>
        putProps(base, {
          c: { type: 'keyword', copy_to: 'title.raw' },
          title: { type: 'text', fields: { raw: { type: 'keyword' } } },
        }),
      'illegal_argument_exception',
      '[copy_to] may not be used to copy to a multi-field: [title.raw]',
    );
    expectError(
      () =>
        putProps(base, {
          n: { type: 'nested', properties: { c: { type: 'keyword', copy_to: 'n2.t' } } },
          n2: { type: 'nested', properties: { t: { type: 'keyword' } } },
        }),
      'illegal_argument_exception',
      'Illegal combination of [copy_to] and [nested] mappings: [copy_to] may only copy data to the current nested document or any of its parents, however one [copy_to] directive is trying to copy data from nested object [n] to [n2]',
    );
    const ok = putProps(base, {
      n: { type: 'nested', properties: { c: { type: 'keyword', copy_to: 'k' } } },
    });
    expect(ok.fieldsByPath.get('n.c')?.copyTo).toEqual(['k']);
  });
  it('_source cannot change, _routing silently keeps its value', () => {
    const m0 = mapping({ _source: { enabled: false }, _routing: { required: true } });
    expectError(
      () => put(m0, { _source: { enabled: true } }),
      'illegal_argument_exception',
      "Can't merge because of conflicts: [Cannot update enabled setting for [_source]]",
    );
    expect(put(m0, { _routing: { required: false } }).routingRequired).toBe(true);
    expect(put(m0, { properties: {} }).source.enabled).toBe(false);
  });
  it('rejects a second type, listing types in Java HashSet order', () => {
    expectError(
      () => mergeMapping(base, parseMapping('other', {}, ctx), ctx),
      'illegal_argument_exception',
      'Rejecting mapping update to [idx] as the final mapping would have more than 1 type: [other, _doc]',
    );
  });
  it('rejects properties named like metadata fields', () => {
    expectError(
      () => putProps(base, { _source: { type: 'keyword' } }),
      'illegal_argument_exception',
      'Field [_source] is defined twice in [_doc]',
    );
  });
});

describe('limits (index.mapping.*.limit)', () => {
  it('total fields count objects, multi-fields and aliases', () => {
    const c = { ...ctx, limits: { totalFields: 4 } };
    const m = mapping(
      {
        properties: {
          o: { properties: { t: { type: 'text', fields: { k: { type: 'keyword' } } } } },
          a: { type: 'alias', path: 'o.t' },
        },
      },
      c,
    );
    expect(m.fieldsByPath.size).toBe(3);
    expectError(
      () => put(m, { properties: { z: { type: 'long' } } }, c),
      'illegal_argument_exception',
      'Limit of total fields [4] in index [idx] has been exceeded',
    );
  });
  it('depth and nested limits', () => {
    const c = { ...ctx, limits: { depth: 2, nestedFields: 1 } };
    expectError(
      () => mapping({ properties: { 'a.b.c': { type: 'long' } } }, c),
      'illegal_argument_exception',
      'Limit of mapping depth [2] in index [idx] has been exceeded due to object field [a.b]',
    );
    expectError(
      () => mapping({ properties: { n1: { type: 'nested' }, n2: { type: 'nested' } } }, c),
      'illegal_argument_exception',
      'Limit of nested fields [1] in index [idx] has been exceeded',
    );
  });
});
