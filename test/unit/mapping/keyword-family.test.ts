import { describe, expect, it } from 'vitest';
import {
  mappingToJson,
  mergeMapping,
  parseDocument,
  parseMapping,
} from '../../../src/mapping/index.js';
import type { RootMapping } from '../../../src/mapping/index.js';
import { caught, ctx, expectError, mapping } from './helpers.js';

const props = (m: RootMapping) =>
  (mappingToJson(m) as { properties: Record<string, unknown> }).properties;

const valuesOf = (m: RootMapping, source: object, path: string) =>
  parseDocument(m, source, ctx)
    .values.filter((v) => v.field.path === path)
    .map((v) => v.value);

describe('constant_keyword (ES 7.10)', () => {
  const base = () =>
    mapping({ properties: { c: { type: 'constant_keyword' }, n: { type: 'long' } } });

  it('is a keyword that renders as constant_keyword, with its value once set', () => {
    const m = base();
    expect(m.fieldsByPath.get('c')?.type).toBe('keyword');
    expect(props(m).c).toEqual({ type: 'constant_keyword' });
    const set = mapping({ properties: { c: { type: 'constant_keyword', value: 7 } } });
    expect(props(set).c).toEqual({ type: 'constant_keyword', value: '7' });
  });

  it('takes its value from the first document and gives it to every later one', () => {
    const first = parseDocument(base(), { c: 'Female' }, ctx);
    expect(first.dynamicUpdate).not.toBeNull();
    const m = first.dynamicUpdate!;
    expect(props(m).c).toEqual({ type: 'constant_keyword', value: 'Female' });
    expect(valuesOf(m, { n: 1 }, 'c')).toHaveLength(1);
    expect(valuesOf(m, { c: 'Female' }, 'c')).toHaveLength(1);
    expect(parseDocument(m, { c: 'Female' }, ctx).dynamicUpdate).toBeNull();
  });

  it('refuses another value, null, and unknown parameters as 7.10 does', () => {
    const m = parseDocument(base(), { c: 'Female' }, ctx).dynamicUpdate!;
    const e = caught(() => parseDocument(m, { c: 'Male' }, ctx));
    expect(e.causedBy?.reason).toBe(
      '[constant_keyword] field [c] only accepts values that are equal to the value defined in the mappings [Female], but got [Male]',
    );
    expect(caught(() => parseDocument(m, { c: null }, ctx)).causedBy?.reason).toBe(
      "[constant_keyword] field [c] doesn't accept [null] values",
    );
    expectError(
      () =>
        parseMapping(
          '_doc',
          { properties: { c: { type: 'constant_keyword', index: false } } },
          ctx,
        ),
      'mapper_parsing_exception',
      'unknown parameter [index] on mapper [c] of type [constant_keyword]',
    );
    expectError(
      () =>
        parseMapping('_doc', { properties: { c: { type: 'constant_keyword', value: [1] } } }, ctx),
      'mapper_parsing_exception',
      'Property [value] on field [c] must be a number or a string, but got [[1]]',
    );
  });

  it('lets a mapping update set the value once, never change it', () => {
    const upd = (v: string) =>
      parseMapping('_doc', { properties: { c: { type: 'constant_keyword', value: v } } }, ctx);
    const m = mergeMapping(base(), upd('a'), ctx);
    expect(props(m).c).toEqual({ type: 'constant_keyword', value: 'a' });
    expect(props(mergeMapping(m, upd('a'), ctx)).c).toEqual({
      type: 'constant_keyword',
      value: 'a',
    });
    expectError(
      () => mergeMapping(m, upd('b'), ctx),
      'illegal_argument_exception',
      'Mapper for [c] conflicts with existing mapping:\n[Cannot update parameter [value] from [a] to [b]]',
    );
    expectError(
      () =>
        mergeMapping(m, parseMapping('_doc', { properties: { c: { type: 'keyword' } } }, ctx), ctx),
      'illegal_argument_exception',
      'mapper [c] of different type, current_type [constant_keyword], merged_type [keyword]',
    );
  });
});

describe('wildcard (ES 7.10)', () => {
  it('indexes like a keyword and renders its own parameters', () => {
    const m = mapping({
      properties: { w: { type: 'wildcard', ignore_above: 5, null_value: 'none' } },
    });
    expect(m.fieldsByPath.get('w')?.type).toBe('keyword');
    expect(props(m).w).toEqual({ type: 'wildcard', ignore_above: 5, null_value: 'none' });
    expect(valuesOf(m, { w: 'abc' }, 'w')).toEqual(['abc']);
    expect(valuesOf(m, { w: 'abcdefgh' }, 'w')).toEqual([]);
    expect(valuesOf(m, { w: null }, 'w')).toEqual(['none']);
  });

  it('refuses keyword-only parameters', () => {
    expectError(
      () => parseMapping('_doc', { properties: { w: { type: 'wildcard', normalizer: 'x' } } }, ctx),
      'mapper_parsing_exception',
      'unknown parameter [normalizer] on mapper [w] of type [wildcard]',
    );
  });
});
