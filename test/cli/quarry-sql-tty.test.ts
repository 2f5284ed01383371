/**
 * `bin/quarry-sql` on a pseudo-terminal (a tmux server of its own, killed at the end even on
 * failure) against real nodes on ephemeral ports: history recalled with Up across runs (a
 * multi-line statement as one entry), Ctrl-R, tab completion of a column, a 1,000-row result
 * paged, and the hidden password prompt of a node with security on. Needs `npm run build`.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestNode, type TestNode } from '../helpers/node.js';
import { hashPassword } from '../../src/security/password-hash.js';
import { writeUsers, type UsersTable } from '../../src/security/users-file.js';

const BIN = resolve(__dirname, '../../bin/quarry-sql');
const hasTmux = existsSync('/usr/bin/tmux') || existsSync('/usr/local/bin/tmux');
const SERVER = `quarry-sql-tty-${process.pid}-${Date.now()}`;
const dir = mkdtempSync(join(tmpdir(), 'quarry-sql-tty-'));
let node: TestNode;
let secure: TestNode;
let sessions = 0;

const tmux = (...args: string[]): string =>
  execFileSync('tmux', ['-L', SERVER, ...args], { encoding: 'utf8' });

/** One shell in a new tmux window of 100x24; returns its target name. */
function shell(args: string[], historyFile: string): string {
  const name = `s${++sessions}`;
  tmux(
    'new-session', '-d', '-s', name, '-x', '100', '-y', '24',
    '-e', `QUARRY_SQL_HISTORY=${historyFile}`,
    process.execPath, BIN, ...args,
  ); // prettier-ignore
  return name;
}

const screen = (t: string): string => tmux('capture-pane', '-p', '-t', t);
/** Types text literally (tmux reads a trailing `;` as its own separator unless escaped). */
const type = (t: string, text: string) =>
  tmux('send-keys', '-t', t, '-l', text.replace(/;$/, '\\;'));
const keys = (t: string, ...k: string[]) => tmux('send-keys', '-t', t, ...k);

