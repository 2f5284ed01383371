/**
 * ES loads settings (index settings, and the anonymous analysis components of `_analyze`) by
 * writing the request's map back to JSON and reading it with Settings.fromXContent, which takes
 * only lists of values: an array holding an object, an array or null fails the whole load.
 */
import { EsError } from './errors.js';
import { stringifyDeep } from './json.js';

/** ES Settings.Builder#loadFromSource: a SettingsException (500) around the parser's complaint. */
export function onlyValueLists(source: unknown): EsError {
  return new EsError('settings_exception', `Failed to load settings from [${stringifyDeep(source)}]`, 500, {
    causedBy: new EsError('illegal_state_exception', 'only value lists are allowed in serialized settings', 500),
  }); // prettier-ignore
}

/** Throws onlyValueLists unless every array in `source` (at any depth) holds values only. */
export function checkValueLists(source: unknown): void {
  const todo: unknown[] = [source];
  while (todo.length > 0) {
    const v = todo.pop();
    if (Array.isArray(v)) {
      if (v.some((x) => x === null || typeof x === 'object')) throw onlyValueLists(source);
    } else if (v !== null && typeof v === 'object') todo.push(...Object.values(v));
  }
}
