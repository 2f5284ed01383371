/**
 * A corpus of nasty inputs against every API that takes a body (nasty-inputs.ts): bytes that are
 * not UTF-8, raw control bytes, deep nesting, huge numbers and NaN/Infinity, duplicate keys, empty
 * bodies, content types, control characters in names, 10 MB strings and a body over
 * http.max_content_length, sent as raw bytes over HTTP. Every answer must be a well-formed ES
 * answer (judge), match ES 6.8 where its answer is known, leave the protected index `fz` and a
 * rejected write's index unchanged, and the node must keep serving.
 */
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestNode } from '../helpers/node.js';
import {
  difference,
  fuzzNode,
  judge,
  MAPPING,
  send,
  snapshot,
  type Answer,
} from './fuzz-support.js';
import {
  BARE_NUMBERS,
  CONTENT_TYPES,
  CONTROL_CHARS,
  deepArray,
  deepObject,
  duplicated,
  fill,
  INVALID_UTF8,
  NUMBERS,
  RAW_CONTROLS,
  TARGETS,
  valid,
  type Target,
} from './nasty-inputs.js';

let node: TestNode;
let protectedState: string;
beforeAll(async () => {
  node = await fuzzNode(10);
  const w = await send(node, 'PUT', '/fzw', JSON.stringify({ mappings: { _doc: MAPPING } }));
  if (w.status !== 200) throw new Error(w.text);
  await send(node, 'PUT', '/fzw/_doc/1?refresh=true', '{"title":"one","n":1}');
  protectedState = await snapshot(node);
}, 60_000);
afterAll(async () => {
  expect(difference(protectedState, await snapshot(node))).toBe('none');
  await node.destroy();
});

/** What ES 6.8 answers, where known: the status, and an error type somewhere in the answer. */
interface Expect {
  status?: number | number[];
  mentions?: string;
  reason?: RegExp;
}

interface Case {
  target: string;
  what: string;
  method: string;
  path: string;
  body?: Buffer;
  /** null: no Content-Type header. */
  contentType?: string | null;
  writes?: 'fzw' | 'fzc';
  expect?: Expect;
}

let counter = 0;
const states = new Map<string, string>();

/** Every error type in an answer (root causes, causes, bulk and msearch items). */
function errorTypes(a: Answer): string[] {
  const out: string[] = [];
  const walk = (v: unknown) => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        if (k === 'type' && typeof x === 'string') out.push(x);
        else walk(x);
      }
    }
  };
  walk(a.json?.error ?? a.json?.items ?? a.json?.responses);
  return out;
}

async function sendBytes(c: Case): Promise<Answer> {
  const type = c.contentType === undefined ? 'application/json' : c.contentType;
  const i = String(counter++);
  let body = c.body;
  const at = body?.indexOf('{i}') ?? -1;
  if (body && at >= 0) body = Buffer.concat([body.subarray(0, at), Buffer.from(i), body.subarray(at + 3)]); // prettier-ignore
  // the 100 MB body needs longer than the fuzzers' hang limit
  return send(node, c.method, c.path.replace('{i}', i), body, type, 20_000);
}

/** Runs the cases; returns the problems found (empty when every answer is right). */
async function run(cases: Case[]): Promise<string[]> {
  const problems: string[] = [];
  for (const c of cases) {
    const label = `${c.target} / ${c.what}`;
    const index = c.writes;
    let before: string | undefined;
    if (index === 'fzw') before = states.get(index) ?? (await snapshot(node, index));
    let a: Answer;
    try {
      a = await sendBytes(c);
    } catch (e) {
      problems.push(`${label}: no answer: ${String(e)}`);
      continue;
    }
    const short = a.text.slice(0, 300);
    const why = judge(c.method, a, a.type);
    if (why) problems.push(`${label}: ${why}`);
    const e = c.expect;
    // a 5xx only where ES answers one (judge checks its body)
    if (a.status >= 500 && ![e?.status].flat().includes(a.status))
      problems.push(`${label}: ${a.status} ${short}`);
    if (e?.status !== undefined && ![e.status].flat().includes(a.status))
      problems.push(`${label}: status ${a.status}, ES answers ${String(e.status)}: ${short}`);
    if (e?.mentions && !errorTypes(a).includes(e.mentions))
      problems.push(`${label}: no ${e.mentions} in ${short}`);
    if (e?.reason && !e.reason.test(a.text)) problems.push(`${label}: ${short} !~ ${e.reason}`);
    if (index === 'fzc') {
      if (a.status < 300) await send(node, 'DELETE', '/fzc');
      else if ((await send(node, 'HEAD', '/fzc')).status !== 404)
        problems.push(`${label}: rejected (${a.status}) but created fzc`);
    } else if (index === 'fzw') {
      if (a.status < 400 && !(c.target === 'bulk' && a.json?.errors === true)) {
        states.delete(index);
        continue;
      }
      const after = await snapshot(node, index);
      if (after !== before)
        problems.push(`${label}: rejected (${a.status} ${short}) but changed ${index}: ${difference(before!, after)}`); // prettier-ignore
      states.set(index, after);
    }
  }
  const alive = await send(node, 'GET', '/');
  if (alive.status !== 200) problems.push(`the node stopped serving: ${alive.status}`);
  // no case may touch `fz` (checked once per family: a snapshot per case would triple the run)
  const now = await snapshot(node);
  if (now !== protectedState) problems.push(`fz changed: ${difference(protectedState, now)}`);
  return problems;
}

