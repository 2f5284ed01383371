/**
 * `bin/quarry-sql [url]`: the SQL CLI against a running node (default http://localhost:9200).
 * On a terminal it prompts through readline-sync; otherwise it reads statements from stdin, so it
 * can be scripted (`echo 'SELECT 1;' | quarry-sql`), exiting 1 when a statement failed.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import readlineSync from 'readline-sync';
import { HttpSqlClient } from './client.js';
import { runRepl, type CliTerminal } from './repl.js';

export const SQL_USAGE = `usage: quarry-sql [url]

Connects to the Quarry (or Elasticsearch) server at url (default http://localhost:9200) and
runs SQL statements ending with ';'. Type 'help;' for the client commands. When stdin is not
a terminal, statements are read from it and only results are printed.`;

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

/** A terminal over readline-sync (blocking prompts, as the ES CLI's JLine terminal). */
function ttyTerminal(): CliTerminal {
  return {
    readLine: (prompt) => {
      // readline-sync returns '' on Ctrl-D; the user leaves with exit/quit or Ctrl-C
      return Promise.resolve(readlineSync.question(prompt, { keepWhitespace: true }));
    },
    print: (t) => process.stdout.write(t),
    error: (t) => process.stdout.write(t),
    clear: () => process.stdout.write('\x1b[2J\x1b[H'),
  };
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

export async function main(argv: string[]): Promise<void> {
  const args = argv.filter((a) => a !== '');
  if (args.includes('-h') || args.includes('--help')) {
    process.stdout.write(SQL_USAGE + '\n');
    return;
  }
  if (args.length > 1 || args.some((a) => a.startsWith('-'))) {
    process.stderr.write(`quarry-sql: unexpected arguments [${args.join(' ')}]\n${SQL_USAGE}\n`);
    process.exit(64);
  }
  let client: HttpSqlClient;
  try {
    client = new HttpSqlClient(args[0] ?? 'http://localhost:9200');
  } catch (e) {
    process.stderr.write(`quarry-sql: invalid url [${args[0]}]: ${(e as Error).message}\n`);
    process.exit(64);
  }
  const interactive = process.stdin.isTTY === true;
  const term = interactive ? ttyTerminal() : pipedTerminal(process.stdin);
  const code = await runRepl(term, client, { interactive, version: clientVersion() });
  process.exitCode = code;
}
