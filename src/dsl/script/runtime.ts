/**
 * Dynamic (`def`) semantics of the Painless subset over JS values: Java string conversion,
 * arithmetic with string concatenation, equality with numeric promotion, boolean checks, field
 * and index access with Painless's getter shortcuts (`x.empty` → `isEmpty()`, `x.value` →
 * `getValue()`), and method calls on strings, numbers, lists, maps and host objects.
 * Lists are JS arrays, maps are plain objects (or JS Maps given as params).
 */
import { arithmetic, classCast, illegalArg, nullPointer, ScriptRuntimeError } from './errors.js';
import { javaDoubleToString } from './java-number.js';

export function typeName(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  switch (typeof v) {
    case 'string':
      return 'java.lang.String';
    case 'boolean':
      return 'java.lang.Boolean';
    case 'number':
      return Number.isInteger(v) ? 'java.lang.Integer' : 'java.lang.Double';
  }
  if (Array.isArray(v)) return 'java.util.ArrayList';
  if (v instanceof Map) return 'java.util.HashMap';
  const ctor = (v as object).constructor;
  if (ctor === Object || ctor === undefined) return 'java.util.HashMap';
  return ctor.name;
}

/** java.lang.StringBuilder as scripts use it. */
export class StringBuilder {
  private s: string;
  /** `new StringBuilder(int capacity)` starts empty; `new StringBuilder(CharSequence)` with it. */
  constructor(init?: unknown) {
    this.s = init === undefined || typeof init === 'number' ? '' : javaString(init);
  }
  append(v: unknown): this {
    this.s += javaString(v);
    return this;
  }
  length(): number {
    return this.s.length;
  }
  isEmpty(): boolean {
    return this.s.length === 0;
  }
  charAt(i: number): string {
    return this.s.charAt(i);
  }
  insert(i: number, v: unknown): this {
    this.s = this.s.slice(0, i) + javaString(v) + this.s.slice(i);
    return this;
  }
  reverse(): this {
    this.s = [...this.s].reverse().join('');
    return this;
  }
  setLength(n: number): void {
    this.s = this.s.length >= n ? this.s.slice(0, n) : this.s + '\u0000'.repeat(n - this.s.length);
  }
  toString(): string {
    return this.s;
  }
}

/** Java String.valueOf for dynamically typed values (integral numbers print without ".0"). */
export function javaString(v: unknown, asDouble = false): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'number') {
    if (asDouble || !Number.isInteger(v) || Math.abs(v) >= 1e16) return javaDoubleToString(v);
    return String(v);
  }
  if (Array.isArray(v)) return '[' + v.map((x) => javaString(x)).join(', ') + ']';
  if (typeof v === 'object' && v.constructor === Object) {
    return (
      '{' +
      Object.entries(v)
        .map(([k, x]) => `${k}=${javaString(x)}`)
        .join(', ') +
      '}'
    );
  }
  return String(v);
}

export function toBool(v: unknown): boolean {
  if (typeof v === 'boolean') return v;
  if (v === null || v === undefined) throw nullPointer();
  throw classCast(`Cannot cast ${typeName(v)} to java.lang.Boolean`);
}

export function toNum(v: unknown): number {
  if (typeof v === 'number') return v;
  if (v === null || v === undefined) throw nullPointer();
  if (typeof v === 'object' && typeof (v as { valueOf(): unknown }).valueOf() === 'number') {
    return (v as { valueOf(): number }).valueOf();
  }
  if (typeof v === 'string' && v.length === 1) return v.charCodeAt(0);
  throw classCast(`Cannot cast ${typeName(v)} to java.lang.Number`);
}

export function add(a: unknown, b: unknown): unknown {
  if (typeof a === 'number' && typeof b === 'number') return a + b;
  if (typeof a === 'string' || typeof b === 'string') return javaString(a) + javaString(b);
  return toNum(a) + toNum(b);
}

export function arith(op: string, a: number, b: number): number {
  switch (op) {
    case '+':
      return a + b;
    case '-':
      return a - b;
    case '*':
      return a * b;
    case '/':
      return a / b;
    case '%':
      return a % b;
  }
  throw illegalArg(`unsupported operator [${op}]`);
}

/** Integer arithmetic (int or long statics): truncating division, `/ by zero`. */
export function intArith(op: string, a: number, b: number, bits32: boolean): number {
  let r: number;
  switch (op) {
    case '/':
      if (b === 0) throw arithmetic('/ by zero');
      r = Math.trunc(a / b);
      break;
    case '%':
      if (b === 0) throw arithmetic('/ by zero');
      r = a % b;
      break;
    case '*':
      r = bits32 ? Math.imul(a, b) : a * b;
      break;
    default:
      r = arith(op, a, b);
  }
  return bits32 ? r | 0 : r + 0;
}

