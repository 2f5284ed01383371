/**
 * A Jackson-style token cursor over parsed JSON (ES XContentParser), so the query builders'
 * `fromXContent` loops port line for line, with the same value coercions (`text()`,
 * `floatValue()`, `booleanValue()` ...) and errors, and every token knows its JSON location.
 */
import { EsError } from '../../common/errors.js';
import {
  errorAt,
  illegalArgument,
  INLINE_LOCATION,
  type JsonLocation,
  type JsonPath,
} from './errors.js';
import { javaParseDouble, javaParseFloat, javaToInt, jsonNumberText } from './java.js';

export type Token =
  | 'START_OBJECT'
  | 'END_OBJECT'
  | 'START_ARRAY'
  | 'END_ARRAY'
  | 'FIELD_NAME'
  | 'VALUE_STRING'
  | 'VALUE_NUMBER'
  | 'VALUE_BOOLEAN'
  | 'VALUE_NULL';

/** A position in the JSON: its parent's position and its key there (built once per value). */
interface Place {
  readonly parent: Place | null;
  readonly key: string | number | null;
}

interface Tok {
  readonly t: Token;
  readonly place: Place;
  /** Jackson `getCurrentName()` while on this token. */
  readonly name: string | null;
  /** The JSON value for values and START tokens; the field name for FIELD_NAME. */
  readonly value: unknown;
  /** For START tokens: index of the matching END token. */
  end: number;
}

export const isValueToken = (t: Token | null): boolean =>
  t === 'VALUE_STRING' || t === 'VALUE_NUMBER' || t === 'VALUE_BOOLEAN';

const scalarToken = (v: unknown): Token =>
  typeof v === 'string'
    ? 'VALUE_STRING'
    : typeof v === 'number'
      ? 'VALUE_NUMBER'
      : typeof v === 'boolean'
        ? 'VALUE_BOOLEAN'
        : 'VALUE_NULL';

/**
 * The tokens of `root`, in Jackson's order. Iterative, and paths are kept as parent links (a
 * location is built only when an error asks for one), so values nested thousands of levels deep
 * neither overflow the stack nor cost a path copy per level.
 */
function tokenize(root: unknown, out: Tok[]): void {
  interface Frame {
    readonly value: unknown[] | Record<string, unknown>;
    readonly keys: string[] | null;
    readonly place: Place;
    readonly name: string | null;
    readonly start: number;
    i: number;
  }
  const frames: Frame[] = [];
  const emit = (v: unknown, place: Place, name: string | null) => {
    if (v === null || typeof v !== 'object') {
      out.push({ t: scalarToken(v), place, name, value: v ?? null, end: -1 });
      return;
    }
    const array = Array.isArray(v);
    const start = out.length;
    out.push({ t: array ? 'START_ARRAY' : 'START_OBJECT', place, name, value: v, end: -1 });
    const keys = array ? null : Object.keys(v);
    frames.push({ value: v as Frame['value'], keys, place, name, start, i: 0 });
  };
  emit(root, { parent: null, key: null }, null);
  while (frames.length > 0) {
    const f = frames[frames.length - 1]!;
    if (f.keys === null) {
      const a = f.value as unknown[];
      if (f.i < a.length) {
        const i = f.i++;
        emit(a[i], { parent: f.place, key: i }, null);
        continue;
      }
    } else if (f.i < f.keys.length) {
      const k = f.keys[f.i++]!;
      const place = { parent: f.place, key: k };
      out.push({ t: 'FIELD_NAME', place, name: k, value: k, end: -1 });
      emit((f.value as Record<string, unknown>)[k], place, k);
      continue;
    }
    frames.pop();
    out[f.start]!.end = out.length;
    out.push({ t: f.keys === null ? 'END_ARRAY' : 'END_OBJECT', place: f.place, name: f.name, value: f.value, end: -1 }); // prettier-ignore
  }
}

