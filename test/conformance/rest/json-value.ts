/**
 * Request-body values as the upstream Java runner holds them. Jackson keeps `1.0` a Double and
 * writes it back as `1.0`, and keeps 64-bit longs exact; a JS number would send `1` (which changes
 * dynamic mapping from float to long) and round big longs. So bodies carry `NumberLiteral`s for
 * floats and unsafe integers, produced by the YAML loader and by `parseJsonStream`, and written
 * back by `serializeJson`.
 */
import { javaDoubleToString } from './java-format.js';

export class NumberLiteral {
  constructor(
    readonly text: string,
    readonly isFloat: boolean,
  ) {}

  valueOf(): number {
    return Number(this.text);
  }

  /** The text Jackson writes for this value (Double.toString for doubles). */
  toJavaString(): string {
    if (this.isFloat) return javaDoubleToString(Number(this.text));
    try {
      return BigInt(this.text.replace(/^\+/, '')).toString();
    } catch {
      return this.text;
    }
  }

  toJSON(): number {
    return Number(this.text);
  }
}

/** Replaces every `NumberLiteral` by a plain number (for assertions and display). */
export function toPlain(v: unknown): unknown {
  if (v instanceof NumberLiteral) return v.valueOf();
  if (Array.isArray(v)) return v.map(toPlain);
  if (v !== null && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[k] = toPlain(x);
    return out;
  }
  return v;
}

/** Compact JSON, writing `NumberLiteral`s as Jackson would. */
export function serializeJson(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (v instanceof NumberLiteral) return v.toJavaString();
  switch (typeof v) {
    case 'string':
      return JSON.stringify(v);
    case 'number':
      return Number.isFinite(v) ? String(v) : JSON.stringify(javaDoubleToString(v));
    case 'boolean':
      return v ? 'true' : 'false';
    case 'bigint':
      return v.toString();
  }
  if (Array.isArray(v)) return '[' + v.map(serializeJson).join(',') + ']';
  if (typeof v === 'object') {
    const parts: string[] = [];
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
      parts.push(JSON.stringify(k) + ':' + serializeJson(x));
    }
    return '{' + parts.join(',') + '}';
  }
  return JSON.stringify(String(v));
}

export class JsonSyntaxError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(`${message} at offset ${offset}`);
  }
}

/**
 * Parses whitespace-separated JSON values (a bulk/msearch body written as one YAML string), as
 * the upstream DoSection does with repeated `mapOrdered()` calls.
 */
export function parseJsonStream(text: string): unknown[] {
  const p = new StreamParser(text);
  const out: unknown[] = [];
  p.skipWs();
  while (p.pos < text.length) {
    out.push(p.value());
    p.skipWs();
  }
  return out;
}

const NUMBER_RE = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?/y;

class StreamParser {
  pos = 0;
  constructor(private readonly s: string) {}

  skipWs(): void {
    while (this.pos < this.s.length) {
      const c = this.s.charCodeAt(this.pos);
      if (c === 32 || c === 9 || c === 10 || c === 13) this.pos++;
      else break;
    }
  }

  private fail(msg: string): never {
    throw new JsonSyntaxError(msg, this.pos);
  }

  value(): unknown {
    this.skipWs();
    const c = this.s[this.pos];
    if (c === '{') return this.object();
    if (c === '[') return this.array();
    if (c === '"') return this.string();
    if (c === 't' && this.s.startsWith('true', this.pos)) return ((this.pos += 4), true);
    if (c === 'f' && this.s.startsWith('false', this.pos)) return ((this.pos += 5), false);
    if (c === 'n' && this.s.startsWith('null', this.pos)) return ((this.pos += 4), null);
    if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) return this.number();
    return this.fail(c === undefined ? 'unexpected end of input' : `unexpected character '${c}'`);
  }

  private number(): unknown {
    NUMBER_RE.lastIndex = this.pos;
    const m = NUMBER_RE.exec(this.s);
    if (!m) return this.fail('malformed number');
    this.pos += m[0].length;
    const isFloat = m[1] !== undefined || m[2] !== undefined;
    const n = Number(m[0]);
    if (isFloat) return new NumberLiteral(m[0], true);
    return Number.isSafeInteger(n) ? n : new NumberLiteral(m[0], false);
  }

  private string(): string {
    const start = this.pos;
    this.pos++;
    while (this.pos < this.s.length) {
      const c = this.s[this.pos];
      if (c === '"') {
        this.pos++;
        try {
          return JSON.parse(this.s.slice(start, this.pos)) as string;
        } catch {
          this.pos = start;
          return this.fail('malformed string');
        }
      }
      this.pos += c === '\\' ? 2 : 1;
    }
    return this.fail('unterminated string');
  }

  private object(): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    this.pos++;
    this.skipWs();
    if (this.s[this.pos] === '}') return (this.pos++, out);
    for (;;) {
      this.skipWs();
      if (this.s[this.pos] !== '"') this.fail('expected a field name');
      const key = this.string();
      this.skipWs();
      if (this.s[this.pos] !== ':') this.fail("expected ':'");
      this.pos++;
      out[key] = this.value();
      this.skipWs();
      const c = this.s[this.pos++];
      if (c === '}') return out;
      if (c !== ',') this.fail("expected ',' or '}'");
    }
  }

  private array(): unknown[] {
    const out: unknown[] = [];
    this.pos++;
    this.skipWs();
    if (this.s[this.pos] === ']') return (this.pos++, out);
    for (;;) {
      out.push(this.value());
      this.skipWs();
      const c = this.s[this.pos++];
      if (c === ']') return out;
      if (c !== ',') this.fail("expected ',' or ']'");
    }
  }
}
