/**
 * The Dev Tools buffer's highlighting: method lines (method keyword and URL) and JSON bodies,
 * with `#` and `//` comments. Bracket matching falls back to plain bracket characters.
 */
import { StreamLanguage, type StringStream } from '@codemirror/language';

interface State {
  line: 'method' | 'body';
}

export const consoleLanguage = StreamLanguage.define<State>({
  name: 'quarry-console',
  startState: () => ({ line: 'body' }),
  token(stream: StringStream, state: State): string | null {
    if (stream.sol()) {
      state.line = 'body';
      if (stream.match(/^\s*(GET|POST|PUT|DELETE|HEAD)(?=\s|$)/i)) {
        state.line = 'method';
        return 'keyword';
      }
    }
    if (stream.eatSpace()) return null;
    if (stream.match('#') || stream.match('//')) {
      stream.skipToEnd();
      return 'comment';
    }
    if (state.line === 'method') {
      stream.skipToEnd();
      return 'url';
    }
    if (stream.peek() === '"') {
      stream.next();
      let escaped = false;
      let ch: string | void;
      while ((ch = stream.next()) !== undefined) {
        if (ch === '"' && !escaped) break;
        escaped = !escaped && ch === '\\';
      }
      return stream.match(/^\s*:/, false) ? 'propertyName' : 'string';
    }
    if (stream.match(/^-?\d+(\.\d+)?([eE][+-]?\d+)?/)) return 'number';
    if (stream.match(/^(true|false|null)\b/)) return 'atom';
    if (stream.match(/^[{}[\]]/)) return 'bracket';
    stream.next();
    return 'punctuation';
  },
  languageData: { commentTokens: { line: '#' }, closeBrackets: { brackets: ['(', '[', '{', '"'] } },
});
