import { describe, expect, it } from 'vitest';
import {
  checkIndexSortFields,
  indexSortOf,
  indexSortSpecs,
  segmentSortJson,
} from '../../../src/engine/index-sort-settings.js';
import { validateSettings } from '../../../src/engine/index-settings.js';
import { EsError } from '../../../src/common/errors.js';
import { field } from '../../helpers/fields.js';

const reason = (f: () => unknown): string => {
  try {
    f();
  } catch (e) {
    if (e instanceof EsError) return `${e.type}: ${e.reason}`;
    throw e;
  }
  throw new Error('no error');
};

describe('index.sort settings', () => {
  it('parse lists with ES defaults (desc sorts by max, missing last)', () => {
    const specs = indexSortSpecs({
      'index.sort.field': ['a', 'b'],
      'index.sort.order': 'desc, asc',
    });
    expect(indexSortOf(specs)).toEqual([
      { field: 'a', reverse: true, mode: 'max', missingFirst: false },
      { field: 'b', reverse: false, mode: 'min', missingFirst: false },
    ]);
  });

  it('refuse bad values and mismatched sizes as IndexSortConfig does', () => {
    expect(
      reason(() => indexSortSpecs({ 'index.sort.field': 'a', 'index.sort.order': 'up' })),
    ).toBe('illegal_argument_exception: Illegal sort order:up');
    expect(
      reason(() => indexSortSpecs({ 'index.sort.field': 'a', 'index.sort.mode': 'avg' })),
    ).toBe('illegal_argument_exception: Illegal index sort mode:[AVG], must be one of [MAX, MIN]');
    expect(reason(() => indexSortSpecs({ 'index.sort.field': 'a', 'index.sort.mode': 'x' }))).toBe(
      'illegal_argument_exception: Illegal sort mode: x',
    );
    expect(
      reason(() => indexSortSpecs({ 'index.sort.field': 'a', 'index.sort.missing': 'none' })),
    ).toBe(
      'illegal_argument_exception: Illegal missing value:[none], must be one of [_last, _first]',
    );
    expect(
      reason(() =>
        validateSettings({ 'index.sort.field': 'a', 'index.sort.mode': ['min', 'max'] }, true),
      ),
    ).toBe(
      'illegal_argument_exception: index.sort.field:[a] index.sort.mode:[MIN, MAX], size mismatch',
    );
    expect(reason(() => validateSettings({ 'index.sort.fields': 'a' }, true))).toMatch(
      /unknown setting \[index.sort.fields\]/,
    );
  });

  it('check the fields against the mapping', () => {
    const specs = indexSortSpecs({ 'index.sort.field': 'f' });
    const m =
      (type: Parameters<typeof field>[1], extra = {}) =>
      () =>
        field('f', type, extra);
    expect(() => checkIndexSortFields(specs, m('keyword'), false)).not.toThrow();
    expect(reason(() => checkIndexSortFields(specs, () => undefined, false))).toBe(
      'illegal_argument_exception: unknown index sort field:[f]',
    );
    expect(
      reason(() => checkIndexSortFields(specs, m('keyword', { docValues: false }), false)),
    ).toBe('illegal_argument_exception: docvalues not found for index sort field:[f]');
    expect(reason(() => checkIndexSortFields(specs, m('integer_range'), false))).toBe(
      'illegal_argument_exception: docvalues not found for index sort field:[f]',
    );
    expect(reason(() => checkIndexSortFields(specs, m('long'), true))).toBe(
      'illegal_argument_exception: cannot have nested fields when index sort is activated',
    );
  });

  it('render a segment sort as _segments shows it', () => {
    const sort = indexSortOf(
      indexSortSpecs({
        'index.sort.field': ['i', 'k', 'd'],
        'index.sort.order': ['asc', 'desc', 'desc'],
        'index.sort.missing': ['_first', '_first', '_last'],
      }),
    );
    const types: Record<string, string> = { i: 'integer', k: 'keyword', d: 'double' };
    expect(segmentSortJson(sort, (p) => types[p])).toEqual([
      { field: 'i', mode: 'min', missing: '-2147483648', reverse: false },
      { field: 'k', mode: 'max', missing: 'SortField.STRING_LAST', reverse: true },
      { field: 'd', mode: 'max', missing: '-Infinity', reverse: true },
    ]);
  });
});
