/**
 * The corpus of nasty inputs: body templates for every body-taking API (with slots for a string's
 * bytes, a key's bytes, the bytes between two tokens and a number), the byte sequences, numbers,
 * nestings, duplicate keys, empty bodies and content types spliced into them, and the names with
 * control characters. Shared by nasty-corpus.test.ts and the byte-level generator of the long run.
 */

/** A body-taking API and its body, with slots: ⟨S⟩ in a string, ⟨K⟩ in a key, ⟨B⟩ between tokens, ⟨N⟩ a value. */
export interface Target {
  name: string;
  method: string;
  /** `{i}` is replaced by a fresh number per request. */
  path: string;
  template: string;
  /** What ⟨N⟩ holds in the valid body. */
  number: string;
  ndjson?: true;
  /** The index the target may write: checked unchanged when the request is rejected. */
  writes?: 'fzw' | 'fzc';
}

const DOC = '{"title":"a⟨S⟩b",⟨B⟩"ta⟨K⟩g":"t1","n":⟨N⟩}';

export const TARGETS: Target[] = [
  { name: 'index', method: 'PUT', path: '/fzw/_doc/c{i}', template: DOC, number: '1', writes: 'fzw' },
  { name: 'create', method: 'PUT', path: '/fzw/_doc/c{i}/_create', template: DOC, number: '1', writes: 'fzw' },
  { name: 'update', method: 'POST', path: '/fzw/_doc/1/_update', template: `{"doc":${DOC}}`, number: '1', writes: 'fzw' },
  { name: 'bulk', method: 'POST', path: '/fzw/_doc/_bulk', template: `{"index":{"_id":"b{i}"}}\n${DOC}\n`, number: '1', ndjson: true, writes: 'fzw' },
  { name: 'msearch', method: 'POST', path: '/fz/_msearch', template: '{}\n{"query":{"match":{"title":"a⟨S⟩b"}},⟨B⟩"si⟨K⟩ze":⟨N⟩}\n', number: '3', ndjson: true },
  { name: 'search-size', method: 'POST', path: '/fz/_search', template: '{"query":{"match":{"title":"a⟨S⟩b"}},⟨B⟩"si⟨K⟩ze":⟨N⟩}', number: '3' },
  { name: 'search-from', method: 'POST', path: '/fz/_search', template: '{"query":{"term":{"tag":"a⟨S⟩b"}},⟨B⟩"fr⟨K⟩om":⟨N⟩}', number: '1' },
  { name: 'search-boost', method: 'POST', path: '/fz/_search', template: '{"query":{"match":{"title":{"query":"a⟨S⟩b",⟨B⟩"bo⟨K⟩ost":⟨N⟩}}}}', number: '2' },
  { name: 'search-numbers', method: 'POST', path: '/fz/_search', template: '{"query":{"bool":{"must":{"match":{"title":"a⟨S⟩b"}},"filter":[{"term":{"n":⟨N⟩}},{"range":{"price":{"gte":⟨N⟩}}}]}},⟨B⟩"si⟨K⟩ze":1}', number: '1' },
  { name: 'count', method: 'POST', path: '/fz/_count', template: '{"query":{"bool":{"must":{"match":{"title":"a⟨S⟩b"}},⟨B⟩"filter":{"range":{"n":{"gte":⟨N⟩}}},"bo⟨K⟩ost":1}}}', number: '1' },
  { name: 'sql', method: 'POST', path: '/_sql', template: '{"query":"SELECT title FROM fz WHERE n > ? AND tag <> \'a⟨S⟩b\'",⟨B⟩"fetch_si⟨K⟩ze":⟨N⟩,"params":[⟨N⟩]}', number: '5' },
  { name: 'sql-translate', method: 'POST', path: '/_sql/translate', template: '{"query":"SELECT title FROM fz WHERE n > ? AND tag <> \'a⟨S⟩b\'",⟨B⟩"fetch_si⟨K⟩ze":⟨N⟩,"params":[⟨N⟩]}', number: '5' },
  { name: 'create-index', method: 'PUT', path: '/fzc', template: '{"settings":{"number_of_shards":⟨N⟩},⟨B⟩"mappings":{"_doc":{"_meta":{"note":"a⟨S⟩b"},"properties":{"ti⟨K⟩tle":{"type":"text"}}}}}', number: '1', writes: 'fzc' },
  { name: 'mapping', method: 'PUT', path: '/fzw/_mapping/_doc', template: '{"_meta":{"note":"a⟨S⟩b"},⟨B⟩"properties":{"ne⟨K⟩w":{"type":"keyword","ignore_above":⟨N⟩}}}', number: '10', writes: 'fzw' },
  { name: 'settings', method: 'PUT', path: '/fzw/_settings', template: '{"index":{"refresh_interval":"1⟨S⟩s",⟨B⟩"max_result_w⟨K⟩indow":⟨N⟩}}', number: '10000', writes: 'fzw' },
  { name: 'aliases', method: 'POST', path: '/_aliases', template: '{"actions":[{"add":{"index":"fzw","alias":"al⟨S⟩x",⟨B⟩"fil⟨K⟩ter":{"range":{"n":{"gte":⟨N⟩}}}}}]}', number: '1', writes: 'fzw' },
  { name: 'analyze', method: 'POST', path: '/_analyze', template: '{"tokenizer":{"type":"standard","max_token_length":⟨N⟩},⟨B⟩"te⟨K⟩xt":"a⟨S⟩b"}', number: '5' },
]; // prettier-ignore