export function bitwise(op: string, a: unknown, b: unknown): unknown {
  if (typeof a === 'boolean' && typeof b === 'boolean') {
    if (op === '&') return a && b;
    if (op === '|') return a || b;
    return a !== b;
  }
  const x = toNum(a);
  const y = toNum(b);
  switch (op) {
    case '&':
      return x & y;
    case '|':
      return x | y;
    case '^':
      return x ^ y;
    case '<<':
      return x << y;
    case '>>':
      return x >> y;
    default:
      return x >>> y;
  }
}

/** Painless `==` on def: numeric promotion, then equals(). */
export function equalsDef(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || a === undefined || b === null || b === undefined) {
    return (a ?? null) === (b ?? null);
  }
  if (typeof a === 'number' || typeof b === 'number') {
    const x = typeof a === 'object' ? (a as { valueOf(): unknown }).valueOf() : a;
    const y = typeof b === 'object' ? (b as { valueOf(): unknown }).valueOf() : b;
    return x === y;
  }
  if (typeof a === 'object' && typeof (a as { equals?: unknown }).equals === 'function') {
    return Boolean((a as { equals(o: unknown): boolean }).equals(b));
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((x, i) => equalsDef(x, b[i]));
  }
  return false;
}

export function compare(op: string, a: unknown, b: unknown): boolean {
  let x: number | string;
  let y: number | string;
  if (typeof a === 'string' && typeof b === 'string') {
    throw classCast(
      `Cannot apply [${op}] operation to types [java.lang.String] and [java.lang.String].`,
    );
  }
  x = toNum(a);
  y = toNum(b);
  switch (op) {
    case '<':
      return x < y;
    case '<=':
      return x <= y;
    case '>':
      return x > y;
    default:
      return x >= y;
  }
}

const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** `x.name` with Painless's shortcuts: map keys, list `.length`/`.0`, getters `getX()`/`isX()`. */
export function getField(target: unknown, name: string): unknown {
  if (target === null || target === undefined) throw nullPointer();
  if (Array.isArray(target)) {
    if (name === 'length') return target.length;
    if (name === 'empty') return target.length === 0;
    if (/^\d+$/.test(name)) return listGet(target, Number(name));
    throw illegalArg(`dynamic getter [java.util.ArrayList, ${name}] not found`);
  }
  if (target instanceof Map) return target.has(name) ? target.get(name) : null;
  if (typeof target === 'object') {
    const o = target as Record<string, unknown>;
    const proto = Object.getPrototypeOf(o);
    if (proto === Object.prototype || proto === null) return name in o ? o[name] : null;
    if (name in o) {
      // read once: a getter may have effects (doc values log a deprecation for a missing value)
      const v = o[name];
      if (typeof v !== 'function') return v;
    }
    const getter = o['get' + cap(name)] ?? o['is' + cap(name)];
    if (typeof getter === 'function') return (getter as () => unknown).call(o);
    if (name === 'empty' && typeof o.isEmpty === 'function') return (o.isEmpty as () => unknown)();
    // Painless's map shortcut on host maps (`doc.field` is `doc.get("field")`)
    if (typeof o.containsKey === 'function' && typeof o.get === 'function')
      return (o.get as (k: string) => unknown).call(o, name);
    throw illegalArg(`dynamic getter [${typeName(target)}, ${name}] not found`);
  }
  throw illegalArg(`dynamic getter [${typeName(target)}, ${name}] not found`);
}

export function setField(target: unknown, name: string, value: unknown): void {
  if (target === null || target === undefined) throw nullPointer();
  if (target instanceof Map) target.set(name, value);
  else if (Array.isArray(target))
    throw illegalArg(`dynamic setter [java.util.ArrayList, ${name}] not found`);
  else if (typeof target === 'object') (target as Record<string, unknown>)[name] = value;
  else throw illegalArg(`dynamic setter [${typeName(target)}, ${name}] not found`);
}

function listGet(list: readonly unknown[], i: number): unknown {
  const idx = i < 0 ? list.length + i : i;
  if (idx < 0 || idx >= list.length) {
    throw new ScriptRuntimeError(
      'index_out_of_bounds_exception',
      `Index ${i} out of bounds for length ${list.length}`,
    );
  }
  return list[idx];
}

