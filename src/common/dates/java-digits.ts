/**
 * java.time NumberPrinterParser.parse in strict mode: an optional sign as the SignStyle allows,
 * then min..max digits, with adjacent value parsing (`subsequentWidth` digits left for the
 * values that follow). Shared by the REST date formats and SQL's DateTimeFormatter.
 */
export type SignStyle = 'NORMAL' | 'ALWAYS' | 'NEVER' | 'NOT_NEGATIVE' | 'EXCEEDS_PAD';

export interface DigitsSpec {
  readonly sign: SignStyle;
  readonly min: number;
  readonly max: number;
  /** Digits reserved for the adjacent values after this one (0 when none, -1 fixed width). */
  readonly subsequentWidth: number;
}

const isDigit = (c: number) => c >= 48 && c <= 57;

/** SignStyle.parse(positive, strict=true, fixedWidth=false). */
function signParse(style: SignStyle, positive: boolean): boolean {
  switch (style) {
    case 'NORMAL':
      return !positive;
    case 'ALWAYS':
    case 'EXCEEDS_PAD':
      return true;
    default:
      return false; // NEVER, NOT_NEGATIVE: only lenient parsing accepts a sign
  }
}

/**
 * Parses the number at `position`: the position after it, with its value in `out.value` and
 * where its digits start (after any sign) in `out.start`; or the complement (~) of the error
 * position as java.time's parsers return.
 */
export function parseJavaDigits(
  text: string,
  position: number,
  spec: DigitsSpec,
  out: { value: number; start: number },
): number {
  const length = text.length;
  if (position === length) return ~position;
  const signCh = text[position];
  let negative = false;
  let positive = false;
  if (signCh === '+') {
    if (!signParse(spec.sign, true)) return ~position;
    positive = true;
    position++;
  } else if (signCh === '-') {
    if (!signParse(spec.sign, false)) return ~position;
    negative = true;
    position++;
  } else if (spec.sign === 'ALWAYS') {
    return ~position;
  }
  const effMin = spec.min;
  const minEnd = position + effMin;
  if (minEnd > length) return ~position;
  let effMax = spec.max + Math.max(spec.subsequentWidth, 0);
  let total = 0;
  let pos = position;
  for (let pass = 0; pass < 2; pass++) {
    const maxEnd = Math.min(pos + effMax, length);
    while (pos < maxEnd) {
      const c = text.charCodeAt(pos++);
      if (!isDigit(c)) {
        pos--;
        if (pos < minEnd) return ~position;
        break;
      }
      total = total * 10 + (c - 48);
    }
    if (spec.subsequentWidth > 0 && pass === 0) {
      const parseLen = pos - position;
      effMax = Math.max(effMin, parseLen - spec.subsequentWidth);
      pos = position;
      total = 0;
    } else break;
  }
  if (negative) {
    if (total === 0) return ~(position - 1);
    total = -total;
  } else if (spec.sign === 'EXCEEDS_PAD') {
    const parseLen = pos - position;
    if (positive) {
      if (parseLen <= spec.min) return ~(position - 1);
    } else if (parseLen > spec.min) return ~position;
  }
  if (!Number.isSafeInteger(total)) return ~position;
  out.value = total;
  out.start = position;
  return pos;
}
