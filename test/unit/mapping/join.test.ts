/**
 * The `join` field (module parent-join): its mapping (relations, one parent per child, only at
 * the root, once per index, merges that only grow) and what a document indexes through it (the
 * relation name and the `<join>#<parent>` join keys), with ES 6.8's errors.
 */
import { describe, expect, it } from 'vitest';
import {
  mappingToJson,
  parseDocument,
  parseMapping,
  mergeMapping,
} from '../../../src/mapping/index.js';
import type { RootMapping } from '../../../src/mapping/index.js';
import { chainOf, ctx, mapping } from './helpers.js';

const JOIN = { properties: { j: { type: 'join', relations: { q: ['a', 'c'], a: 'v' } } } };

const values = (m: RootMapping, src: unknown, id: string, routing: string | null) =>
  parseDocument(m, src, ctx, id, routing).values.map((v) => [v.field.path, v.field.type, v.value]);

describe('join mapping', () => {
  it('renders its relations, a single child as a string', () => {
    const json = mappingToJson(mapping(JOIN)) as Record<string, any>;
    expect(json.properties.j).toEqual({
      type: 'join',
      eager_global_ordinals: true,
      relations: { q: ['a', 'c'], a: 'v' },
    });
  });

  it('exposes the join keys as keyword fields', () => {
    const m = mapping(JOIN);
    expect(m.fieldsByPath.get('j')?.type).toBe('join');
    expect(m.fieldsByPath.get('j#q')?.type).toBe('keyword');
    expect(m.fieldsByPath.get('j#a')?.docValues).toBe(true);
  });

  it('refuses a child with two parents', () => {
    expect(
      chainOf(() =>
        mapping({ properties: { j: { type: 'join', relations: { p: 'c', o: 'c' } } } }),
      ),
    ).toEqual([
      [
        'illegal_argument_exception',
        'invalid definition for join field [j]:\n[[c] cannot have multiple parents]',
      ],
    ]);
  });

  it('must sit at the root, once per index', () => {
    expect(
      chainOf(() =>
        mapping({
          properties: { o: { properties: { j: { type: 'join', relations: { p: 'c' } } } } },
        }),
      ),
    ).toEqual([
      [
        'illegal_argument_exception',
        'join field [o.j] cannot be added inside an object or in a multi-field',
      ],
    ]);
    expect(
      chainOf(() =>
        mapping({
          properties: {
            j: { type: 'join', relations: { p: 'c' } },
            k: { type: 'join', relations: { x: 'y' } },
          },
        }),
      ),
    ).toEqual([['illegal_argument_exception', 'Field [_parent_join] is defined twice in [_doc]']]);
  });

  it('merges relations that grow and refuses to lose one', () => {
    const m = mapping({ properties: { j: { type: 'join', relations: { p: 'c' } } } });
    const grown = mergeMapping(
      m,
      parseMapping(
        '_doc',
        { properties: { j: { type: 'join', relations: { p: ['c', 'd'], x: 'y' } } } },
        ctx,
      ),
      ctx,
    );
    expect(grown.fieldsByPath.get('j')?.relations).toEqual([
      { parent: 'p', children: ['c', 'd'] },
      { parent: 'x', children: ['y'] },
    ]);
    expect(
      chainOf(() =>
        mergeMapping(
          grown,
          parseMapping('_doc', { properties: { j: { type: 'join', relations: { p: 'c' } } } }, ctx),
          ctx,
        ),
      )[0],
    ).toEqual([
      'illegal_state_exception',
      'invalid update for join field [j]:\n[cannot remove parent [x] in join field [j], cannot remove child [d] in join field [j]]',
    ]);
  });
});

describe('join values', () => {
  const m = mapping(JOIN);

  it('a parent indexes its own id as the join key', () => {
    expect(values(m, { j: 'q' }, '7', null)).toEqual([
      ['j#q', 'keyword', '7'],
      ['j', 'keyword', 'q'],
    ]);
  });

  it('a child indexes its parent id; a child that is a parent both keys', () => {
    expect(values(m, { j: { name: 'c', parent: '7' } }, '8', '7')).toEqual([
      ['j#q', 'keyword', '7'],
      ['j', 'keyword', 'c'],
    ]);
    expect(values(m, { j: { name: 'a', parent: 7 } }, '9', '7')).toEqual([
      ['j#q', 'keyword', '7'],
      ['j#a', 'keyword', '9'],
      ['j', 'keyword', 'a'],
    ]);
  });

  it('refuses children without parent or routing and unknown names', () => {
    const fail = (src: unknown, routing: string | null) =>
      chainOf(() => parseDocument(m, src, ctx, '1', routing));
    expect(fail({ j: { name: 'c' } }, '1')).toEqual([
      ['mapper_parsing_exception', 'failed to parse'],
      ['illegal_argument_exception', '[parent] is missing for join field [j]'],
    ]);
    expect(fail({ j: { name: 'c', parent: '2' } }, null)[1]).toEqual([
      'illegal_argument_exception',
      '[routing] is missing for join field [j]',
    ]);
    expect(fail({ j: 'zz' }, null)[1]).toEqual([
      'illegal_argument_exception',
      'unknown join name [zz] for field [j]',
    ]);
    expect(fail({ j: { name: 'q', other: 'x' } }, null)[1]).toEqual([
      'illegal_argument_exception',
      'unknown field name [other] in join field [j]',
    ]);
  });
});