function pathOf(place: Place, base: JsonPath): JsonPath {
  const keys: (string | number)[] = [];
  for (let p: Place | null = place; p !== null; p = p.parent) if (p.key !== null) keys.push(p.key);
  return [...base, ...keys.reverse()];
}

/** `json_parse_exception` Jackson raises for a wrong accessor on a token. */
const jacksonError = (msg: string): EsError => new EsError('json_parse_exception', msg, 400);

export class XParser {
  private readonly toks: Tok[] = [];
  private i = -1;
  /** Query objects being parsed, innermost included (indices.query.bool.max_nested_depth). */
  queryDepth = 0;

  /**
   * `base` prefixes every location (the JSON path of `json` inside the request); `maxQueryDepth`
   * bounds how deeply query objects may nest.
   */
  constructor(
    json: unknown,
    private readonly base: JsonPath = [],
    readonly maxQueryDepth = Infinity,
  ) {
    tokenize(json, this.toks);
  }

  private get tok(): Tok | undefined {
    return this.toks[this.i];
  }

  nextToken(): Token | null {
    if (this.i < this.toks.length) this.i++;
    return this.tok?.t ?? null;
  }

  currentToken(): Token | null {
    return this.tok?.t ?? null;
  }

  currentName(): string | null {
    return this.tok?.name ?? null;
  }

  /** Skips an object or array the cursor is on (Jackson skipChildren). */
  skipChildren(): void {
    const t = this.tok;
    if (t && (t.t === 'START_OBJECT' || t.t === 'START_ARRAY')) this.i = t.end;
  }

  /** ES `getTokenLocation()`. */
  location(): JsonLocation {
    const t = this.tok ?? this.toks[this.toks.length - 1]!;
    const at =
      t.t === 'FIELD_NAME' ? 'key' : t.t === 'END_OBJECT' || t.t === 'END_ARRAY' ? 'end' : 'value';
    return { path: pathOf(t.place, this.base), at };
  }

  /** The JSON value of the current token (objects/arrays as parsed). */
  rawValue(): unknown {
    return this.tok?.value;
  }

  /** `text()`: only on VALUE tokens. */
  text(): string {
    const t = this.tok;
    if (!t || !isValueToken(t.t)) {
      throw errorAt(
        'illegal_state_exception',
        `Can't get text on a ${t?.t ?? 'null'} at ${INLINE_LOCATION}`,
        500,
        this.location(),
      );
    }
    if (t.t === 'VALUE_STRING') return t.value as string;
    if (t.t === 'VALUE_NUMBER') return jsonNumberText(t.value as number);
    return t.value ? 'true' : 'false';
  }

  textOrNull(): string | null {
    return this.currentToken() === 'VALUE_NULL' ? null : this.text();
  }

  /**
   * `objectText()` / `objectBytes()`: strings, numbers, booleans as themselves, null for null, and
   * Jackson's text of a structural token (`{` / `[`) otherwise.
   */
  objectValue(): string | number | boolean | null {
    const t = this.tok;
    if (!t) return null;
    switch (t.t) {
      case 'VALUE_STRING':
      case 'VALUE_NUMBER':
      case 'VALUE_BOOLEAN':
        return t.value as string | number | boolean;
      case 'VALUE_NULL':
        return null;
      case 'START_OBJECT':
        return '{';
      case 'START_ARRAY':
        return '[';
      case 'END_OBJECT':
        return '}';
      case 'END_ARRAY':
        return ']';
      default:
        return t.value as string;
    }
  }

  /** `floatValue()` with ES's default coercion (numeric strings allowed). */
  floatValue(): number {
    const t = this.tok;
    if (t?.t === 'VALUE_STRING') return javaParseFloat(t.value as string);
    if (t?.t === 'VALUE_NUMBER') return Math.fround(t.value as number);
    throw jacksonError(
      `Current token (${jacksonTokenName(t)}) not numeric, can not use numeric value accessors`,
    );
  }

