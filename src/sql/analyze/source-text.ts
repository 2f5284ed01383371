/**
 * Slices of the statement text for ES `Source`s that span several AST nodes: the GROUP BY clause
 * ("GROUP BY 1, 2", ES `source(ctx.GROUP(), lastGroupingElement)`) and the ORDER BY clause
 * ("ORDER BY 2, 3", ES `source(ctx.ORDER(), lastOrderBy)`), which ES quotes in ordinal messages.
 */
import type { Loc } from '../ast/nodes.js';

export class SourceText {
  /** Where each line starts, found on first use (most statements never ask). */
  private starts: number[] | null = null;

  constructor(readonly text: string) {}

  private get lineStarts(): number[] {
    if (this.starts === null) {
      const starts = [0];
      for (let i = this.text.indexOf('\n'); i >= 0; i = this.text.indexOf('\n', i + 1))
        starts.push(i + 1);
      this.starts = starts;
    }
    return this.starts;
  }

  offset(loc: Loc): number {
    return loc.line === 1 ? loc.column - 1 : (this.lineStarts[loc.line - 1] ?? 0) + loc.column - 1;
  }

  /** From `start` to the end of the node starting at `endLoc` whose text is `endText`. */
  span(start: Loc, endLoc: Loc, endText: string): string {
    return this.text.slice(this.offset(start), this.offset(endLoc) + endText.length);
  }

  /** The GROUP BY clause: the keywords before the first grouping up to the last one's end. */
  groupByClause(first: Loc, last: Loc, lastText: string): string {
    const firstOff = this.offset(first);
    const m = /GROUP\s+BY\s*$/i.exec(this.text.slice(0, firstOff));
    const startOff = m ? m.index : firstOff;
    return this.text.slice(startOff, this.offset(last) + lastText.length);
  }

  /** Where the DISTINCT of a SELECT starts (ES source(ctx.setQuantifier())). */
  distinctLoc(select: Loc): Loc {
    const off = this.offset(select);
    const m = /^SELECT\s+/i.exec(this.text.slice(off));
    return this.locOf(off + (m ? m[0].length : 0));
  }

  /** The ORDER BY clause: the keyword before the first item up to the last item's end. */
  orderByClause(first: Loc, last: Loc, lastText: string): { text: string; loc: Loc } {
    const firstOff = this.offset(first);
    const before = this.text.slice(0, firstOff);
    const m = /ORDER\s+BY\s*$/i.exec(before);
    const startOff = m ? m.index : firstOff;
    let end = this.offset(last) + lastText.length;
    const tail = /^(\s+(ASC|DESC))?(\s+NULLS\s+(FIRST|LAST))?/i.exec(this.text.slice(end));
    if (tail) end += tail[0].length;
    return { text: this.text.slice(startOff, end), loc: this.locOf(startOff) };
  }

  locOf(offset: number): Loc {
    let line = 0;
    while (line + 1 < this.lineStarts.length && this.lineStarts[line + 1]! <= offset) line++;
    return { line: line + 1, column: offset - this.lineStarts[line]! + 1 };
  }
}
