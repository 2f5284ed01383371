import { describe, expect, it } from 'vitest';
import { expandFieldPattern, fieldMappingToJson, lookupField } from '../../../src/mapping/index.js';
import { mapping } from './helpers.js';

const m = mapping({
  _routing: { required: true },
  properties: {
    title: { type: 'text', analyzer: 'english', fields: { raw: { type: 'keyword' } } },
    count: { type: 'long', coerce: false },
    user: { properties: { name: { type: 'keyword' }, first_name: { type: 'text' } } },
    alias_title: { type: 'alias', path: 'title' },
  },
});

describe('fieldMappingToJson (GET _mapping/field/<f>)', () => {
  it('renders a field with its leaf name and full name', () => {
    expect(fieldMappingToJson(m, 'title')).toEqual({
      full_name: 'title',
      mapping: {
        title: { type: 'text', analyzer: 'english', fields: { raw: { type: 'keyword' } } },
      },
    });
    expect(fieldMappingToJson(m, 'title.raw')).toEqual({
      full_name: 'title.raw',
      mapping: { raw: { type: 'keyword' } },
    });
    expect(fieldMappingToJson(m, 'user.name')).toEqual({
      full_name: 'user.name',
      mapping: { name: { type: 'keyword' } },
    });
    expect(fieldMappingToJson(m, 'alias_title')).toEqual({
      full_name: 'alias_title',
      mapping: { alias_title: { type: 'alias', path: 'title' } },
    });
  });
  it('returns null for objects and unknown fields', () => {
    expect(fieldMappingToJson(m, 'user')).toBeNull();
    expect(fieldMappingToJson(m, 'nope')).toBeNull();
  });
  it('include_defaults renders every parameter in ES order', () => {
    const text = fieldMappingToJson(m, 'title', true)!.mapping as Record<
      string,
      Record<string, unknown>
    >;
    expect(Object.keys(text.title!)).toEqual([
      'type',
      'boost',
      'index',
      'store',
      'doc_values',
      'term_vector',
      'norms',
      'index_options',
      'eager_global_ordinals',
      'similarity',
      'fields',
      'analyzer',
      'search_analyzer',
      'search_quote_analyzer',
      'include_in_all',
      'position_increment_gap',
      'fielddata',
    ]);
    expect(text.title).toMatchObject({
      index_options: 'positions',
      norms: true,
      similarity: 'BM25',
      search_analyzer: 'english',
      position_increment_gap: -1,
    });
    const count = fieldMappingToJson(m, 'count', true)!.mapping as Record<string, unknown>;
    expect(count.count).toEqual({
      type: 'long',
      boost: 1,
      index: true,
      store: false,
      doc_values: true,
      term_vector: 'no',
      norms: false,
      index_options: 'positions',
      eager_global_ordinals: false,
      similarity: 'BM25',
      ignore_malformed: false,
      coerce: false,
      null_value: null,
      include_in_all: false,
    });
    const kw = fieldMappingToJson(m, 'user.name', true)!.mapping as Record<
      string,
      Record<string, unknown>
    >;
    expect(kw.name).toMatchObject({
      index_options: 'docs',
      ignore_above: 2147483647,
      normalizer: null,
      null_value: null,
    });
  });
  it('renders metadata fields', () => {
    expect(fieldMappingToJson(m, '_routing')).toEqual({
      full_name: '_routing',
      mapping: { _routing: { required: true } },
    });
    expect(fieldMappingToJson(m, '_source')).toEqual({
      full_name: '_source',
      mapping: {},
    });
    expect(fieldMappingToJson(m, '_source', true)).toEqual({
      full_name: '_source',
      mapping: { _source: { enabled: true, includes: [], excludes: [] } },
    });
    expect(fieldMappingToJson(m, '_id')).toEqual({ full_name: '_id', mapping: {} });
  });
});

describe('lookupField and expandFieldPattern', () => {
  it('finds fields, multi-fields and alias targets', () => {
    expect(lookupField(m, 'title.raw')?.type).toBe('keyword');
    expect(lookupField(m, 'alias_title')?.path).toBe('title');
    expect(lookupField(m, 'user')).toBeUndefined();
  });
  it('expands wildcards over every field path', () => {
    expect(expandFieldPattern(m, 'user.*').sort()).toEqual(['user.first_name', 'user.name']);
    expect(expandFieldPattern(m, '*name').sort()).toEqual(['user.first_name', 'user.name']);
    expect(expandFieldPattern(m, 'title*').sort()).toEqual(['title', 'title.raw']);
    expect(expandFieldPattern(m, '*')).toHaveLength(6);
    expect(expandFieldPattern(m, 'count')).toEqual(['count']);
    expect(expandFieldPattern(m, 'missing')).toEqual([]);
  });
});
