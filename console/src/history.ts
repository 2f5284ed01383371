/** The last requests and queries run, kept in localStorage (newest first, duplicates once). */
export interface HistoryEntry {
  readonly kind: 'rest' | 'sql';
  readonly text: string;
  readonly at: number;
}

const KEY = 'quarry.console.history';
const MAX = 50;

/** localStorage, or a stand-in (tests). */
export interface KeyValueStore {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

export function readHistory(store: KeyValueStore): HistoryEntry[] {
  try {
    const v = JSON.parse(store.getItem(KEY) ?? '[]');
    return Array.isArray(v) ? v : [];
  } catch {
    return [];
  }
}

export function remember(entry: Omit<HistoryEntry, 'at'>, store: KeyValueStore): HistoryEntry[] {
  const list = [
    { ...entry, at: Date.now() },
    ...readHistory(store).filter((e) => e.kind !== entry.kind || e.text !== entry.text),
  ].slice(0, MAX);
  try {
    store.setItem(KEY, JSON.stringify(list));
  } catch {
    // storage full or disabled: history is a convenience
  }
  return list;
}
