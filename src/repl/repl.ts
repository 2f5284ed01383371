/**
 * The SQL CLI loop (ES sql-cli CliRepl + ServerQueryCliCommand): lines accumulate until a `;` ends
 * a statement (prompt `sql> `, then `   | ` while one is open); each statement is a client command
 * or SQL whose pages are printed as the server's text table, the fetch separator between pages.
 * Interactive or scripted (stdin not a terminal: no banner or prompts, errors on stderr, an
 * unterminated last statement still runs, exit status 1 when a statement failed).
 */
import Table from 'cli-table3';
import { CliRequestError, type ResultFormat, type SqlClient } from './client.js';
import { HELP_TEXT, parseCommand, parseFetchSize, type CliCommand } from './commands.js';
import { hasStatementText, splitStatements } from './split.js';

export const DEFAULT_PROMPT = 'sql> ';
export const MULTI_LINE_PROMPT = '   | ';

/** What readLine answers when the user pressed Ctrl-C: the statement being typed is dropped. */
export const CANCEL: unique symbol = Symbol('cancel');

/** A line (without its newline), null at the end of input, or CANCEL. */
export type ReadResult = string | null | typeof CANCEL;

/** Where the REPL reads lines and writes output. */
export interface CliTerminal {
  readLine(prompt: string): Promise<ReadResult>;
  /** The lines of statements just completed (for the terminal's history). */
  statementDone?(lines: readonly string[]): void;
  print(text: string): void;
  /** Errors: the terminal when interactive, stderr when scripted. */
  error(text: string): void;
  clear?(): void;
}

/** ES CliSession: per-connection settings. */
export class CliSession {
  fetchSize = 1000;
  fetchSeparator = '';
  lenient = false;
}

export interface ReplOptions {
  readonly interactive: boolean;
  /** The client's version, shown by the banner. */
  readonly version: string;
  /** The result format asked of the server (default txt, the server's text table). */
  readonly format?: ResultFormat;
}

/** The banner (ES prints its logo with the version centred under it). */
export function banner(version: string, url: string): string {
  const title = 'Quarry SQL';
  const width = Math.max(title.length, version.length, url.length) + 4;
  const center = (s: string) => ' '.repeat(Math.floor((width - s.length) / 2)) + s;
  return [center(title), center(version), center(url), ''].join('\n') + '\n';
}

/** `info` as a small table drawn client side. */
export function infoTable(info: {
  nodeName: string;
  clusterName: string;
  version: string;
  buildHash: string;
  buildDate: string;
  luceneVersion: string;
}): string {
  const t = new Table({ style: { head: [], border: [] } });
  t.push(
    { Node: info.nodeName },
    { Cluster: info.clusterName },
    { Version: info.version },
    { Build: `${info.buildHash} ${info.buildDate}`.trim() },
    { Lucene: info.luceneVersion },
  );
  return t.toString() + '\n';
}

const withNewline = (s: string) => (s.endsWith('\n') || s === '' ? s : s + '\n');

/** Runs the REPL until `exit` or the end of input; the exit status. */
export async function runRepl(
  term: CliTerminal,
  client: SqlClient,
  opts: ReplOptions,
): Promise<number> {
  const session = new CliSession();
  let failed = false;
  if (opts.interactive) term.print(banner(opts.version, client.url));

  const fail = (text: string) => {
    failed = true;
    term.error(withNewline(text));
  };

  /** One statement; false when the REPL should stop. */
  const handle = async (cmd: CliCommand): Promise<boolean> => {
    switch (cmd.kind) {
      case 'exit':
        if (opts.interactive) term.print('Bye!\n');
        return false;
      case 'help':
        term.print(HELP_TEXT + '\n');
        break;
      case 'logo':
        term.print(banner(opts.version, client.url));
        break;
      case 'clear':
        term.clear?.();
        break;
      case 'fetchSize': {
        const n = parseFetchSize(cmd.value);
        if (n === null) fail(`Invalid fetch size [${cmd.value}]`);
        else if (n <= 0) fail(`Invalid fetch size [${cmd.value}]. Must be > 0.`);
        else {
          session.fetchSize = n;
          term.print(`fetch size set to ${n}\n`);
        }
        break;
      }
      case 'fetchSeparator':
        session.fetchSeparator = cmd.value;
        term.print(`fetch separator set to "${cmd.value}"\n`);
        break;
      case 'lenient':
        // Boolean.parseBoolean
        session.lenient = cmd.value.toLowerCase() === 'true';
        term.print(`lenient set to ${session.lenient}\n`);
        break;
      case 'info':
        try {
          term.print(infoTable(await client.info()));
        } catch (e) {
          fail(`Error fetching server info [${(e as Error).message}]`);
        }
        break;
      case 'sql':
        await runSql(cmd.text);
        break;
    }
    if (opts.interactive) term.print('\n');
    return true;
  };

  const runSql = async (sql: string): Promise<void> => {
    let cursor = '';
    try {
      let page = await client.query(sql, {
        fetchSize: session.fetchSize,
        lenient: session.lenient,
        ...(opts.format ? { format: opts.format } : {}),
      });
      term.print(page.text);
      cursor = page.cursor;
      while (cursor !== '') {
        if (session.fetchSeparator !== '') term.print(session.fetchSeparator + '\n');
        page = await client.nextPage(cursor, opts.format);
        term.print(page.text);
        cursor = page.cursor;
      }
    } catch (e) {
      if (e instanceof CliRequestError) {
        fail(
          e.connection ? e.message : `${e.server ? 'Server error' : 'Bad request'} [${e.message}]`,
        );
      } else fail(`Error [${(e as Error).message}]`);
      if (cursor !== '') {
        await client
          .close(cursor)
          .catch((c: Error) => fail(`Could not close cursor [${c.message}]`));
      }
    }
  };

  let buffer = '';
  let lines: string[] = [];
  for (;;) {
    const prompt = hasStatementText(buffer) ? MULTI_LINE_PROMPT : DEFAULT_PROMPT;
    const line = await term.readLine(opts.interactive ? prompt : '');
    if (line === null) break;
    if (line === CANCEL) {
      buffer = '';
      lines = [];
      continue;
    }
    // `exit` / `quit` alone on a line leave without needing the `;`
    if (!hasStatementText(buffer) && /^\s*(exit|quit)\s*;?\s*$/i.test(line)) {
      await handle({ kind: 'exit' });
      return failed ? 1 : 0;
    }
    buffer += line + '\n';
    lines.push(line);
    const { statements, rest } = splitStatements(buffer);
    buffer = rest;
    if (statements.length > 0) {
      term.statementDone?.(lines);
      lines = hasStatementText(rest) ? [rest.trim()] : [];
    }
    for (const s of statements) {
      if (!(await handle(parseCommand(s)))) return failed ? 1 : 0;
    }
  }
  // end of input: a last statement without `;` still runs when scripted
  if (!opts.interactive && hasStatementText(buffer)) await handle(parseCommand(buffer.trim()));
  return failed ? 1 : 0;
}
