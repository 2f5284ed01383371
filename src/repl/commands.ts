/**
 * What one CLI statement asks for (ES sql-cli CliCommands): the client-side commands — fetch size,
 * fetch separator, lenient, info, logo, help, cls, exit/quit — or SQL for the server. Patterns
 * follow ES's (case-insensitive, `fetch size` or `fetch_size`); a separator may be quoted with
 * double (ES) or single quotes.
 */

export type CliCommand =
  | { readonly kind: 'exit' }
  | { readonly kind: 'help' }
  | { readonly kind: 'info' }
  | { readonly kind: 'logo' }
  | { readonly kind: 'clear' }
  | { readonly kind: 'fetchSize'; readonly value: string }
  | { readonly kind: 'fetchSeparator'; readonly value: string }
  | { readonly kind: 'lenient'; readonly value: string }
  | { readonly kind: 'sql'; readonly text: string };

const FETCH_SIZE = /^fetch(?: |_)size *= *(.+)$/is;
const FETCH_SEPARATOR = /^fetch(?: |_)separator *= *(?:"(.+)"|'(.+)')$/is;
const LENIENT = /^lenient *= *(.+)$/is;

/** Classifies a statement (trimmed, without its `;`). */
export function parseCommand(statement: string): CliCommand {
  const s = statement.trim();
  const lower = s.toLowerCase();
  if (lower === 'exit' || lower === 'quit') return { kind: 'exit' };
  if (lower === 'help') return { kind: 'help' };
  if (lower === 'info') return { kind: 'info' };
  if (lower === 'logo') return { kind: 'logo' };
  if (lower === 'cls') return { kind: 'clear' };
  let m = FETCH_SIZE.exec(s);
  if (m) return { kind: 'fetchSize', value: m[1]!.trim() };
  m = FETCH_SEPARATOR.exec(s);
  if (m) return { kind: 'fetchSeparator', value: m[1] ?? m[2]! };
  m = LENIENT.exec(s);
  if (m) return { kind: 'lenient', value: m[1]!.trim() };
  return { kind: 'sql', text: s };
}

/** Java's Integer.parseInt for a fetch size: digits with an optional sign, 32-bit. */
export function parseFetchSize(v: string): number | null {
  if (!/^[+-]?\d+$/.test(v)) return null;
  const n = Number(v);
  return n >= -2147483648 && n <= 2147483647 ? n : null;
}

export const HELP_TEXT = [
  "Statements end with ';' and may span several lines.",
  '',
  '  <SQL statement>;               run it on the server, results as a text table',
  '  fetch size = <n>;              rows fetched per page (default 1000)',
  '  fetch separator = "<text>";    printed between pages (default: nothing)',
  '  lenient = true|false;          return the first value of multi-valued fields',
  '  info;                          the server: node, cluster and version',
  '  logo;                          the banner',
  '  cls;                           clear the screen',
  '  help;                          this text',
  '  exit; or quit;                 leave',
].join('\n');
