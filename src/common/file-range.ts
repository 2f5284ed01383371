/** Byte ranges of files, read with `pread` (a segment blob where the store keeps it). */
import { closeSync, openSync, readSync } from 'node:fs';

/** `length` bytes of `file` from `offset`. */
export interface FileRange {
  readonly file: string;
  readonly offset: number;
  readonly length: number;
}

/** A heap copy of a file range (an ArrayBuffer of its own); null if the file is cut short. */
export function readFileRange(range: FileRange): Buffer | null {
  const copy = Buffer.allocUnsafeSlow(range.length);
  const fd = openSync(range.file, 'r');
  try {
    let done = 0;
    while (done < copy.length) {
      const n = readSync(fd, copy, done, copy.length - done, range.offset + done);
      if (n <= 0) return null;
      done += n;
    }
  } finally {
    closeSync(fd);
  }
  return copy;
}
