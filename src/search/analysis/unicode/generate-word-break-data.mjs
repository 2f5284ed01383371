/**
 * Dev tool (not loaded at run time): writes `word-break-data.ts`, the per-code-point property
 * bits the standard tokenizer's grammar needs, from Unicode 9.0 data (the version Lucene 7.7's
 * StandardTokenizerImpl.jflex is generated with, `%unicode 9.0`) and Emoji 11.0 data.
 *
 * Usage: node generate-word-break-data.mjs <Unicode_9_0.java> <UnicodeEmojiProperties.jflex>
 *   - Unicode_9_0.java: JFlex's interval table for Unicode 9.0 (jflex/core/unicode/data/).
 *   - UnicodeEmojiProperties.jflex: the Emoji 11.0 property ranges Lucene 7.7 includes.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const [ucdPath, emojiPath] = process.argv.slice(2);
if (!ucdPath || !emojiPath) {
  console.error('usage: node generate-word-break-data.mjs <Unicode_9_0.java> <emoji.jflex>');
  process.exit(2);
}

// Bits; keep in sync with word-break-props.ts.
const B = {
  ALETTER: 1,
  HEBREW: 2,
  HANGUL: 4,
  NUMERIC: 8,
  KATAKANA: 16,
  MIDLETTER: 32,
  MIDNUM: 64,
  EXTENDNUMLET: 128,
  EXT: 256,
  SINGLE_QUOTE: 512,
  DOUBLE_QUOTE: 1024,
  RI: 2048,
  SA: 4096,
  HAN: 8192,
  HIRAGANA: 16384,
  EMOJI_CHAR: 32768,
  EMOJI_MOD_BASE: 65536,
  EMOJI_MOD: 131072,
};

/** Parses JFlex's `intervals` array into Map<propertyValue, Array<[from, to]>>. */
function parseJflexIntervals(src) {
  const start = src.indexOf('public static final String[] intervals');
  const end = src.indexOf('};', start);
  const body = src.slice(start, end);
  const out = new Map();
  const re = /\/\/ Unicode [\d.]+ property value: \{([^}]*)\}\n([\s\S]*?)(?=\n\s*\/\/ Unicode|$)/g;
  for (const m of body.matchAll(re)) {
    const lits = [...m[2].matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((l) => unescapeJava(l[1]));
    const cps = [...lits.join('')].map((c) => c.codePointAt(0));
    const pairs = [];
    for (let i = 0; i + 1 < cps.length; i += 2) pairs.push([cps[i], cps[i + 1]]);
    out.set(m[1], pairs);
  }
  return out;
}

const SIMPLE_ESCAPES = {
  r: '\r',
  n: '\n',
  t: '\t',
  b: '\b',
  f: '\f',
  '"': '"',
  "'": "'",
  '\\': '\\',
};

/** Decodes the body of a Java string literal (\\uXXXX, octal and one-letter escapes). */
function unescapeJava(s) {
  return s.replace(/\\(u+[0-9a-fA-F]{4}|[0-3]?[0-7]{1,2}|.)/g, (_, e) => {
    if (e[0] === 'u') return String.fromCharCode(parseInt(e.replace(/^u+/, ''), 16));
    if (/^[0-7]/.test(e)) return String.fromCharCode(parseInt(e, 8));
    if (e in SIMPLE_ESCAPES) return SIMPLE_ESCAPES[e];
    throw new Error('unknown escape \\' + e);
  });
}

function parseEmoji(src) {
  const out = new Map();
  for (const line of src.split('\n')) {
    const m = /^(\w+) = \[(.*)\]$/.exec(line.trim());
    if (!m) continue;
    const ranges = [];
    for (const r of m[2].matchAll(/\\u\{([0-9A-Fa-f]+)\}(?:-\\u\{([0-9A-Fa-f]+)\})?/g)) {
      const a = parseInt(r[1], 16);
      ranges.push([a, r[2] ? parseInt(r[2], 16) : a]);
    }
    out.set(m[1], ranges);
  }
  return out;
}

const ucd = parseJflexIntervals(readFileSync(ucdPath, 'utf8'));
const emoji = parseEmoji(readFileSync(emojiPath, 'utf8'));
const N = 0x110000;

function set(name, src = ucd) {
  const r = src.get(name);
  if (!r) throw new Error('missing property ' + name);
  const s = new Uint8Array(N);
  for (const [a, b] of r) s.fill(1, a, b + 1);
  return s;
}

