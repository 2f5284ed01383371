import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IndexService } from '../../../src/engine/index-service.js';
import type { IndexMeta } from '../../../src/engine/index-meta.js';
import { Store } from '../../../src/store/store.js';

let dir: string;
let store: Store;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'quarry-mctx-'));
  store = Store.open(dir);
});
afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const meta = (settings: Record<string, string>): IndexMeta => ({
  name: 'i',
  uuid: 'u1',
  creationDate: 0,
  settings: { 'index.number_of_shards': '1', 'index.number_of_replicas': '0', ...settings },
  mapping: null,
  aliases: {},
  state: 'open',
  primaryTerm: 1,
  version: 1,
});

describe('IndexService.mappingContext', () => {
  it('is built once and rebuilt when the settings change', () => {
    const idx = new IndexService(meta({ 'index.mapping.total_fields.limit': '7' }), store);
    const a = idx.mappingContext();
    expect(idx.mappingContext()).toBe(a);
    expect(a.limits!.totalFields).toBe(7);
    idx.meta.settings['index.mapping.total_fields.limit'] = '9';
    idx.meta.settings['index.mapping.coerce'] = 'false';
    idx.settingsChanged();
    const b = idx.mappingContext();
    expect(b).not.toBe(a);
    expect(b.limits!.totalFields).toBe(9);
    expect(b.coerceDefault).toBe(false);
    // A settings object replaced wholesale (a rolled-back update) is noticed too.
    idx.meta.settings = { ...idx.meta.settings, 'index.mapping.depth.limit': '3' };
    expect(idx.mappingContext().limits!.depth).toBe(3);
    idx.stop();
  });

  it('parses dates with the format asked for, whichever came before', () => {
    const idx = new IndexService(meta({}), store);
    const ctx = idx.mappingContext();
    expect(ctx.parseDate!('2020-01-02', 'yyyy-MM-dd')).toBe(Date.UTC(2020, 0, 2));
    expect(ctx.parseDate!('02/01/2020', 'dd/MM/yyyy')).toBe(Date.UTC(2020, 0, 2));
    expect(ctx.parseDate!('2020-01-03', 'yyyy-MM-dd')).toBe(Date.UTC(2020, 0, 3));
    expect(() => ctx.parseDate!('2020-01-03', 'dd/MM/yyyy')).toThrow();
    idx.stop();
  });
});
