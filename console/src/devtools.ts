/**
 * Dev Tools: a buffer of requests (`GET /bank/_search` + JSON body), the one under the cursor run
 * with Ctrl-Enter or the button, its answer as a JSON tree (ES errors shown readably) and a chart
 * when it has aggregations. Completion from the bundled API specs and the live mappings.
 */
import { basicSetup, EditorView } from 'codemirror';
import { keymap } from '@codemirror/view';
import { Prec } from '@codemirror/state';
import {
  autocompletion,
  type CompletionContext,
  type CompletionResult,
} from '@codemirror/autocomplete';
import { activeRequest } from './active-request.js';
import { call, type Answer } from './api.js';
import { chartFromAggs } from './chart-data.js';
import { chartView } from './charts.js';
import { clear, h } from './dom.js';
import { consoleLanguage } from './editor-lang.js';
import { errorView, isEsError } from './error-view.js';
import { remember } from './history.js';
import { toggleHistoryList } from './history-list.js';
import { jsonTree } from './json-tree.js';
import { bodyToSend, requestAt } from './requests.js';
import {
  fieldsOfMappings,
  restCompletion,
  type ApiSpecs,
  type RestKnowledge,
} from './rest-complete.js';

declare const __API_SPECS__: ApiSpecs;

const BUFFER = 'quarry.console.buffer';

const EXAMPLE = `# Ctrl-Enter (or ▶) runs the request under the cursor
GET /_cluster/health

GET /bank/_search
{
  "query": { "match": { "address": "mill lane" } },
  "size": 3
}

GET /bank/_search
{
  "size": 0,
  "aggs": {
    "by_state": { "terms": { "field": "state.keyword", "size": 10 } }
  }
}
`;

export function devtoolsView(): { el: HTMLElement; show(): void } {
  const knowledge: { current: RestKnowledge } = {
    current: { specs: __API_SPECS__, indices: [], fields: new Map() },
  };
  const refreshKnowledge = async () => {
    const a = await call('GET', '/_mapping');
    if (a.status !== 200) return;
    const fields = fieldsOfMappings(a.json);
    knowledge.current = { specs: __API_SPECS__, indices: [...fields.keys()].sort(), fields };
  };

  const complete = (ctx: CompletionContext): CompletionResult | null => {
    const c = restCompletion(ctx.state.doc.toString(), ctx.pos, knowledge.current);
    if (!c || c.options.length === 0) return null;
    if (
      !ctx.explicit &&
      c.from === ctx.pos &&
      !/[/?&{,"]$/.test(ctx.state.sliceDoc(ctx.pos - 1, ctx.pos))
    )
      return null;
    return { from: c.from, options: c.options, validFor: /^[\w.@*-]*$/ };
  };

  const status = h('div', { class: 'status' });
  const output = h('div', { class: 'output' });
  const historyList = h('div', { class: 'history', hidden: true });

  const run = async () => {
    const state = view.state;
    const req = requestAt(state.doc.toString(), state.selection.main.head);
    if (!req) {
      status.textContent = 'No request under the cursor: write `GET /path` on a line.';
      return true;
    }
    const body = bodyToSend(req);
    status.textContent = `${req.method} ${req.path} …`;
    status.className = 'status running';
    // browsers send no body with GET: ES takes POST for every API that reads one (as Kibana does)
    const method = body && req.method === 'GET' ? 'POST' : req.method;
    const type = body?.ndjson ? 'application/x-ndjson' : 'application/json';
    let a: Answer;
    try {
      a = await call(method, req.path, req.method === 'HEAD' ? null : body?.text, type);
    } catch (e) {
      status.className = 'status bad';
      status.textContent = `${req.method} ${req.path} failed: ${(e as Error).message}`;
      return true;
    }
    status.className = 'status ' + (a.status < 300 ? 'ok' : a.status < 500 ? 'warn' : 'bad');
    status.textContent = `${req.method} ${req.path} → ${a.status} in ${a.ms.toFixed(0)} ms`;
    clear(output);
    if (a.json === undefined) output.append(h('pre', { class: 'raw' }, a.text || '(no body)'));
    else {
      if (isEsError(a.json)) output.append(errorView(a.json));
      const chart = a.status < 300 ? chartFromAggs((a.json as any)?.aggregations) : null;
      if (chart) output.append(chartView(chart));
      output.append(jsonTree(a.json));
    }
    remember(
      { kind: 'rest', text: `${req.method} ${req.path}${req.body ? '\n' + req.body : ''}` },
      localStorage,
    );
    // an index created or deleted, a mapping changed: completion follows
    if (req.method !== 'GET' && req.method !== 'HEAD') void refreshKnowledge();
    return true;
  };

  const view = new EditorView({
    doc: localStorage.getItem(BUFFER) ?? EXAMPLE,
    extensions: [
      Prec.highest(keymap.of([{ key: 'Mod-Enter', run: () => (void run(), true) }])),
      basicSetup,
      EditorView.lineWrapping,
      activeRequest,
      consoleLanguage,
      autocompletion({ override: [complete] }),
      EditorView.updateListener.of((u) => {
        if (u.docChanged) localStorage.setItem(BUFFER, u.state.doc.toString());
      }),
    ],
  });

  const showHistory = () =>
    toggleHistoryList(
      historyList,
      'rest',
      (e) => [
        h('span', { class: 'muted' }, new Date(e.at).toLocaleTimeString() + ' '),
        e.text.split('\n')[0]!,
      ],
      (e) => {
        const end = view.state.doc.length;
        view.dispatch({
          changes: { from: end, insert: '\n\n' + e.text },
          selection: { anchor: end + 2 },
        });
        view.focus();
      },
    );

  const el = h(
    'section',
    { class: 'view devtools' },
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
    h('div', { class: 'pane right' }, status, output),
  );
  return {
    el,
    show: () => {
      void refreshKnowledge();
      view.focus();
    },
  };
}
