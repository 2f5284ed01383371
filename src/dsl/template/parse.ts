/**
 * Mustache template parsing as mustache.java parses what ES 6.8's lang-mustache compiles: tags in
 * `{{ }}` (or set delimiters), sections, inverted sections, comments, unescaped values and ES's
 * custom functions `toJson`, `join` (with an optional delimiter) and `url`. Partials are refused.
 */

/** A parsed template node. */
export type TemplateNode =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'value'; readonly name: string; readonly escape: boolean }
  | {
      readonly kind: 'section';
      readonly name: string;
      readonly inverted: boolean;
      readonly children: readonly TemplateNode[];
    }
  /** `{{#toJson}}name{{/toJson}}`, `{{#join}}name{{/join}}`: the body names the value. */
  | { readonly kind: 'toJson'; readonly name: string }
  | { readonly kind: 'join'; readonly name: string; readonly delimiter: string }
  /** `{{#url}}...{{/url}}`: the rendered body, URL-encoded. */
  | { readonly kind: 'url'; readonly children: readonly TemplateNode[] };

/** A template that does not compile; `message` is mustache.java's. */
export class MustacheSyntaxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MustacheSyntaxError';
  }
}

/** ES names every compiled template this way (MustacheScriptEngine). */
const FILE = 'query-template';

const JOIN = /^join(?:\s+delimiter\s*=\s*'([^']*)')?$/;

interface Frame {
  name: string;
  inverted: boolean;
  nodes: TemplateNode[];
  /** Where the section's body starts, for the functions that read it as text. */
  bodyStart: number;
  line: number;
}

/** Parses `source` into nodes, or throws MustacheSyntaxError. */
export function parseTemplate(source: string): TemplateNode[] {
  let open = '{{';
  let close = '}}';
  const root: Frame = { name: '', inverted: false, nodes: [], bodyStart: 0, line: 1 };
  const stack: Frame[] = [root];
  let pos = 0;
  const lineAt = (i: number) => {
    let n = 1;
    for (let j = 0; j < i && j < source.length; j++) if (source.charCodeAt(j) === 10) n++;
    return n;
  };
  const text = (t: string) => {
    if (t.length > 0) stack[stack.length - 1]!.nodes.push({ kind: 'text', text: t });
  };
  while (pos < source.length) {
    const at = source.indexOf(open, pos);
    if (at < 0) {
      text(source.slice(pos));
      break;
    }
    text(source.slice(pos, at));
    const tagStart = at;
    let i = at + open.length;
    const sigil = source[i];
    // `{{{name}}}` closes with one more brace than the delimiter
    if (sigil === '{' && open === '{{') {
      const end = source.indexOf(close, i + 1);
      if (end < 0) throw new MustacheSyntaxError(`Improperly closed variable in ${FILE}:${lineAt(at)}`); // prettier-ignore
      if (source[end + close.length] !== '}')
        throw new MustacheSyntaxError(`Improperly closed variable in ${FILE}:${lineAt(at)}`);
      const name = source.slice(i + 1, end).trim();
      stack[stack.length - 1]!.nodes.push({ kind: 'value', name, escape: false });
      pos = end + close.length + 1;
      continue;
    }
    const end = source.indexOf(close, i);
    if (end < 0) throw new MustacheSyntaxError(`Improperly closed variable in ${FILE}:${lineAt(at)}`); // prettier-ignore
    let body = source.slice(i, end);
    pos = end + close.length;
    const first = body[0];
    if (first === '!') continue;
    if (first === '=') {
      // `{{=<% %>=}}`
      if (!body.endsWith('=')) throw new MustacheSyntaxError(`Invalid delimiter string in ${FILE}:${lineAt(at)}`); // prettier-ignore
      const parts = body.slice(1, -1).trim().split(/\s+/);
      if (parts.length !== 2 || !parts[0] || !parts[1])
        throw new MustacheSyntaxError(`Invalid delimiter string in ${FILE}:${lineAt(at)}`);
      open = parts[0];
      close = parts[1];
      continue;
    }
    if (first === '>' || first === '<')
      throw new MustacheSyntaxError(`Template ${body.slice(1).trim()} not found`);
    if (first === '#' || first === '^' || first === '$') {
      const name = body.slice(1).trim();
      stack.push({ name, inverted: first === '^', nodes: [], bodyStart: pos, line: lineAt(at) });
      continue;
    }
    if (first === '/') {
      const name = body.slice(1).trim();
      const frame = stack.pop()!;
      if (frame === root || frame.name !== name) {
        throw new MustacheSyntaxError(
          frame === root
            ? `Failed to close '${name}' tag @[${FILE}:${lineAt(at)}]`
            : `Mismatched start/end tags: ${frame.name} != ${name} in ${FILE}:${lineAt(at)}`,
        );
      }
      stack[stack.length - 1]!.nodes.push(
        sectionNode(frame, source.slice(frame.bodyStart, tagStart)),
      );
      continue;
    }
    if (first === '&') body = body.slice(1);
    stack[stack.length - 1]!.nodes.push({
      kind: 'value',
      name: body.trim(),
      escape: first !== '&',
    });
  }
  if (stack.length > 1) {
    const f = stack[stack.length - 1]!;
    throw new MustacheSyntaxError(`Failed to close '${f.name}' tag @[${FILE}:${f.line}]`);
  }
  return root.nodes;
}

/** A closed section, or one of ES's functions when its name is one. */
function sectionNode(frame: Frame, bodyText: string): TemplateNode {
  if (!frame.inverted) {
    if (frame.name === 'toJson') return { kind: 'toJson', name: bodyText.trim() };
    if (frame.name === 'url') return { kind: 'url', children: frame.nodes };
    const join = JOIN.exec(frame.name);
    if (join) return { kind: 'join', name: bodyText.trim(), delimiter: join[1] ?? ',' };
  }
  return { kind: 'section', name: frame.name, inverted: frame.inverted, children: frame.nodes };
}
