/** The console's history: newest first, a repeated entry moved up, bounded. */
import { describe, expect, it } from 'vitest';
import { readHistory, remember } from '../../../console/src/history.js';

const memory = () => {
  const m = new Map<string, string>();
  return {
    getItem: (k: string) => m.get(k) ?? null,
    setItem: (k: string, v: string) => void m.set(k, v),
  };
};

describe('console history', () => {
  it('keeps entries newest first, once each, at most 50', () => {
    const s = memory();
    remember({ kind: 'rest', text: 'GET /a' }, s);
    remember({ kind: 'sql', text: 'SELECT 1' }, s);
    remember({ kind: 'rest', text: 'GET /a' }, s);
    expect(readHistory(s).map((e) => e.text)).toEqual(['GET /a', 'SELECT 1']);
    for (let i = 0; i < 60; i++) remember({ kind: 'rest', text: `GET /${i}` }, s);
    expect(readHistory(s)).toHaveLength(50);
    expect(readHistory(s)[0]!.text).toBe('GET /59');
  });

  it('reads a corrupt entry as empty', () => {
    const s = memory();
    s.setItem('quarry.console.history', '{nope');
    expect(readHistory(s)).toEqual([]);
  });
});
