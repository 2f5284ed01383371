import { describe, expect, it } from 'vitest';
import { fieldCaps, indexFieldCaps } from '../../../src/engine/field-caps.js';
import { mapping } from '../mapping/helpers.js';

const m1 = mapping({
  properties: {
    text: { type: 'text', fields: { raw: { type: 'keyword' } } },
    n: { type: 'double' },
    obj: {
      properties: { a: { type: 'text', index: false }, b: { type: 'float', doc_values: false } },
    },
    lvl: { type: 'nested', properties: { inner: { properties: { leaf: { type: 'keyword' } } } } },
    al: { type: 'alias', path: 'n' },
    tc: { type: 'token_count', analyzer: 'standard' },
    r: { type: 'long_range' },
  },
});
const m2 = mapping({
  properties: {
    n: { type: 'long' },
    obj: {
      type: 'nested',
      properties: { a: { type: 'text', index: true }, b: { type: 'float' } },
    },
  },
});

describe('indexFieldCaps', () => {
  it('reports type, searchable and aggregatable as ES field types do', () => {
    const caps = indexFieldCaps(m1, ['text*', 'tc', 'r', 'al', '_id', '_source', 'nope']);
    expect(Object.fromEntries(caps)).toEqual({
      text: { type: 'text', searchable: true, aggregatable: false },
      'text.raw': { type: 'keyword', searchable: true, aggregatable: true },
      tc: { type: 'integer', searchable: true, aggregatable: true },
      r: { type: 'long_range', searchable: true, aggregatable: false },
      al: { type: 'double', searchable: true, aggregatable: true },
      _id: { type: '_id', searchable: true, aggregatable: true },
      _source: { type: '_source', searchable: false, aggregatable: false },
    });
  });
  it('adds the objects and nested objects above each field', () => {
    const caps = indexFieldCaps(m1, ['lvl.inner.leaf']);
    expect(Object.fromEntries(caps)).toEqual({
      'lvl.inner.leaf': { type: 'keyword', searchable: true, aggregatable: true },
      'lvl.inner': { type: 'object', searchable: false, aggregatable: false },
      lvl: { type: 'nested', searchable: false, aggregatable: false },
    });
    expect(indexFieldCaps(null, ['*']).size).toBe(0);
  });
});

describe('fieldCaps (merge across indices)', () => {
  const views = [
    { name: 'i2', mapping: m2 },
    { name: 'i1', mapping: m1 },
    { name: 'i3', mapping: m1 },
  ];
  it('lists indices only for fields with several types', () => {
    const r = fieldCaps(views, ['n', 'obj']);
    expect(r.n).toEqual({
      double: { type: 'double', searchable: true, aggregatable: true, indices: ['i1', 'i3'] },
      long: { type: 'long', searchable: true, aggregatable: true, indices: ['i2'] },
    });
    expect(r.obj).toBeUndefined(); // an object is not a field type
  });
  it('lists the non-searchable and non-aggregatable indices of a mixed field', () => {
    const r = fieldCaps(views, ['obj.*']);
    expect(r['obj.a']).toEqual({
      text: {
        type: 'text',
        searchable: false,
        aggregatable: false,
        non_searchable_indices: ['i1', 'i3'],
      },
    });
    expect(r['obj.b']!.float).toEqual({
      type: 'float',
      searchable: true,
      aggregatable: false,
      non_aggregatable_indices: ['i1', 'i3'],
    });
    expect(r.obj).toEqual({
      nested: { type: 'nested', searchable: false, aggregatable: false, indices: ['i2'] },
      object: { type: 'object', searchable: false, aggregatable: false, indices: ['i1', 'i3'] },
    });
  });
});