const wb = (v) => set('wordbreak=' + v);
const aletter = wb('aletter');
const hebrew = wb('hebrewletter');
const hangulScript = set('hangul');
const numeric = wb('numeric');
const nd = set('nd');
const halfFull = set('block=halfwidthandfullwidthforms');
const katakana = wb('katakana');
const midLetter = wb('midletter');
const midNum = wb('midnum');
const midNumLet = wb('midnumlet');
const sq = wb('singlequote');
const dq = wb('doublequote');
const enl = wb('extendnumlet');
const ext = wb('extend');
const fmt = wb('format');
const zwj = wb('zwj');
const ri = wb('regionalindicator');
const sa = set('linebreak=complexcontext');
const han = set('han');
const hiragana = set('hiragana');
const eEmoji = set('Emoji', emoji);
const eMod = set('Emoji_Modifier', emoji);
const eModBase = set('Emoji_Modifier_Base', emoji);
const ePict = set('Extended_Pictographic', emoji);

const masks = new Uint32Array(N);
for (let c = 0; c < N; c++) {
  let m = 0;
  if (aletter[c]) m |= B.ALETTER;
  if (hebrew[c]) m |= B.HEBREW;
  if (hangulScript[c] && (aletter[c] || hebrew[c])) m |= B.HANGUL;
  if (numeric[c] || (halfFull[c] && nd[c])) m |= B.NUMERIC;
  if (katakana[c]) m |= B.KATAKANA;
  if (midLetter[c] || midNumLet[c] || sq[c]) m |= B.MIDLETTER;
  if (midNum[c] || midNumLet[c] || sq[c]) m |= B.MIDNUM;
  if (enl[c]) m |= B.EXTENDNUMLET;
  if (ext[c] || fmt[c] || zwj[c]) m |= B.EXT;
  if (sq[c]) m |= B.SINGLE_QUOTE;
  if (dq[c]) m |= B.DOUBLE_QUOTE;
  if (ri[c]) m |= B.RI;
  if (sa[c]) m |= B.SA;
  if (han[c]) m |= B.HAN;
  if (hiragana[c]) m |= B.HIRAGANA;
  // StandardTokenizerImpl.jflex: EmojiChar = Extended_Pictographic | (Emoji - RKAM), RKAM being
  // Regional_Indicator, [0-9#*], [©®™\u3030\u303D] and Emoji_Modifier.
  const keycapBase = (c >= 0x30 && c <= 0x39) || c === 0x23 || c === 0x2a;
  const accidental = c === 0xa9 || c === 0xae || c === 0x2122 || c === 0x3030 || c === 0x303d;
  if (ePict[c] || (eEmoji[c] && !(ri[c] || keycapBase || accidental || eMod[c]))) m |= B.EMOJI_CHAR;
  if (eModBase[c]) m |= B.EMOJI_MOD_BASE;
  if (eMod[c]) m |= B.EMOJI_MOD;
  masks[c] = m;
}

// Run-length encode as [start, mask] transitions.
const starts = [];
const values = [];
for (let c = 0; c < N; c++) {
  if (c === 0 || masks[c] !== masks[c - 1]) {
    starts.push(c);
    values.push(masks[c]);
  }
}

const header = `/**
 * GENERATED by generate-word-break-data.mjs from Unicode 9.0 (Word_Break, Line_Break=SA, Script,
 * General_Category, Block) and Emoji 11.0 data: the property bits Lucene 7.7's
 * StandardTokenizerImpl.jflex uses. Do not edit; regenerate. ${starts.length} runs.
 */
`;
const chunk = (arr) => {
  const lines = [];
  for (let i = 0; i < arr.length; i += 16) lines.push('  ' + arr.slice(i, i + 16).join(', ') + ',');
  return lines.join('\n');
};
const ts = `${header}
/** First code point of each run (ascending). */
export const RUN_STARTS: readonly number[] = [
${chunk(starts)}
];

/** Property bits of each run. */
export const RUN_MASKS: readonly number[] = [
${chunk(values)}
];
`;
const outPath = join(dirname(fileURLToPath(import.meta.url)), 'word-break-data.ts');
writeFileSync(outPath, ts);
console.log(`wrote ${outPath}: ${starts.length} runs`);
