/**
 * Lucene 7.7 StandardTokenizerImpl.jflex as hand-written longest-match scanners: `scanWord` runs
 * the grammar on any Unicode text (rules EMOJI, NUM, HANGUL, KATAKANA, ALPHANUM, SOUTHEAST_ASIAN,
 * IDEOGRAPHIC, HIRAGANA, longest match first, ties to the earlier rule), `scanAscii` is the same
 * grammar restricted to ASCII input, where only ALPHANUM and NUM can occur.
 */
import {
  ALETTER,
  BMP_PROPS,
  DOUBLE_QUOTE,
  EMOJI_CHAR,
  EMOJI_MODIFIER,
  EMOJI_MODIFIER_BASE,
  EXT,
  EXTENDNUMLET,
  HAN,
  HANGUL,
  HEBREW,
  HIRAGANA,
  KATAKANA,
  MIDLETTER,
  MIDNUM,
  NUMERIC,
  REGIONAL_INDICATOR,
  SINGLE_QUOTE,
  SOUTHEAST_ASIAN,
  propsOf,
} from '../unicode/word-break-props.js';

export const TYPE_ALPHANUM = '<ALPHANUM>';
export const TYPE_NUM = '<NUM>';
export const TYPE_SOUTHEAST_ASIAN = '<SOUTHEAST_ASIAN>';
export const TYPE_IDEOGRAPHIC = '<IDEOGRAPHIC>';
export const TYPE_HIRAGANA = '<HIRAGANA>';
export const TYPE_KATAKANA = '<KATAKANA>';
export const TYPE_HANGUL = '<HANGUL>';
export const TYPE_EMOJI = '<EMOJI>';

/** Result of one scan step: the token found at or after the scan start. */
export interface ScanResult {
  start: number;
  end: number;
  type: string;
}

// ---------------------------------------------------------------------------------------------
// Code point access within a window [.., limit).

let cpLen = 1;
/** Code point at `i` (a surrogate pair only if both halves lie before `limit`); sets cpLen. */
function cpAt(text: string, i: number, limit: number): number {
  const c = text.charCodeAt(i);
  if (c >= 0xd800 && c <= 0xdbff && i + 1 < limit) {
    const d = text.charCodeAt(i + 1);
    if (d >= 0xdc00 && d <= 0xdfff) {
      cpLen = 2;
      return ((c - 0xd800) << 10) + (d - 0xdc00) + 0x10000;
    }
  }
  cpLen = 1;
  return c;
}

function props(cp: number): number {
  return cp < 0x10000 ? BMP_PROPS[cp]! : propsOf(cp);
}

/** End of the run of Format/Extend/ZWJ characters starting at `i` (UAX#29 WB4). */
function skipExt(text: string, i: number, limit: number): number {
  while (i < limit) {
    const cp = cpAt(text, i, limit);
    if ((props(cp) & EXT) === 0) break;
    i += cpLen;
  }
  return i;
}

// ---------------------------------------------------------------------------------------------
// Word family: NUM / HANGUL / KATAKANA / ALPHANUM (grammar rules 2-5). The ALPHANUM rule's
// language contains the other three, so one greedy scan finds the longest match and flags tell
// whether the match is also a NUM (no letters), HANGUL (Hangul letters only) or KATAKANA match.

const P_NONE = 0;
const P_A = 1; // ALetter (not Hebrew)
const P_H = 2; // Hebrew_Letter
const P_N = 3; // Numeric
const P_K = 4; // Katakana
const P_ENL = 5; // ExtendNumLet
const P_WANT_A = 6; // after MidLetter: an AHLetter must follow
const P_WANT_N = 7; // after MidNum: a Numeric must follow
const P_WANT_H = 8; // after Hebrew + Double_Quote: a Hebrew_Letter must follow
const P_HEB_SQ = 9; // Hebrew + Single_Quote: may end here

const F_LETTER = 1;
const F_NOT_HANGUL = 2;
const F_NOT_KATAKANA = 4;

let wordFlags = 0;

