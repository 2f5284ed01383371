/**
 * Splits CLI input into statements: a `;` ends one unless it sits inside a string ('...' with ''
 * escapes), a quoted identifier ("..." or `...`), a `--` line comment or a (nestable, as the ES
 * SQL lexer's BRACKETED_COMMENT) block comment. What follows the last `;` is kept as the
 * unfinished rest for the next line.
 */

export interface SplitResult {
  /** Complete statements, trimmed, without their `;`; comment-only pieces are dropped. */
  readonly statements: string[];
  /** Text after the last complete statement (still open quotes or comments included). */
  readonly rest: string;
  /** Whether `rest` holds more than whitespace and comments (an unfinished statement). */
  readonly open: boolean;
}

const enum State {
  Code,
  Single,
  Double,
  Back,
  Line,
  Block,
}

export function splitStatements(text: string): SplitResult {
  const statements: string[] = [];
  let state = State.Code;
  let depth = 0; // block comment nesting
  let start = 0;
  let hasCode = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    const next = text[i + 1];
    switch (state) {
      case State.Code:
        if (c === ';') {
          if (hasCode) statements.push(text.slice(start, i).trim());
          start = i + 1;
          hasCode = false;
        } else if (c === '-' && next === '-') {
          state = State.Line;
          i++;
        } else if (c === '/' && next === '*') {
          state = State.Block;
          depth = 1;
          i++;
        } else {
          if (c === "'") state = State.Single;
          else if (c === '"') state = State.Double;
          else if (c === '`') state = State.Back;
          if (!/\s/.test(c)) hasCode = true;
        }
        break;
      case State.Single:
      case State.Double:
      case State.Back: {
        const q = state === State.Single ? "'" : state === State.Double ? '"' : '`';
        if (c === q) {
          if (next === q)
            i++; // doubled quote: an escaped one
          else state = State.Code;
        }
        break;
      }
      case State.Line:
        if (c === '\n') state = State.Code;
        break;
      case State.Block:
        if (c === '/' && next === '*') {
          depth++;
          i++;
        } else if (c === '*' && next === '/') {
          i++;
          if (--depth === 0) state = State.Code;
        }
        break;
    }
  }
  return { statements, rest: text.slice(start), open: hasCode };
}

/** Whether `text` holds anything but whitespace and comments (an unfinished statement). */
export const hasStatementText = (text: string): boolean => splitStatements(text).open;