export function getIndex(target: unknown, index: unknown): unknown {
  if (target === null || target === undefined) throw nullPointer();
  if (Array.isArray(target)) return listGet(target, toNum(index));
  if (target instanceof Map) return target.has(index) ? target.get(index) : null;
  if (typeof target === 'object') {
    const o = target as Record<string, unknown>;
    const proto = Object.getPrototypeOf(o);
    if (proto === Object.prototype || proto === null) {
      const k = String(index);
      return k in o ? o[k] : null;
    }
    if (typeof o.get === 'function') return (o.get as (i: unknown) => unknown).call(o, index);
  }
  throw illegalArg(
    `Attempting to address a non-array-like type [${typeName(target)}] as an array.`,
  );
}

export function setIndex(target: unknown, index: unknown, value: unknown): void {
  if (target === null || target === undefined) throw nullPointer();
  if (Array.isArray(target)) {
    const i = toNum(index);
    target[i < 0 ? target.length + i : i] = value;
  } else if (target instanceof Map) target.set(index, value);
  else if (typeof target === 'object') (target as Record<string, unknown>)[String(index)] = value;
  else
    throw illegalArg(
      `Attempting to address a non-array-like type [${typeName(target)}] as an array.`,
    );
}

function mapEntries(m: object): Array<[unknown, unknown]> {
  return m instanceof Map ? [...m.entries()] : Object.entries(m);
}

export function callMethod(target: unknown, name: string, args: unknown[]): unknown {
  if (target === null || target === undefined) throw nullPointer();
  switch (typeof target) {
    case 'string':
      return stringMethod(target, name, args);
    case 'number':
      return numberMethod(target, name, args);
    case 'boolean':
      if (name === 'booleanValue') return target;
      if (name === 'equals') return target === args[0];
      if (name === 'toString') return String(target);
      if (name === 'compareTo') return Number(target) - Number(args[0]);
      break;
  }
  if (Array.isArray(target)) return listMethod(target, name, args);
  // a lambda: the functional interface's one method (get, apply, test, accept, compare...)
  if (typeof target === 'function') return (target as (...a: unknown[]) => unknown)(...args);
  if (typeof target === 'object') {
    const o = target as Record<string, unknown>;
    const proto = Object.getPrototypeOf(o);
    if (target instanceof Map || proto === Object.prototype || proto === null) {
      return mapMethod(o, name, args);
    }
    const fn = o[name];
    if (typeof fn === 'function') return (fn as (...a: unknown[]) => unknown).apply(o, args);
  }
  throw illegalArg(`dynamic method [${typeName(target)}, ${name}/${args.length}] not found`);
}

function stringMethod(s: string, name: string, a: unknown[]): unknown {
  switch (name) {
    case 'length':
      return s.length;
    case 'isEmpty':
      return s.length === 0;
    case 'substring':
      return a.length > 1 ? s.substring(toNum(a[0]), toNum(a[1])) : s.substring(toNum(a[0]));
    case 'contains':
      return s.includes(String(a[0]));
    case 'startsWith':
      return s.startsWith(String(a[0]), a.length > 1 ? toNum(a[1]) : 0);
    case 'endsWith':
      return s.endsWith(String(a[0]));
    case 'indexOf':
      return s.indexOf(String(a[0]), a.length > 1 ? toNum(a[1]) : 0);
    case 'lastIndexOf':
      return s.lastIndexOf(String(a[0]));
    case 'toUpperCase':
      return s.toUpperCase();
    case 'toLowerCase':
      return s.toLowerCase();
    case 'trim':
      return s.replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, '');
    case 'equals':
      return s === a[0];
    case 'equalsIgnoreCase':
      return typeof a[0] === 'string' && s.toLowerCase() === a[0].toLowerCase();
    case 'charAt':
      return s.charAt(toNum(a[0]));
    case 'replace':
      return s.split(String(a[0])).join(String(a[1]));
    case 'compareTo':
      return s < String(a[0]) ? -1 : s > String(a[0]) ? 1 : 0;
    case 'concat':
      return s + String(a[0]);
    case 'toString':
      return s;
    case 'hashCode': {
      let h = 0;
      for (let i = 0; i < s.length; i++) h = (Math.imul(31, h) + s.charCodeAt(i)) | 0;
      return h;
    }
    case 'splitOnToken':
      return s.split(String(a[0]));
  }
  throw illegalArg(`dynamic method [java.lang.String, ${name}/${a.length}] not found`);
}

