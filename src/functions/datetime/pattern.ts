/**
 * DateTimeFormatter.ofPattern: compiles java.time pattern letters into printer-parsers with
 * DateTimeFormatterBuilder's rules (letter counts, adjacent value parsing, optional sections,
 * quoting) and its IllegalArgumentException messages. Compiled patterns are cached.
 */
import type { FieldName } from './fields.js';
import type { OffsetPattern, PrinterParser, SignStyle, TextStyle } from './printer-parser.js';
import { javaIllegalArgument } from '../errors.js';

const FIELD_MAP: Record<string, FieldName> = {
  G: 'ERA',
  y: 'YEAR_OF_ERA',
  u: 'YEAR',
  Q: 'QUARTER_OF_YEAR',
  q: 'QUARTER_OF_YEAR',
  M: 'MONTH_OF_YEAR',
  L: 'MONTH_OF_YEAR',
  D: 'DAY_OF_YEAR',
  d: 'DAY_OF_MONTH',
  F: 'ALIGNED_DAY_OF_WEEK_IN_MONTH',
  E: 'DAY_OF_WEEK',
  c: 'DAY_OF_WEEK',
  e: 'DAY_OF_WEEK',
  a: 'AMPM_OF_DAY',
  H: 'HOUR_OF_DAY',
  k: 'CLOCK_HOUR_OF_DAY',
  K: 'HOUR_OF_AMPM',
  h: 'CLOCK_HOUR_OF_AMPM',
  m: 'MINUTE_OF_HOUR',
  s: 'SECOND_OF_MINUTE',
  S: 'NANO_OF_SECOND',
  A: 'MILLI_OF_DAY',
  n: 'NANO_OF_SECOND',
  N: 'NANO_OF_DAY',
};

// OffsetIdPrinterParser.PATTERNS: +HH, +HHmm, +HH:mm, +HHMM, +HH:MM, +HHMMss, +HH:MM:ss, +HHMMSS, +HH:MM:SS
const OFFSET_PATTERNS: OffsetPattern[] = [
  { minutes: 'none', seconds: 'none', colon: false },
  { minutes: 'optional', seconds: 'none', colon: false },
  { minutes: 'optional', seconds: 'none', colon: true },
  { minutes: 'required', seconds: 'none', colon: false },
  { minutes: 'required', seconds: 'none', colon: true },
  { minutes: 'required', seconds: 'optional', colon: false },
  { minutes: 'required', seconds: 'optional', colon: true },
  { minutes: 'required', seconds: 'required', colon: false },
  { minutes: 'required', seconds: 'required', colon: true },
];

/** DateTimeFormatterBuilder state: the active (possibly optional) section and its value parser. */
class Builder {
  private stack: { items: PrinterParser[]; valueParserIndex: number }[] = [
    { items: [], valueParserIndex: -1 },
  ];
  private padNextWidth = 0;

  private get active() {
    return this.stack[this.stack.length - 1]!;
  }

  private appendInternal(pp: PrinterParser): number {
    let item = pp;
    if (this.padNextWidth > 0) {
      item = { k: 'pad', width: this.padNextWidth, pp };
      this.padNextWidth = 0;
    }
    this.active.items.push(item);
    this.active.valueParserIndex = -1;
    return this.active.items.length - 1;
  }

  /** appendValue(NumberPrinterParser) with adjacent value parsing. */
  appendValuePP(pp: PrinterParser & { subsequentWidth: number }, fixed: boolean): void {
    const a = this.active;
    if (a.valueParserIndex >= 0) {
      const base = a.items[a.valueParserIndex] as PrinterParser & { subsequentWidth: number };
      const idx = a.valueParserIndex;
      if (fixed) {
        base.subsequentWidth = Math.max(base.subsequentWidth, 0) + widthOf(pp);
        pp.subsequentWidth = -1;
        this.appendInternal(pp);
        a.valueParserIndex = idx;
      } else {
        base.subsequentWidth = -1; // NumberPrinterParser.withFixedWidth
        a.valueParserIndex = this.appendInternal(pp);
      }
    } else {
      a.valueParserIndex = this.appendInternal(pp);
    }
  }

  value(field: FieldName, min = 1, max = 19, sign: SignStyle = 'NORMAL'): void {
    const fixed = min === max && sign === 'NOT_NEGATIVE';
    this.appendValuePP({ k: 'num', field, min, max, sign, subsequentWidth: 0 }, fixed);
  }

  fixed(field: FieldName, width: number): void {
    this.value(field, width, width, 'NOT_NEGATIVE');
  }

