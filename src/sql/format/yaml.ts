/**
 * `format=yaml`: SqlQueryResponse through ES's YAML XContent (Jackson YAMLGenerator defaults):
 * a `---` document start, block style, sequences not indented under their key, every string
 * double-quoted, numbers and booleans plain. Long strings are not folded.
 */
import { isNumberNode, responseTree, type SqlResponse, type XNode } from './json.js';

function yamlString(s: string): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const ch = s[i]!;
    const c = s.charCodeAt(i);
    if (ch === '"') out += '\\"';
    else if (ch === '\\') out += '\\\\';
    else if (c === 0x0a) out += '\\n';
    else if (c === 0x09) out += '\\t';
    else if (c === 0x0d) out += '\\r';
    else if (c < 0x20 || c === 0x7f) out += '\\x' + c.toString(16).toUpperCase().padStart(2, '0');
    else out += ch;
  }
  return out + '"';
}

function scalar(n: XNode): string | null {
  if (n === null) return 'null';
  if (typeof n === 'boolean') return n ? 'true' : 'false';
  if (typeof n === 'string') return yamlString(n);
  if (isNumberNode(n))
    return Number.isFinite(n.value)
      ? n.number
      : n.value > 0
        ? '.inf'
        : n.value < 0
          ? '-.inf'
          : '.nan';
  return null;
}

const isEmptyContainer = (n: XNode) =>
  Array.isArray(n)
    ? n.length === 0
    : n !== null && typeof n === 'object' && Object.keys(n).length === 0;

function emit(n: XNode, indent: string, lines: string[], prefix: string): void {
  const s = scalar(n);
  if (s !== null) {
    lines.push(prefix + s);
    return;
  }
  if (Array.isArray(n)) {
    if (n.length === 0) {
      lines.push(prefix + '[]');
      return;
    }
    // the first item continues the current line ("- - x"), later ones start at `indent`
    let first = true;
    for (const item of n) {
      emit(item, indent + '  ', lines, (first ? prefix : indent) + '- ');
      first = false;
    }
    return;
  }
  const obj = n as { [k: string]: XNode };
  let first = true;
  for (const [k, v] of Object.entries(obj)) {
    const head = (first ? prefix : indent) + k + ':';
    first = false;
    const sv = scalar(v);
    if (sv !== null) lines.push(head + ' ' + sv);
    else if (isEmptyContainer(v)) lines.push(head + (Array.isArray(v) ? ' []' : ' {}'));
    else if (Array.isArray(v)) {
      lines.push(head);
      emit(v, indent, lines, indent);
    } else {
      lines.push(head);
      emit(v, indent + '  ', lines, indent + '  ');
    }
  }
}

/** The `/_sql?format=yaml` body text. */
export function toYamlText(r: SqlResponse, pageTypes?: readonly string[]): string {
  const lines: string[] = ['---'];
  emit(responseTree(r, pageTypes), '', lines, '');
  return lines.join('\n') + '\n';
}
