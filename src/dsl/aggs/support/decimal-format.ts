/**
 * java.text.DecimalFormat with Locale.ROOT symbols, as ES's DocValueFormat.Decimal uses it for
 * numeric `format` patterns ("##0.0", "#,##0.00", "0.###E0", "Value is ##0.0"): quoted and
 * literal prefixes/suffixes, grouping, minimum/maximum integer and fraction digits, percent and
 * per-mille, scientific notation, negative subpatterns and HALF_EVEN rounding.
 */
import { illegalArgument } from '../../../common/errors.js';

interface Pattern {
  posPrefix: string;
  posSuffix: string;
  negPrefix: string;
  negSuffix: string;
  minInt: number;
  maxInt: number;
  minFrac: number;
  maxFrac: number;
  grouping: number;
  multiplier: number;
  showPoint: boolean;
  expDigits: number; // 0 = not scientific
}

function splitAffixes(p: string): { prefix: string; number: string; suffix: string } {
  // Number part: the first run of pattern characters 0 # , . E (outside quotes)
  let prefix = '';
  let i = 0;
  const isNumChar = (c: string) => c === '0' || c === '#' || c === ',' || c === '.';
  while (i < p.length && !isNumChar(p[i]!)) {
    if (p[i] === "'") {
      const j = p.indexOf("'", i + 1);
      if (j === i + 1) prefix += "'";
      else prefix += p.slice(i + 1, j < 0 ? p.length : j);
      i = j < 0 ? p.length : j + 1;
      continue;
    }
    prefix += p[i++];
  }
  let number = '';
  while (
    i < p.length &&
    (isNumChar(p[i]!) ||
      (p[i] === 'E' && number.length > 0) ||
      (number.includes('E') && p[i] === '0'))
  ) {
    number += p[i++];
  }
  let suffix = '';
  while (i < p.length) {
    if (p[i] === "'") {
      const j = p.indexOf("'", i + 1);
      if (j === i + 1) suffix += "'";
      else suffix += p.slice(i + 1, j < 0 ? p.length : j);
      i = j < 0 ? p.length : j + 1;
      continue;
    }
    suffix += p[i++];
  }
  return { prefix, number, suffix };
}

