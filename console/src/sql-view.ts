/**
 * SQL: an editor completing keywords, functions (`SHOW FUNCTIONS`), tables (`SHOW TABLES`) and
 * columns (`DESCRIBE`); results as a table paged through the cursor; the query's translation to
 * the Query DSL beside it; a chart when the result has a label and a number.
 */
import { basicSetup, EditorView } from 'codemirror';
import { keymap } from '@codemirror/view';
import { Compartment, Prec } from '@codemirror/state';
import { sql, StandardSQL } from '@codemirror/lang-sql';
import type { CompletionContext, CompletionResult } from '@codemirror/autocomplete';
import { call } from './api.js';
import { chartFromSql, type SqlColumn } from './chart-data.js';
import { chartView } from './charts.js';
import { clear, h } from './dom.js';
import { errorView, isEsError } from './error-view.js';
import { remember } from './history.js';
import { toggleHistoryList } from './history-list.js';
import { jsonTree } from './json-tree.js';

const PAGE = 25;
const SQL_BUFFER = 'quarry.console.sql';

interface SqlPage {
  columns?: SqlColumn[];
  rows: unknown[][];
  cursor?: string;
}

export function sqlView(): { el: HTMLElement; show(): void } {
  const language = new Compartment();
  let functions: string[] = [];
  let schema: Record<string, string[]> = {};

  // lang-sql completes keywords, tables and `table.column`; this adds functions and bare columns
  const extraSource = (ctx: CompletionContext): CompletionResult | null => {
    const word = ctx.matchBefore(/\w+/);
    if ((!word && !ctx.explicit) || ctx.matchBefore(/\.\w*$/)) return null;
    const columns = [...new Set(Object.values(schema).flat())].sort();
    return {
      from: word ? word.from : ctx.pos,
      options: [
        ...functions.map((f) => ({ label: f, type: 'function', apply: f + '(' })),
        ...columns.map((c) => ({ label: c, type: 'property', boost: 1 })),
      ],
      validFor: /^\w*$/,
    };
  };
  const languageFor = () => {
    const support = sql({ dialect: StandardSQL, upperCaseKeywords: true, schema });
    return [support, support.language.data.of({ autocomplete: extraSource })];
  };

  const loadSchema = async () => {
    const q = async (query: string) => {
      const a = await call('POST', '/_xpack/sql?format=json', JSON.stringify({ query }));
      return a.status === 200 ? ((a.json as SqlPage).rows ?? []) : [];
    };
    functions = (await q('SHOW FUNCTIONS')).map((r) => String(r[0]));
    const tables = (await q('SHOW TABLES'))
      .map((r) => String(r[0]))
      .filter((t) => !t.startsWith('.'));
    const next: Record<string, string[]> = {};
    // columns of the first tables; a cluster with hundreds of indices completes their names only
    await Promise.all(
      tables.slice(0, 30).map(async (t) => {
        next[t] = (await q(`DESCRIBE "${t.replace(/"/g, '""')}"`)).map((r) => String(r[0]));
      }),
    );
    for (const t of tables) next[t] ??= [];
    schema = next;
    view.dispatch({ effects: language.reconfigure(languageFor()) });
  };

  const status = h('div', { class: 'status' });
  const table = h('div', { class: 'sql-result' });
  const translation = h('div', { class: 'sql-translate' });
  const chartBox = h('div', { class: 'sql-chart' });
  const historyList = h('div', { class: 'history', hidden: true });
  let page = 0;
  let columns: SqlColumn[] = [];

  const showPage = (p: SqlPage, query: string) => {
    clear(table);
    if (p.columns) columns = p.columns;
    const head = h('tr', {}, ...columns.map((c) => h('th', { title: c.type }, c.name)));
    const body = p.rows.map((r) =>
      h(
        'tr',
        {},
        ...r.map((v) =>
          h(
            'td',
            {},
            v === null
              ? h('span', { class: 'muted' }, 'null')
              : typeof v === 'object'
                ? JSON.stringify(v)
                : String(v),
          ),
        ),
      ),
    );
    const from = page * PAGE;
    const pager = h(
      'div',
      { class: 'pager' },
      h(
        'span',
        { class: 'muted' },
        p.rows.length ? `rows ${from + 1}–${from + p.rows.length}` : 'no rows',
      ),
      p.cursor
        ? h(
            'button',
            {
              type: 'button',
              class: 'next-page',
              onclick: async () => {
                const a = await call(
                  'POST',
                  '/_xpack/sql?format=json',
                  JSON.stringify({ cursor: p.cursor }),
                );
                if (a.status !== 200) return showError(a.json);
                page++;
                showPage(a.json as SqlPage, query);
              },
            },
            'Next page ›',
          )
        : null,
    );
    table.append(
      h('table', { class: 'grid' }, h('thead', {}, head), h('tbody', {}, ...body)),
      pager,
    );
    clear(chartBox);
    const chart = page === 0 ? chartFromSql(columns, p.rows) : null;
    if (chart) chartBox.append(chartView(chart));
  };
  const showError = (body: unknown) => {
    clear(table);
    clear(chartBox);
    table.append(isEsError(body) ? errorView(body) : jsonTree(body));
  };

  const run = async () => {
    const query = view.state.doc.toString().trim().replace(/;\s*$/, '');
    if (!query) return true;
    status.className = 'status running';
    status.textContent = 'Running…';
    const [a, t] = await Promise.all([
      call('POST', '/_xpack/sql?format=json', JSON.stringify({ query, fetch_size: PAGE })),
      call('POST', '/_xpack/sql/translate', JSON.stringify({ query })),
    ]);
    status.className = 'status ' + (a.status < 300 ? 'ok' : 'warn');
    status.textContent = `${a.status} in ${a.ms.toFixed(0)} ms`;
    page = 0;
    columns = [];
    if (a.status === 200) showPage(a.json as SqlPage, query);
    else showError(a.json);
    clear(translation);
    translation.append(h('div', { class: 'pane-title' }, 'Translated to the Query DSL'));
    translation.append(
      t.status === 200
        ? jsonTree(t.json)
        : h(
            'div',
            { class: 'muted' },
            isEsError(t.json)
              ? 'Not translatable: ' + ((t.json.error as any).reason ?? t.json.error)
              : 'Not translatable',
          ),
    );
    remember({ kind: 'sql', text: query }, localStorage);
    return true;
  };

  const view = new EditorView({
    doc:
      localStorage.getItem(SQL_BUFFER) ??
      'SELECT state, COUNT(*) AS accounts, AVG(balance) AS balance\nFROM bank\nGROUP BY state\nORDER BY accounts DESC\nLIMIT 10',
    extensions: [
      Prec.highest(keymap.of([{ key: 'Mod-Enter', run: () => (void run(), true) }])),
      basicSetup,
      language.of(languageFor()),
      EditorView.updateListener.of((u) => {
        if (u.docChanged) localStorage.setItem(SQL_BUFFER, u.state.doc.toString());
      }),
    ],
  });

  const showHistory = () =>
    toggleHistoryList(
      historyList,
      'sql',
      (e) => [e.text.replace(/\s+/g, ' ')],
      (e) => view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: e.text } }),
    );

  const el = h(
    'section',
    { class: 'view sql' },
    h(
      'div',
      { class: 'sql-top' },
      h(
        'div',
        { class: 'pane left' },
        h(
          'div',
          { class: 'toolbar' },
          h(
            'button',
            { type: 'button', class: 'run', title: 'Run (Ctrl-Enter)', onclick: () => void run() },
            '▶ Run',
          ),
          h('button', { type: 'button', onclick: showHistory }, 'History'),
          h('span', { class: 'muted hint' }, 'Ctrl-Space completes; Ctrl-Enter runs'),
        ),
        historyList,
        view.dom,
      ),
      h('div', { class: 'pane right' }, translation),
    ),
    status,
    chartBox,
    table,
  );
  return {
    el,
    show: () => {
      void loadSchema();
      view.focus();
    },
  };
}
