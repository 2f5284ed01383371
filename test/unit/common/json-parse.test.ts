/**
 * Request-body JSON as ES 6.8 (Jackson 2.8, strict duplicate detection) reads it: bytes that are
 * not UTF-8, the byte order mark, Jackson's syntax error messages and locations, duplicate keys.
 */
import { describe, expect, it } from 'vitest';
import { EsError } from '../../../src/common/errors.js';
import { parseJson, parseJsonBytes, parseJsonText } from '../../../src/common/json.js';
import { blankComments, hasDuplicateKeys } from '../../../src/common/json-syntax.js';

const SRC = '[Source: org.elasticsearch.common.bytes.BytesReference$MarkSupportStream; ';
const bytes = (...parts: (string | number[])[]) => Buffer.concat(parts.map((p) => Buffer.from(p as string))); // prettier-ignore

function error(f: () => unknown): [string, string] {
  try {
    f();
  } catch (e) {
    if (!(e instanceof EsError)) throw e;
    return [e.type, e.reason!.replaceAll(SRC, '[')];
  }
  throw new Error('no error');
}

describe('bytes that are not UTF-8 (UTF8StreamJsonParser)', () => {
  it('a byte that cannot start a sequence, inside a string or a key, is `Invalid UTF-8 start byte`', () => {
    expect(error(() => parseJsonBytes(bytes('{"a":"x', [0xff], '"}')))).toEqual([
      'json_parse_exception',
      'Invalid UTF-8 start byte 0xff\n at [line: 1, column: 9]',
    ]);
    expect(error(() => parseJsonBytes(bytes('{"a', [0x80], '":1}')))[1]).toMatch(/^Invalid UTF-8 start byte 0x80\n/); // prettier-ignore
    expect(error(() => parseJsonBytes(bytes('{"a":"', [0xf8, 0x88], '"}')))[1]).toMatch(/^Invalid UTF-8 start byte 0xf8\n/); // prettier-ignore
  });

  it('a sequence cut short is `Invalid UTF-8 middle byte`, naming the byte that broke it', () => {
    expect(error(() => parseJsonBytes(bytes('{"a":"x', [0xe2, 0x82], '"}')))).toEqual([
      'json_parse_exception',
      'Invalid UTF-8 middle byte 0x22\n at [line: 1, column: 11]',
    ]);
  });

  it('overlong forms and encoded surrogates decode by their lead byte, as Jackson decodes them', () => {
    expect(parseJsonBytes(bytes('{"a":"', [0xc0, 0xaf], '"}'))).toEqual({ a: '/' });
    // an overlong quote stays inside the string
    expect(parseJsonBytes(bytes('{"a":"', [0xc0, 0xa2], '"}'))).toEqual({ a: '"' });
    expect(parseJsonBytes(bytes('{"a":"', [0xed, 0xa0, 0x80], '"}'))).toEqual({ a: '\ud800' });
  });

  it('outside strings a high byte is an unexpected character', () => {
    const [type, reason] = error(() => parseJsonBytes(bytes('{"a":', [0xff], '1}')));
    expect(type).toBe('json_parse_exception');
    expect(reason).toMatch(
      /^Unrecognized token 'ÿ1': was expecting \('true', 'false' or 'null'\)\n/,
    );
  });

  it('a byte order mark before the content is skipped (ByteSourceJsonBootstrapper)', () => {
    expect(parseJsonBytes(bytes([0xef, 0xbb, 0xbf], '{"a":1}'))).toEqual({ a: 1 });
    // invalid bytes after a BOM: columns count from after it
    expect(error(() => parseJsonBytes(bytes([0xef, 0xbb, 0xbf], '"', [0xff], '"')))[1]).toMatch(/column: 3\]$/); // prettier-ignore
  });
});

