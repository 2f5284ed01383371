/**
 * The location Jackson appends to its parse errors, `[Source: ...; line: L, column: C]`: the
 * parser's current position (just after what it last read), with a 1-based column counted in
 * bytes from the start of the line, as UTF8StreamJsonParser counts it.
 */

const SOURCE = '[Source: org.elasticsearch.common.bytes.BytesReference$MarkSupportStream';

const render = (line: number, column: number) => `${SOURCE}; line: ${line}, column: ${column}]`;

/** The location with the parser at byte `at` of `bytes`, whose content starts at `from`. */
export function jsonLocation(bytes: Buffer, from: number, at: number): string {
  let line = 1;
  let rowStart = from;
  for (let i = bytes.indexOf(10, from); i >= 0 && i < at; i = bytes.indexOf(10, i + 1)) {
    line++;
    rowStart = i + 1;
  }
  return render(line, at - rowStart + 1);
}

/** The location with the parser at character `at` of the decoded text (columns still in bytes). */
export function textLocation(text: string, at: number): string {
  let line = 1;
  let rowStart = 0;
  for (let i = text.indexOf('\n'); i >= 0 && i < at; i = text.indexOf('\n', i + 1)) {
    line++;
    rowStart = i + 1;
  }
  const row = text.slice(rowStart, Math.min(at, text.length));
  return render(line, Buffer.byteLength(row) + Math.max(0, at - text.length) + 1);
}