const base = (t: Target, what: string, body: Buffer | undefined, expect?: Expect): Case => ({
  target: t.name,
  what,
  method: t.method,
  path: t.path,
  ...(body !== undefined ? { body } : {}),
  contentType: t.ndjson ? 'application/x-ndjson' : 'application/json',
  ...(t.writes ? { writes: t.writes } : {}),
  ...(expect ? { expect } : {}),
});

/** A rejected body: a 400 naming `type`, or for _bulk a failed item (and for _msearch either). */
const rejected = (t: Target, type: string): Expect => ({
  status: t.name === 'bulk' ? 200 : t.name === 'msearch' ? [200, 400] : 400,
  mentions: type,
});

/** Applies `f` to the JSON of `t` (the last line of an NDJSON body); null when `f` gives null. */
function replaceJson(t: Target, f: (json: string) => string): Buffer;
function replaceJson(t: Target, f: (json: string) => string | null): Buffer | null;
function replaceJson(t: Target, f: (json: string) => string | null): Buffer | null {
  const text = valid(t).toString();
  const lines = t.ndjson ? text.split('\n') : [text];
  const at = t.ndjson ? lines.length - 2 : 0;
  const json = f(lines[at]!);
  if (json === null) return null;
  lines[at] = json;
  return Buffer.from(lines.join('\n'));
}

const OK = { status: [200, 201] };
const expectNoProblems = (problems: string[]) => expect(problems.join('\n')).toBe('');

