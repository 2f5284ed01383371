import { describe, expect, it } from 'vitest';
import { asRegexLiteral, compileJavaRegex, javaTrim } from './java-regex.js';

describe('Java regexes with find() semantics', () => {
  it('matches anywhere in the input unless anchored', () => {
    expect(compileJavaRegex('missing').test('index [x] missing here')).toBe(true);
    expect(compileJavaRegex('^missing').test('index missing')).toBe(false);
  });

  it('$ and \\Z also match before one final line terminator, \\z only at the very end', () => {
    expect(compileJavaRegex('^green$').test('green\n')).toBe(true);
    expect(compileJavaRegex('^green$').test('green\r\n')).toBe(true);
    expect(compileJavaRegex('^green$').test('green\n\n')).toBe(false);
    expect(compileJavaRegex('green\\Z').test('green\n')).toBe(true);
    expect(compileJavaRegex('green\\z').test('green\n')).toBe(false);
    expect(compileJavaRegex('green\\z').test('green')).toBe(true);
    expect(compileJavaRegex('\\Agreen').test('green')).toBe(true);
    expect(compileJavaRegex('\\Agreen').test('x green')).toBe(false);
  });

  it('keeps $ literal inside a character class and escaped', () => {
    expect(compileJavaRegex('a[$]b').test('a$b')).toBe(true);
    expect(compileJavaRegex('a\\$b').test('a$b')).toBe(true);
  });

  it('translates \\Q..\\E, \\h, POSIX classes, possessive quantifiers and atomic groups', () => {
    expect(compileJavaRegex('\\Q[a.b]\\E').test('x[a.b]y')).toBe(true);
    expect(compileJavaRegex('\\Q[a.b]\\E').test('xab]y')).toBe(false);
    expect(compileJavaRegex('a\\hb').test('a\tb')).toBe(true);
    expect(compileJavaRegex('^\\p{Alpha}+$').test('abc')).toBe(true);
    expect(compileJavaRegex('^\\p{Digit}+$').test('abc')).toBe(false);
    expect(compileJavaRegex('^a++b$').test('aaab')).toBe(true);
    expect(compileJavaRegex('^(?>ab)c$').test('abc')).toBe(true);
    expect(compileJavaRegex('\\++').test('a+')).toBe(true);
  });

  it('honours a leading inline flag', () => {
    expect(compileJavaRegex('(?i)GREEN').test('green')).toBe(true);
    expect(compileJavaRegex('(?x) g r e e n').test('green')).toBe(true);
  });
});

describe('COMMENTS mode (match values)', () => {
  const cat = `/^  epoch  \\s+  timestamp          \\s+  count  \\s+  \\n
                   \\d+    \\s+  \\d{2}:\\d{2}:\\d{2}  \\s+  \\d+    \\s+  \\n  $/`;

  it('drops unescaped whitespace and # comments', () => {
    const re = compileJavaRegex(asRegexLiteral(cat)!, { comments: true });
    expect(re.test('epoch      timestamp count \n1514 12:34:56 0 \n')).toBe(true);
    expect(re.test('epoch timestamp count \nx 12:34:56 0 \n')).toBe(false);
    const withComments = compileJavaRegex('^ ( \\d+ \\s+ # epoch\n \\w+ # status\n \\n )+ $', {
      comments: true,
    });
    expect(withComments.test('123 green\n456 red\n')).toBe(true);
  });

  it('keeps escaped spaces and escaped #, and strips whitespace inside classes as Java does', () => {
    expect(compileJavaRegex('a\\ b', { comments: true }).test('a b')).toBe(true);
    expect(compileJavaRegex('a \\# b', { comments: true }).test('a#b')).toBe(true);
    expect(compileJavaRegex('^[a b]+$', { comments: true }).test('ab')).toBe(true);
    expect(compileJavaRegex('^[a b]+$', { comments: true }).test('a b')).toBe(false);
  });

  it('does not apply comments mode to catch regexes', () => {
    expect(
      compileJavaRegex('conflicts may only be .* but was').test('conflicts may only be x but was'),
    ).toBe(true);
    expect(compileJavaRegex('a b').test('ab')).toBe(false);
  });
});

describe('regex literals', () => {
  it('are strings wrapped in slashes after trim, longer than two characters', () => {
    expect(asRegexLiteral('  /abc/\n')).toBe('abc');
    expect(asRegexLiteral('//')).toBeNull();
    expect(asRegexLiteral('/a')).toBeNull();
    expect(asRegexLiteral(3)).toBeNull();
    expect(javaTrim('\u0001 x \t')).toBe('x');
  });
});