  doubleValue(): number {
    const t = this.tok;
    if (t?.t === 'VALUE_STRING') return javaParseDouble(t.value as string);
    if (t?.t === 'VALUE_NUMBER') return t.value as number;
    throw jacksonError(
      `Current token (${jacksonTokenName(t)}) not numeric, can not use numeric value accessors`,
    );
  }

  /** `intValue()`: strings via Double.parseDouble with the int range check; numbers truncated. */
  intValue(): number {
    const t = this.tok;
    if (t?.t === 'VALUE_STRING') {
      const d = javaParseDouble(t.value as string);
      if (d < -2147483648 || d > 2147483647) {
        throw illegalArgument(`Value [${t.value as string}] is out of range for an integer`);
      }
      return javaToInt(d);
    }
    if (t?.t === 'VALUE_NUMBER') {
      const n = t.value as number;
      if (n < -2147483648 || n > 2147483647) {
        throw jacksonError(`Numeric value (${jsonNumberText(n)}) out of range of int`);
      }
      return javaToInt(n);
    }
    throw jacksonError(
      `Current token (${jacksonTokenName(t)}) not numeric, can not use numeric value accessors`,
    );
  }

  longValue(): number {
    const t = this.tok;
    if (t?.t === 'VALUE_STRING') {
      const s = t.value as string;
      const d = javaParseDouble(s);
      if (!Number.isFinite(d)) throw illegalArgument(`For input string: "${s}"`);
      return Math.trunc(d);
    }
    if (t?.t === 'VALUE_NUMBER') return Math.trunc(t.value as number);
    throw jacksonError(
      `Current token (${jacksonTokenName(t)}) not numeric, can not use numeric value accessors`,
    );
  }

  /** INT / LONG / DOUBLE as Jackson types a number token. */
  numberType(): 'INT' | 'LONG' | 'DOUBLE' {
    const n = this.tok?.value as number;
    if (!Number.isInteger(n)) return 'DOUBLE';
    return n >= -2147483648 && n <= 2147483647 ? 'INT' : 'LONG';
  }

  /** `booleanValue()`: strict `true`/`false` strings (ES Booleans.parseBoolean). */
  booleanValue(): boolean {
    const t = this.tok;
    if (t?.t === 'VALUE_STRING') {
      const s = t.value as string;
      if (s === 'true') return true;
      if (s === 'false') return false;
      throw illegalArgument(`Failed to parse value [${s}] as only [true] or [false] are allowed.`);
    }
    if (t?.t === 'VALUE_BOOLEAN') return t.value as boolean;
    throw jacksonError(`Current token (${jacksonTokenName(t)}) not of boolean type`);
  }

  /** `map()` of the object the cursor is on, consuming it. */
  map(): Record<string, unknown> {
    const t = this.tok;
    if (t?.t !== 'START_OBJECT') {
      throw new EsError('parse_exception', 'Failed to parse content to map', 400);
    }
    this.i = t.end;
    return t.value as Record<string, unknown>;
  }

  /** Consumes the value the cursor is on and returns it as plain JSON. */
  readValue(): unknown {
    const t = this.tok;
    if (t && (t.t === 'START_OBJECT' || t.t === 'START_ARRAY')) this.i = t.end;
    return t?.t === 'VALUE_NULL' ? null : t?.value;
  }
}

function jacksonTokenName(t: Tok | undefined): string {
  if (!t) return 'null';
  switch (t.t) {
    case 'VALUE_NUMBER':
      return Number.isInteger(t.value) ? 'VALUE_NUMBER_INT' : 'VALUE_NUMBER_FLOAT';
    case 'VALUE_BOOLEAN':
      return t.value ? 'VALUE_TRUE' : 'VALUE_FALSE';
    default:
      return t.t;
  }
}

/** `ParseField.match` for the names we use (6.x: exact names, no camelCase). */
export const is = (name: string | null, field: string): boolean => name === field;
