/**
 * Streams the elements of a top-level JSON array without holding the file: a byte scanner that
 * tracks strings and nesting (structural characters are ASCII, so multi-byte UTF-8 never confuses
 * it) and hands each complete element's text, with its first line and the byte offset past it, to
 * JSON.parse. Resuming starts inside the array at a checkpoint's offset.
 */
import { createReadStream } from 'node:fs';

export interface Element {
  readonly text: string;
  readonly line: number;
  readonly end: number;
  /** The line number at `end`. */
  readonly next: number;
}

export async function* readJsonArray(
  path: string,
  start = 0,
  firstLine = 1,
  /** Bytes a read (small ones in tests, to cross chunk boundaries everywhere). */
  chunkSize = 1 << 20,
): AsyncGenerator<Element[], void, undefined> {
  const stream = createReadStream(path, { start, highWaterMark: chunkSize });
  // a resumed read starts after an element: inside the array already
  let opened = start > 0;
  let closed = false;
  let depth = 0;
  let inString = false;
  let escaped = false;
  let line = firstLine;
  let elemLine = 0;
  let elem: Buffer[] = []; // pieces of the element being read
  let base = start;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    const out: Element[] = [];
    let elemStart = -1; // start of the element within this chunk
    const finish = (endIdx: number) => {
      const piece = chunk.subarray(elemStart, endIdx);
      const text = elem.length ? Buffer.concat([...elem, piece]).toString('utf8') : piece.toString('utf8'); // prettier-ignore
      out.push({ text, line: elemLine, end: base + endIdx, next: line });
      elem = [];
      elemStart = -1;
    };
    if (depth > 0 || elem.length > 0) elemStart = 0;
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk[i]!;
      if (c === 10) line++;
      if (closed) continue;
      if (inString) {
        if (escaped) escaped = false;
        else if (c === 0x5c) escaped = true;
        else if (c === 0x22) inString = false;
        continue;
      }
      if (depth === 0 && elemStart < 0) {
        // between elements
        if (c === 0x20 || c === 10 || c === 13 || c === 9 || c === 0x2c) continue;
        if (c === 0xef || c === 0xbb || c === 0xbf) continue; // a byte order mark
        if (!opened) {
          if (c !== 0x5b) throw new Error(`line ${line}: a JSON array must start with [`);
          opened = true;
          continue;
        }
        if (c === 0x5d) {
          closed = true;
          continue;
        }
        elemStart = i;
        elemLine = line;
        if (c === 0x7b || c === 0x5b) depth = 1;
        else if (c === 0x22) inString = true;
        continue;
      }
      if (c === 0x22) inString = true;
      else if (c === 0x7b || c === 0x5b) depth++;
      else if (c === 0x7d || c === 0x5d) {
        if (depth === 0) {
          // the array's end right after a bare scalar element
          finish(i);
          closed = true;
          continue;
        }
        if (--depth === 0) finish(i + 1);
      } else if (depth === 0 && c === 0x2c) finish(i);
    }
    if (elemStart >= 0) elem.push(chunk.subarray(elemStart));
    base += chunk.length;
    if (out.length > 0) yield out;
  }
  if (elem.length > 0) {
    const text = Buffer.concat(elem).toString('utf8');
    if (text.trim() !== '') yield [{ text, line: elemLine, end: base, next: line }];
  }
}
