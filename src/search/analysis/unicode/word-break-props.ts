/**
 * Per-code-point property bits for the standard tokenizer (Unicode 9.0 Word_Break classes,
 * Line_Break=SA, Han/Hiragana/Hangul scripts and Emoji 11.0 properties), decoded once from the
 * generated run table into a flat BMP array; supplementary code points use binary search.
 */
import { RUN_MASKS, RUN_STARTS } from './word-break-data.js';

export const ALETTER = 1;
export const HEBREW = 2;
export const HANGUL = 4;
export const NUMERIC = 8;
export const KATAKANA = 16;
/** WB MidLetter | MidNumLet | Single_Quote (the grammar's MidLetterEx). */
export const MIDLETTER = 32;
/** WB MidNum | MidNumLet | Single_Quote (the grammar's MidNumericEx). */
export const MIDNUM = 64;
export const EXTENDNUMLET = 128;
/** WB Format | Extend | ZWJ: characters that attach to the preceding one (UAX#29 WB4). */
export const EXT = 256;
export const SINGLE_QUOTE = 512;
export const DOUBLE_QUOTE = 1024;
export const REGIONAL_INDICATOR = 2048;
/** Line_Break = Complex_Context (Thai, Lao, Myanmar, Khmer, ...). */
export const SOUTHEAST_ASIAN = 4096;
export const HAN = 8192;
export const HIRAGANA = 16384;
/** The grammar's EmojiChar: Extended_Pictographic | (Emoji - RI - [0-9#*] - [©®™〰〽] - modifiers). */
export const EMOJI_CHAR = 32768;
export const EMOJI_MODIFIER_BASE = 65536;
export const EMOJI_MODIFIER = 131072;

const BMP = new Uint32Array(0x10000);
let firstSupplementaryRun = 0;
for (let i = 0; i < RUN_STARTS.length; i++) {
  const start = RUN_STARTS[i]!;
  if (start >= 0x10000) {
    if (firstSupplementaryRun === 0) firstSupplementaryRun = i;
    continue;
  }
  const end = i + 1 < RUN_STARTS.length ? Math.min(RUN_STARTS[i + 1]!, 0x10000) : 0x10000;
  BMP.fill(RUN_MASKS[i]!, start, end);
}
const SUPP_START = firstSupplementaryRun > 0 ? firstSupplementaryRun - 1 : 0;

/** Property bits of `cp`. */
export function propsOf(cp: number): number {
  if (cp < 0x10000) return BMP[cp]!;
  let lo = SUPP_START;
  let hi = RUN_STARTS.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (RUN_STARTS[mid]! <= cp) lo = mid;
    else hi = mid - 1;
  }
  return RUN_MASKS[lo]!;
}

/** The BMP table itself, for hot loops that index it directly. */
export const BMP_PROPS: Uint32Array = BMP;