export type Slot = 'S' | 'K' | 'B' | 'N';

/** The body of `t` with `bytes` in one slot (every other slot holds its valid content). */
export function fill(t: Target, slot: Slot | null, bytes: Buffer | string): Buffer {
  const parts: Buffer[] = [];
  let rest = t.template;
  for (let m = /⟨([SKBN])⟩/.exec(rest); m; m = /⟨([SKBN])⟩/.exec(rest)) {
    parts.push(Buffer.from(rest.slice(0, m.index)));
    const s = m[1] as Slot;
    if (s === slot) parts.push(typeof bytes === 'string' ? Buffer.from(bytes) : bytes);
    else if (s === 'N') parts.push(Buffer.from(t.number));
    rest = rest.slice(m.index + m[0].length);
  }
  parts.push(Buffer.from(rest));
  return Buffer.concat(parts);
}

/** The valid body of `t`. */
export const valid = (t: Target): Buffer => fill(t, null, '');

// ---- bytes ----------------------------------------------------------------------------------

/**
 * Byte sequences that are not UTF-8. `lenient` ones are accepted by the JSON parser of ES 6.8
 * (Jackson 2.8's UTF8StreamJsonParser decodes by the lead byte alone, with no check for overlong
 * forms or surrogates); the others are `Invalid UTF-8 start byte` or `middle byte` errors.
 */
export const INVALID_UTF8: { name: string; bytes: number[]; lenient?: true }[] = [
  { name: 'lone 0xff', bytes: [0xff] },
  { name: 'lone 0xfe', bytes: [0xfe] },
  { name: 'stray continuation 0x80', bytes: [0x80] },
  { name: 'stray continuation 0xbf', bytes: [0xbf, 0xbf] },
  { name: 'overlong C0 AF', bytes: [0xc0, 0xaf], lenient: true },
  { name: 'overlong E0 80 AF', bytes: [0xe0, 0x80, 0xaf], lenient: true },
  { name: 'UTF-8 surrogate ED A0 80', bytes: [0xed, 0xa0, 0x80], lenient: true },
  { name: 'surrogate pair ED A0 BD ED B8 80', bytes: [0xed, 0xa0, 0xbd, 0xed, 0xb8, 0x80], lenient: true },
  { name: 'truncated 2-byte C3', bytes: [0xc3] },
  { name: 'truncated 3-byte E2 82', bytes: [0xe2, 0x82] },
  { name: 'truncated 4-byte F0 9F 98', bytes: [0xf0, 0x9f, 0x98] },
  { name: '5-byte F8 88 80 80 80', bytes: [0xf8, 0x88, 0x80, 0x80, 0x80] },
  { name: 'BOM EF BB BF', bytes: [0xef, 0xbb, 0xbf] },
]; // prettier-ignore

