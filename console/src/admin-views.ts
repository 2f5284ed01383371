/**
 * The Indices view (health, docs, size; an index's mappings and settings on click) and the
 * Cluster view (health, nodes, shards per node), both polled while they are shown.
 */
import { get } from './api.js';
import { clear, formatBytes, h } from './dom.js';
import { jsonTree } from './json-tree.js';

const POLL_MS = 5000;

type Row = Record<string, string>;

function dot(health: string | undefined): HTMLElement {
  return h('span', { class: `dot ${health ?? 'unknown'}`, title: health ?? '' });
}

function table(
  headers: string[],
  rows: Array<Array<Node | string>>,
  onRow?: (i: number) => void,
): HTMLElement {
  return h(
    'table',
    { class: 'grid' },
    h('thead', {}, h('tr', {}, ...headers.map((x) => h('th', {}, x)))),
    h(
      'tbody',
      {},
      ...rows.map((r, i) =>
        h(
          'tr',
          onRow ? { class: 'clickable', onclick: () => onRow(i) } : {},
          ...r.map((c) => h('td', {}, c)),
        ),
      ),
    ),
  );
}

/** A view that refreshes itself every few seconds while shown. */
function polled(
  render: (into: HTMLElement) => Promise<void>,
  className: string,
): { el: HTMLElement; show(): void; hide(): void } {
  const body = h('div', { class: 'poll-body' });
  const updated = h('span', { class: 'muted updated' });
  const el = h('section', { class: `view ${className}` }, body, updated);
  // each show() starts a loop of its own generation; hide() ends it, even mid-request
  let generation = 0;
  let shown = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const tick = async (gen: number) => {
    try {
      await render(body);
      updated.textContent = 'updated ' + new Date().toLocaleTimeString();
    } catch (e) {
      updated.textContent = 'refresh failed: ' + (e as Error).message;
    }
    if (shown && gen === generation) timer = setTimeout(() => void tick(gen), POLL_MS);
  };
  return {
    el,
    show() {
      if (shown) return;
      shown = true;
      void tick(++generation);
    },
    hide() {
      shown = false;
      clearTimeout(timer);
    },
  };
}

export function indicesView() {
  let selected: string | null = null;
  const detail = h('div', { class: 'index-detail' });
  const showDetail = async (index: string) => {
    selected = index;
    const enc = encodeURIComponent(index);
    const [mappings, settings] = await Promise.all([
      get(`/${enc}/_mapping`),
      get(`/${enc}/_settings`),
    ]);
    clear(detail);
    detail.append(
      h('h3', {}, index),
      h(
        'div',
        { class: 'two-cols' },
        h('div', {}, h('div', { class: 'pane-title' }, 'Mappings'), jsonTree(mappings)),
        h('div', {}, h('div', { class: 'pane-title' }, 'Settings'), jsonTree(settings)),
      ),
    );
  };
  const list = h('div', { class: 'index-list' });
  const v = polled(async (into) => {
    const rows: Row[] = await get('/_cat/indices?format=json&bytes=b&s=index');
    clear(list);
    list.append(
      table(
        ['', 'index', 'status', 'docs', 'deleted', 'size', 'primaries', 'replicas'],
        rows.map((r) => [
          dot(r['health']),
          r['index'] ?? '',
          r['status'] ?? '',
          r['docs.count'] ?? '',
          r['docs.deleted'] ?? '',
          formatBytes(Number(r['store.size'])),
          r['pri'] ?? '',
          r['rep'] ?? '',
        ]),
        (i) => void showDetail(rows[i]!['index']!),
      ),
    );
    if (!into.firstChild) into.append(h('h2', {}, 'Indices'), list, detail);
  }, 'indices');
  return { ...v, selected: () => selected };
}

export function clusterView() {
  return polled(async (into) => {
    const [health, nodes, shards] = await Promise.all([
      get('/_cluster/health'),
      get('/_cat/nodes?format=json&h=name,ip,node.role,master,heap.percent,cpu,load_1m'),
      get('/_cat/shards?format=json'),
    ]);
    const perNode = new Map<string, { primaries: number; replicas: number }>();
    let unassigned = 0;
    for (const s of shards as Row[]) {
      if (!s['node']) {
        unassigned++;
        continue;
      }
      const n = perNode.get(s['node']) ?? { primaries: 0, replicas: 0 };
      if (s['prirep'] === 'p') n.primaries++;
      else n.replicas++;
      perNode.set(s['node'], n);
    }
    clear(into);
    const stat = (label: string, value: unknown) =>
      h(
        'div',
        { class: 'stat' },
        h('div', { class: 'stat-value' }, String(value)),
        h('div', { class: 'stat-label' }, label),
      );
    into.append(
      h(
        'h2',
        {},
        dot(health.status),
        ` ${health.cluster_name} `,
        h('span', { class: `health ${health.status}` }, health.status),
      ),
      h(
        'div',
        { class: 'stats' },
        stat('nodes', health.number_of_nodes),
        stat('data nodes', health.number_of_data_nodes),
        stat('active primaries', health.active_primary_shards),
        stat('active shards', health.active_shards),
        stat('relocating', health.relocating_shards),
        stat('initializing', health.initializing_shards),
        stat('unassigned', health.unassigned_shards ?? unassigned),
      ),
      h('h3', {}, 'Nodes'),
      table(
        ['name', 'ip', 'roles', 'master', 'heap %', 'cpu %', 'load', 'primaries', 'replicas'],
        (nodes as Row[]).map((n) => {
          const s = perNode.get(n['name'] ?? '') ?? { primaries: 0, replicas: 0 };
          return [
            n['name'] ?? '',
            n['ip'] ?? '',
            n['node.role'] ?? '',
            n['master'] === '*' ? '★' : '',
            n['heap.percent'] ?? '',
            n['cpu'] ?? '',
            n['load_1m'] ?? '',
            String(s.primaries),
            String(s.replicas),
          ];
        }),
      ),
    );
  }, 'cluster');
}
