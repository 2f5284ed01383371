/**
 * The shell's built-in pager for results taller than the terminal (as `more`): a screen less one
 * line at a time, then a status line; space shows the next screen, Enter the next line, q quits.
 * Pure: which lines to show for a key; the terminal writes them and reads the keys.
 */

export interface PagerState {
  readonly lines: readonly string[];
  /** Lines already shown. */
  readonly shown: number;
  /** Lines per screen (the terminal's rows less the status line). */
  readonly page: number;
}

export type PagerKey = 'page' | 'line' | 'quit';

/** Output split into lines (a final newline does not make an empty last line). */
export function splitLines(text: string): string[] {
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** Whether `text` needs paging on a terminal of `rows` rows. */
export const needsPaging = (text: string, rows: number): boolean =>
  rows > 1 && splitLines(text).length > rows - 1;

export function startPager(text: string, rows: number): { state: PagerState; show: string[] } {
  const lines = splitLines(text);
  const page = Math.max(1, rows - 1);
  return {
    state: { lines, shown: Math.min(page, lines.length), page },
    show: lines.slice(0, page),
  };
}

/** The lines a key shows and whether the pager is done (quit, or everything shown). */
export function pagerStep(
  s: PagerState,
  key: PagerKey,
): { state: PagerState; show: string[]; done: boolean } {
  if (key === 'quit') return { state: s, show: [], done: true };
  const n = key === 'page' ? s.page : 1;
  const show = s.lines.slice(s.shown, s.shown + n);
  const state = { ...s, shown: s.shown + show.length };
  return { state, show, done: state.shown >= s.lines.length };
}

export function pagerStatus(s: PagerState): string {
  const pct = Math.floor((100 * s.shown) / Math.max(1, s.lines.length));
  return `-- More -- (${pct}%, ${s.shown}/${s.lines.length} lines) space: next page, enter: next line, q: quit`;
}
