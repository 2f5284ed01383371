import { describe, expect, it } from 'vitest';
import {
  parseSearchTemplateRequest,
  searchTemplateProblems,
} from '../../../../src/dsl/template/request.js';

describe('search template request', () => {
  it('reads an object source as its JSON text, with params, explain and profile', () => {
    expect(
      parseSearchTemplateRequest({ source: { q: '{{x}}' }, params: { x: 1 }, explain: true, profile: 'true' }),
    ).toEqual({ source: '{"q":"{{x}}"}', params: { x: 1 }, explain: true, profile: true }); // prettier-ignore
  });
  it('takes inline and template as older names of source, and an id', () => {
    expect(parseSearchTemplateRequest({ inline: 'a' }).source).toBe('a');
    expect(parseSearchTemplateRequest({ template: 'b' }).source).toBe('b');
    expect(parseSearchTemplateRequest({ id: 's' })).toMatchObject({ id: 's', params: {} });
  });
  it('lets the path id name a stored template', () => {
    expect(parseSearchTemplateRequest({ params: { a: 1 } }, 'p')).toMatchObject({ id: 'p' });
  });
  it('refuses unknown fields and finds a missing template', () => {
    expect(() => parseSearchTemplateRequest({ nope: 1 })).toThrow(
      '[search_template] unknown field [nope], parser not found',
    );
    expect(searchTemplateProblems(parseSearchTemplateRequest({ source: '' }))).toEqual([
      'template is missing',
    ]);
    expect(searchTemplateProblems(parseSearchTemplateRequest({ id: 'x' }))).toEqual([]);
  });
});
