/** Lucene PatternReplaceCharFilter (ES `pattern_replace`): regex replace over the whole input. */
import { OffsetMap, type CharFilter } from './offset-map.js';

export class PatternReplaceCharFilter implements CharFilter {
  private readonly re: RegExp;
  private readonly replacement: string;

  constructor(
    readonly name: string,
    pattern: RegExp,
    replacement: string,
  ) {
    this.re = new RegExp(
      pattern.source,
      pattern.flags.includes('g') ? pattern.flags : pattern.flags + 'g',
    );
    // Java replacement syntax: "\$" is a literal dollar; JS writes it "$$".
    this.replacement = replacement.replace(/\\\$/g, '$$$$');
  }

  apply(text: string): { text: string; map: OffsetMap } {
    const om = new OffsetMap();
    let out = '';
    let last = 0;
    let cumulative = 0;
    this.re.lastIndex = 0;
    for (let m = this.re.exec(text); m !== null; m = this.re.exec(text)) {
      const groupSize = m[0].length;
      out += text.slice(last, m.index);
      const before = out.length;
      const repl = m[0].replace(
        new RegExp(this.re.source, this.re.flags.replace('g', '')),
        this.replacement,
      );
      out += repl;
      last = m.index + groupSize;
      if (groupSize === 0) this.re.lastIndex++;
      if (repl.length < groupSize) {
        cumulative += groupSize - repl.length;
        om.add(before + repl.length, cumulative);
      } else if (repl.length > groupSize) {
        for (let i = groupSize; i < repl.length; i++) om.add(before + i, --cumulative);
      }
    }
    out += text.slice(last);
    return { text: out, map: om };
  }
}
