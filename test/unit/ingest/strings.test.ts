import { describe, expect, it } from 'vitest';
import { rootFailure, run } from './helpers.js';

describe('string processors', () => {
  it('lowercase, uppercase, trim, urldecode with target_field and ignore_missing', () => {
    expect(run([{ lowercase: { field: 'a' } }], { a: 'HeLLo' })).toEqual({ a: 'hello' });
    expect(run([{ uppercase: { field: 'a', target_field: 'b' } }], { a: 'x' })).toEqual({ a: 'x', b: 'X' }); // prettier-ignore
    expect(run([{ trim: { field: 'a' } }], { a: '  x \t' })).toEqual({ a: 'x' });
    expect(run([{ urldecode: { field: 'a' } }], { a: 'a%20b+c' })).toEqual({ a: 'a b c' });
    expect(run([{ lowercase: { field: 'x', ignore_missing: true } }], {})).toEqual({});
    expect(rootFailure(() => run([{ lowercase: { field: 'a' } }], { a: 1 })).reason).toBe(
      'field [a] of type [java.lang.Integer] cannot be cast to [java.lang.String]',
    );
  });

  it('bytes parses sizes', () => {
    expect(run([{ bytes: { field: 'a' } }], { a: '1kb' })).toEqual({ a: 1024 });
    expect(run([{ bytes: { field: 'a' } }], { a: '2.5mb' })).toEqual({ a: 2621440 });
    expect(rootFailure(() => run([{ bytes: { field: 'a' } }], { a: '12zz' })).reason).toBe(
      'failed to parse setting [a] with value [12zz] as a size in bytes: unit is missing or unrecognized',
    );
    // a unit with a bad number fails on the number, as Java's parseDouble does
    expect(rootFailure(() => run([{ bytes: { field: 'a' } }], { a: 'junk' })).reason).toBe(
      'For input string: "jun"',
    );
  });

  it('gsub replaces with Java group syntax', () => {
    expect(run([{ gsub: { field: 'a', pattern: '(\\d)-', replacement: '$1+' } }], { a: '1-2-3' })).toEqual({ a: '1+2+3' }); // prettier-ignore
    expect(run([{ gsub: { field: 'a', pattern: '\\.', replacement: '-' } }], { a: '1.2' })).toEqual({ a: '1-2' }); // prettier-ignore
  });
});
