/**
 * A JSON value as a collapsible tree: objects and arrays are <details> (open to a depth, long
 * arrays collapsed), scalars coloured by type. A toggle switches to the raw pretty text.
 */
import { h } from './dom.js';

const OPEN_DEPTH = 5;
const LONG = 20;

function scalar(v: unknown): HTMLElement {
  if (v === null) return h('span', { class: 'j-null' }, 'null');
  if (typeof v === 'string') return h('span', { class: 'j-str' }, JSON.stringify(v));
  if (typeof v === 'number') return h('span', { class: 'j-num' }, String(v));
  if (typeof v === 'boolean') return h('span', { class: 'j-bool' }, String(v));
  return h('span', {}, String(v));
}

function node(key: string | null, v: unknown, depth: number): HTMLElement {
  const label = key === null ? null : h('span', { class: 'j-key' }, JSON.stringify(key) + ': ');
  if (v === null || typeof v !== 'object') return h('div', { class: 'j-row' }, label, scalar(v));
  const arr = Array.isArray(v);
  const entries: Array<[string, unknown]> = arr
    ? v.map((x, i) => [String(i), x])
    : Object.entries(v as object);
  const summary = arr ? `[ ${entries.length} ]` : `{ ${entries.length} }`;
  if (entries.length === 0)
    return h('div', { class: 'j-row' }, label, h('span', { class: 'j-punct' }, arr ? '[]' : '{}'));
  const details = h('details', { class: 'j-node' });
  details.open = depth < OPEN_DEPTH && !(arr && entries.length > LONG && depth > 0);
  details.append(h('summary', {}, label, h('span', { class: 'j-punct' }, summary)));
  // children are built when first opened: a 10 000-hit answer stays cheap to show
  const fill = () => {
    if (details.dataset['filled']) return;
    details.dataset['filled'] = '1';
    const box = h('div', { class: 'j-children' });
    for (const [k, x] of entries) box.append(node(arr ? null : k, x, depth + 1));
    details.append(box);
  };
  if (details.open) fill();
  else details.addEventListener('toggle', fill);
  return details;
}

export function jsonTree(value: unknown): HTMLElement {
  return h('div', { class: 'json-tree' }, node(null, value, 0));
}
