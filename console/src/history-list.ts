/** The history drop-down of the Dev Tools and SQL views: toggled, refilled from localStorage. */
import { clear, h } from './dom.js';
import { readHistory, type HistoryEntry } from './history.js';

export function toggleHistoryList(
  list: HTMLElement,
  kind: HistoryEntry['kind'],
  label: (e: HistoryEntry) => Array<Node | string>,
  pick: (e: HistoryEntry) => void,
): void {
  clear(list);
  list.hidden = !list.hidden;
  for (const e of readHistory(localStorage).filter((x) => x.kind === kind)) {
    const onclick = () => {
      pick(e);
      list.hidden = true;
    };
    list.append(h('button', { type: 'button', class: 'history-item', onclick }, ...label(e)));
  }
  if (!list.firstChild) list.append(h('div', { class: 'muted' }, 'Nothing run yet.'));
}
