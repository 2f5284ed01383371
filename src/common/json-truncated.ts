/**
 * A truncated JSON text made whole: the containers still open at its end are closed. ES reads a
 * search body as a token stream, so a body cut short fails where the parser first trips; this
 * lets a caller look at what came before the cut. Null when the text does not end between
 * values (inside a string, after a key or a comma) or is not a plain truncation.
 */
export function closeTruncatedJson(text: string): string | null {
  const open: string[] = [];
  let inString = false;
  let last = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') {
        inString = false;
        last = '"';
      }
      continue;
    }
    if (c === ' ' || c === '\n' || c === '\r' || c === '\t') continue;
    if (c === '"') inString = true;
    else if (c === '{' || c === '[') open.push(c === '{' ? '}' : ']');
    else if (c === '}' || c === ']') {
      if (open.pop() !== c) return null;
    }
    last = c;
  }
  if (inString || open.length === 0 || last === ',' || last === ':') return null;
  // an object may only close after a value or right after it opened
  if (open[open.length - 1] === '}' && last === '"' && !endsWithValue(text)) return null;
  return text + open.reverse().join('');
}

/** Whether the string ending `text` is a value (after `:` or in an array), not a key. */
function endsWithValue(text: string): boolean {
  const end = text.trimEnd();
  let i = end.length - 2;
  while (i >= 0 && !(end[i] === '"' && !isEscaped(end, i))) i--;
  const before = end.slice(0, i).trimEnd();
  return before.endsWith(':');
}

function isEscaped(s: string, i: number): boolean {
  let n = 0;
  while (i - 1 - n >= 0 && s[i - 1 - n] === '\\') n++;
  return n % 2 === 1;
}
