/**
 * The SQL CLI against a real node on an ephemeral port: the REPL loop in process (scripted input,
 * the real HTTP client) and `bin/quarry-sql` end to end with piped stdin (needs `npm run build`,
 * which `npm test` runs first). Tables are compared with the server's own `format=txt` output.
 */
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestNode, type TestNode } from '../helpers/node.js';
import { HttpSqlClient, parseServerUrl } from '../../src/repl/client.js';
import { runRepl, type CliTerminal } from '../../src/repl/repl.js';

let node: TestNode;

const people = [
  { name: 'Ann', age: 31, city: 'Oslo' },
  { name: 'Bob', age: 45, city: 'Rome' },
  { name: 'Cid', age: 28, city: 'Oslo' },
  { name: 'Dee', age: 52, city: 'Lima' },
  { name: 'Eve', age: 39, city: 'Rome' },
];

beforeAll(async () => {
  node = await startTestNode();
  const lines = people.flatMap((p, i) => [
    JSON.stringify({ index: { _id: String(i + 1) } }),
    JSON.stringify(p),
  ]);
  const r = await node.req('POST', '/people/_doc/_bulk?refresh=true', lines.join('\n') + '\n', {
    'content-type': 'application/x-ndjson',
  });
  expect(r.status).toBe(200);
}, 60_000);

afterAll(async () => {
  await node.destroy();
});

/** The server's text table for a query (what the CLI must print). */
async function serverText(
  query: string,
  fetchSize?: number,
): Promise<{ text: string; cursor: string }> {
  const body: Record<string, unknown> = { query };
  if (fetchSize !== undefined) body.fetch_size = fetchSize;
  const r = await node.req('POST', '/_sql?format=txt', body);
  return { text: r.text, cursor: r.headers.get('cursor') ?? '' };
}

/** Runs the REPL over `input` (scripted); returns stdout, stderr and the exit status. */
async function repl(input: string, interactive = false, url = node.url) {
  const lines = input.split('\n');
  let out = '';
  let err = '';
  const prompts: string[] = [];
  const term: CliTerminal = {
    readLine: async (prompt) => {
      prompts.push(prompt);
      return lines.length ? lines.shift()! : null;
    },
    print: (t) => (out += t),
    error: (t) => (err += t),
  };
  const code = await runRepl(term, new HttpSqlClient(url), { interactive, version: '9.9.9' });
  return { out, err, code, prompts };
}

