/**
 * Lucene ASCIIFoldingFilter: folds letters, digits and symbols to their ASCII equivalents
 * ("café" → "cafe", "ß" → "ss", "①" → "1"). The mapping is built from compatibility
 * decomposition with marks removed, plus an explicit table for characters without a
 * decomposition (ø, ł, đ, æ, þ, quotes and dashes ...). `preserve_original` emits the folded
 * token first and the original at the same position, as Lucene does.
 */
import { TokenFilter, type TokenStream } from '../token-stream.js';

// Characters whose ASCII form is not reachable by decomposition (Lucene ASCIIFoldingFilter facts).
const EXPLICIT: Record<string, string> = {
  Æ: 'AE',
  æ: 'ae',
  Ð: 'D',
  ð: 'd',
  Ø: 'O',
  ø: 'o',
  Þ: 'TH',
  þ: 'th',
  ß: 'ss',
  Đ: 'D',
  đ: 'd',
  Ħ: 'H',
  ħ: 'h',
  ı: 'i',
  ĸ: 'q',
  Ŀ: 'L',
  ŀ: 'l',
  Ł: 'L',
  ł: 'l',
  ŉ: "'n",
  Ŋ: 'N',
  ŋ: 'n',
  Œ: 'OE',
  œ: 'oe',
  Ŧ: 'T',
  ŧ: 't',
  ſ: 's',
  ƀ: 'b',
  Ɓ: 'B',
  Ƃ: 'B',
  ƃ: 'b',
  Ɔ: 'O',
  Ƈ: 'C',
  ƈ: 'c',
  Ɖ: 'D',
  Ɗ: 'D',
  Ƌ: 'D',
  ƌ: 'd',
  Ǝ: 'E',
  Ɛ: 'E',
  Ƒ: 'F',
  ƒ: 'f',
  Ɠ: 'G',
  ƕ: 'hv',
  Ɩ: 'I',
  Ɨ: 'I',
  Ƙ: 'K',
  ƙ: 'k',
  ƚ: 'l',
  Ɯ: 'M',
  Ɲ: 'N',
  ƞ: 'n',
  Ɵ: 'O',
  Ƣ: 'OI',
  ƣ: 'oi',
  Ƥ: 'P',
  ƥ: 'p',
  ƫ: 't',
  Ƭ: 'T',
  ƭ: 't',
  Ʈ: 'T',
  Ʋ: 'V',
  Ƴ: 'Y',
  ƴ: 'y',
  Ƶ: 'Z',
  ƶ: 'z',
  Ȝ: 'Z',
  ȝ: 'z',
  ȡ: 'd',
  Ȣ: 'OU',
  ȣ: 'ou',
  Ȥ: 'Z',
  ȥ: 'z',
  ȴ: 'l',
  ȵ: 'n',
  ȶ: 't',
  ȷ: 'j',
  ȸ: 'db',
  ȹ: 'qp',
  Ⱥ: 'A',
  Ȼ: 'C',
  ȼ: 'c',
  Ƚ: 'L',
  Ⱦ: 'T',
  ȿ: 's',
  ɀ: 'z',
  Ƀ: 'B',
  Ʉ: 'U',
  Ʌ: 'V',
  Ɇ: 'E',
  ɇ: 'e',
  Ɉ: 'J',
  ɉ: 'j',
  Ɋ: 'Q',
  ɋ: 'q',
  Ɍ: 'R',
  ɍ: 'r',
  Ɏ: 'Y',
  ɏ: 'y',
  ɐ: 'a',
  ɓ: 'b',
  ɔ: 'o',
  ɕ: 'c',
  ɖ: 'd',
  ɗ: 'd',
  ɘ: 'e',
  ə: 'e',
  ɚ: 'e',
  ɛ: 'e',
  ɜ: 'e',
  ɝ: 'e',
  ɞ: 'e',
  ɟ: 'j',
  ɠ: 'g',
  ɡ: 'g',
  ɢ: 'G',
  ɥ: 'h',
  ɦ: 'h',
  ɨ: 'i',
  ɪ: 'I',
  ɫ: 'l',
  ɬ: 'l',
  ɭ: 'l',
  ɯ: 'm',
  ɰ: 'm',
  ɱ: 'm',
  ɲ: 'n',
  ɳ: 'n',
  ɴ: 'N',
  ɵ: 'o',
  ɶ: 'OE',
  ɼ: 'r',
  ɽ: 'r',
  ɾ: 'r',
  ɿ: 'r',
  ʀ: 'R',
  ʁ: 'R',
  ʂ: 's',
  ʄ: 'j',
  ʇ: 't',
  ʈ: 't',
  ʉ: 'u',
  ʋ: 'v',
  ʌ: 'v',
  ʍ: 'w',
  ʎ: 'y',
  ʏ: 'Y',
  ʐ: 'z',
  ʑ: 'z',
  ʗ: 'C',
  ʙ: 'B',
  ʚ: 'e',
  ʛ: 'G',
  ʜ: 'H',
  ʝ: 'j',
  ʞ: 'k',
  ʟ: 'L',
  ʠ: 'q',
  ʣ: 'dz',
  ʥ: 'dz',
  ʦ: 'ts',
  ʪ: 'ls',
  ʫ: 'lz',
  ʮ: 'h',
  ʯ: 'h',
  ᴀ: 'A',
  ᴁ: 'AE',
  ᴂ: 'ae',
  ᴃ: 'B',
  ᴄ: 'C',
  ᴅ: 'D',
  ᴆ: 'D',
  ᴇ: 'E',
  ᴈ: 'e',
  ᴉ: 'i',
  ᴊ: 'J',
  ᴋ: 'K',
  ᴌ: 'L',
  ᴍ: 'M',
  ᴎ: 'N',
  ᴏ: 'O',
  ᴐ: 'O',
  ᴔ: 'oe',
  ᴕ: 'OU',
  ᴖ: 'o',
  ᴗ: 'o',
  ᴘ: 'P',
  ᴙ: 'R',
  ᴚ: 'R',
  ᴛ: 'T',
  ᴜ: 'U',
  ᴠ: 'V',
  ᴡ: 'W',
  ᴢ: 'Z',
  ẜ: 's',
  ẝ: 's',
  ẞ: 'SS',
  Ỻ: 'LL',
  ỻ: 'll',
  Ỽ: 'V',
  ỽ: 'v',
  Ỿ: 'Y',
  ỿ: 'y',
  ⱥ: 'a',
  ⱦ: 't',
  Ɑ: 'A',
  Ɱ: 'M',
  Ɐ: 'A',
  Ɒ: 'A',
  '\u00ab': '"',
  '\u00bb': '"',
  '\u201c': '"',
  '\u201d': '"',
  '\u201e': '"',
  '\u2033': '"',
  '\u2036': '"',
  '\u275d': '"',
  '\u275e': '"',
  '\u276e': '"',
  '\u276f': '"',
  '\uff02': '"',
  '\u2018': "'",
  '\u2019': "'",
  '\u201a': "'",
  '\u201b': "'",
  '\u2032': "'",
  '\u2035': "'",
  '\u2039': "'",
  '\u203a': "'",
  '\u275b': "'",
  '\u275c': "'",
  '\uff07': "'",
  '\u2010': '-',
  '\u2011': '-',
  '\u2012': '-',
  '\u2013': '-',
  '\u2014': '-',
  '\u207b': '-',
  '\u208b': '-',
  '\uff0d': '-',
  '\u2045': '[',
  '\u2772': '[',
  '\uff3b': '[',
  '\u2046': ']',
  '\u2773': ']',
  '\uff3d': ']',
  '\u207d': '(',
  '\u208d': '(',
  '\u2768': '(',
  '\u276a': '(',
  '\uff08': '(',
  '\u207e': ')',
  '\u208e': ')',
  '\u2769': ')',
  '\u276b': ')',
  '\uff09': ')',
  '\u276c': '<',
  '\u2770': '<',
  '\uff1c': '<',
  '\u276d': '>',
  '\u2771': '>',
  '\uff1e': '>',
  '\u2774': '{',
  '\uff5b': '{',
  '\u2775': '}',
  '\uff5d': '}',
  '\u207a': '+',
  '\u208a': '+',
  '\uff0b': '+',
  '\u207c': '=',
  '\u208c': '=',
  '\uff1d': '=',
  '\uff01': '!',
  '\u203c': '!!',
  '\u2049': '!?',
  '\uff03': '#',
  '\uff04': '$',
  '\u2052': '%',
  '\uff05': '%',
  '\uff06': '&',
  '\u204e': '*',
  '\uff0a': '*',
  '\uff0c': ',',
  '\uff0e': '.',
  '\u2044': '/',
  '\uff0f': '/',
  '\uff1a': ':',
  '\u204f': ';',
  '\uff1b': ';',
  '\uff1f': '?',
  '\u2047': '??',
  '\u2048': '?!',
  '\uff20': '@',
  '\uff3c': '\\',
  '\u2038': '^',
  '\uff3e': '^',
  '\uff3f': '_',
  '\u2053': '~',
  '\uff5e': '~',
};

