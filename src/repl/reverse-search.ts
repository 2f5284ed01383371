/**
 * Ctrl-R reverse incremental search over the history (bash's reverse-i-search), which Node's
 * readline lacks. Pure: a state and the step for one key; the terminal draws `render` and applies
 * the outcome (accept the match and run it, leave with the match in the line, or cancel).
 */

export interface SearchState {
  readonly query: string;
  /** Index of the match in the newest-first history, or -1 when nothing matches. */
  readonly index: number;
  /** The line being edited when the search started (restored on cancel). */
  readonly original: string;
}

export type SearchKey =
  | { readonly kind: 'char'; readonly text: string }
  | { readonly kind: 'backspace' }
  /** Ctrl-R again: the next older match. */
  | { readonly kind: 'older' }
  /** Enter: run the match. */
  | { readonly kind: 'accept' }
  /** Ctrl-G / Ctrl-C / Escape: back to the original line. */
  | { readonly kind: 'cancel' }
  /** Any other editing key: keep the match in the line and let the editor handle the key. */
  | { readonly kind: 'leave' };

export type SearchOutcome =
  | { readonly kind: 'searching'; readonly state: SearchState }
  | { readonly kind: 'accept'; readonly line: string }
  | { readonly kind: 'leave'; readonly line: string }
  | { readonly kind: 'cancel'; readonly line: string };

export function startSearch(original: string): SearchState {
  return { query: '', index: -1, original };
}

/** The first entry at or after `from` containing `query` (case-sensitive, as bash), or -1. */
export function findOlder(history: readonly string[], query: string, from: number): number {
  if (query === '') return -1;
  for (let i = Math.max(0, from); i < history.length; i++) {
    if (history[i]!.includes(query)) return i;
  }
  return -1;
}

export const matchOf = (s: SearchState, history: readonly string[]): string =>
  s.index >= 0 ? history[s.index]! : s.query === '' ? s.original : '';

export function searchStep(
  s: SearchState,
  history: readonly string[],
  key: SearchKey,
): SearchOutcome {
  switch (key.kind) {
    case 'char': {
      const query = s.query + key.text;
      // the current match still matches a longer query more often than not: search from it
      const index = findOlder(history, query, Math.max(0, s.index));
      return { kind: 'searching', state: { ...s, query, index } };
    }
    case 'backspace': {
      const query = s.query.slice(0, -1);
      return { kind: 'searching', state: { ...s, query, index: findOlder(history, query, 0) } };
    }
    case 'older': {
      if (s.query === '') return { kind: 'searching', state: s };
      const next = findOlder(history, s.query, s.index + 1);
      return { kind: 'searching', state: next >= 0 ? { ...s, index: next } : s };
    }
    case 'accept':
      return { kind: 'accept', line: s.index >= 0 ? history[s.index]! : s.original };
    case 'leave':
      return { kind: 'leave', line: s.index >= 0 ? history[s.index]! : s.original };
    case 'cancel':
      return { kind: 'cancel', line: s.original };
  }
}

/** The search line, as bash draws it (`failed` when the query matches nothing). */
export function renderSearch(s: SearchState, history: readonly string[]): string {
  const failed = s.query !== '' && s.index < 0;
  return `(${failed ? 'failed ' : ''}reverse-i-search)\`${s.query}': ${matchOf(s, history)}`;
}
