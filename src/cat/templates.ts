/** `_cat/templates` rows (ES 6.8 RestTemplatesAction): the templates whose name matches. */
import type { IndexTemplate } from '../engine/templates.js';
import { simpleMatch } from '../engine/index-names.js';
import type { Cell } from './table.js';

export function templateRows(
  templates: readonly IndexTemplate[],
  pattern: string | undefined,
): Cell[][] {
  return templates
    .filter((t) => pattern === undefined || simpleMatch(pattern, t.name))
    .map((t) => [t.name, `[${t.indexPatterns.join(', ')}]`, t.order, t.version ?? null]);
}