function numberMethod(n: number, name: string, a: unknown[]): unknown {
  switch (name) {
    case 'intValue':
      return Math.trunc(n) | 0;
    case 'longValue':
      return Math.trunc(n);
    case 'doubleValue':
    case 'floatValue':
      return n;
    case 'equals':
      return n === a[0];
    case 'compareTo':
      return n < toNum(a[0]) ? -1 : n > toNum(a[0]) ? 1 : 0;
    case 'toString':
      return javaString(n);
    case 'isNaN':
      return Number.isNaN(n);
    case 'isInfinite':
      return n === Infinity || n === -Infinity;
  }
  throw illegalArg(`dynamic method [${typeName(n)}, ${name}/${a.length}] not found`);
}

function listMethod(l: unknown[], name: string, a: unknown[]): unknown {
  switch (name) {
    case 'size':
      return l.length;
    case 'get':
      return listGet(l, toNum(a[0]));
    case 'isEmpty':
      return l.length === 0;
    case 'contains':
      return l.some((x) => equalsDef(x, a[0]));
    case 'indexOf':
      return l.findIndex((x) => equalsDef(x, a[0]));
    case 'add':
      if (a.length > 1) l.splice(toNum(a[0]), 0, a[1]);
      else l.push(a[0]);
      return true;
    case 'addAll':
      l.push(...(a[0] as unknown[]));
      return true;
    case 'set': {
      const prev = l[toNum(a[0])];
      l[toNum(a[0])] = a[1];
      return prev;
    }
    case 'remove':
      return l.splice(toNum(a[0]), 1)[0];
    case 'clear':
      l.length = 0;
      return null;
    case 'sum':
      return l.reduce((s: number, x) => s + toNum(x), 0);
    case 'toString':
      return javaString(l);
    case 'equals':
      return equalsDef(l, a[0]);
  }
  throw illegalArg(`dynamic method [java.util.ArrayList, ${name}/${a.length}] not found`);
}

function mapMethod(
  m: Record<string, unknown> | Map<unknown, unknown>,
  name: string,
  a: unknown[],
): unknown {
  const isMap = m instanceof Map;
  const has = (k: unknown) => (isMap ? m.has(k) : String(k) in m);
  const get = (k: unknown) => (isMap ? m.get(k) : (m as Record<string, unknown>)[String(k)]);
  switch (name) {
    case 'get':
      return has(a[0]) ? get(a[0]) : null;
    case 'getOrDefault':
      return has(a[0]) ? get(a[0]) : a[1];
    case 'containsKey':
      return has(a[0]);
    case 'put': {
      const prev = has(a[0]) ? get(a[0]) : null;
      if (isMap) m.set(a[0], a[1]);
      else (m as Record<string, unknown>)[String(a[0])] = a[1];
      return prev;
    }
    case 'remove': {
      const prev = has(a[0]) ? get(a[0]) : null;
      if (isMap) m.delete(a[0]);
      else delete (m as Record<string, unknown>)[String(a[0])];
      return prev;
    }
    case 'size':
      return mapEntries(m).length;
    case 'isEmpty':
      return mapEntries(m).length === 0;
    case 'keySet':
      return mapEntries(m).map(([k]) => k);
    case 'values':
      return mapEntries(m).map(([, v]) => v);
    case 'containsValue':
      return mapEntries(m).some(([, v]) => equalsDef(v, a[0]));
    case 'toString':
      return javaString(m);
  }
  throw illegalArg(`dynamic method [java.util.HashMap, ${name}/${a.length}] not found`);
}

export function instanceOf(v: unknown, type: string): boolean {
  switch (type) {
    case 'def':
    case 'Object':
      return v !== null && v !== undefined;
    case 'String':
      return typeof v === 'string';
    case 'Number':
    case 'Double':
    case 'double':
    case 'Float':
      return typeof v === 'number';
    case 'Integer':
    case 'Long':
    case 'int':
    case 'long':
    case 'Short':
    case 'Byte':
      return typeof v === 'number' && Number.isInteger(v);
    case 'Boolean':
    case 'boolean':
      return typeof v === 'boolean';
    case 'List':
    case 'ArrayList':
    case 'Collection':
      return Array.isArray(v);
    case 'Map':
    case 'HashMap':
      return (
        v instanceof Map ||
        (typeof v === 'object' &&
          v !== null &&
          !Array.isArray(v) &&
          Object.getPrototypeOf(v) === Object.prototype)
      );
  }
  return false;
}