  reduced(field: FieldName): void {
    this.appendValuePP({ k: 'reduced', field, width: 2, base: 2000, subsequentWidth: 0 }, true);
  }

  fraction(min: number, max: number, point: boolean): void {
    const pp: PrinterParser & { subsequentWidth: number } = {
      k: 'frac',
      min,
      max,
      point,
      subsequentWidth: 0,
    };
    if (min === max && !point) this.appendValuePP(pp, true);
    else this.appendInternal(pp);
  }

  text(field: FieldName, style: TextStyle): void {
    this.appendInternal({ k: 'text', field, style });
  }

  literal(text: string): void {
    if (text.length === 0) return;
    this.appendInternal({ k: 'lit', text });
  }

  offset(patternIndex: number, noOffset: string): void {
    this.appendInternal({ k: 'offset', pattern: OFFSET_PATTERNS[patternIndex]!, noOffset });
  }

  append(pp: PrinterParser): void {
    this.appendInternal(pp);
  }

  padNext(width: number): void {
    this.padNextWidth = width;
  }

  optionalStart(): void {
    this.active.valueParserIndex = -1;
    this.stack.push({ items: [], valueParserIndex: -1 });
  }

  optionalEnd(): boolean {
    if (this.stack.length === 1) return false;
    const done = this.stack.pop()!;
    if (done.items.length > 0) this.appendInternal({ k: 'opt', items: done.items });
    return true;
  }

  hasParent(): boolean {
    return this.stack.length > 1;
  }

  build(): PrinterParser[] {
    while (this.stack.length > 1) this.optionalEnd();
    return this.stack[0]!.items;
  }
}

function widthOf(pp: PrinterParser): number {
  switch (pp.k) {
    case 'num':
      return pp.max;
    case 'reduced':
      return pp.width;
    case 'frac':
      return pp.max;
    default:
      return 0;
  }
}