describe('quarry-sql REPL', () => {
  it('prints each statement as the server text table, statements spanning lines', async () => {
    const q1 = 'SELECT name, age FROM people ORDER BY age';
    const q2 = 'SELECT city, COUNT(*) AS n FROM people GROUP BY city HAVING COUNT(*) > 1';
    const r = await repl(
      `${q1};\nSELECT city, COUNT(*) AS n\nFROM people GROUP BY city\n  HAVING COUNT(*) > 1;`,
    );
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toBe((await serverText(q1)).text + (await serverText(q2)).text);
    expect(r.out).toContain('Oslo           |2');
  });

  it('keeps semicolons inside strings and comments, runs a last unterminated statement', async () => {
    const r = await repl(
      "SELECT name FROM people WHERE city = 'Oslo' -- a comment; not the end\n ORDER BY name;\nSELECT 'a;b' AS s",
    );
    expect(r.err).toBe('');
    expect(r.out).toBe(
      (await serverText("SELECT name FROM people WHERE city = 'Oslo' ORDER BY name")).text +
        (await serverText("SELECT 'a;b' AS s")).text,
    );
  });

  it('pages with fetch size, printing the fetch separator between pages', async () => {
    const q = 'SELECT name FROM people ORDER BY name';
    const r = await repl(`fetch size = 2;\nfetch separator = "== page ==";\n${q};`);
    expect(r.err).toBe('');
    expect(r.out.startsWith('fetch size set to 2\nfetch separator set to "== page =="\n')).toBe(
      true,
    );
    const first = await serverText(q, 2);
    expect(first.cursor).not.toBe('');
    const body = r.out.split('fetch separator set to "== page =="\n')[1]!;
    const pages = body.split('== page ==\n');
    // 5 rows by 2, then the empty page that ends the scroll cursor (ES's CLI prints it too)
    expect(pages).toHaveLength(4);
    expect(pages[3]).toBe('');
    expect(pages[0]).toBe(first.text);
    const rows = pages
      .join('')
      .split('\n')
      .slice(2)
      .filter((l) => l !== '');
    expect(rows.map((l) => l.trim())).toEqual(['Ann', 'Bob', 'Cid', 'Dee', 'Eve']);
  });

  it('reports bad requests with ES reasons, keeps going, exits 1 when scripted', async () => {
    const r = await repl('SELECT x FROM people;\nSELECT 1 AS one;');
    expect(r.err).toBe('Bad request [Found 1 problem\nline 1:8: Unknown column [x]]\n');
    expect(r.out).toBe((await serverText('SELECT 1 AS one')).text);
    expect(r.code).toBe(1);
    const p = await repl('SELEC 1;');
    expect(p.err).toMatch(/^Bad request \[line 1:1: mismatched input 'SELEC'/);
  });

  it('handles fetch size errors, lenient, help and exit', async () => {
    const r = await repl(
      'fetch size = abc;\nfetch size = 0;\nlenient = true;\nhelp;\nexit;\nSELECT 1;',
    );
    expect(r.err).toBe('Invalid fetch size [abc]\nInvalid fetch size [0]. Must be > 0.\n');
    expect(r.out).toContain('lenient set to true\n');
    expect(r.out).toContain('fetch size = <n>;');
    expect(r.out).not.toContain('-----'); // no table: nothing ran after exit
    expect(r.code).toBe(1);
  });

  it('applies lenient to multi-valued fields', async () => {
    await node.req('PUT', '/multi/_doc/1?refresh=true', { tags: ['x', 'y'] });
    const strict = await repl('SELECT tags FROM multi;');
    expect(strict.err).toMatch(/^Server error|^Bad request/);
    expect(strict.err).toContain('Arrays (returned by [tags]) are not supported');
    const lenient = await repl('lenient = true;\nSELECT tags FROM multi;');
    expect(lenient.err).toBe('');
    expect(lenient.out).toContain('x');
  });

  it('draws info as a table', async () => {
    const r = await repl('info;');
    expect(r.err).toBe('');
    expect(r.out).toMatch(/│ Version │ 6\.8\.13/);
    expect(r.out).toMatch(/│ Cluster │ /);
    expect(r.out).toContain('┌');
  });

  it('prompts sql> and the continuation prompt when interactive, says Bye!', async () => {
    const r = await repl('SELECT\n1 AS one;\nquit', true);
    expect(r.prompts).toEqual(['sql> ', '   | ', 'sql> ']);
    expect(r.out).toContain('Quarry SQL');
    expect(r.out).toContain('9.9.9');
    expect(r.out.endsWith('Bye!\n')).toBe(true);
    expect(r.code).toBe(0);
  });

  it('says clearly when the server cannot be reached', async () => {
    const r = await repl('SELECT 1;', false, 'http://127.0.0.1:1');
    expect(r.err).toMatch(/^Cannot connect to the server http:\/\/127\.0\.0\.1:1 - /);
    expect(r.code).toBe(1);
  });

  it('takes credentials from the url as Basic authorization', () => {
    expect(parseServerUrl('http://elastic:s3cr%40t@host:9200/')).toEqual({
      url: 'http://host:9200',
      authorization: `Basic ${Buffer.from('elastic:s3cr@t').toString('base64')}`,
    });
    expect(parseServerUrl('localhost:9200')).toEqual({
      url: 'http://localhost:9200',
      authorization: null,
    });
  });
});

/** bin/quarry-sql with piped stdin. */
function runBin(
  args: string[],
  stdin: string,
): Promise<{ out: string; err: string; code: number | null }> {
  return new Promise((res, rej) => {
    const child = spawn(process.execPath, [resolve(__dirname, '../../bin/quarry-sql'), ...args], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('error', rej);
    child.on('close', (code) => res({ out, err, code }));
    child.stdin.end(stdin);
  });
}

describe('bin/quarry-sql (piped stdin)', () => {
  it('runs a script of statements and prints only the results', async () => {
    const q = 'SELECT city, MAX(age) AS oldest FROM people GROUP BY city';
    const r = await runBin(
      [node.url],
      `${q};\nfetch size = 1;\nSELECT name FROM people WHERE age > 40 ORDER BY name;\n`,
    );
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const q2 = await serverText('SELECT name FROM people WHERE age > 40 ORDER BY name', 1);
    expect(r.out.startsWith((await serverText(q)).text + 'fetch size set to 1\n' + q2.text)).toBe(
      true,
    );
    expect(r.out.split('\n').filter((l) => /^(Bob|Dee) /.test(l))).toHaveLength(2);
  });

  it('exits 1 with the error on stderr', async () => {
    const r = await runBin([node.url], 'SELECT nope FROM people;\n');
    expect(r.code).toBe(1);
    expect(r.err).toBe(
      'Bad request [Found 1 problem\nline 1:8: Unknown column [nope], did you mean [name]?]\n',
    );
    expect(r.out).toBe('');
  });

  it('prints usage for --help', async () => {
    const r = await runBin(['--help'], '');
    expect(r.code).toBe(0);
    expect(r.out).toContain('usage: quarry-sql [url]');
  });
});
