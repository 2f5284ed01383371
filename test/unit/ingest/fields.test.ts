import { describe, expect, it } from 'vitest';
import { rootFailure, run } from './helpers.js';

describe('set / append / remove / rename', () => {
  it('set writes templated values and honours override', () => {
    expect(run([{ set: { field: 'b', value: '{{a}}-x' } }], { a: 'v' })).toEqual({ a: 'v', b: 'v-x' }); // prettier-ignore
    expect(run([{ set: { field: '{{a}}', value: 1 } }], { a: 'dyn' })).toEqual({
      a: 'dyn',
      dyn: 1,
    });
    expect(run([{ set: { field: 'a', value: 2, override: false } }], { a: 1 })).toEqual({ a: 1 });
    expect(run([{ set: { field: 'a', value: 2, override: false } }], { a: null })).toEqual({
      a: 2,
    });
    expect(run([{ set: { field: 'o', value: { k: '{{a}}', l: ['{{a}}', 3] } } }], { a: 'z' })).toEqual({ a: 'z', o: { k: 'z', l: ['z', 3] } }); // prettier-ignore
  });

  it('append builds lists', () => {
    expect(run([{ append: { field: 'a', value: ['y', 'z'] } }], { a: 'x' })).toEqual({ a: ['x', 'y', 'z'] }); // prettier-ignore
    expect(run([{ append: { field: 'n', value: 1 } }], {})).toEqual({ n: [1] });
  });

  it('remove takes a list and ignore_missing', () => {
    expect(run([{ remove: { field: ['a', 'b'] } }], { a: 1, b: 2, c: 3 })).toEqual({ c: 3 });
    expect(run([{ remove: { field: 'x', ignore_missing: true } }], { a: 1 })).toEqual({ a: 1 });
    expect(rootFailure(() => run([{ remove: { field: 'x' } }], {})).reason).toBe(
      'field [x] not present as part of path [x]',
    );
  });

  it('rename moves a value and refuses an existing target', () => {
    expect(run([{ rename: { field: 'a', target_field: 'b.c' } }], { a: 1 })).toEqual({ b: { c: 1 } }); // prettier-ignore
    expect(rootFailure(() => run([{ rename: { field: 'a', target_field: 'b' } }], { a: 1, b: 2 })).reason).toBe('field [b] already exists'); // prettier-ignore
    expect(rootFailure(() => run([{ rename: { field: 'x', target_field: 'b' } }], {})).reason).toBe("field [x] doesn't exist"); // prettier-ignore
  });
});

describe('convert', () => {
  it('converts each type, lists element by element', () => {
    expect(run([{ convert: { field: 'a', type: 'integer' } }], { a: '42' })).toEqual({ a: 42 });
    expect(run([{ convert: { field: 'a', type: 'float' } }], { a: ['1.5', '2'] })).toEqual({ a: [1.5, 2] }); // prettier-ignore
    expect(run([{ convert: { field: 'a', type: 'boolean' } }], { a: 'TRUE' })).toEqual({ a: true });
    expect(run([{ convert: { field: 'a', type: 'string', target_field: 'b' } }], { a: 5 })).toEqual({ a: 5, b: '5' }); // prettier-ignore
    expect(run([{ convert: { field: 'a', type: 'auto' } }], { a: '7' })).toEqual({ a: 7 });
    expect(run([{ convert: { field: 'a', type: 'auto' } }], { a: 'x7' })).toEqual({ a: 'x7' });
  });

  it('fails as ES does', () => {
    expect(rootFailure(() => run([{ convert: { field: 'a', type: 'integer' } }], { a: 'bar' }))).toEqual({ type: 'illegal_argument_exception', reason: 'unable to convert [bar] to integer' }); // prettier-ignore
    expect(() => run([{ convert: { field: 'a', type: 'blah' } }], {})).toThrow(
      '[type] type [blah] not supported, cannot convert field.',
    );
  });
});

describe('sort / join / split / json / dot_expander', () => {
  it('sort orders numbers and strings', () => {
    expect(run([{ sort: { field: 'a' } }], { a: [3, 1, 2] })).toEqual({ a: [1, 2, 3] });
    expect(run([{ sort: { field: 'a', order: 'desc' } }], { a: ['b', 'c', 'a'] })).toEqual({ a: ['c', 'b', 'a'] }); // prettier-ignore
  });

  it('join and split', () => {
    expect(run([{ join: { field: 'a', separator: '-' } }], { a: ['x', 1] })).toEqual({ a: 'x-1' });
    expect(run([{ split: { field: 'a', separator: '\\s+' } }], { a: 'x  y z' })).toEqual({ a: ['x', 'y', 'z'] }); // prettier-ignore
    expect(run([{ split: { field: 'a', separator: ',' } }], { a: 'x,y,,' })).toEqual({ a: ['x', 'y'] }); // prettier-ignore
  });

  it('json parses into a field or the root', () => {
    expect(run([{ json: { field: 'a', target_field: 'b' } }], { a: '{"k":[1]}' })).toEqual({ a: '{"k":[1]}', b: { k: [1] } }); // prettier-ignore
    expect(run([{ json: { field: 'a', add_to_root: true } }], { a: '{"k":1}' })).toEqual({ a: '{"k":1}', k: 1 }); // prettier-ignore
    expect(run([{ json: { field: 'a' } }], { a: '3' })).toEqual({ a: 3 });
  });

  it('dot_expander expands a dotted name', () => {
    expect(run([{ dot_expander: { field: 'a.b' } }], { 'a.b': 1 })).toEqual({ a: { b: 1 } });
    expect(run([{ dot_expander: { field: 'a.b' } }], { 'a.b': 1, a: { c: 2 } })).toEqual({ a: { b: 1, c: 2 } }); // prettier-ignore
    expect(run([{ dot_expander: { field: 'x.y', path: 'p' } }], { p: { 'x.y': 1 } })).toEqual({ p: { x: { y: 1 } } }); // prettier-ignore
    expect(() => run([{ dot_expander: { field: 'ab' } }], {})).toThrow(
      'field does not contain a dot',
    );
  });
});
