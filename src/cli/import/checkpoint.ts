/**
 * The import checkpoint: the byte offset (and line) up to which every document of the file is
 * acknowledged by the server, so `--resume` starts there. Written atomically (temporary file and
 * rename) as the contiguous acknowledged prefix grows; removed when the import completes.
 */
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';

export interface Checkpoint {
  readonly file: string;
  readonly size: number;
  readonly index: string;
  readonly offset: number;
  /** The line number of the first line after the offset. */
  readonly nextLine: number;
  readonly imported: number;
  readonly failed: number;
}

export function readCheckpoint(path: string): Checkpoint | null {
  if (!existsSync(path)) return null;
  try {
    const c = JSON.parse(readFileSync(path, 'utf8')) as Checkpoint;
    return typeof c.offset === 'number' && typeof c.nextLine === 'number' ? c : null;
  } catch {
    return null;
  }
}

export function writeCheckpoint(path: string, c: Checkpoint): void {
  const tmp = `${path}.tmp`;
  writeFileSync(tmp, JSON.stringify(c) + '\n');
  renameSync(tmp, path);
}

export const removeCheckpoint = (path: string): void => rmSync(path, { force: true });