const isLetter = (c: string) => (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');

function tooMany(cur: string): never {
  throw javaIllegalArgument('Too many pattern letters: ' + cur);
}

function parseField(b: Builder, cur: string, count: number, field: FieldName): void {
  if (cur === 'c') {
    if (count === 1) {
      b.value('LOCALIZED_DAY_OF_WEEK', 1, 1, 'NOT_NEGATIVE');
      return;
    }
    if (count === 2) throw javaIllegalArgument('Invalid pattern "cc"');
  }
  switch (cur) {
    case 'u':
    case 'y':
      if (count === 2) b.reduced(field);
      else if (count < 4) b.value(field, count, 19, 'NORMAL');
      else b.value(field, count, 19, 'EXCEEDS_PAD');
      return;
    // stand-alone forms (c, L, q) print like the formatting forms in COMPAT ROOT English data
    case 'c':
    case 'L':
    case 'q':
    case 'M':
    case 'Q':
    case 'E':
    case 'e':
      switch (count) {
        case 1:
        case 2:
          if (cur === 'e') b.value('LOCALIZED_DAY_OF_WEEK', count, count, 'NOT_NEGATIVE');
          else if (cur === 'E') b.text(field, 'SHORT');
          else if (count === 1) b.value(field);
          else b.fixed(field, 2);
          return;
        case 3:
          b.text(field, 'SHORT');
          return;
        case 4:
          b.text(field, 'FULL');
          return;
        case 5:
          b.text(field, 'NARROW');
          return;
        default:
          tooMany(cur);
      }
      return;
    case 'a':
      if (count === 1) b.text(field, 'SHORT');
      else tooMany(cur);
      return;
    case 'G':
      if (count <= 3) b.text(field, 'SHORT');
      else if (count === 4) b.text(field, 'FULL');
      else if (count === 5) b.text(field, 'NARROW');
      else tooMany(cur);
      return;
    case 'S':
      b.fraction(count, count, false);
      return;
    case 'F':
      if (count === 1) b.value(field);
      else tooMany(cur);
      return;
    case 'd':
    case 'h':
    case 'H':
    case 'k':
    case 'K':
    case 'm':
    case 's':
      if (count === 1) b.value(field);
      else if (count === 2) b.fixed(field, 2);
      else tooMany(cur);
      return;
    case 'D':
      if (count === 1) b.value(field);
      else if (count === 2 || count === 3) b.value(field, count, 3, 'NOT_NEGATIVE');
      else tooMany(cur);
      return;
    case 'A':
    case 'n':
    case 'N':
      b.value(field, count, 19, 'NOT_NEGATIVE');
      return;
    default:
      if (count === 1) b.value(field);
      else b.fixed(field, count);
  }
}

function compile(pattern: string): PrinterParser[] {
  const b = new Builder();
  for (let pos = 0; pos < pattern.length; pos++) {
    let cur = pattern[pos]!;
    if (isLetter(cur)) {
      let start = pos++;
      while (pos < pattern.length && pattern[pos] === cur) pos++;
      let count = pos - start;
      if (cur === 'p') {
        let pad = 0;
        if (pos < pattern.length) {
          cur = pattern[pos]!;
          if (isLetter(cur)) {
            pad = count;
            start = pos++;
            while (pos < pattern.length && pattern[pos] === cur) pos++;
            count = pos - start;
          }
        }
        if (pad === 0) {
          throw javaIllegalArgument(
            "Pad letter 'p' must be followed by valid pad pattern: " + pattern,
          );
        }
        b.padNext(pad);
      }
      const field = FIELD_MAP[cur];
      if (field) {
        parseField(b, cur, count, field);
      } else if (cur === 'z') {
        if (count > 4) tooMany(cur);
        b.append({ k: 'zoneText', style: count === 4 ? 'FULL' : 'SHORT' });
      } else if (cur === 'V') {
        if (count !== 2) throw javaIllegalArgument('Pattern letter count must be 2: ' + cur);
        b.append({ k: 'zoneId' });
      } else if (cur === 'v') {
        if (count !== 1 && count !== 4)
          throw javaIllegalArgument('Wrong number of pattern letters: ' + cur);
        b.append({ k: 'zoneText', style: count === 4 ? 'FULL' : 'SHORT' });
      } else if (cur === 'Z') {
        if (count < 4) b.offset(3, '+0000');
        else if (count === 4) b.append({ k: 'locOffset', style: 'FULL' });
        else if (count === 5) b.offset(6, 'Z');
        else tooMany(cur);
      } else if (cur === 'O') {
        if (count === 1) b.append({ k: 'locOffset', style: 'SHORT' });
        else if (count === 4) b.append({ k: 'locOffset', style: 'FULL' });
        else throw javaIllegalArgument('Pattern letter count must be 1 or 4: ' + cur);
      } else if (cur === 'X') {
        if (count > 5) tooMany(cur);
        b.offset(count + (count === 1 ? 0 : 1), 'Z');
      } else if (cur === 'x') {
        if (count > 5) tooMany(cur);
        const zero = count === 1 ? '+00' : count % 2 === 0 ? '+0000' : '+00:00';
        b.offset(count + (count === 1 ? 0 : 1), zero);
      } else if (cur === 'W') {
        if (count > 1) tooMany(cur);
        b.value('WEEK_OF_MONTH', 1, 1, 'NOT_NEGATIVE');
      } else if (cur === 'w') {
        if (count > 2) tooMany(cur);
        if (count === 1) b.value('WEEK_OF_WEEK_BASED_YEAR', 1, 2, 'NOT_NEGATIVE');
        else b.fixed('WEEK_OF_WEEK_BASED_YEAR', 2);
      } else if (cur === 'Y') {
        if (count === 2) b.reduced('WEEK_BASED_YEAR');
        else b.value('WEEK_BASED_YEAR', count, 19, count < 4 ? 'NORMAL' : 'EXCEEDS_PAD');
      } else {
        throw javaIllegalArgument('Unknown pattern letter: ' + cur);
      }
      pos--;
    } else if (cur === "'") {
      const start = pos++;
      for (; pos < pattern.length; pos++) {
        if (pattern[pos] === "'") {
          if (pos + 1 < pattern.length && pattern[pos + 1] === "'") pos++;
          else break;
        }
      }
      if (pos >= pattern.length) {
        throw javaIllegalArgument('Pattern ends with an incomplete string literal: ' + pattern);
      }
      const str = pattern.slice(start + 1, pos);
      b.literal(str.length === 0 ? "'" : str.replace(/''/g, "'"));
    } else if (cur === '[') {
      b.optionalStart();
    } else if (cur === ']') {
      if (!b.hasParent())
        throw javaIllegalArgument('Pattern invalid as it contains ] without previous [');
      b.optionalEnd();
    } else if (cur === '{' || cur === '}' || cur === '#') {
      throw javaIllegalArgument("Pattern includes reserved character: '" + cur + "'");
    } else {
      b.literal(cur);
    }
  }
  return b.build();
}

const cache = new Map<string, PrinterParser[]>();

/** DateTimeFormatter.ofPattern(pattern, Locale.ROOT), cached. Throws illegal_argument_exception. */
export function ofPattern(pattern: string): readonly PrinterParser[] {
  let c = cache.get(pattern);
  if (!c) {
    c = compile(pattern);
    if (cache.size > 1000) cache.clear();
    cache.set(pattern, c);
  }
  return c;
}
