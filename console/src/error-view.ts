/** An Elasticsearch error body shown readably: type, reason, root causes and the caused_by chain. */
import { h } from './dom.js';

type Cause = {
  type?: string;
  reason?: string;
  index?: string;
  line?: number;
  col?: number;
  caused_by?: Cause;
  root_cause?: Cause[];
};

/** Whether a body is ES's `{ error: {...}, status }` (or the old `{ error: "..." }`). */
export function isEsError(body: unknown): body is { error: Cause | string; status?: number } {
  return body !== null && typeof body === 'object' && 'error' in body;
}

function causeLine(c: Cause): HTMLElement {
  const where = [c.index ? `index [${c.index}]` : '', c.line ? `line ${c.line}, col ${c.col}` : '']
    .filter(Boolean)
    .join(', ');
  return h(
    'li',
    {},
    h('code', { class: 'err-type' }, c.type ?? 'error'),
    ' ',
    h('span', { class: 'err-reason' }, c.reason ?? ''),
    where ? h('span', { class: 'muted' }, ` (${where})`) : null,
  );
}

export function errorView(body: { error: Cause | string; status?: number }): HTMLElement {
  const e = body.error;
  if (typeof e === 'string') {
    return h(
      'div',
      { class: 'es-error' },
      h('div', { class: 'err-title' }, `Error ${body.status ?? ''}`),
      h('div', { class: 'err-reason' }, e),
    );
  }
  const chain: Cause[] = [];
  for (let c = e.caused_by; c && chain.length < 10; c = c.caused_by) chain.push(c);
  return h(
    'div',
    { class: 'es-error', role: 'alert' },
    h(
      'div',
      { class: 'err-title' },
      h('code', { class: 'err-type' }, e.type ?? 'error'),
      body.status ? ` — HTTP ${body.status}` : '',
    ),
    h('div', { class: 'err-reason' }, e.reason ?? ''),
    e.root_cause?.length
      ? h('div', { class: 'err-sub' }, 'Root cause', h('ul', {}, ...e.root_cause.map(causeLine)))
      : null,
    chain.length
      ? h('div', { class: 'err-sub' }, 'Caused by', h('ul', {}, ...chain.map(causeLine)))
      : null,
  );
}
