import { describe, expect, it } from 'vitest';
import { compileTemplate, renderSource } from '../../../../src/dsl/template/index.js';
import { EsError } from '../../../../src/common/errors.js';

const r = (src: string, params: unknown = {}) => renderSource(src, params);

describe('mustache values', () => {
  it('writes values escaped for JSON strings, not HTML', () => {
    expect(r('{{x}}', { x: 'a"b\\c\n<&>' })).toBe('a\\"b\\\\c\\n<&>');
  });
  it('writes triple and ampersand values unescaped', () => {
    expect(r('{{{x}}}|{{& x}}', { x: 'a"b' })).toBe('a"b|a"b');
  });
  it('writes nothing for a missing value and Java toString for others', () => {
    expect(
      r('[{{nope}}]{{n}} {{b}} {{l}} {{m}}', { n: 20, b: true, l: [1, 'a'], m: { a: 1 } }),
    ).toBe('[]20 true [1, a] {a=1}');
  });
  it('resolves dotted names and list indexes', () => {
    expect(r('{{a.b.c}} {{list.1}} {{list.5}}', { a: { b: { c: 'x' } }, list: ['p', 'q'] })).toBe(
      'x q ',
    );
  });
  it('ignores comments and honours set delimiters', () => {
    expect(r('{{! note }}{{=<% %>=}}<%x%> {{x}}<%={{ }}=%>{{x}}', { x: 'v' })).toBe('v {{x}}v');
  });
});

describe('mustache sections', () => {
  it('repeats over lists with {{.}} as the element', () => {
    expect(r('{{#l}}<{{.}}>{{/l}}', { l: ['a', 'b'] })).toBe('<a><b>');
  });
  it('enters objects and looks names up the scope stack', () => {
    expect(r('{{#o}}{{k}}-{{top}}{{/o}}', { o: { k: 1 }, top: 't' })).toBe('1-t');
  });
  it('renders booleans once and skips falsy values', () => {
    expect(r('{{#t}}T{{/t}}{{#f}}F{{/f}}{{#e}}E{{/e}}{{#s}}S{{/s}}', { t: true, f: false, e: [], s: '' })).toBe('T'); // prettier-ignore
  });
  it('renders inverted sections for falsy and missing values', () => {
    expect(r('{{op}}{{^op}}or{{/op}}', {})).toBe('or');
    expect(r('{{op}}{{^op}}or{{/op}}', { op: 'and' })).toBe('and');
  });
});

describe('ES functions', () => {
  it('toJson writes the named value as JSON', () => {
    expect(r('{"q": {{#toJson}}q{{/toJson}}}', { q: { a: [1, 'x"'] } })).toBe(
      '{"q": {"a":[1,"x\\""]}}',
    );
  });
  it('join joins list elements with a comma or the given delimiter', () => {
    expect(r('{{#join}}l{{/join}}', { l: ['a', 'b', 1] })).toBe('a,b,1');
    expect(r("{{#join delimiter='||'}}l{{/join delimiter='||'}}", { l: ['a', 'b'] })).toBe('a||b');
  });
  it('url encodes its rendered body as java.net.URLEncoder does', () => {
    expect(r('{{#url}}{{i}}/{{t}} x{{/url}}', { i: '<logstash-{now/d}>', t: 'métriques' })).toBe(
      '%3Clogstash-%7Bnow%2Fd%7D%3E%2Fm%C3%A9triques+x',
    );
    expect(r('{{#url}}a/{{#join}}l{{/join}}{{/url}}', { l: ['x', 'y'] })).toBe('a%2Fx%2Cy');
  });
});

describe('template errors', () => {
  const error = (src: string) => {
    try {
      compileTemplate(src);
    } catch (e) {
      return e as EsError;
    }
    throw new Error('compiled');
  };
  it('refuses an improperly closed triple mustache', () => {
    const e = error('{ "a": "{{{x}}" }');
    expect(e.type).toBe('script_exception');
    expect(e.reason).toMatch(/Improperly closed variable in query-template:1/);
  });
  it('refuses unclosed and mismatched sections and partials', () => {
    expect(error('{{#a}}x').reason).toMatch(/Failed to close 'a' tag/);
    expect(error('{{#a}}x{{/b}}').reason).toMatch(/Mismatched start\/end tags: a != b/);
    expect(error('{{> part}}').reason).toBe('Template part not found');
  });
});