/** Longest ALPHANUM-rule match at `p` (returns p when none); flags go to `wordFlags`. */
function scanWordFamily(text: string, p: number, limit: number): number {
  let i = p;
  let prev = P_NONE;
  let core = false;
  let flags = 0;
  let accept = p;
  let acceptFlags = 0;
  while (i < limit) {
    const cp = cpAt(text, i, limit);
    const m = props(cp);
    const unitEnd = skipExt(text, i + cpLen, limit);
    if ((m & (ALETTER | HEBREW)) !== 0) {
      if (prev === P_K || prev === P_WANT_N || (prev === P_WANT_H && (m & HEBREW) === 0)) break;
      prev = (m & HEBREW) !== 0 ? P_H : P_A;
      flags |= F_LETTER | F_NOT_KATAKANA | ((m & HANGUL) === 0 ? F_NOT_HANGUL : 0);
      core = true;
    } else if ((m & NUMERIC) !== 0) {
      if (prev === P_K || prev === P_WANT_A || prev === P_WANT_H) break;
      prev = P_N;
      flags |= F_NOT_HANGUL | F_NOT_KATAKANA;
      core = true;
    } else if ((m & KATAKANA) !== 0) {
      if (prev !== P_NONE && prev !== P_K && prev !== P_ENL) break;
      prev = P_K;
      flags |= F_LETTER | F_NOT_HANGUL;
      core = true;
    } else if ((m & EXTENDNUMLET) !== 0) {
      if (prev >= P_WANT_A && prev <= P_WANT_H) break;
      prev = P_ENL;
      flags |= F_NOT_HANGUL | F_NOT_KATAKANA;
      i = unitEnd;
      if (core) {
        accept = i;
        acceptFlags = flags;
      }
      continue;
    } else if (prev === P_H && (m & SINGLE_QUOTE) !== 0) {
      prev = P_HEB_SQ; // WB7a: Hebrew_Letter × Single_Quote, the token may end after it
      flags |= F_NOT_HANGUL | F_NOT_KATAKANA;
      i = accept = unitEnd;
      acceptFlags = flags;
      continue;
    } else if (prev === P_H && (m & DOUBLE_QUOTE) !== 0) {
      prev = P_WANT_H;
      flags |= F_NOT_HANGUL | F_NOT_KATAKANA;
      i = unitEnd;
      continue;
    } else if ((prev === P_A || prev === P_H) && (m & MIDLETTER) !== 0) {
      prev = P_WANT_A;
      flags |= F_NOT_HANGUL | F_NOT_KATAKANA;
      i = unitEnd;
      continue;
    } else if (prev === P_N && (m & MIDNUM) !== 0) {
      prev = P_WANT_N;
      flags |= F_NOT_HANGUL | F_NOT_KATAKANA;
      i = unitEnd;
      continue;
    } else {
      break;
    }
    i = accept = unitEnd;
    acceptFlags = flags;
  }
  wordFlags = acceptFlags;
  return accept;
}

// ---------------------------------------------------------------------------------------------
// EMOJI (grammar rule 1): an NFA over the rule
//   E ((ZWJ E)* | TagSpec+ TagTerm) | KeyCapBase X* FE0F? 20E3 X* | (RI X*){2}
// with E = ZWJ* EmojiChar X* FE0F? | (ZWJ* EmojiModifierBase X*)? EmojiModifier X*
// and X = [Format Extend ZWJ] minus the presentation selectors FE0E/FE0F.

const S_A0S = 0; // atom start (first atom: bits 0-5, later atoms: bits 6-11)
const S_A0Z = 1; // atom start after leading ZWJs
const S_A1 = 2; // after EmojiChar X* (accepting)
const S_A2 = 3; // after EmojiModifierBase X*
const S_A3 = 4; // after EmojiModifier X* (accepting)
const S_A4 = 5; // after EmojiChar X* FE0F (accepting)
const NEXT_ATOM = 6;
const T1 = 1 << 12;
const T2 = 1 << 13;
const K0 = 1 << 14;
const K1 = 1 << 15;
const K2 = 1 << 16;
const K3 = 1 << 17;
const R0 = 1 << 18;
const R1 = 1 << 19;
const R2 = 1 << 20;
const ATOM_ACCEPT = (1 << S_A1) | (1 << S_A3) | (1 << S_A4);
const ACCEPT = ATOM_ACCEPT | (ATOM_ACCEPT << NEXT_ATOM) | T2 | K3 | R2;

function isKeycapBase(cp: number): boolean {
  return (cp >= 0x30 && cp <= 0x39) || cp === 0x23 || cp === 0x2a;
}

