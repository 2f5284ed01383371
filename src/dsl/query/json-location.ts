/**
 * Maps a `JsonLocation` (key path + token) to Jackson's token position in the JSON source:
 * 1-based line and column of the token's first character, as ES prints in `line`/`col` and in
 * `[line:col]` prefixes. A small scanner walks the text along the path; it assumes valid JSON.
 */
import type { JsonLocation, SourcePosition } from './errors.js';

class Scanner {
  i = 0;
  constructor(readonly s: string) {}

  ws(): void {
    const s = this.s;
    while (this.i < s.length) {
      const c = s.charCodeAt(this.i);
      if (c === 32 || c === 9 || c === 10 || c === 13) this.i++;
      else break;
    }
  }

  string(): string {
    // at the opening quote
    const start = this.i;
    this.i++;
    while (this.i < this.s.length) {
      const c = this.s[this.i];
      if (c === '\\') this.i += 2;
      else if (c === '"') {
        this.i++;
        break;
      } else this.i++;
    }
    return JSON.parse(this.s.slice(start, this.i)) as string;
  }

  /** Skips one value, leaving `i` after it. */
  skipValue(): void {
    this.ws();
    const c = this.s[this.i];
    if (c === '"') {
      this.string();
    } else if (c === '{' || c === '[') {
      let depth = 0;
      while (this.i < this.s.length) {
        const d = this.s[this.i];
        if (d === '"') {
          this.string();
          continue;
        }
        if (d === '{' || d === '[') depth++;
        else if (d === '}' || d === ']') {
          depth--;
          if (depth === 0) {
            this.i++;
            return;
          }
        }
        this.i++;
      }
    } else {
      while (this.i < this.s.length && !/[\s,}\]]/.test(this.s[this.i]!)) this.i++;
    }
  }

  /** Offset of the closing bracket of the container starting at `i`. */
  endOf(): number {
    const save = this.i;
    this.skipValue();
    const end = this.i - 1;
    this.i = save;
    return end;
  }
}

function toPosition(s: string, offset: number): SourcePosition {
  let line = 1;
  let col = 1;
  for (let k = 0; k < offset && k < s.length; k++) {
    if (s.charCodeAt(k) === 10) {
      line++;
      col = 1;
    } else col++;
  }
  return { line, col };
}

/** Position of `loc` in `source`, or null when the path is not in the text. */
export function locateInJson(source: string, loc: JsonLocation): SourcePosition | null {
  const sc = new Scanner(source);
  sc.ws();
  let keyOffset = -1;
  for (const step of loc.path) {
    sc.ws();
    const open = source[sc.i];
    if (typeof step === 'number') {
      if (open !== '[') return null;
      sc.i++;
      for (let k = 0; k < step; k++) {
        sc.skipValue();
        sc.ws();
        if (source[sc.i] !== ',') return null;
        sc.i++;
      }
      sc.ws();
      keyOffset = -1;
    } else {
      if (open !== '{') return null;
      sc.i++;
      let found = false;
      for (;;) {
        sc.ws();
        if (source[sc.i] !== '"') return null;
        const at = sc.i;
        const key = sc.string();
        sc.ws();
        if (source[sc.i] !== ':') return null;
        sc.i++;
        sc.ws();
        if (key === step) {
          keyOffset = at;
          found = true;
          break;
        }
        sc.skipValue();
        sc.ws();
        if (source[sc.i] !== ',') return null;
        sc.i++;
      }
      if (!found) return null;
    }
  }
  sc.ws();
  switch (loc.at) {
    case 'key':
      return keyOffset < 0 ? null : toPosition(source, keyOffset);
    case 'value':
      return toPosition(source, sc.i);
    case 'end':
      return toPosition(source, sc.endOf());
  }
}
