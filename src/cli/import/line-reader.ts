/**
 * Streams a file's lines from a byte offset, a chunk's worth at a time (an array per read, so a
 * million lines cost a few hundred awaits, not a million), each with its 1-based line number and
 * the byte offset just past it: what a checkpoint records to resume from. A UTF-8 byte order mark
 * at the start of the file is skipped; `\r\n` endings lose their `\r`.
 */
import { createReadStream } from 'node:fs';

export interface Line {
  readonly text: string;
  readonly line: number;
  /** Byte offset just past the line's newline. */
  readonly end: number;
}

export async function* readLines(
  path: string,
  start = 0,
  firstLine = 1,
  /** Bytes a read (small ones in tests, to cross chunk boundaries everywhere). */
  chunkSize = 1 << 20,
): AsyncGenerator<Line[], void, undefined> {
  const stream = createReadStream(path, { start, highWaterMark: chunkSize });
  let carry: Buffer | null = null;
  let base = start; // file offset of buf[0]
  let line = firstLine;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    const buf: Buffer = carry ? Buffer.concat([carry, chunk]) : chunk;
    const out: Line[] = [];
    let from = 0;
    if (base === 0 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) from = 3;
    for (let nl = buf.indexOf(10, from); nl !== -1; nl = buf.indexOf(10, from)) {
      const stop = nl > from && buf[nl - 1] === 13 ? nl - 1 : nl;
      out.push({ text: buf.toString('utf8', from, stop), line: line++, end: base + nl + 1 });
      from = nl + 1;
    }
    carry = from < buf.length ? buf.subarray(from) : null;
    base += from;
    if (out.length > 0) yield out;
  }
  if (carry && carry.length > 0) {
    const stop = carry[carry.length - 1] === 13 ? carry.length - 1 : carry.length;
    yield [{ text: carry.toString('utf8', 0, stop), line, end: base + carry.length }];
  }
}