function compile(pattern: string): Pattern {
  const [pos, neg] = splitOnSemicolon(pattern);
  const a = splitAffixes(pos);
  let num = a.number;
  let expDigits = 0;
  const e = num.indexOf('E');
  if (e >= 0) {
    expDigits = num.length - e - 1;
    num = num.slice(0, e);
  }
  const dot = num.indexOf('.');
  const intPart = dot >= 0 ? num.slice(0, dot) : num;
  const fracPart = dot >= 0 ? num.slice(dot + 1) : '';
  const lastComma = intPart.lastIndexOf(',');
  const intDigits = intPart.replace(/,/g, '');
  const minInt = (intDigits.match(/0/g) ?? []).length;
  const minFrac = (fracPart.match(/0/g) ?? []).length;
  const maxFrac = fracPart.length;
  if (!/^[#0,]*$/.test(intPart) || !/^0*#*$/.test(fracPart)) {
    throw illegalArgument(`Malformed pattern "${pattern}"`);
  }
  let multiplier = 1;
  const affixes = a.prefix + a.suffix;
  if (affixes.includes('%')) multiplier = 100;
  else if (affixes.includes('\u2030')) multiplier = 1000;
  let negPrefix = '-' + a.prefix;
  let negSuffix = a.suffix;
  if (neg !== null) {
    const n = splitAffixes(neg);
    negPrefix = n.prefix;
    negSuffix = n.suffix;
  }
  return {
    posPrefix: a.prefix,
    posSuffix: a.suffix,
    negPrefix,
    negSuffix,
    minInt: expDigits > 0 ? Math.max(minInt, 1) : minInt,
    maxInt: expDigits > 0 ? intDigits.length : Infinity,
    minFrac,
    maxFrac,
    grouping: lastComma >= 0 ? intPart.length - lastComma - 1 : 0,
    multiplier,
    showPoint: dot >= 0 && dot === num.length - 1,
    expDigits,
  };
}

function splitOnSemicolon(p: string): [string, string | null] {
  let inQuote = false;
  for (let i = 0; i < p.length; i++) {
    if (p[i] === "'") inQuote = !inQuote;
    else if (p[i] === ';' && !inQuote) return [p.slice(0, i), p.slice(i + 1)];
  }
  return [p, null];
}

/** Decimal digits and exponent of |x| (x = 0.d1d2d3... × 10^exp), shortest round-trip digits. */
function digitsOf(x: number): { digits: string; exp: number } {
  if (x === 0) return { digits: '', exp: 0 };
  const [mant, e] = x.toExponential().split('e') as [string, string];
  const digits = mant.replace('.', '').replace(/0+$/, '');
  return { digits, exp: Number(e) + 1 };
}

/** Rounds a digit string (value 0.digits × 10^exp) to `keep` digits after the decimal point, HALF_EVEN. */
function roundDigits(
  digits: string,
  exp: number,
  fracKeep: number,
): { digits: string; exp: number } {
  const keep = exp + fracKeep; // number of significant digits to keep
  if (keep >= digits.length) return { digits, exp };
  if (keep < 0) return { digits: '', exp };
  const head = digits.slice(0, keep);
  const first = digits.charCodeAt(keep) - 48;
  const rest = digits.slice(keep + 1);
  let up = false;
  if (first > 5) up = true;
  else if (first === 5) {
    if (/[1-9]/.test(rest)) up = true;
    else {
      const last = head.length ? head.charCodeAt(head.length - 1) - 48 : 0;
      up = last % 2 === 1;
    }
  }
  if (!up) return { digits: head.replace(/0+$/, ''), exp };
  // increment head
  const arr = head.split('').map((c) => c.charCodeAt(0) - 48);
  let i = arr.length - 1;
  while (i >= 0) {
    if (arr[i]! < 9) {
      arr[i]!++;
      break;
    }
    arr[i] = 0;
    i--;
  }
  if (i < 0) {
    arr.unshift(1);
    exp++;
  }
  return { digits: arr.join('').replace(/0+$/, ''), exp };
}

function group(int: string, size: number): string {
  if (size <= 0 || int.length <= size) return int;
  const parts: string[] = [];
  let end = int.length;
  while (end > 0) {
    parts.unshift(int.slice(Math.max(0, end - size), end));
    end -= size;
  }
  return parts.join(',');
}

export class DecimalFormat {
  private readonly p: Pattern;
  constructor(readonly pattern: string) {
    this.p = compile(pattern);
  }

  format(value: number): string {
    const p = this.p;
    if (Number.isNaN(value)) return 'NaN';
    const neg = value < 0 || Object.is(value, -0);
    if (!Number.isFinite(value))
      return (neg ? p.negPrefix : p.posPrefix) + '\u221e' + (neg ? p.negSuffix : p.posSuffix);
    const x = Math.abs(value) * p.multiplier;
    const body = p.expDigits > 0 ? this.scientific(x) : this.fixed(x);
    // Java keeps the minus sign when a negative value rounds to zero ("-0.0")
    if (neg) return p.negPrefix + body + p.negSuffix;
    return p.posPrefix + body + p.posSuffix;
  }

  private fixed(x: number): string {
    const p = this.p;
    const d0 = digitsOf(x);
    const { digits, exp } = roundDigits(d0.digits, d0.exp, p.maxFrac);
    let int = exp > 0 ? digits.slice(0, exp).padEnd(exp, '0') : '';
    let frac = exp >= 0 ? digits.slice(exp) : '0'.repeat(-exp) + digits;
    int = int.replace(/^0+/, '');
    if (int.length < p.minInt) int = int.padStart(p.minInt, '0');
    if (frac.length < p.minFrac) frac = frac.padEnd(p.minFrac, '0');
    frac = frac.slice(0, Math.max(p.maxFrac, p.minFrac));
    while (frac.length > p.minFrac && frac.endsWith('0')) frac = frac.slice(0, -1);
    let out = group(int, p.grouping);
    if (frac.length > 0 || p.showPoint) out += '.' + frac;
    if (out === '' || out.startsWith('.')) out = (out === '' ? '0' : '') + out;
    return out;
  }

  private scientific(x: number): string {
    const p = this.p;
    const intDigits = Math.max(p.minInt, 1);
    const sig = intDigits + p.maxFrac;
    if (x === 0) {
      return (
        '0'.repeat(intDigits) +
        (p.minFrac ? '.' + '0'.repeat(p.minFrac) : '') +
        'E' +
        '0'.repeat(p.expDigits)
      );
    }
    const d0 = digitsOf(x);
    let exponent = d0.exp - intDigits;
    const r = roundDigits(d0.digits, intDigits, sig - intDigits);
    if (r.exp > intDigits) exponent++;
    const digits = r.digits.padEnd(intDigits, '0');
    const int = digits.slice(0, intDigits);
    let frac = digits.slice(intDigits);
    if (frac.length < p.minFrac) frac = frac.padEnd(p.minFrac, '0');
    const e = (exponent < 0 ? '-' : '') + String(Math.abs(exponent)).padStart(p.expDigits, '0');
    return int + (frac ? '.' + frac : '') + 'E' + e;
  }

  /** DecimalFormat.parse (lenient: affixes stripped, grouping ignored). */
  parse(text: string): number {
    const p = this.p;
    let t = text;
    let neg = false;
    if (p.negPrefix && t.startsWith(p.negPrefix) && p.negPrefix !== p.posPrefix) {
      neg = true;
      t = t.slice(p.negPrefix.length);
      if (p.negSuffix && t.endsWith(p.negSuffix)) t = t.slice(0, -p.negSuffix.length);
    } else {
      if (p.posPrefix && t.startsWith(p.posPrefix)) t = t.slice(p.posPrefix.length);
      if (p.posSuffix && t.endsWith(p.posSuffix)) t = t.slice(0, -p.posSuffix.length);
    }
    const m = /^-?[\d,]*\.?\d*(E-?\d+)?/.exec(t);
    const num = m ? Number(m[0].replace(/,/g, '')) : NaN;
    if (!m || m[0] === '' || Number.isNaN(num)) {
      throw illegalArgument(`Unparseable number: "${text}"`);
    }
    return (neg ? -num : num) / p.multiplier;
  }
}
