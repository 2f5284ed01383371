/**
 * A store in a temporary directory per test: `t.dir(prefix)` makes the directory, `t.open(path)`
 * opens a Store there (the one closed after the test), `t.close()` closes it early (a restart);
 * after each test the store is closed and every directory made is removed.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { Store } from '../../src/store/store.js';

export interface TempStore {
  dir(prefix: string): string;
  open(path: string): Store;
  close(): Promise<void>;
}

export function useTempStore(): TempStore {
  const dirs: string[] = [];
  let store: Store | null = null;
  const t: TempStore = {
    dir(prefix) {
      const d = mkdtempSync(join(tmpdir(), prefix));
      dirs.push(d);
      return d;
    },
    open(path) {
      store = Store.open(path);
      return store;
    },
    async close() {
      await store?.close();
      store = null;
    },
  };
  afterEach(async () => {
    await t.close();
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });
  return t;
}
