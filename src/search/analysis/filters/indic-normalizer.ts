/**
 * Lucene 7.7 IndicNormalizer: composes the multi-character spellings of Indic letters and vowel
 * signs (Unicode 5.2 chapter 6 and the LDC's graphical decompositions) into their single code
 * points, per script: Devanagari, Bengali, Gurmukhi, Gujarati, Oriya, Tamil, Telugu, Kannada,
 * Malayalam. Each script is the 128-code-point block from its base; the table gives offsets into
 * the block.
 */

const D = 1; // Devanagari
const B = 2; // Bengali
const P = 4; // Gurmukhi
const G = 8; // Gujarati
const O = 16; // Oriya
const T = 32; // Tamil
const E = 64; // Telugu
const K = 128; // Kannada
const M = 256; // Malayalam
/** The third char of a decomposition: none, or the zero-width joiner. */
const NONE = -1;
const ZWJ = 0xff;

/** [first, second, third, composed, scripts], as offsets into the script's block. */
const DECOMPOSITIONS: ReadonlyArray<readonly [number, number, number, number, number]> = [
  [0x05, 0x3e, 0x45, 0x11, D | G],
  [0x05, 0x3e, 0x46, 0x12, D],
  [0x05, 0x3e, 0x47, 0x13, D | G],
  [0x05, 0x3e, 0x48, 0x14, D | G],
  [0x05, 0x3e, NONE, 0x06, D | B | P | G | O],
  [0x05, 0x45, NONE, 0x72, D],
  [0x05, 0x45, NONE, 0x0d, G],
  [0x05, 0x46, NONE, 0x04, D],
  [0x05, 0x47, NONE, 0x0f, G],
  [0x05, 0x48, NONE, 0x10, P | G],
  [0x05, 0x49, NONE, 0x11, D | G],
  [0x05, 0x4a, NONE, 0x12, D],
  [0x05, 0x4b, NONE, 0x13, D | G],
  [0x05, 0x4c, NONE, 0x14, D | P | G],
  [0x06, 0x45, NONE, 0x11, D | G],
  [0x06, 0x46, NONE, 0x12, D],
  [0x06, 0x47, NONE, 0x13, D | G],
  [0x06, 0x48, NONE, 0x14, D | G],
  [0x07, 0x57, NONE, 0x08, M],
  [0x09, 0x41, NONE, 0x0a, D],
  [0x09, 0x57, NONE, 0x0a, T | M],
  [0x0e, 0x46, NONE, 0x10, M],
  [0x0f, 0x45, NONE, 0x0d, D],
  [0x0f, 0x46, NONE, 0x0e, D],
  [0x0f, 0x47, NONE, 0x10, D],
  [0x0f, 0x57, NONE, 0x10, O],
  [0x12, 0x3e, NONE, 0x13, M],
  [0x12, 0x4c, NONE, 0x14, E | K],
  [0x12, 0x55, NONE, 0x13, E],
  [0x12, 0x57, NONE, 0x14, T | M],
  [0x13, 0x57, NONE, 0x14, O],
  [0x15, 0x3c, NONE, 0x58, D],
  [0x16, 0x3c, NONE, 0x59, D | P],
  [0x17, 0x3c, NONE, 0x5a, D | P],
  [0x1c, 0x3c, NONE, 0x5b, D | P],
  [0x21, 0x3c, NONE, 0x5c, D | B | O],
  [0x22, 0x3c, NONE, 0x5d, D | B | O],
  [0x23, 0x4d, ZWJ, 0x7a, M],
  [0x24, 0x4d, ZWJ, 0x4e, B],
  [0x28, 0x3c, NONE, 0x29, D],
  [0x28, 0x4d, ZWJ, 0x7b, M],
  [0x2b, 0x3c, NONE, 0x5e, D | P],
  [0x2f, 0x3c, NONE, 0x5f, D | B],
  [0x2c, 0x41, 0x41, 0x0b, E],
  [0x30, 0x3c, NONE, 0x31, D],
  [0x30, 0x4d, ZWJ, 0x7c, M],
  [0x32, 0x4d, ZWJ, 0x7d, M],
  [0x33, 0x3c, NONE, 0x34, D],
  [0x33, 0x4d, ZWJ, 0x7e, M],
  [0x35, 0x41, NONE, 0x2e, E],
  [0x3e, 0x45, NONE, 0x49, D | G],
  [0x3e, 0x46, NONE, 0x4a, D],
  [0x3e, 0x47, NONE, 0x4b, D | G],
  [0x3e, 0x48, NONE, 0x4c, D | G],
  [0x3f, 0x55, NONE, 0x40, K],
  [0x41, 0x41, NONE, 0x42, P],
  [0x46, 0x3e, NONE, 0x4a, T | M],
  [0x46, 0x42, 0x55, 0x4b, K],
  [0x46, 0x42, NONE, 0x4a, K],
  [0x46, 0x46, NONE, 0x48, M],
  [0x46, 0x55, NONE, 0x47, E | K],
  [0x46, 0x56, NONE, 0x48, E | K],
  [0x46, 0x57, NONE, 0x4c, T | M],
  [0x47, 0x3e, NONE, 0x4b, B | O | T | M],
  [0x47, 0x57, NONE, 0x4c, B | O],
  [0x4a, 0x55, NONE, 0x4b, K],
  [0x72, 0x3f, NONE, 0x07, P],
  [0x72, 0x40, NONE, 0x08, P],
  [0x72, 0x47, NONE, 0x0f, P],
  [0x73, 0x41, NONE, 0x09, P],
  [0x73, 0x42, NONE, 0x0a, P],
  [0x73, 0x4b, NONE, 0x13, P],
];

const FIRST_BASE = 0x0900;
const BLOCK = 0x80;
const SCRIPT_COUNT = 9;

/** The script (0 = Devanagari … 8 = Malayalam) whose block holds `c`, or -1. */
function scriptOf(c: number): number {
  const s = Math.floor((c - FIRST_BASE) / BLOCK);
  return c >= FIRST_BASE && s < SCRIPT_COUNT ? s : -1;
}

export function indicNormalize(term: string): string {
  let text: number[] | null = null;
  for (let i = 0; i < term.length; i++) {
    if (scriptOf(term.charCodeAt(i)) >= 0) {
      text = Array.from(term, (c) => c.charCodeAt(0));
      break;
    }
  }
  if (text === null) return term;
  for (let i = 0; i < text.length; i++) {
    const script = scriptOf(text[i]!);
    if (script >= 0) compose(text, i, script);
  }
  return text.map((c) => String.fromCharCode(c)).join('');
}

/** Replaces the decomposed spelling starting at `pos`, if any, by its composed char. */
function compose(text: number[], pos: number, script: number): void {
  if (pos + 1 >= text.length) return;
  const base = FIRST_BASE + script * BLOCK;
  const flag = 1 << script;
  const ch0 = text[pos]! - base;
  // the second char must be of the same script; a third of another counts as absent
  if (scriptOf(text[pos + 1]!) !== script) return;
  const ch1 = text[pos + 1]! - base;
  let ch2 = NONE;
  if (pos + 2 < text.length) {
    const c = text[pos + 2]!;
    if (c === 0x200d) ch2 = ZWJ;
    else if (scriptOf(c) === script) ch2 = c - base;
  }
  for (const [first, second, third, composed, scripts] of DECOMPOSITIONS) {
    if (first !== ch0 || (scripts & flag) === 0) continue;
    if (second === ch1 && (third === NONE || third === ch2)) {
      text[pos] = base + composed;
      text.splice(pos + 1, third === NONE ? 1 : 2);
      return;
    }
  }
}