describe("Jackson's syntax errors", () => {
  const cases: [string, string, string][] = [
    ['{"a":x}', 'json_parse_exception', "Unrecognized token 'x': was expecting ('true', 'false' or 'null')\n at [line: 1, column: 8]"], // prettier-ignore
    ['{"a":1,}', 'json_parse_exception', "Unexpected character ('}' (code 125)): was expecting double-quote to start field name\n at [line: 1, column: 9]"], // prettier-ignore
    ['[1,]', 'json_parse_exception', "Unexpected character (']' (code 93)): expected a value\n at [line: 1, column: 5]"], // prettier-ignore
    ['{"a":1 "b":2}', 'json_parse_exception', `Unexpected character ('"' (code 34)): was expecting comma to separate Object entries\n at [line: 1, column: 9]`], // prettier-ignore
    ['{"a" 1}', 'json_parse_exception', "Unexpected character ('1' (code 49)): was expecting a colon to separate field name and value\n at [line: 1, column: 7]"], // prettier-ignore
    ['{"a":NaN}', 'json_parse_exception', "Non-standard token 'NaN': enable JsonParser.Feature.ALLOW_NON_NUMERIC_NUMBERS to allow\n at [line: 1, column: 9]"], // prettier-ignore
    ['{"a":"b\u0001"}', 'json_parse_exception', 'Illegal unquoted character ((CTRL-CHAR, code 1)): has to be escaped using backslash to be included in string value\n at [line: 1, column: 9]'], // prettier-ignore
    ['{"a":1]', 'json_parse_exception', "Unexpected close marker ']': expected '}' (for Object starting at [line: 1, column: 1])\n at [line: 1, column: 8]"], // prettier-ignore
    ['{"a":1', 'json_e_o_f_exception', 'Unexpected end-of-input: expected close marker for Object (start marker at [line: 1, column: 1])\n at [line: 1, column: 7]'], // prettier-ignore
    ['{"a":"b', 'json_e_o_f_exception', 'Unexpected end-of-input in VALUE_STRING\n at [line: 1, column: 8]'], // prettier-ignore
    ['{"a":\n  #}', 'json_parse_exception', "Unexpected character ('#' (code 35)): expected a valid value (number, String, array, object, 'true', 'false' or 'null')\n at [line: 2, column: 4]"], // prettier-ignore
  ];
  it.each(cases)('%j', (text, type, reason) => {
    expect(error(() => parseJson(text))).toEqual([type, reason]);
  });

  it('an unexpected character is no longer reported as the end of the input', () => {
    // V8 names no position for `Unexpected token`; it used to read as json_e_o_f_exception
    expect(error(() => parseJson('\u00a0{}'))[0]).toBe('json_parse_exception');
  });
});

describe('duplicate keys (STRICT_DUPLICATE_DETECTION)', () => {
  it('are `Duplicate field`, located after the repeated name, at any depth', () => {
    expect(error(() => parseJson('{"a":1,"a":2}'))).toEqual([
      'json_parse_exception',
      "Duplicate field 'a'\n at [line: 1, column: 11]",
    ]);
    expect(error(() => parseJson('{"x":{"y":[{"q":1,"q":{}}]}}'))[1]).toMatch(/^Duplicate field 'q'\n/); // prettier-ignore
    // escapes are resolved before names are compared
    expect(error(() => parseJson('{"a\\u0062":1,"ab":2}'))[1]).toMatch(/^Duplicate field 'ab'\n/);
  });

  it('the same name in sibling objects, or as a string value, is no duplicate', () => {
    expect(parseJson('{"a":{"k":1},"b":{"k":2},"c":["k","k:"],"d":"\\"k\\":"}')).toEqual({
      a: { k: 1 },
      b: { k: 2 },
      c: ['k', 'k:'],
      d: '"k":',
    });
    expect(hasDuplicateKeys('{"a" : 1, "b":{"a" :2}}', { a: 1, b: { a: 2 } })).toBe(false);
    expect(hasDuplicateKeys('{"a":1,"a":2}', { a: 2 })).toBe(true);
    const proto = parseJson('{"__proto__":1,"x":{"__proto__":{}}}') as Record<string, unknown>;
    expect(Object.keys(proto)).toEqual(['__proto__', 'x']); // own keys, no prototype change
    expect(Object.getPrototypeOf(proto)).toBe(Object.prototype);
  });
});

describe('comments (ES enables ALLOW_COMMENTS)', () => {
  it('are white space between tokens, block or to the end of the line', () => {
    const text =
      '/* lead */{"a": /* x */ 1, // trailing "b":2\n "s": "/* kept */ // kept"}\n// end';
    expect(parseJson(text)).toEqual({ a: 1, s: '/* kept */ // kept' });
    expect(parseJsonText('{"a":1}').text).toBe('{"a":1}');
    const read = parseJsonText('{"a"/*:*/:1}');
    expect(read.text).toBe('{"a"     :1}');
    expect(blankComments('{"x":"\\"//"/*\n*/}')).toBe('{"x":"\\"//"  \n  }');
  });

  it("a broken comment is Jackson's error, and duplicates are still found around comments", () => {
    expect(error(() => parseJson('{"a":1 /x}'))).toEqual([
      'json_parse_exception',
      "Unexpected character ('x' (code 120)): was expecting either '*' or '/' for a comment\n at [line: 1, column: 10]",
    ]);
    expect(error(() => parseJson('{"a":1 /* open'))[0]).toBe('json_e_o_f_exception');
    expect(error(() => parseJson('{"a":1 /* open'))[1]).toMatch(
      /^Unexpected end-of-input in a comment\n/,
    );
    expect(error(() => parseJson('{"a":1,/*\n*/"a":2}'))).toEqual([
      'json_parse_exception',
      "Duplicate field 'a'\n at [line: 2, column: 6]",
    ]);
  });
});
