/** The XContentParser token a parsed JSON value starts with, as ES names it in error messages. */
export type Token =
  'VALUE_STRING' | 'VALUE_NUMBER' | 'VALUE_BOOLEAN' | 'VALUE_NULL' | 'START_OBJECT' | 'START_ARRAY'; // prettier-ignore

export function tokenOf(v: unknown): Token {
  if (v === null || v === undefined) return 'VALUE_NULL';
  if (Array.isArray(v)) return 'START_ARRAY';
  switch (typeof v) {
    case 'string':
      return 'VALUE_STRING';
    case 'number':
    case 'bigint':
      return 'VALUE_NUMBER';
    case 'boolean':
      return 'VALUE_BOOLEAN';
  }
  return 'START_OBJECT';
}
