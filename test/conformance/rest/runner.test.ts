/**
 * End-to-end checks of the runner against a small fake node (node:http on port 0): the fake
 * echoes each request as JSON (method, path, query, headers, body) unless `x-fake-*` headers ask
 * for a status, body, content type or Warning headers, and it logs every request so the tests can
 * see what the runner sent, including the wipe between tests.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify as toYaml } from 'yaml';
import { apiDirFor, DEFAULT_TESTS_DIR } from './paths.js';
import { runConformance, type RunResult, type TestResult } from './runner.js';
import { parseSkipList } from './selection.js';

interface Logged {
  method: string;
  url: string;
  body: string;
}

const WARNING = (msg: string): string =>
  `299 Elasticsearch-6.8.13-be13c69 "${msg}" "Sat, 25 Aug 2018 12:00:00 GMT"`;

class FakeNode {
  readonly log: Logged[] = [];
  private server!: Server;
  private settings: Record<string, unknown> = {};
  url = '';

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        this.log.push({ method: req.method!, url: req.url!, body });
        const out = this.answer(req, body);
        const headers: [string, string][] = [];
        if (out.contentType) headers.push(['Content-Type', out.contentType]);
        for (const w of out.warnings) headers.push(['Warning', w]);
        res.writeHead(out.status, headers.flat() as unknown as Record<string, string>);
        res.end(req.method === 'HEAD' ? undefined : out.body);
      });
    });
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  stop(): Promise<void> {
    return new Promise((r) => this.server.close(() => r()));
  }

  private answer(
    req: IncomingMessage,
    body: string,
  ): { status: number; body: string; contentType?: string; warnings: string[] } {
    const url = new URL(req.url!, 'http://x');
    const h = (n: string): string | undefined => req.headers[n] as string | undefined;
    const json = (status: number, v: unknown) => ({
      status,
      body: JSON.stringify(v),
      contentType: 'application/json; charset=UTF-8',
      warnings: [] as string[],
    });
    const faked = Object.keys(req.headers).some((k) => k.startsWith('x-fake-')) || !!h('accept');
    if (req.method === 'GET' && url.pathname === '/' && !faked) {
      return json(200, { version: { number: '6.8.13' } });
    }
    if (url.pathname === '/_cluster/settings') {
      if (req.method === 'GET') return json(200, { persistent: this.settings, transient: {} });
      const put = JSON.parse(body) as { persistent?: Record<string, unknown> };
      for (const [k, v] of Object.entries(put.persistent ?? {})) {
        if (v !== null) {
          this.settings[k] = v;
          continue;
        }
        for (const key of Object.keys(this.settings)) {
          if (key.startsWith(k.slice(0, -2))) delete this.settings[key];
        }
      }
      return json(200, { acknowledged: true });
    }
    if (req.method === 'HEAD') {
      return { status: url.pathname.startsWith('/missing') ? 404 : 200, body: '', warnings: [] };
    }
    const warnings = [h('x-fake-warning-1'), h('x-fake-warning-2')]
      .filter((w): w is string => !!w)
      .map(WARNING);
    const status = Number(h('x-fake-status') ?? 200);
    if (h('x-fake-text') !== undefined) {
      return {
        status,
        body: h('x-fake-text') + '\n',
        contentType: 'text/plain; charset=UTF-8',
        warnings,
      };
    }
    if (h('x-fake-body') !== undefined) {
      return {
        status,
        body: h('x-fake-body')!,
        contentType: h('x-fake-content-type') ?? 'application/json',
        warnings,
      };
    }
    const echo = {
      method: req.method,
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers: { 'content-type': h('content-type') ?? null, accept: h('accept') ?? null },
      body,
    };
    if (h('accept') === 'application/yaml') {
      return { status, body: '---\n' + toYaml(echo), contentType: 'application/yaml', warnings };
    }
    return { ...json(status, echo), warnings };
  }
}

const SUITES: Record<string, string> = {
  '10_catch.yml': `---
"missing on 404":
  - skip: { features: headers }
  - do:
      catch: missing
      headers: { x-fake-status: "404" }
      info: {}
---
"missing on 200":
  - do:
      catch: missing
      info: {}
---
"conflict on 409":
  - skip: { features: headers }
  - do:
      catch: conflict
      headers: { x-fake-status: "409" }
      info: {}
---
"request on 500":
  - skip: { features: headers }
  - do:
      catch: request
      headers: { x-fake-status: "500" }
      info: {}
---
"request on 400":
  - skip: { features: headers }
  - do:
      catch: request
      headers: { x-fake-status: "400" }
      info: {}
---
"regex on the error":
  - skip: { features: headers }
  - do:
      catch: /index_not_found_exception.+reason=no \\w+ index/
      headers:
        x-fake-status: "404"
        x-fake-body: '{"error":{"root_cause":[],"type":"index_not_found_exception","reason":"no such index"},"status":404}'
      info: {}
  - match: { error.type: index_not_found_exception }
  - match: { status: 404 }
---
"regex mismatch":
  - skip: { features: headers }
  - do:
      catch: /other_exception/
      headers:
        x-fake-status: "400"
        x-fake-body: '{"error":{"type":"x"},"status":400}'
      info: {}
---
"error without catch":
  - skip: { features: headers }
  - do:
      headers: { x-fake-status: "400" }
      info: {}
---
"param sends nothing":
  - do:
      catch: param
      get: { index: i }
---
"param on a valid call":
  - do:
      catch: param
      info: {}
---
"unknown param without catch":
  - do:
      info: { bogus: 1 }
---
"ignore":
  - skip: { features: headers }
  - do:
      headers: { x-fake-status: "404" }
      get: { index: i, type: t, id: "1", ignore: 404, error_trace: false }
  - match: { path: /i/t/1 }
  - match: { query: { error_trace: "false" } }
`,
  '20_warnings.yml': `---
"expected warning arrives":
  - skip: { features: [headers, warnings] }
  - do:
      headers: { x-fake-warning-1: "[a] is deprecated", x-fake-warning-2: "[b] is deprecated" }
      warnings: [ "[b] is deprecated", "[a] is deprecated" ]
      info: {}
---
"unexpected warning":
  - skip: { features: headers }
  - do:
      headers: { x-fake-warning-1: "[a] is deprecated" }
      info: {}
---
"missing warning":
  - skip: { features: warnings }
  - do:
      warnings: [ "[a] is deprecated" ]
      info: {}
`,
  '30_requests.yml': `---
"search":
  - do:
      search:
        index: [a, b]
        q: "x y"
        size: 10
        body: { query: { match_all: {} }, min_score: 1.0 }
  - match: { method: GET }
  - match: { path: "/a,b/_search" }
  - match: { query: { q: "x y", size: "10", error_trace: "true" } }
  - match: { headers.content-type: "application/json; charset=UTF-8" }
  - match: { body: '{"query":{"match_all":{}},"min_score":1.0}' }
---
"bulk":
  - do:
      bulk:
        body:
          - { index: { _index: i, _type: t } }
          - { f: 1 }
  - match: { method: POST }
  - match: { path: /_bulk }
  - match: { headers.content-type: application/x-ndjson }
  - match: { body: "{\\"index\\":{\\"_index\\":\\"i\\",\\"_type\\":\\"t\\"}}\\n{\\"f\\":1}\\n" }
---
"stash":
  - skip: { features: [stash_in_key, embedded_stash_key] }
  - do:
      index: { index: i, type: t, id: "7", body: { a: 1 } }
  - set: { path: p, method: m }
  - match: { method: PUT }
  - do:
      search:
        index: idx-\${m}
        body: { $m: "$p" }
  - match: { path: /idx-PUT/_search }
  - match: { body: '{"PUT":"/i/t/7"}' }
  - match: { $body.method: GET }
  - match: { method: $body.method }
---
"content type header":
  - skip: { features: headers }
  - do:
      headers: { Content-Type: application/yaml }
      indices.create:
        index: i
        body: { settings: { number_of_shards: 1 } }
  - match: { headers.content-type: application/yaml }
  - match: { body: "settings:\\n  number_of_shards: 1\\n" }
  - match: { path: /i }
  - match: { method: PUT }
---
"yaml response":
  - skip: { features: [headers, yaml] }
  - do:
      headers: { Accept: application/yaml }
      info: {}
  - match: { method: GET }
  - match: { headers.accept: application/yaml }
---
"text body":
  - skip: { features: headers }
  - do:
      headers: { x-fake-text: "green 12" }
      cat.health: {}
  - match:
      $body: |
        /^ green \\s+ \\d+ # status and a number
           \\n $/
  - is_false: status
---
"exists":
  - do:
      exists: { index: missing, type: t, id: "1" }
  - is_false: ''
  - do:
      exists: { index: present, type: t, id: "1" }
  - is_true: ''
`,
  '40_setup.yml': `---
setup:
  - do:
      indices.create: { index: setup_index }
  - set: { path: from_setup }
---
teardown:
  - do:
      indices.delete: { index: teardown_index }
---
"stash is cleared after setup":
  - do:
      info: {}
  - match: { path: $from_setup }
`,
  '50_wipe.yml': `---
"settings and templates":
  - do:
      cluster.put_settings:
        body: { persistent: { cluster.routing.allocation.enable: none } }
  - do:
      indices.put_template:
        name: t1
        body: { index_patterns: ["*"] }
---
"read only":
  - do:
      info: {}
`,
  '60_skip.yml': `---
"by version":
  - skip:
      version: " - 6.99.99"
      reason: not in 6.x
  - do:
      info: {}
---
"by feature":
  - skip:
      features: node_selector
  - do:
      info: {}
---
"listed":
  - do:
      info: {}
`,
  '70_broken.yml': `"broken":\n  - do: {}\n`,
};

let fake: FakeNode;
let dir: string;
let run: RunResult;
const requestsOf = new Map<string, Logged[]>();
const byName = (name: string): TestResult => {
  const r = run.results.find((x) => x.name === name);
  if (!r) throw new Error(`no result for ${name}`);
  return r;
};

beforeAll(async () => {
  fake = new FakeNode();
  await fake.start();
  dir = mkdtempSync(join(tmpdir(), 'rest-runner-test-'));
  mkdirSync(join(dir, 'fake'));
  for (const [f, text] of Object.entries(SUITES)) writeFileSync(join(dir, 'fake', f), text);
  let seen = 0;
  run = await runConformance({
    testsDir: dir,
    apiDir: apiDirFor(DEFAULT_TESTS_DIR),
    url: fake.url,
    skipList: parseSkipList('fake/60_skip.yml/listed # out of scope\n'),
    onResult: (r) => {
      requestsOf.set(r.name, fake.log.slice(seen));
      seen = fake.log.length;
    },
  });
});

afterAll(async () => {
  await fake.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('catch', () => {
  it('named catches check the status code', () => {
    expect(byName('missing on 404').status).toBe('passed');
    expect(byName('conflict on 409').status).toBe('passed');
    expect(byName('request on 500').status).toBe('passed');
    expect(byName('missing on 200')).toMatchObject({ status: 'failed' });
    expect(byName('missing on 200').reason).toMatch(
      /^expected \[404\] status code but api \[info\] returned \[200 OK\]/,
    );
    expect(byName('request on 400').reason).toMatch(
      /^expected \[4xx\|5xx\] status code but api \[info\] returned \[400/,
    );
  });

  it('a regex catch matches the error object as Java prints it, and the error stays the response', () => {
    expect(byName('regex on the error').status).toBe('passed');
    const r = byName('regex mismatch');
    expect(r.reason).toBe("the error message was expected to match the provided regex but didn't");
    expect(r.failure?.actual).toBe('{type=x}');
  });

  it('an error response without catch fails the step', () => {
    expect(byName('error without catch').reason).toMatch(
      /^expected \[2xx\] status code but api \[info\] returned \[400/,
    );
  });

  it('catch: param needs a client-side rejection and sends nothing', () => {
    expect(byName('param sends nothing').status).toBe('passed');
    expect(requestsOf.get('param sends nothing')!.filter((r) => r.url.startsWith('/i'))).toEqual(
      [],
    );
    expect(byName('param on a valid call').reason).toMatch(
      /expected the client to reject the call/,
    );
    expect(byName('unknown param without catch').reason).toBe(
      'path/param [bogus] not supported by [info] api',
    );
  });

  it('ignore keeps a status from being an error and is not sent', () => {
    expect(byName('ignore').status).toBe('passed');
    expect(requestsOf.get('ignore')![0]!.url).toBe('/i/t/1?error_trace=false');
  });
});

describe('warnings', () => {
  it('listed warnings must all arrive, in any order, each in its own header', () => {
    expect(byName('expected warning arrives').status).toBe('passed');
    expect(byName('missing warning').reason).toBe(
      'did not get expected warning header [[a] is deprecated]',
    );
  });

  it('unlisted deprecation warnings fail in strict mode only', async () => {
    expect(byName('unexpected warning').reason ?? '').toMatch(
      /^got unexpected warning header \[299 Elasticsearch-6\.8\.13/,
    );
    const lenient = await runConformance({
      testsDir: dir,
      apiDir: apiDirFor(DEFAULT_TESTS_DIR),
      url: fake.url,
      filters: ['fake/20_warnings/unexpected warning'],
      strictWarnings: false,
    });
    expect(lenient.results.map((r) => [r.name, r.status])).toEqual([
      ['unexpected warning', 'passed'],
    ]);
  });
});

describe('requests and responses', () => {
  it('builds path, query string and GET body from the spec', () => {
    expect(byName('search').status).toBe('passed');
  });

  it('sends bulk bodies as newline-delimited JSON', () => {
    expect(byName('bulk').status).toBe('passed');
  });

  it('substitutes stashed values in params, body values and keys', () => {
    expect(byName('stash')).toMatchObject({ status: 'passed', reason: null });
  });

  it('sends headers as given; a Content-Type header also picks the body encoding', () => {
    expect(byName('content type header')).toMatchObject({ status: 'passed', reason: null });
  });

  it('parses YAML responses and keeps text bodies as $body', () => {
    expect(byName('yaml response').status).toBe('passed');
    expect(byName('text body').status).toBe('passed');
  });

  it('answers exists (HEAD) with the status, 404 not being an error', () => {
    expect(byName('exists').status).toBe('passed');
  });
});

describe('setup, teardown and wipe', () => {
  it('runs setup, clears the stash, runs teardown even after a failure, then wipes', () => {
    const r = byName('stash is cleared after setup');
    expect(r.reason).toBe('stashed value not found for key [from_setup]');
    expect(r.failure?.phase).toBe('test');
    expect(
      requestsOf.get('stash is cleared after setup')!.map((l) => `${l.method} ${l.url}`),
    ).toEqual([
      'PUT /setup_index?error_trace=true',
      'GET /?error_trace=true',
      'DELETE /teardown_index?error_trace=true',
      'DELETE /*?expand_wildcards=open%2Cclosed',
    ]);
  });

  it('resets templates and cluster settings a test changed', () => {
    expect(byName('settings and templates').status).toBe('passed');
    const log = requestsOf.get('settings and templates')!;
    expect(log.map((l) => `${l.method} ${l.url}`)).toEqual([
      'PUT /_cluster/settings?error_trace=true',
      'PUT /_template/t1?error_trace=true',
      'DELETE /*?expand_wildcards=open%2Cclosed',
      'DELETE /_template/*',
      'GET /_cluster/settings',
      'PUT /_cluster/settings',
    ]);
    expect(JSON.parse(log[5]!.body)).toEqual({
      persistent: { 'cluster.routing.allocation.enable.*': null },
    });
  });

  it('wipes nothing after a test that only read', () => {
    expect(requestsOf.get('read only')!.map((l) => `${l.method} ${l.url}`)).toEqual([
      'GET /?error_trace=true',
    ]);
  });
});

describe('skips and broken suites', () => {
  it('skips by version, by unsupported feature and by the skip list, without requests', () => {
    expect(byName('by version')).toMatchObject({
      status: 'skipped',
      reason: 'version: not in 6.x',
    });
    expect(byName('by feature')).toMatchObject({
      status: 'skipped',
      reason: 'unsupported features [node_selector]',
    });
    expect(byName('listed')).toMatchObject({
      status: 'skipped',
      reason: 'rest-skip.txt: out of scope',
    });
    expect(requestsOf.get('by version')).toEqual([]);
  });

  it('reports an unparsable file as one failure', () => {
    expect(byName('<parse>')).toMatchObject({ status: 'failed', file: '70_broken.yml' });
    expect(byName('<parse>').reason).toMatch(/client call section is mandatory/);
  });

  it('reads the version from GET /', () => {
    expect(run.esVersion).toBe('6.8.13');
  });
});
