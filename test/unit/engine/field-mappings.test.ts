import { describe, expect, it } from 'vitest';
import {
  getFieldMappings,
  renderFieldMappings,
  type IndexMappingView,
} from '../../../src/engine/field-mappings.js';
import { mapping } from '../mapping/helpers.js';

const body = {
  properties: {
    t1: { type: 'text' },
    t2: { type: 'text' },
    obj: { properties: { t1: { type: 'text' }, i_t1: { type: 'keyword' } } },
  },
};
const a: IndexMappingView = { name: 'a', mapping: mapping(body, undefined, 'doc') };
const b: IndexMappingView = { name: 'b', mapping: mapping(body, undefined, 'doc') };
const empty: IndexMappingView = { name: 'empty', mapping: null };

const req = (fields: string[], types: string[] = [], includeDefaults = false) => ({
  fields,
  types,
  includeDefaults,
});
const fieldNames = (r: ReturnType<typeof getFieldMappings>, index: string) => [
  ...(r.get(index)?.get('doc')?.keys() ?? []),
];

describe('getFieldMappings', () => {
  it('matches full names, patterns over full names and metadata fields', () => {
    const r = getFieldMappings([a, b], req(['*t1']));
    expect(fieldNames(r, 'a').sort()).toEqual(['obj.i_t1', 'obj.t1', 't1']);
    expect(fieldNames(r, 'b').sort()).toEqual(['obj.i_t1', 'obj.t1', 't1']);
    expect(fieldNames(getFieldMappings([a], req(['obj.i_*'])), 'a')).toEqual(['obj.i_t1']);
    const all = fieldNames(getFieldMappings([a], req(['*'])), 'a');
    expect(all).toContain('_source');
    expect(all).toContain('obj.t1');
    expect(fieldNames(getFieldMappings([a], req(['i_t1'])), 'a')).toEqual([]);
  });

  it('renders the leaf name under mapping, with defaults on request', () => {
    const r = getFieldMappings([a], req(['obj.t1'], [], true));
    const e = r.get('a')!.get('doc')!.get('obj.t1')!;
    expect(e.full_name).toBe('obj.t1');
    expect((e.mapping as Record<string, Record<string, unknown>>).t1).toMatchObject({
      type: 'text',
      analyzer: 'default',
    });
  });

  it('drops an index whose type does not match, keeps an index without the field', () => {
    const r = getFieldMappings([a, empty], req(['nope']));
    expect([...r.keys()]).toEqual(['a', 'empty']);
    expect(r.get('a')!.size).toBe(0);
    expect(getFieldMappings([a], req(['t1'], ['other'])).size).toBe(0);
    expect(fieldNames(getFieldMappings([a], req(['t1'], ['d*'])), 'a')).toEqual(['t1']);
  });
});

describe('renderFieldMappings', () => {
  const opts = (includeTypeName: boolean, indices = 1, types = 0, fields = 1) => ({
    requested: { indices, types, fields },
    includeTypeName,
  });
  it('nests by type only with include_type_name', () => {
    const r = getFieldMappings([a], req(['t2']));
    const typed = renderFieldMappings(r, opts(true));
    expect(typed).toEqual({
      status: 200,
      body: {
        a: { mappings: { doc: { t2: { full_name: 't2', mapping: { t2: { type: 'text' } } } } } },
      },
    });
    expect(renderFieldMappings(r, opts(false)).body).toEqual({
      a: { mappings: { t2: { full_name: 't2', mapping: { t2: { type: 'text' } } } } },
    });
  });
  it('answers 404 when no index answered and {} for a missing single field', () => {
    expect(renderFieldMappings(getFieldMappings([a], req(['t1'], ['x'])), opts(true))).toEqual({
      status: 404,
      body: {},
    });
    const single = getFieldMappings([a], req(['missing'], ['doc']));
    expect(renderFieldMappings(single, opts(true, 1, 1, 1))).toEqual({ status: 200, body: {} });
    expect(renderFieldMappings(getFieldMappings([a], req(['missing'])), opts(true))).toEqual({
      status: 200,
      body: { a: { mappings: {} } },
    });
  });
});
