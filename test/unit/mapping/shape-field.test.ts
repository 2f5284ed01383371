import { describe, expect, it } from 'vitest';
import { mappingToJson, parseMapping } from '../../../src/mapping/index.js';
import { chainOf, ctx, expectError, mapping } from './helpers.js';

const props = (p: Record<string, unknown>) => mapping({ properties: p });

describe('shape fields (x-pack spatial ShapeFieldMapper)', () => {
  it('is accepted and rendered with its own type name and options', () => {
    const m = props({ s: { type: 'shape', orientation: 'cw', ignore_z_value: false } });
    expect(mappingToJson(m)).toEqual({
      properties: { s: { type: 'shape', orientation: 'left', ignore_z_value: false } },
    });
    expect(m.fieldsByPath.get('s')!.type).toBe('shape');
  });
  it('rejects an unknown orientation', () => {
    expect(
      chainOf(() =>
        parseMapping('_doc', { properties: { s: { type: 'shape', orientation: 'up' } } }, ctx),
      ),
    ).toContainEqual(['illegal_argument_exception', 'Unknown orientation [up]']);
  });
  it('takes none of geo_shape legacy prefix-tree parameters', () => {
    expectError(
      () => parseMapping('_doc', { properties: { s: { type: 'shape', tree: 'quadtree' } } }, ctx),
      'mapper_parsing_exception',
      'Mapping definition for [s] has unsupported parameters:  [tree : quadtree]',
    );
  });
});