async function waitFor(t: string, test: (s: string) => boolean, what: string): Promise<string> {
  let s = '';
  for (let i = 0; i < 100; i++) {
    s = screen(t);
    if (test(s)) return s;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}; screen:\n${s}`);
}
const lastLine = (s: string) => s.trimEnd().split('\n').pop() ?? '';
const sessionNames = (): string[] => tmux('list-sessions', '-F', '#S').split('\n');
/** Waits until a shell has exited (its pane, and so its session, is gone). */
async function waitGone(t: string): Promise<void> {
  for (let i = 0; i < 50 && sessionNames().includes(t); i++)
    await new Promise((r) => setTimeout(r, 100));
  expect(sessionNames()).not.toContain(t);
}

beforeAll(async () => {
  // tmux exits with its last session: a shell that quits would take the server with it, and the
  // next new-session could race its shutdown ("server exited unexpectedly"). One idle session
  // keeps the server up until kill-server in afterAll.
  if (hasTmux) tmux('new-session', '-d', '-s', 'keeper', 'tail', '-f', '/dev/null');
  node = await startTestNode();
  const people = [
    { name: 'Ann', age: 31 },
    { name: 'Bob', age: 45 },
    { name: 'Cid', age: 28 },
  ];
  const bulk = (index: string, docs: object[]) =>
    docs.flatMap((d, i) => [JSON.stringify({ index: { _id: String(i) } }), JSON.stringify(d)])
      .join('\n') + '\n'; // prettier-ignore
  const h = { 'content-type': 'application/x-ndjson' };
  expect((await node.req('POST', '/people/_doc/_bulk?refresh=true', bulk('people', people), h)).status).toBe(200); // prettier-ignore
  const big = Array.from({ length: 1000 }, (_, n) => ({ n }));
  expect((await node.req('POST', '/big/_doc/_bulk?refresh=true', bulk('big', big), h)).status).toBe(200); // prettier-ignore

  const sdir = join(dir, 'secure');
  const users: UsersTable = new Map();
  users.set('alice', {
    password: await hashPassword('wonder-land', { ln: 10, r: 8, p: 1 }),
    roles: ['superuser'],
  });
  execFileSync('mkdir', ['-p', sdir]);
  writeUsers(join(sdir, 'users.json'), users);
  secure = await startTestNode(sdir, { 'xpack.security.enabled': 'true' });
}, 60_000);

afterAll(async () => {
  try {
    if (hasTmux) tmux('kill-server');
  } catch {
    // no session left: the server is already gone
  }
  // the server's socket file stays behind it
  const uid = process.getuid?.() ?? 0;
  rmSync(join(process.env.TMUX_TMPDIR ?? '/tmp', `tmux-${uid}`, SERVER), { force: true });
  await node?.destroy();
  await secure?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!hasTmux)('quarry-sql on a terminal', () => {
  it('keeps a multi-line statement as one history entry and recalls it with Up next run', async () => {
    const hist = join(dir, 'history-up');
    const a = shell([node.url], hist);
    await waitFor(a, (s) => lastLine(s) === 'sql>', 'the prompt');
    type(a, 'SELECT name');
    keys(a, 'Enter');
    await waitFor(a, (s) => lastLine(s).trim() === '|', 'the continuation prompt');
    type(a, 'FROM people WHERE age > 40;');
    keys(a, 'Enter');
    await waitFor(a, (s) => /^Bob\s*$/m.test(s) && lastLine(s) === 'sql>', 'the result');
    type(a, 'exit;');
    keys(a, 'Enter');
    await waitGone(a);
    expect(readFileSync(hist, 'utf8')).toBe('SELECT name FROM people WHERE age > 40;\n');

    const b = shell([node.url], hist);
    await waitFor(b, (s) => lastLine(s) === 'sql>', 'the prompt');
    keys(b, 'Up');
    await waitFor(b, (s) => lastLine(s) === 'sql> SELECT name FROM people WHERE age > 40;', 'the recalled statement'); // prettier-ignore
    keys(b, 'Enter');
    const s = await waitFor(b, (x) => /^Bob\s*$/m.test(x) && lastLine(x) === 'sql>', 'its result');
    expect(s).not.toContain('^[[A');
    expect(s).not.toMatch(/^Ann/m);
  });

  it('finds an older statement with Ctrl-R and runs it', async () => {
    const hist = join(dir, 'history-search');
    writeFileSync(
      hist,
      ['SELECT name FROM people WHERE age < 30;', 'SELECT COUNT(*) AS c FROM people;', 'SELECT 1;'].join('\n') + '\n', // prettier-ignore
    );
    const t = shell([node.url], hist);
    await waitFor(t, (s) => lastLine(s) === 'sql>', 'the prompt');
    keys(t, 'C-r');
    type(t, 'age');
    await waitFor(t, (s) => lastLine(s) === "(reverse-i-search)`age': SELECT name FROM people WHERE age < 30;", 'the match'); // prettier-ignore
    keys(t, 'Enter');
    await waitFor(t, (s) => /^Cid\s*$/m.test(s) && lastLine(s) === 'sql>', 'the result');
    // a query matching nothing says so and Ctrl-G restores the line
    type(t, 'SELECT ');
    keys(t, 'C-r');
    type(t, 'zzz');
    await waitFor(t, (s) => lastLine(s) === "(failed reverse-i-search)`zzz':", 'the failed search');
    keys(t, 'C-g');
    await waitFor(t, (s) => lastLine(s) === 'sql> SELECT', 'the original line');
    keys(t, 'C-c');
  });

  it('completes a column name (from DESCRIBE), a table and a keyword with Tab', async () => {
    const t = shell([node.url], join(dir, 'history-tab'));
    await waitFor(t, (s) => lastLine(s) === 'sql>', 'the prompt');
    type(t, 'sel');
    keys(t, 'Tab');
    await waitFor(t, (s) => lastLine(s) === 'sql> select', 'the keyword');
    type(t, ' * FROM peo');
    keys(t, 'Tab');
    await waitFor(t, (s) => lastLine(s) === 'sql> select * FROM people', 'the table');
    type(t, ' WHERE ag');
    keys(t, 'Tab');
    await waitFor(t, (s) => lastLine(s) === 'sql> select * FROM people WHERE age', 'the column');
    type(t, ' > 44;');
    keys(t, 'Enter');
    await waitFor(t, (s) => /^45\s+\|Bob/m.test(s), 'the result');
  });

  it('pages a 1,000-row result: a screen at a time, space for more, q back to the prompt', async () => {
    const t = shell([node.url], join(dir, 'history-pager'));
    await waitFor(t, (s) => lastLine(s) === 'sql>', 'the prompt');
    type(t, 'SELECT n FROM big ORDER BY n;');
    keys(t, 'Enter');
    let s = await waitFor(t, (x) => lastLine(x).startsWith('-- More --'), 'the pager');
    // 23 lines of 1,002 (header, rule, 1,000 rows): the rows up to 20 and no further
    expect(lastLine(s)).toContain('23/1003 lines');
    expect(s).toMatch(/^20\s*$/m);
    expect(s).not.toMatch(/^21\s*$/m);
    keys(t, 'Space');
    s = await waitFor(t, (x) => lastLine(x).includes('46/1003'), 'the next page');
    expect(s).toMatch(/^43\s*$/m);
    keys(t, 'q');
    s = await waitFor(t, (x) => lastLine(x) === 'sql>', 'the prompt again');
    expect(s).not.toMatch(/^(44|999)\s*$/m);
  });

  it('asks for the password without echo when security is on, then runs statements', async () => {
    const t = shell(['-u', 'alice', secure.url], join(dir, 'history-auth'));
    await waitFor(t, (s) => lastLine(s) === 'password for alice:', 'the password prompt');
    type(t, 'wonder-land');
    keys(t, 'Enter');
    await waitFor(t, (s) => lastLine(s) === 'sql>', 'the prompt');
    type(t, 'SELECT 40 + 2 AS answer;');
    keys(t, 'Enter');
    const s = await waitFor(t, (x) => /^42\s*$/m.test(x), 'the result');
    expect(s).not.toContain('wonder-land');

    const bad = shell(['-u', 'alice', secure.url], join(dir, 'history-auth'));
    await waitFor(bad, (x) => lastLine(x) === 'password for alice:', 'the password prompt');
    type(bad, 'wrong');
    keys(bad, 'Enter');
    // the shell exits at once: its pane (and so the session) goes away
    await waitGone(bad);
  });
});
