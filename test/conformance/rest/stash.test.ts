import { describe, expect, it } from 'vitest';
import { evaluatePath, parsePath, PathError } from './object-path.js';
import { Stash, StashError } from './stash.js';

describe('ObjectPath', () => {
  it('splits on unescaped dots and drops empty parts', () => {
    expect(parsePath('a.b.0.c')).toEqual(['a', 'b', '0', 'c']);
    expect(parsePath('index\\.number_of_shards')).toEqual(['index.number_of_shards']);
    expect(parsePath('settings.index\\.a\\.b.x')).toEqual(['settings', 'index.a.b', 'x']);
    expect(parsePath('')).toEqual([]);
    expect(parsePath('.a..b.')).toEqual(['a', 'b']);
  });

  it('walks maps and lists; missing keys give null; bad steps throw as upstream', () => {
    const body = { hits: { hits: [{ _id: '1' }, { _id: '2' }] }, 'a.b': 1 };
    expect(evaluatePath(body, 'hits.hits.1._id')).toBe('2');
    expect(evaluatePath(body, 'a\\.b')).toBe(1);
    expect(evaluatePath(body, '')).toBe(body);
    expect(evaluatePath(body, 'nope.deeper')).toBeNull();
    expect(() => evaluatePath(body, 'hits.hits.x')).toThrow(
      /was a list, but \[x\] was not numeric/,
    );
    expect(() => evaluatePath(body, 'hits.hits.5')).toThrow(
      /list with 2 elements, but \[5\] was out of bounds/,
    );
    expect(() => evaluatePath(body, 'hits.hits.0._id.x')).toThrow(PathError);
    expect(evaluatePath({ m: { k: 1 } }, 'm._arbitrary_key_')).toBe('k');
  });
});

describe('Stash', () => {
  const stash = (): Stash => {
    const s = new Stash();
    s.set('id', 'abc');
    s.set('n', 3);
    s.set('obj', { nested: { v: 'deep' } });
    s.set('body', { _id: 'x1', list: [1, 2] });
    return s;
  };

  it('recognises $name and ${name} references', () => {
    const s = stash();
    expect(s.isStashed('$id')).toBe(true);
    expect(s.isStashed('pre-${id}-post')).toBe(true);
    expect(s.isStashed('id')).toBe(false);
    expect(s.isStashed('')).toBe(false);
    expect(s.isStashed(3)).toBe(false);
  });

  it('returns whole objects for $name, walks $name.path, splices ${name} as text', () => {
    const s = stash();
    expect(s.resolve('$n')).toBe(3);
    expect(s.resolve('$obj')).toEqual({ nested: { v: 'deep' } });
    expect(s.resolve('$obj.nested.v')).toBe('deep');
    expect(s.resolve('$body._id')).toBe('x1');
    expect(s.resolve('doc-${id}-${n}')).toBe('doc-abc-3');
    expect(s.resolve('${obj.nested.v}')).toBe('deep');
    expect(() => s.resolve('$missing')).toThrow(StashError);
    expect(() => s.resolve('$missing')).toThrow('stashed value not found for key [missing]');
  });

  it('replaces values and keys deeply (stash_in_key, embedded_stash_key)', () => {
    const s = stash();
    const out = s.replaceStashedValues({
      query: { term: { _id: '$id' } },
      $id: { count: '$n' },
      list: ['$n', 'x-${id}', { k: '$obj.nested.v' }],
    });
    expect(out).toEqual({
      query: { term: { _id: 'abc' } },
      abc: { count: 3 },
      list: [3, 'x-abc', { k: 'deep' }],
    });
  });

  it('expands $_path to the location being unstashed (stash_path_replace)', () => {
    const s = new Stash();
    s.set('body', { aggs: { 'my.agg': { value: 7 } } });
    expect(s.replaceStashedValues({ aggs: { 'my.agg': { value: '$body.$_path' } } })).toEqual({
      aggs: { 'my.agg': { value: 7 } },
    });
  });

  it('reports key conflicts made by unstashing', () => {
    const s = stash();
    expect(() => s.replaceStashedValues({ abc: 1, $id: 2 })).toThrow(/key conflict/);
  });

  it('resolves stashed path parts (stash_in_path)', () => {
    const s = new Stash();
    s.set('master', 'n1');
    s.set('idx', 1);
    const body = { nodes: { n1: { name: 'a', roles: ['x', 'y'] } } };
    expect(evaluatePath(body, 'nodes.$master.name', s)).toBe('a');
    expect(evaluatePath(body, 'nodes.${master}.roles.$idx', s)).toBe('y');
    expect(() => evaluatePath(body, 'nodes.$other', s)).toThrow(StashError);
  });

  it('clear() forgets everything', () => {
    const s = stash();
    s.clear();
    expect(() => s.resolve('$id')).toThrow(StashError);
  });
});
