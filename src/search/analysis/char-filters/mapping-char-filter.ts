/** Lucene MappingCharFilter (ES `mapping`): greedy longest-match replacement of fixed strings. */
import { illegalArgument } from '../../../common/errors.js';
import { OffsetMap, type CharFilter } from './offset-map.js';

export class MappingCharFilter implements CharFilter {
  private readonly map = new Map<string, string>();
  private readonly byFirst = new Map<string, number>(); // first char -> longest key length

  constructor(
    readonly name: string,
    rules: readonly string[],
  ) {
    for (const rule of rules) {
      const m = /^(.*?)\s*=>\s*(.*)$/s.exec(rule);
      if (m === null) throw illegalArgument(`Invalid Mapping Rule : [${rule}]`);
      const key = unescapeMapping(m[1]!.trim());
      if (key.length === 0) throw illegalArgument(`Invalid Mapping Rule : [${rule}]`);
      this.map.set(key, unescapeMapping(m[2]!.trim()));
      const f = key[0]!;
      this.byFirst.set(f, Math.max(this.byFirst.get(f) ?? 0, key.length));
    }
  }

  apply(text: string): { text: string; map: OffsetMap } {
    const om = new OffsetMap();
    let out = '';
    let i = 0;
    while (i < text.length) {
      const maxLen = this.byFirst.get(text[i]!);
      let matched = false;
      if (maxLen !== undefined) {
        for (let l = Math.min(maxLen, text.length - i); l >= 1; l--) {
          const repl = this.map.get(text.slice(i, i + l));
          if (repl !== undefined) {
            om.replaced(i, l, repl.length);
            out += repl;
            i += l;
            matched = true;
            break;
          }
        }
      }
      if (!matched) out += text[i++];
    }
    return { text: out, map: om };
  }
}

/** ES MappingCharFilterFactory escapes: \\, \n, \t, \r, \b, \f, \uXXXX. */
function unescapeMapping(s: string): string {
  return s.replace(/\\(u[0-9a-fA-F]{4}|.)/g, (_, e: string) => {
    if (e[0] === 'u' && e.length === 5) return String.fromCharCode(parseInt(e.slice(1), 16));
    const simple: Record<string, string> = { n: '\n', t: '\t', r: '\r', b: '\b', f: '\f' };
    return simple[e] ?? e;
  });
}
