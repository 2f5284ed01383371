/**
 * Draws a ChartData: uPlot for lines and bars, a plain canvas for pies (uPlot has none), with
 * buttons to switch between the kinds that suit the data.
 */
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { ChartData, ChartKind } from './chart-data.js';
import { clear, h } from './dom.js';

const COLORS = [
  '#3b7dd8',
  '#e8743b',
  '#19a979',
  '#ed4a7b',
  '#945ecf',
  '#13a4b4',
  '#525df4',
  '#bf399e',
  '#6c8893',
  '#ee6868',
];

function size(box: HTMLElement): { width: number; height: number } {
  return {
    width: Math.max(320, Math.min(900, (box.parentElement?.clientWidth ?? 640) - 24)),
    height: 280,
  };
}

function xyChart(box: HTMLElement, d: ChartData, kind: 'bar' | 'line'): void {
  const categorical = !d.time && kind === 'bar';
  const xs = categorical ? d.labels.map((_, i) => i) : [...d.xs];
  const opts: uPlot.Options = {
    ...size(box),
    title: d.title,
    scales: {
      x: {
        time: d.time,
        ...(categorical ? { range: [-0.6, d.labels.length - 0.4] as [number, number] } : {}),
      },
      // bars are read by their length: they start at zero
      ...(kind === 'bar'
        ? {
            y: {
              range: (_u: uPlot, _min: number, max: number): [number, number] => [
                0,
                max > 0 ? max * 1.05 : 1,
              ],
            },
          }
        : {}),
    },
    axes: [
      categorical
        ? {
            values: (_u, splits) =>
              splits.map((s) => (Number.isInteger(s) ? (d.labels[s] ?? '') : '')),
            incrs: [1, 2, 5, 10, 20, 50, 100],
            space: 12,
          }
        : {},
      {},
    ],
    legend: { show: false },
    series: [
      {},
      {
        label: d.valueName,
        stroke: COLORS[0],
        fill: kind === 'bar' ? COLORS[0] + 'cc' : COLORS[0] + '22',
        width: kind === 'bar' ? 0 : 2,
        ...(kind === 'bar'
          ? { paths: uPlot.paths.bars!({ size: [0.7, 80] }), points: { show: false } }
          : {}),
      },
    ],
  };
  new uPlot(opts, [xs, [...d.values]], box);
}

function pieChart(box: HTMLElement, d: ChartData): void {
  const { width } = size(box);
  const height = 280;
  const canvas = h('canvas', { class: 'pie' });
  const ratio = window.devicePixelRatio || 1;
  canvas.width = width * ratio;
  canvas.height = height * ratio;
  canvas.style.width = width + 'px';
  canvas.style.height = height + 'px';
  const ctx = canvas.getContext('2d')!;
  ctx.scale(ratio, ratio);
  const total = d.values.reduce((a, b) => a + Math.max(0, b), 0) || 1;
  const r = height / 2 - 16;
  const cx = r + 16;
  const cy = height / 2;
  let angle = -Math.PI / 2;
  ctx.font = '12px system-ui, sans-serif';
  d.values.forEach((v, i) => {
    const slice = (Math.max(0, v) / total) * Math.PI * 2;
    ctx.beginPath();
    ctx.moveTo(cx, cy);
    ctx.arc(cx, cy, r, angle, angle + slice);
    ctx.closePath();
    ctx.fillStyle = COLORS[i % COLORS.length]!;
    ctx.fill();
    ctx.strokeStyle = '#fff';
    ctx.stroke();
    angle += slice;
    // legend, as many rows as fit
    const y = 20 + i * 18;
    if (y < height - 8) {
      ctx.fillRect(cx + r + 30, y - 10, 12, 12);
      ctx.fillStyle = '#333';
      ctx.fillText(`${d.labels[i]}  ${v} (${((v / total) * 100).toFixed(1)}%)`, cx + r + 48, y);
    }
  });
  box.append(h('div', { class: 'chart-title' }, d.title), canvas);
}

/** The chart, drawn as `kind` (default: the data's preferred kind), with its switcher. */
export function chartView(d: ChartData, kind: ChartKind = d.preferred): HTMLElement {
  const wrap = h('div', { class: 'chart', 'data-kind': kind });
  const plot = h('div', { class: 'chart-plot' });
  const draw = (k: ChartKind) => {
    wrap.dataset['kind'] = k;
    clear(plot);
    for (const b of switcher.querySelectorAll('button'))
      b.classList.toggle('active', b.dataset['kind'] === k);
    if (k === 'pie') pieChart(plot, d);
    else xyChart(plot, d, k);
  };
  const switcher = h(
    'div',
    { class: 'chart-kinds' },
    ...d.kinds.map((k) => {
      const b = h('button', { type: 'button', 'data-kind': k, onclick: () => draw(k) }, k);
      return b;
    }),
  );
  wrap.append(switcher, plot);
  // uPlot measures fonts and sizes once attached; draw on the next frame
  requestAnimationFrame(() => draw(kind));
  return wrap;
}