/** True when an EMOJI match may start with `cp`. */
function mayStartEmoji(cp: number, m: number): boolean {
  return (
    (m & (EMOJI_CHAR | EMOJI_MODIFIER_BASE | EMOJI_MODIFIER | REGIONAL_INDICATOR)) !== 0 ||
    cp === 0x200d ||
    isKeycapBase(cp)
  );
}

function atomStep(s: number, base: number, cp: number, m: number, x: boolean, first: boolean) {
  let out = 0;
  const zwj = cp === 0x200d;
  const c = (m & EMOJI_CHAR) !== 0;
  const b = (m & EMOJI_MODIFIER_BASE) !== 0;
  const mod = (m & EMOJI_MODIFIER) !== 0;
  const has = (k: number) => (s & (1 << (base + k))) !== 0;
  const set = (k: number) => (out |= 1 << (base + k));
  if (has(S_A0S)) {
    if (zwj) set(S_A0Z);
    if (c) set(S_A1);
    if (b) set(S_A2);
    if (mod) set(S_A3);
  }
  if (has(S_A0Z)) {
    if (zwj) set(S_A0Z);
    if (c) set(S_A1);
    if (b) set(S_A2);
  }
  if (has(S_A1)) {
    if (x) set(S_A1);
    if (cp === 0xfe0f) set(S_A4);
  }
  if (has(S_A2)) {
    if (x) set(S_A2);
    if (mod) set(S_A3);
  }
  if (has(S_A3) && x) set(S_A3);
  if ((s & (ATOM_ACCEPT << base)) !== 0) {
    if (zwj) out |= 1 << (NEXT_ATOM + S_A0S);
    if (first && cp >= 0xe0020 && cp <= 0xe007e) out |= T1;
  }
  return out;
}

/** Longest EMOJI-rule match at `p` (returns p when none). */
function scanEmoji(text: string, p: number, limit: number): number {
  let s = (1 << S_A0S) | K0 | R0;
  let i = p;
  let accept = p;
  while (i < limit && s !== 0) {
    const cp = cpAt(text, i, limit);
    const m = props(cp);
    const x = (m & EXT) !== 0 && cp !== 0xfe0e && cp !== 0xfe0f;
    let n = atomStep(s, 0, cp, m, x, true) | atomStep(s, NEXT_ATOM, cp, m, x, false);
    if (s & T1) {
      if (cp >= 0xe0020 && cp <= 0xe007e) n |= T1;
      else if (cp === 0xe007f) n |= T2;
    }
    if (s & K0 && isKeycapBase(cp)) n |= K1;
    if (s & K1) {
      if (x) n |= K1;
      if (cp === 0xfe0f) n |= K2;
      if (cp === 0x20e3) n |= K3;
    }
    if (s & K2 && cp === 0x20e3) n |= K3;
    if (s & K3 && x) n |= K3;
    const ri = (m & REGIONAL_INDICATOR) !== 0;
    if (s & R0 && ri) n |= R1;
    if (s & R1) {
      if (x) n |= R1;
      if (ri) n |= R2;
    }
    if (s & R2 && x) n |= R2;
    s = n;
    i += cpLen;
    if ((s & ACCEPT) !== 0) accept = i;
  }
  return accept;
}

// ---------------------------------------------------------------------------------------------

/**
 * Finds the next token in `text[p, len)`, honouring the scanner window `maxLen` (JFlex's
 * non-expanding buffer: a match never extends past start + maxLen). Returns false at the end.
 */
export function scanUnicode(text: string, p: number, maxLen: number, out: ScanResult): boolean {
  const len = text.length;
  while (p < len) {
    let limit = p + maxLen;
    if (limit >= len) limit = len;
    else if (isHighSurrogate(text.charCodeAt(limit - 1)) && limit - 1 > p) limit--;
    const cp = cpAt(text, p, limit);
    const m = props(cp);
    const first = cpLen;
    let end = p;
    let type = TYPE_ALPHANUM;
    if ((m & (ALETTER | HEBREW | NUMERIC | KATAKANA | EXTENDNUMLET)) !== 0) {
      end = scanWordFamily(text, p, limit);
      if (end > p) {
        const f = wordFlags;
        if ((f & F_LETTER) === 0) type = TYPE_NUM;
        else if ((f & F_NOT_HANGUL) === 0) type = TYPE_HANGUL;
        else if ((f & F_NOT_KATAKANA) === 0) type = TYPE_KATAKANA;
      }
    }
    if (mayStartEmoji(cp, m)) {
      const e = scanEmoji(text, p, limit);
      if (e > p && e >= end) {
        end = e;
        type = TYPE_EMOJI;
      }
    }
    if ((m & SOUTHEAST_ASIAN) !== 0) {
      let i = p;
      while (i < limit) {
        const c = cpAt(text, i, limit);
        if ((props(c) & SOUTHEAST_ASIAN) === 0) break;
        i = skipExt(text, i + cpLen, limit);
      }
      if (i > end) {
        end = i;
        type = TYPE_SOUTHEAST_ASIAN;
      }
    }
    if ((m & (HAN | HIRAGANA)) !== 0) {
      const e = skipExt(text, p + first, limit);
      if (e > end) {
        end = e;
        type = (m & HAN) !== 0 ? TYPE_IDEOGRAPHIC : TYPE_HIRAGANA;
      }
    }
    if (end > p) {
      out.start = p;
      out.end = end;
      out.type = type;
      return true;
    }
    p += first; // UAX#29 WB999: anything else is skipped one code point at a time
  }
  out.start = out.end = len;
  return false;
}