describe('nasty inputs against every body-taking API', () => {
  it('the valid bodies are accepted (baseline)', async () => {
    expectNoProblems(await run(TARGETS.map((t) => base(t, 'valid', valid(t), OK))));
  });

  it('bytes that are not UTF-8, in strings, keys and between tokens', async () => {
    const cases: Case[] = [];
    for (const t of TARGETS)
      for (const s of INVALID_UTF8)
        for (const slot of ['S', 'K', 'B'] as const) {
          const body = fill(t, slot, Buffer.from(s.bytes));
          // Jackson decodes the lenient forms inside strings; between tokens nothing is lenient
          const ok = slot !== 'B' && (s.lenient || s.name.startsWith('BOM'));
          cases.push(base(t, `${s.name} in ${slot}`, body, ok ? undefined : rejected(t, 'json_parse_exception'))); // prettier-ignore
        }
    expectNoProblems(await run(cases));
  });

  it('raw control bytes in strings and keys are JSON errors; escaped ones are characters', async () => {
    const cases: Case[] = [];
    for (const t of TARGETS) {
      for (const c of RAW_CONTROLS)
        for (const slot of ['S', 'K'] as const) {
          // a raw newline ends an NDJSON line: the rest is the next (action or header) line
          const split = t.ndjson && c.bytes[0] === 0x0a;
          const expect = split ? { status: 400 } : rejected(t, 'json_parse_exception');
          cases.push(base(t, `${c.name} in ${slot}`, fill(t, slot, Buffer.from(c.bytes)), expect)); // prettier-ignore
        }
      for (const c of CONTROL_CHARS)
        for (const slot of ['S', 'K'] as const) {
          const escaped = JSON.stringify(c).slice(1, -1);
          cases.push(base(t, `${JSON.stringify(c)} escaped in ${slot}`, fill(t, slot, escaped)));
          if (c.charCodeAt(0) >= 0x7f) cases.push(base(t, `raw ${JSON.stringify(c)} in ${slot}`, fill(t, slot, c))); // prettier-ignore
        }
    }
    expectNoProblems(await run(cases));
  });

  // ES: Jackson's ByteSourceJsonBootstrapper skips a UTF-8 BOM before the content.
  it('a byte order mark before the body is skipped', async () => {
    const bom = Buffer.from([0xef, 0xbb, 0xbf]);
    const cases = TARGETS.map((t) => base(t, 'BOM first', Buffer.concat([bom, valid(t)]), OK));
    expectNoProblems(await run(cases));
  });

  it('huge numbers and NaN/Infinity strings in numeric fields, sizes, from and boosts', async () => {
    const cases: Case[] = [];
    for (const t of TARGETS) {
      for (const n of NUMBERS) cases.push(base(t, `number ${n}`, fill(t, 'N', n)));
      for (const n of BARE_NUMBERS)
        cases.push(base(t, `bare ${n}`, fill(t, 'N', n), rejected(t, 'json_parse_exception')));
    }
    expectNoProblems(await run(cases));
  });

  it('nesting thousands of levels deep, as a value and as the whole body', async () => {
    const cases: Case[] = [];
    // ES loads settings through Settings.fromXContent, which takes lists of values only
    const settings = ['create-index', 'settings', 'analyze'];
    const valueLists = { status: 500, mentions: 'settings_exception', reason: /only value lists are allowed in serialized settings/ }; // prettier-ignore
    for (const t of TARGETS) {
      cases.push(base(t, 'deep object value', fill(t, 'N', deepObject())));
      cases.push(base(t, 'deep array value', fill(t, 'N', deepArray()), settings.includes(t.name) ? valueLists : undefined)); // prettier-ignore
      cases.push(
        base(
          t,
          'deep object body',
          replaceJson(t, () => deepObject()),
        ),
      );
      cases.push(
        base(
          t,
          'deep array body',
          replaceJson(t, () => deepArray()),
        ),
      );
    }
    const d = 5000;
    const bool = '{"query":' + '{"bool":{"must":'.repeat(d) + '{"match_all":{}}' + '}}'.repeat(d) + '}'; // prettier-ignore
    const notq = '{"query":' + '{"constant_score":{"filter":'.repeat(d) + '{"match_all":{}}' + '}}'.repeat(d) + '}'; // prettier-ignore
    const aggs = '{"size":0,"aggs":' + '{"a":{"terms":{"field":"tag"},"aggs":'.repeat(500) + "{}" + "}}".repeat(500) + '}'; // prettier-ignore
    for (const t of TARGETS.filter((x) => ['search-size', 'count', 'msearch'].includes(x.name))) {
      cases.push(
        base(
          t,
          'deep bool',
          replaceJson(t, () => bool),
        ),
      );
      cases.push(
        base(
          t,
          'deep constant_score',
          replaceJson(t, () => notq),
        ),
      );
      if (t.name !== 'count')
        cases.push(
          base(
            t,
            'deep aggs',
            replaceJson(t, () => aggs),
          ),
        );
    }
    expectNoProblems(await run(cases));
  });

  // ES 6.8: JsonXContent turns on STRICT_DUPLICATE_DETECTION (es.xcontent.strict_duplicate_detection
  // defaults to true); Jackson's JsonReadContext throws `Duplicate field 'name'`.
  it('duplicate keys are rejected', async () => {
    const cases: Case[] = [];
    for (const t of TARGETS)
      for (const depth of [0, 1] as const) {
        const body = replaceJson(t, (j) => duplicated(j, depth));
        if (body) cases.push(base(t, `duplicate key at depth ${depth}`, body, { ...rejected(t, 'json_parse_exception'), reason: /Duplicate field '/ })); // prettier-ignore
      }
    expectNoProblems(await run(cases));
  });

  it('empty bodies', async () => {
    // ES 6.8: RestRequest.requiredContent (`request body is required`) or contentOrSourceParam
    // (`request body or source parameter is required`); an absent body is no body at all.
    const required = (reason: string): Expect => ({ status: 400, mentions: 'parse_exception', reason: new RegExp(reason) }); // prettier-ignore
    const es: Record<string, Expect> = {
      index: required('"request body is required"'),
      create: required('"request body is required"'),
      update: { status: 400, reason: /script or doc is missing/ },
      bulk: required('"request body is required"'),
      msearch: required('"request body or source parameter is required"'),
      'search-size': OK,
      'search-from': OK,
      'search-boost': OK,
      'search-numbers': OK,
      count: OK,
      sql: required('"request body or source parameter is required"'),
      'sql-translate': required('"request body or source parameter is required"'),
      'create-index': OK,
      mapping: required('"request body is required"'),
      settings: required('"request body is required"'),
      aliases: required('"request body is required"'),
      analyze: required('"request body or source parameter is required"'),
    };
    const cases: Case[] = [];
    for (const t of TARGETS) {
      cases.push(base(t, 'empty body', Buffer.alloc(0), es[t.name]));
      cases.push({ ...base(t, 'no body', undefined, es[t.name]), contentType: null });
      cases.push(base(t, 'blank body', Buffer.from(' \n ')));
    }
    expectNoProblems(await run(cases));
  });

  it('wrong, missing and odd content types (ES RestController)', async () => {
    const cases: Case[] = [];
    for (const t of TARGETS) {
      const body = valid(t);
      cases.push({ ...base(t, 'no content type', body), contentType: null, expect: { status: 406, reason: /^\{"error":"Content-Type header is missing","status":406\}$/ } }); // prettier-ignore
      for (const { type, es } of CONTENT_TYPES) {
        const refused: Expect = { status: 406, reason: new RegExp(`^\\{"error":"Content-Type header \\[${type.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}\\] is not supported","status":406\\}$`) }; // prettier-ignore
        const expect: Expect =
          es === '406' || (es === 'ndjson' && !t.ndjson)
            ? refused
            : es === 'stream' && t.ndjson
              ? { status: 406, reason: /"Content-Type \[YAML\] does not support stream parsing\. Use JSON or SMILE instead"/ } // prettier-ignore
              : es === '400'
                ? { status: 400, mentions: 'content_type_header_exception', reason: new RegExp(`invalid Content-Type header \\[`) } // prettier-ignore
                : // ES SQL picks the answer's format from the Content-Type (RestSqlQueryAction)
                  t.name === 'sql' && / ;/.test(type)
                  ? { status: 400, reason: /invalid format \[application\/json ; foo=bar\]/ }
                  : OK;
        cases.push({ ...base(t, `content type ${type}`, body, expect), contentType: type });
      }
    }
    expectNoProblems(await run(cases));
  });

  it('control characters in index names, types, ids, routing, field names, aliases and SQL identifiers', async () => {
    const cases: Case[] = [];
    const json = (method: string, path: string, body: unknown, what: string, expect?: Expect, writes?: 'fzw'): Case => ({ target: path.split('?')[0]!, what, method, path, body: Buffer.from(JSON.stringify(body)), ...(writes ? { writes } : {}), ...(expect ? { expect } : {}) }); // prettier-ignore
    for (const c of CONTROL_CHARS) {
      const e = encodeURIComponent(c);
      const what = JSON.stringify(c);
      cases.push(json('PUT', `/fzn${e}x`, {}, `index name ${what}`));
      cases.push(json('PUT', `/fzw/t${e}/1`, { a: 1 }, `type ${what}`, { status: 400, reason: /more than 1 type/ }, 'fzw')); // prettier-ignore
      cases.push(json('PUT', `/fzw/_doc/i${e}d`, { title: 'x' }, `id ${what}`, OK, 'fzw'));
      cases.push(json('PUT', `/fzw/_doc/r?routing=r${e}`, { title: 'x' }, `routing ${what}`, OK, 'fzw')); // prettier-ignore
      cases.push(json('PUT', '/fzw/_doc/f', { [`ti${c}tle`]: 'x' }, `field name ${what}`, OK, 'fzw')); // prettier-ignore
      cases.push(json('PUT', `/fzw/_alias/al${e}`, {}, `alias ${what}`, OK));
      cases.push(json('POST', '/_aliases', { actions: [{ add: { index: 'fzw', alias: `b${c}` } }] }, `alias action ${what}`, OK)); // prettier-ignore
      cases.push(json('POST', '/_sql', { query: `SELECT "ti${c}tle" FROM fz` }, `SQL column ${what}`, { status: 400, mentions: 'verification_exception' })); // prettier-ignore
      cases.push(json('POST', '/_sql', { query: `SELECT title FROM "fz${c}"` }, `SQL index ${what}`, { status: 400, mentions: 'verification_exception' })); // prettier-ignore
      cases.push(json('POST', '/fz/_search', { query: { term: { [`ta${c}g`]: 't1' } } }, `query field ${what}`, OK)); // prettier-ignore
      cases.push({ ...json('GET', `/fz/_doc/i${e}d`, {}, `get ${what}`), body: undefined, expect: { status: 404 } }); // prettier-ignore
    }
    expectNoProblems(await run(cases));
  });

  it('10 MB strings as values, ids, index names, query strings and SQL statements', async () => {
    const big = 'x'.repeat(10 * 1024 * 1024);
    const words = 'fox '.repeat(2.5 * 1024 * 1024);
    const body = (v: unknown) => Buffer.from(JSON.stringify(v));
    const c = (target: string, method: string, path: string, b: Buffer | undefined, expect?: Expect, writes?: 'fzw'): Case => ({ target, what: '10 MB', method, path, ...(b ? { body: b } : {}), ...(writes ? { writes } : {}), ...(expect ? { expect } : {}) }); // prettier-ignore
    // Lucene 7 DefaultIndexingChain: a term over 32766 bytes fails the document
    const immense = { status: 400, mentions: 'illegal_argument_exception', reason: /Document contains at least one immense term in field=\\"tag\\"/ }; // prettier-ignore
    // Netty (http.max_initial_line_length 4kb): the request line is too long
    const longLine = { status: 400, mentions: 'too_long_frame_exception', reason: /An HTTP line is larger than 4096 bytes/ }; // prettier-ignore
    const cases = [
      // a text field is fine (the keyword of dynamic strings ignores above 256); title.raw is not
      c('index', 'PUT', '/fzw/_doc/big1', body({ note: words }), OK, 'fzw'),
      c('index', 'PUT', '/fzw/_doc/big5', body({ title: words }), { ...immense, reason: /immense term in field=\\"title\.raw\\"/ }, 'fzw'), // prettier-ignore
      c('index', 'PUT', '/fzw/_doc/big2', body({ tag: big }), immense, 'fzw'),
      c('index', 'PUT', '/fzw/_doc/big3', body({ tag: 'a', kids: [{ name: big }] }), { status: 400 }, 'fzw'), // prettier-ignore
      c('bulk', 'POST', '/fzw/_doc/_bulk', Buffer.from(`{"index":{"_id":"big4"}}\n${JSON.stringify({ tag: big })}\n`), { status: 200, mentions: 'illegal_argument_exception' }, 'fzw'), // prettier-ignore
      c('update', 'POST', '/fzw/_doc/1/_update', body({ doc: { tag: big } }), immense, 'fzw'),
      c('index id', 'PUT', `/fzw/_doc/${big.slice(0, 100_000)}`, body({ a: 1 }), longLine, 'fzw'),
      c('index id', 'PUT', `/fzw/_doc/${big.slice(0, 3000)}`, body({ a: 1 }), { status: 400, mentions: 'action_request_validation_exception' }, 'fzw'), // prettier-ignore
      c('index name', 'PUT', `/${big.slice(0, 100_000)}`, undefined, longLine),
      c('search', 'GET', `/fz/_search?q=${big.slice(0, 100_000)}`, undefined, longLine),
      c('search', 'POST', '/fz/_search', body({ query: { query_string: { query: big, default_field: 'tag' } } }), OK), // prettier-ignore
      c('search', 'POST', '/fz/_search', body({ query: { term: { tag: big } } }), OK),
      c('sql', 'POST', '/_sql', body({ query: `SELECT title FROM fz WHERE tag = '${big}'` }), OK),
      c('sql', 'POST', '/_sql/translate', body({ query: `SELECT title FROM fz WHERE tag = '${big}'` }), OK), // prettier-ignore
      c('sql', 'POST', '/_sql', body({ query: `SELECT ${big} FROM fz` }), { status: 400, mentions: 'verification_exception' }), // prettier-ignore
      c('analyze', 'POST', '/_analyze', body({ analyzer: 'keyword', text: big }), OK),
    ];
    for (const x of cases) if (x.body) x.contentType = x.target === 'bulk' ? 'application/x-ndjson' : 'application/json'; // prettier-ignore
    expectNoProblems(await run(cases));
  });

  // ES: http.max_content_length (100mb); Netty's HttpObjectAggregator answers 413 itself.
  it('a body over 100 MB is refused with 413 before it is read, and the node keeps serving', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const r = httpRequest(node.url + '/fzw/_doc/huge', {
        method: 'PUT',
        headers: { 'content-type': 'application/json', 'content-length': String(100 * 1024 * 1024 + 1) }, // prettier-ignore
      });
      r.on('response', (res) => {
        res.resume();
        resolve(res.statusCode!);
      });
      r.on('error', reject);
      r.write('{"title":"');
      r.write(Buffer.alloc(1024 * 1024, 0x78)); // the rest is never needed
    });
    expect(status).toBe(413);
    expect((await send(node, 'GET', '/fzw/_doc/huge')).status).toBe(404);
  });
});
