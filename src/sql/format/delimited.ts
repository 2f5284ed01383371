/**
 * `format=csv` and `format=tsv` (ES TextFormat.CSV / TSV): a header row unless `header=absent`
 * (URL parameter, or `header=absent` in the Accept header), RFC 4180 quoting with CRLF line ends
 * for CSV and a configurable one-character delimiter, backslash-escaped \n and \t with LF for TSV.
 * Nulls are empty; datetimes print ISO with millis, other values as Java's toString.
 */
import { javaIllegalArgument } from '../../functions/errors.js';
import { toTypeName, type ColumnInfo } from './text.js';
import { delimitedCell } from './value-text.js';

/** CSV's `maybeEscape`: quote when the value holds a quote, CR, LF or the delimiter. */
export function csvEscape(value: string, delimiter: string): string {
  for (let i = 0; i < value.length; i++) {
    const c = value[i];
    if (c === '"' || c === '\n' || c === '\r' || c === delimiter) {
      return '"' + value.replace(/"/g, '""') + '"';
    }
  }
  return value;
}

/** TSV's `maybeEscape`: only \n and \t are escaped (a CR passes through, as in ES). */
export const tsvEscape = (value: string): string =>
  value.replace(/[\n\t]/g, (c) => (c === '\n' ? '\\n' : '\\t'));

/** java.net.URLDecoder.decode (UTF-8): `+` is a space, %XX sequences decode. */
function urlDecode(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    throw javaIllegalArgument(`URLDecoder: Illegal hex characters in escape (%) pattern - ${s}`);
  }
}

/** TextFormat.CSV.delimiter(request): the `delimiter` parameter with ES's validation. */
export function csvDelimiter(param: string | null | undefined): string {
  if (param === null || param === undefined) return ',';
  const d = urlDecode(param);
  if (d.length !== 1) {
    throw javaIllegalArgument(
      `invalid ${d.length > 0 ? 'multi-character' : 'empty'} delimiter [${d}]`,
    );
  }
  if (d === '"' || d === '\n' || d === '\r') {
    throw javaIllegalArgument(`illegal reserved character specified as delimiter [${d}]`);
  }
  if (d === '\t') {
    throw javaIllegalArgument(
      'illegal delimiter [TAB] specified as delimiter for the [csv] format; choose the [tsv] format instead',
    );
  }
  return d;
}

/** TextFormat.CSV.hasHeader: `header` parameter, else `header=absent` in any Accept value. */
export function csvHasHeader(
  headerParam: string | null | undefined,
  acceptHeaders: readonly string[] = [],
): boolean {
  if (headerParam === null || headerParam === undefined) {
    for (const value of acceptHeaders) {
      for (const p of value.split(';')) {
        if (p.trim().toLowerCase() === 'header=absent') return false;
      }
    }
    return true;
  }
  return headerParam.toLowerCase() !== 'absent';
}

function rows(
  columns: readonly ColumnInfo[] | null,
  data: ReadonlyArray<readonly unknown[]>,
  header: boolean,
  delimiter: string,
  eol: string,
  escape: (s: string) => string,
): string {
  let out = '';
  if (header && columns) out += columns.map((c) => escape(c.name)).join(delimiter) + eol;
  for (const row of data) {
    const cells: string[] = [];
    for (let i = 0; i < row.length; i++) {
      cells.push(
        escape(delimitedCell(row[i], columns && columns[i] ? toTypeName(columns[i]!.type) : null)),
      );
    }
    out += cells.join(delimiter) + eol;
  }
  return out;
}

/**
 * `format=csv`. `columns` are present on the first page only (no header on cursor pages); pass
 * them anyway with `header: false` on later pages to keep type-driven number printing.
 */
export function formatCsv(
  columns: readonly ColumnInfo[] | null,
  data: ReadonlyArray<readonly unknown[]>,
  opts: { delimiter?: string; header?: boolean } = {},
): string {
  const d = opts.delimiter ?? ',';
  return rows(columns, data, opts.header ?? true, d, '\r\n', (s) => csvEscape(s, d));
}

/** `format=tsv`: always a header on the first page. */
export function formatTsv(
  columns: readonly ColumnInfo[] | null,
  data: ReadonlyArray<readonly unknown[]>,
  header = true,
): string {
  return rows(columns, data, header, '\t', '\n', tsvEscape);
}