const LETTER_OR_NUMBER = /^[\p{L}\p{N}]$/u;
const MARKS = /\p{M}/gu;
// eslint-disable-next-line no-control-regex
const ASCII_ONLY = /^[\x00-\x7f]+$/;
const cache = new Map<number, string | null>();

/** ASCII folding of one non-ASCII code point, or null when it has none. */
export function foldCodePoint(cp: number): string | null {
  let r = cache.get(cp);
  if (r !== undefined) return r;
  const ch = String.fromCodePoint(cp);
  r = EXPLICIT[ch] ?? null;
  if (r === null && LETTER_OR_NUMBER.test(ch)) {
    const d = ch.normalize('NFKD').replace(MARKS, '');
    if (d.length > 0 && ASCII_ONLY.test(d)) {
      // a decomposition may contain a character the table folds further (e.g. "ǆ" → "dž")
      r = d;
    } else if (d.length > 0 && d !== ch) {
      let out = '';
      for (const c of d) {
        const f = c.charCodeAt(0) < 0x80 ? c : (EXPLICIT[c] ?? null);
        if (f === null) {
          out = '';
          break;
        }
        out += f;
      }
      if (out.length > 0) r = out;
    }
  }
  cache.set(cp, r);
  return r;
}

// eslint-disable-next-line no-control-regex
const NON_ASCII = /[^\x00-\x7f]/;

/** Folds a whole term; returns the same string when nothing changes. */
export function foldToAscii(s: string): string {
  if (!NON_ASCII.test(s)) return s;
  let out = '';
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    out += cp < 0x80 ? ch : (foldCodePoint(cp) ?? ch);
  }
  return out;
}

export class AsciiFoldingFilter extends TokenFilter {
  private pendingOriginal: string | null = null;

  constructor(
    input: TokenStream,
    private readonly preserveOriginal: boolean,
  ) {
    super(input);
  }

  next(): boolean {
    if (this.pendingOriginal !== null) {
      this.token.term = this.pendingOriginal;
      this.token.posInc = 0;
      this.pendingOriginal = null;
      return true;
    }
    if (!this.input.next()) return false;
    const t = this.token;
    const folded = foldToAscii(t.term);
    if (folded !== t.term) {
      if (this.preserveOriginal) this.pendingOriginal = t.term;
      t.term = folded;
    }
    return true;
  }
}
