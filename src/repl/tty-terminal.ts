/**
 * The shell on a terminal: Node's readline (`terminal: true`) for line editing and Up/Down
 * history, plus what readline lacks, fed from its key handler: Ctrl-R reverse search, a pager for
 * results taller than the screen, and Ctrl-C discarding the statement being typed. History holds
 * whole statements (see history.ts); tab completion asks the catalog.
 */
import { createInterface, type Interface, type Key } from 'node:readline';
import { CANCEL, DEFAULT_PROMPT, type CliTerminal, type ReadResult } from './repl.js';
import { addEntry, historyEntry, saveEntry, HISTORY_LIMIT } from './history.js';
import {
  renderSearch,
  searchStep,
  startSearch,
  type SearchKey,
  type SearchState,
} from './reverse-search.js';
import { needsPaging, pagerStatus, pagerStep, startPager, type PagerState } from './pager.js';
import { completions, currentWord, expectsTable, SQL_KEYWORDS, tablesIn } from './completion.js';
import type { Catalog } from './catalog.js';

/** readline's internals this module drives (stable since Node 10, untyped in @types/node). */
interface ReadlineInternals {
  line: string;
  cursor: number;
  history: string[];
  _ttyWrite(s: string | undefined, key: Key): void;
  _refreshLine(): void;
}

export interface TtyTerminalOptions {
  readonly input: NodeJS.ReadStream;
  readonly output: NodeJS.WriteStream;
  readonly history: string[];
  readonly historyFile: string | null;
  readonly catalog: Catalog | null;
}

export function ttyTerminal(o: TtyTerminalOptions): CliTerminal & { close(): void } {
  const history = o.history;
  let statementLines: string[] = [];
  let pending: ((r: ReadResult) => void) | null = null;
  let closed = false;
  let out = '';

  const completer = (line: string, cb: (err: null, r: [string[], string]) => void): void => {
    const word = currentWord(line);
    const context = [...statementLines, line].join('\n');
    const before = line.slice(0, line.length - word.length);
    void (async () => {
      if (!o.catalog) return cb(null, [completions(word, emptyCandidates, false), word]);
      const tables = await o.catalog.tables();
      const tableExpected = expectsTable(before + word) || expectsTable(before);
      const named = tablesIn(context, tables);
      const columns = tableExpected
        ? []
        : (await Promise.all(named.map((t) => o.catalog!.columns(t)))).flat();
      const functions = tableExpected ? [] : await o.catalog.functions();
      cb(null, [
        completions(word, { keywords: SQL_KEYWORDS, functions, tables, columns }, tableExpected),
        word,
      ]);
    })().catch(() => cb(null, [[], word]));
  };

  const rl = createInterface({
    input: o.input,
    output: o.output,
    terminal: true,
    historySize: HISTORY_LIMIT,
    completer,
    tabSize: 4,
  });
  const ri = rl as unknown as ReadlineInternals;
  ri.history = history;

  // readline adds every line to its history; the shell adds whole statements instead, so the
  // entries readline added are taken back after each line
  let historyBefore: string[] = [];
  rl.on('line', (line) => {
    ri.history.length = 0;
    ri.history.push(...historyBefore);
    if (search) endSearch();
    const p = pending;
    pending = null;
    p?.(line);
  });
  rl.on('SIGINT', () => {
    o.output.write('^C\n');
    ri.line = '';
    ri.cursor = 0;
    const p = pending;
    pending = null;
    p?.(CANCEL);
  });
  rl.on('close', () => {
    closed = true;
    const p = pending;
    pending = null;
    p?.(null);
  });

  const status = (p: PagerState) =>
    '\x1b[7m' + pagerStatus(p).slice(0, Math.max(10, (o.output.columns ?? 80) - 1)) + '\x1b[m';

  let search: SearchState | null = null;
  let pager: { state: PagerState; done: () => void } | null = null;

  const drawSearch = () => {
    o.output.write('\r\x1b[K' + renderSearch(search!, history));
  };
  const endSearch = () => {
    search = null;
  };
  const setLine = (text: string) => {
    ri.line = text;
    ri.cursor = text.length;
    ri._refreshLine();
  };

  const searchKey = (s: string | undefined, key: Key): SearchKey => {
    if (key?.ctrl && key.name === 'r') return { kind: 'older' };
    if (key?.ctrl && (key.name === 'g' || key.name === 'c')) return { kind: 'cancel' };
    if (key?.name === 'escape') return { kind: 'cancel' };
    if (key?.name === 'return' || key?.name === 'enter') return { kind: 'accept' };
    if (key?.name === 'backspace') return { kind: 'backspace' };
    if (s && !key?.ctrl && !key?.meta && s >= ' ' && !s.startsWith('\x1b'))
      return { kind: 'char', text: s };
    return { kind: 'leave' };
  };

  const ttyWrite = ri._ttyWrite.bind(rl);
  ri._ttyWrite = (s, key) => {
    if (pager) {
      const k = key?.name === 'q' || s === 'q' || (key?.ctrl && key.name === 'c') ? 'quit'
        : key?.name === 'return' || key?.name === 'enter' || key?.name === 'down' ? 'line'
        : 'page'; // prettier-ignore
      const r = pagerStep(pager.state, k);
      o.output.write('\r\x1b[K' + r.show.map((l) => l + '\n').join(''));
      if (r.done) {
        const done = pager.done;
        pager = null;
        done();
      } else {
        pager.state = r.state;
        o.output.write(status(r.state));
      }
      return;
    }
    if (search) {
      const r = searchStep(search, history, searchKey(s, key));
      if (r.kind === 'searching') {
        search = r.state;
        drawSearch();
        return;
      }
      search = null;
      setLine(r.line);
      if (r.kind === 'accept') ttyWrite('\r', { name: 'return' } as Key);
      else if (r.kind === 'leave') ttyWrite(s, key);
      return;
    }
    if (key?.ctrl && key.name === 'r') {
      search = startSearch(ri.line);
      drawSearch();
      return;
    }
    ttyWrite(s, key);
  };

  /** Writes what was printed since the last prompt, through the pager when it is too tall. */
  const flush = (): Promise<void> => {
    const text = out;
    out = '';
    if (text === '') return Promise.resolve();
    const rows = o.output.rows ?? 24;
    if (!needsPaging(text, rows)) {
      o.output.write(text);
      return Promise.resolve();
    }
    return new Promise((res) => {
      const start = startPager(text, rows);
      o.output.write(start.show.map((l) => l + '\n').join(''));
      o.output.write(status(start.state));
      pager = { state: start.state, done: res };
    });
  };

  return {
    async readLine(prompt): Promise<ReadResult> {
      await flush();
      if (closed) return null;
      if (prompt === DEFAULT_PROMPT && statementLines.length > 0) statementLines = [];
      historyBefore = ri.history.slice();
      rl.setPrompt(prompt);
      rl.prompt();
      const r = await new Promise<ReadResult>((res) => (pending = res));
      if (r === CANCEL) statementLines = [];
      else if (typeof r === 'string') statementLines.push(r);
      return r;
    },
    statementDone(lines) {
      const entry = historyEntry(lines);
      if (entry === '') return;
      addEntry(ri.history, entry);
      if (o.historyFile) saveEntry(o.historyFile, entry);
    },
    print: (t) => void (out += t),
    error: (t) => void (out += t),
    clear: () => {
      out = '';
      o.output.write('\x1b[2J\x1b[H');
    },
    close: () => {
      if (out !== '') o.output.write(out);
      out = '';
      rl.close();
    },
  };
}

const emptyCandidates = { keywords: SQL_KEYWORDS, functions: [], tables: [], columns: [] };
