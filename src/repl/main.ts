/**
 * `bin/quarry-sql [url]`: the SQL CLI against a running node (default http://localhost:9200).
 * On a terminal it edits lines with readline (see tty-terminal.ts); otherwise it reads statements
 * from stdin, so it can be scripted (`echo 'SELECT 1;' | quarry-sql`), exiting 1 when a statement failed.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import readlineSync from 'readline-sync';
import { serverCatalog } from './catalog.js';
import { HttpSqlClient, type ResultFormat } from './client.js';
import { historyPath, loadHistory } from './history.js';
import { runRepl, type CliTerminal } from './repl.js';
import { ttyTerminal } from './tty-terminal.js';

export const SQL_USAGE = `usage: quarry-sql [url] [-u user] [--format txt|csv|json]

Connects to the Quarry (or Elasticsearch) server at url (default http://localhost:9200) and
runs SQL statements ending with ';'. Type 'help;' for the client commands. When stdin is not
a terminal, statements are read from it and only results are printed.

  -u, --user USER     log in as USER; the password is asked (hidden) when the server
                      requires authentication (piped: read from the first line of stdin)
  --format FORMAT     results as the server's text table (txt, the default), csv or json

On a terminal: line editing, Up/Down history (kept in ~/.quarry_sql_history, or
$QUARRY_SQL_HISTORY), Ctrl-R reverse search, Tab completion of keywords, functions, tables
and columns, and results taller than the screen paged (space: next page, q: quit).`;

export interface SqlArgs {
  readonly url: string;
  readonly user: string | null;
  readonly format: ResultFormat;
  readonly help: boolean;
}

/** Parses the command line; throws with the reason. */
export function parseSqlArgs(argv: readonly string[]): SqlArgs {
  let url: string | null = null;
  let user: string | null = null;
  let format: ResultFormat = 'txt';
  let help = false;
  const args = argv.filter((a) => a !== '');
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const value = (): string => {
      const v = args[++i];
      if (v === undefined) throw new Error(`missing value for ${a}`);
      return v;
    };
    if (a === '-h' || a === '--help') help = true;
    else if (a === '-u' || a === '--user') user = value();
    else if (a.startsWith('--user=')) user = a.slice(7);
    else if (a === '--format' || a.startsWith('--format=')) {
      const f = a === '--format' ? value() : a.slice(9);
      if (f !== 'txt' && f !== 'csv' && f !== 'json') throw new Error(`unknown format [${f}]`);
      format = f;
    } else if (a.startsWith('-') || url !== null)
      throw new Error(`unexpected arguments [${args.join(' ')}]`);
    else url = a;
  }
  return { url: url ?? 'http://localhost:9200', user, format, help };
}

/** The version in the nearest package.json above this module. */
function clientVersion(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 5; i++) {
    const p = join(dir, 'package.json');
    if (existsSync(p))
      return (JSON.parse(readFileSync(p, 'utf8')) as { version?: string }).version ?? '';
    dir = dirname(dir);
  }
  return '';
}

/** Lines of a piped stdin; output on stdout, errors on stderr. */
function pipedTerminal(input: NodeJS.ReadableStream): CliTerminal {
  const lines = createInterface({ input, crlfDelay: Infinity })[Symbol.asyncIterator]();
  return {
    readLine: async () => {
      const r = await lines.next();
      return r.done ? null : r.value;
    },
    print: (t) => process.stdout.write(t),
    error: (t) => process.stderr.write(t),
  };
}

/** The hidden password prompt (readline-sync reads the terminal without echo). */
function askPassword(user: string): string {
  return readlineSync.question(`password for ${user}: `, { hideEchoBack: true, mask: '' });
}

export async function main(argv: string[]): Promise<void> {
  let args: SqlArgs;
  try {
    args = parseSqlArgs(argv);
  } catch (e) {
    process.stderr.write(`quarry-sql: ${(e as Error).message}\n${SQL_USAGE}\n`);
    process.exit(64);
  }
  if (args.help) {
    process.stdout.write(SQL_USAGE + '\n');
    return;
  }
  let client: HttpSqlClient;
  try {
    client = new HttpSqlClient(args.url);
  } catch (e) {
    process.stderr.write(`quarry-sql: invalid url [${args.url}]: ${(e as Error).message}\n`);
    process.exit(64);
  }
  const interactive = process.stdin.isTTY === true;
  const piped = interactive ? null : pipedTerminal(process.stdin);
  if (args.user !== null && !client.hasCredentials) {
    // ask only when security is on; an unreachable server is reported by the first statement
    const needed = await client.needsAuthentication().catch(() => false);
    if (needed) {
      let password: string;
      if (interactive) password = askPassword(args.user);
      else {
        const first = await piped!.readLine('');
        password = typeof first === 'string' ? first : '';
      }
      client.setCredentials(args.user, password);
      if (await client.needsAuthentication().catch(() => false)) {
        process.stderr.write(`quarry-sql: authentication failed for user [${args.user}]\n`);
        process.exit(77);
      }
    }
  }
  const opts = { interactive, version: clientVersion(), format: args.format };
  if (piped) {
    process.exitCode = await runRepl(piped, client, opts);
    return;
  }
  const historyFile = historyPath(process.env);
  const term = ttyTerminal({
    input: process.stdin,
    output: process.stdout,
    history: loadHistory(historyFile),
    historyFile,
    catalog: serverCatalog((sql) => client.rows(sql)),
  });
  const code = await runRepl(term, client, opts);
  term.close();
  process.exitCode = code;
  process.exit(code);
}
