/**
 * ES AutoCreateIndex.shouldAutoCreate: whether a write may create a missing index under
 * `action.auto_create_index` (`true`, `false`, or `+pattern`/`-pattern` expressions where the first
 * match decides), and the index_not_found_exception that explains a refusal.
 */
import { EsError, illegalArgument } from '../common/errors.js';
import { simpleMatch } from './index-names.js';

const KEY = 'action.auto_create_index';

function refused(reason: string, index: string): EsError {
  return new EsError('index_not_found_exception', `no such index and [${KEY}] ${reason}`, 404, {
    meta: {
      'resource.type': 'index_expression',
      'resource.id': index,
      index_uuid: '_na_',
      index,
    },
  });
}

/** Throws when `index` (known not to exist) may not be created under `setting`. */
export function checkAutoCreate(index: string, setting: string | undefined): void {
  const value = (setting ?? 'true').trim();
  if (value === 'true') return;
  if (value === 'false') throw refused('is [false]', index);
  for (const raw of value.split(',')) {
    const expr = raw.trim();
    if (expr === '' || expr === '+' || expr === '-') {
      throw illegalArgument(`Can't parse [${value}] for setting [${KEY}] must be either [true, false, or a comma separated list of index patterns]`); // prettier-ignore
    }
    const include = !expr.startsWith('-');
    const pattern = expr.startsWith('-') || expr.startsWith('+') ? expr.slice(1) : expr;
    if (!simpleMatch(pattern, index)) continue;
    if (include) return;
    throw refused(`contains [-${pattern}] which forbids automatic creation of the index`, index);
  }
  throw refused(`([${value}]) doesn't match`, index);
}