function isHighSurrogate(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff;
}

// ---------------------------------------------------------------------------------------------
// ASCII fast path: identical results for text without any character above U+007F.

const C_OTHER = 0;
const C_LETTER = 1;
const C_DIGIT = 2;
const C_UNDERSCORE = 3; // ExtendNumLet
const C_COLON = 4; // MidLetter
const C_MIDNUM = 5; // , ;
const C_MIDNUMLET = 6; // . ' (MidNumLet, Single_Quote: both MidLetter and MidNum)

const ASCII_CLASS = new Uint8Array(128);
for (let c = 0x41; c <= 0x5a; c++) ASCII_CLASS[c] = C_LETTER;
for (let c = 0x61; c <= 0x7a; c++) ASCII_CLASS[c] = C_LETTER;
for (let c = 0x30; c <= 0x39; c++) ASCII_CLASS[c] = C_DIGIT;
ASCII_CLASS[0x5f] = C_UNDERSCORE;
ASCII_CLASS[0x3a] = C_COLON;
ASCII_CLASS[0x2c] = C_MIDNUM;
ASCII_CLASS[0x3b] = C_MIDNUM;
ASCII_CLASS[0x2e] = C_MIDNUMLET;
ASCII_CLASS[0x27] = C_MIDNUMLET;

/** `scanUnicode` for text known to be all ASCII. */
export function scanAscii(text: string, p: number, maxLen: number, out: ScanResult): boolean {
  const len = text.length;
  while (p < len) {
    const c0 = ASCII_CLASS[text.charCodeAt(p)]!;
    if (c0 === C_OTHER || c0 === C_COLON || c0 === C_MIDNUM || c0 === C_MIDNUMLET) {
      p++;
      continue;
    }
    const limit = p + maxLen < len ? p + maxLen : len;
    let i = p;
    let prev = P_NONE;
    let letter = false;
    let core = false;
    let accept = p;
    let acceptLetter = false;
    while (i < limit) {
      const k = ASCII_CLASS[text.charCodeAt(i)]!;
      if (k === C_LETTER) {
        if (prev === P_WANT_N) break;
        prev = P_A;
        letter = core = true;
      } else if (k === C_DIGIT) {
        if (prev === P_WANT_A) break;
        prev = P_N;
        core = true;
      } else if (k === C_UNDERSCORE) {
        if (prev === P_WANT_A || prev === P_WANT_N) break;
        prev = P_ENL;
        i++;
        if (core) {
          accept = i;
          acceptLetter = letter;
        }
        continue;
      } else if (k === C_COLON) {
        if (prev !== P_A) break;
        prev = P_WANT_A;
        i++;
        continue;
      } else if (k === C_MIDNUM) {
        if (prev !== P_N) break;
        prev = P_WANT_N;
        i++;
        continue;
      } else if (k === C_MIDNUMLET) {
        if (prev === P_A) prev = P_WANT_A;
        else if (prev === P_N) prev = P_WANT_N;
        else break;
        i++;
        continue;
      } else {
        break;
      }
      accept = ++i;
      acceptLetter = letter;
    }
    if (accept > p) {
      out.start = p;
      out.end = accept;
      out.type = acceptLetter ? TYPE_ALPHANUM : TYPE_NUM;
      return true;
    }
    p++;
  }
  out.start = out.end = len;
  return false;
}