/** Raw control bytes: never allowed unescaped in a JSON string (RFC 8259 §7), nor between tokens but \n. */
export const RAW_CONTROLS: { name: string; bytes: number[] }[] = [
  { name: 'raw NUL', bytes: [0x00] },
  { name: 'raw BEL', bytes: [0x07] },
  { name: 'raw newline', bytes: [0x0a] },
];

/** The control and invisible characters of names, ids and keys. */
export const CONTROL_CHARS = ['\u0000', '\u0007', '\n', '\u007f', '\u200b'];

/** Numbers that do not fit, and their string spellings. */
export const NUMBERS = [
  '1e400', '-1e400', '1e-400', '-0', '0.5', '2147483648', '-2147483649', '9223372036854775807',
  '9223372036854775808', '-9223372036854775809', '123456789012345678901234567890',
  '-123456789012345678901234567890', '1.7976931348623157e309', '"NaN"', '"Infinity"', '"-Infinity"',
  '"1e400"', '"9223372036854775808"',
]; // prettier-ignore

/** Not JSON: Jackson's `Non-standard token 'NaN'` and unrecognized tokens. */
export const BARE_NUMBERS = ['NaN', 'Infinity', '-Infinity', '+1', '01', '1.', '.5', '0x10'];

export const DEPTH = 5000;
export const deepObject = (d = DEPTH): string => '{"a":'.repeat(d) + '1' + '}'.repeat(d);
export const deepArray = (d = DEPTH): string => '['.repeat(d) + ']'.repeat(d);

/**
 * `body` (one JSON object) with the first member of one of its objects written twice: `depth` 0
 * is the root object, 1 the first object value found below it (null when there is none).
 */
export function duplicated(body: string, depth: 0 | 1): string | null {
  const root = JSON.parse(body) as Record<string, unknown>;
  let target: Record<string, unknown> | null = root;
  if (depth === 1) {
    const find = (o: unknown): Record<string, unknown> | null => {
      if (!o || typeof o !== 'object') return null;
      for (const v of Object.values(o))
        if (v && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length > 0)
          return v as Record<string, unknown>;
      for (const v of Object.values(o)) {
        const f = find(v);
        if (f) return f;
      }
      return null;
    };
    target = find(root);
    if (target === null) return null;
  }
  const write = (v: unknown): string => {
    if (!v || typeof v !== 'object') return JSON.stringify(v);
    if (Array.isArray(v)) return `[${v.map(write).join(',')}]`;
    const entries = Object.entries(v).map(([k, x]) => `${JSON.stringify(k)}:${write(x)}`);
    if (v === target && entries.length > 0) entries.unshift(entries[0]!);
    return `{${entries.join(',')}}`;
  };
  return write(root);
}

/**
 * Content types and how ES 6.8 answers a body sent with them (RestController.dispatchRequest):
 * `ok` as application/json, `406` `Content-Type header [...] is not supported`, `stream` 406 only
 * on the NDJSON APIs (no stream parsing for YAML), `ndjson` accepted only by _bulk and _msearch,
 * `400` a header RestRequest.parseContentType cannot read.
 */
export const CONTENT_TYPES: { type: string; es: 'ok' | '406' | 'stream' | 'ndjson' | '400' }[] = [
  { type: 'text/plain', es: '406' },
  { type: 'text/plain; charset=UTF-8', es: '406' },
  { type: 'application/xml', es: '406' },
  { type: 'multipart/form-data; boundary=x', es: '406' },
  { type: 'application/x-www-form-urlencoded', es: '406' },
  { type: 'application/octet-stream', es: '406' },
  { type: 'application/json; charset=ISO-8859-1', es: 'ok' },
  { type: 'application/json;charset=UTF-16', es: 'ok' },
  { type: 'APPLICATION/JSON', es: 'ok' },
  { type: 'application/json ; foo=bar', es: 'ok' },
  { type: 'application/x-ndjson', es: 'ndjson' },
  { type: 'application/yaml', es: 'stream' },
  { type: 'nonsense', es: '400' },
  { type: 'application/', es: '400' },
  { type: 'a/b/c', es: '400' },
];
