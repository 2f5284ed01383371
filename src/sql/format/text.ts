/**
 * `format=txt`: a byte-exact port of ES sql-action BasicFormatter (FormatOption.TEXT). Column widths
 * are max(15, header length, widest cell of the first page) and stay fixed for the following cursor
 * pages, so the formatter state is serialisable into the cursor (ES TextFormatterCursor).
 * Headers are centred, cells left-aligned, `|` between columns, a `-`/`+` rule under the header,
 * and an over-wide cell is cut to width-1 characters plus `~`. Every line ends with "\n".
 */
import type { DataTypeName } from '../../functions/data-types.js';
import { textCell } from './value-text.js';

export const MIN_COLUMN_WIDTH = 15;

export interface ColumnInfo {
  readonly name: string;
  /** SQL type (upper-case name) or the `/_sql` type name; decides number printing. */
  readonly type: DataTypeName | string;
}

/** The state ES keeps in the cursor between pages. */
export interface TextFormatterState {
  readonly widths: readonly number[];
}

/** `/_sql` type names are the lower-case SQL type names. */
export const toTypeName = (t: DataTypeName | string): DataTypeName | null =>
  t ? (t.toUpperCase() as DataTypeName) : null;

function cellTexts(
  columns: readonly ColumnInfo[] | null,
  row: readonly unknown[],
  width: number,
): string[] {
  const out = new Array<string>(width);
  for (let i = 0; i < width; i++)
    out[i] = textCell(row[i], columns ? toTypeName(columns[i]!.type) : null);
  return out;
}

/** new BasicFormatter(columns, rows, TEXT): widths from the header and the first page. */
export function createTextFormatter(
  columns: readonly ColumnInfo[],
  rows: ReadonlyArray<readonly unknown[]>,
): TextFormatterState {
  const widths = columns.map((c) => Math.max(MIN_COLUMN_WIDTH, c.name.length));
  for (const row of rows) {
    const cells = cellTexts(columns, row, widths.length);
    for (let i = 0; i < widths.length; i++) widths[i] = Math.max(widths[i]!, cells[i]!.length);
  }
  return { widths };
}

function appendRows(
  out: string[],
  state: TextFormatterState,
  rows: ReadonlyArray<readonly unknown[]>,
  columns: readonly ColumnInfo[] | null,
): void {
  const w = state.widths;
  for (const row of rows) {
    const cells = cellTexts(columns, row, w.length);
    let line = '';
    for (let i = 0; i < w.length; i++) {
      if (i > 0) line += '|';
      const s = cells[i]!;
      const width = w[i]!;
      line += s.length <= width ? s + ' '.repeat(width - s.length) : s.slice(0, width - 1) + '~';
    }
    out.push(line + '\n');
  }
}

/** BasicFormatter.formatWithHeader. */
export function formatWithHeader(
  state: TextFormatterState,
  columns: readonly ColumnInfo[],
  rows: ReadonlyArray<readonly unknown[]>,
): string {
  const w = state.widths;
  const out: string[] = [];
  let header = '';
  for (let i = 0; i < w.length; i++) {
    if (i > 0) header += '|';
    const name = columns[i]!.name;
    const left = Math.max(0, Math.floor((w[i]! - name.length) / 2));
    header += ' '.repeat(left) + name + ' '.repeat(Math.max(0, w[i]! - name.length - left));
  }
  out.push(header + '\n');
  out.push(w.map((x) => '-'.repeat(x)).join('+') + '\n');
  appendRows(out, state, rows, columns);
  return out.join('');
}

/**
 * BasicFormatter.formatWithoutHeader: a cursor page. Pass the first page's columns (when the
 * caller kept them) so numbers print by type; ES itself only has the Java objects.
 */
export function formatWithoutHeader(
  state: TextFormatterState,
  rows: ReadonlyArray<readonly unknown[]>,
  columns: readonly ColumnInfo[] | null = null,
): string {
  const out: string[] = [];
  appendRows(out, state, rows, columns);
  return out.join('');
}

/** First page of `format=txt`: returns the text and the state to carry in the cursor. */
export function formatTextPage(
  columns: readonly ColumnInfo[],
  rows: ReadonlyArray<readonly unknown[]>,
): { text: string; state: TextFormatterState } {
  const state = createTextFormatter(columns, rows);
  return { text: formatWithHeader(state, columns, rows), state };
}

/** Compact serialisation of the formatter state, for embedding in a cursor. */
export function serializeTextFormatter(state: TextFormatterState): string {
  return 't' + state.widths.join(',');
}

export function deserializeTextFormatter(s: string): TextFormatterState {
  if (!s.startsWith('t')) throw new Error('not a text formatter state: ' + s);
  const body = s.slice(1);
  const widths = body.length === 0 ? [] : body.split(',').map(Number);
  if (widths.some((x) => !Number.isInteger(x) || x < 0))
    throw new Error('bad text formatter state: ' + s);
  return { widths };
}
