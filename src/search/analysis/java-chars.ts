/**
 * Java character predicates and case mappings Lucene's analysis relies on (Character.isLetter,
 * isWhitespace, toLowerCase/toUpperCase per code point). JS string case mapping is "full"
 * (ß → SS, final sigma); Lucene maps one code point to one code point, so we do too.
 */

const LETTER = /^\p{L}$/u;
const SPACE_SEP = /^[\p{Zs}\p{Zl}\p{Zp}]$/u;

/** Java Character.isLetter(int). */
export function isLetter(cp: number): boolean {
  if (cp < 0x80) return (cp >= 0x61 && cp <= 0x7a) || (cp >= 0x41 && cp <= 0x5a);
  return LETTER.test(String.fromCodePoint(cp));
}

/** Java Character.isWhitespace(int): space separators except no-break ones, and \t\n\v\f\r, FS..US. */
export function isWhitespace(cp: number): boolean {
  if (cp <= 0x20) return cp === 0x20 || (cp >= 0x09 && cp <= 0x0d) || (cp >= 0x1c && cp <= 0x1f);
  if (cp < 0x1680) return false;
  if (cp === 0x00a0 || cp === 0x2007 || cp === 0x202f) return false;
  return SPACE_SEP.test(String.fromCodePoint(cp));
}

/** Java Character.toLowerCase(int) (simple case mapping). */
export function toLowerCp(cp: number): number {
  if (cp < 0x80) return cp >= 0x41 && cp <= 0x5a ? cp + 32 : cp;
  if (cp === 0x130) return 0x69; // İ: full mapping is "i̇", simple is "i"
  const s = String.fromCodePoint(cp).toLowerCase();
  const l = s.codePointAt(0)!;
  return s.length === (l > 0xffff ? 2 : 1) ? l : cp;
}

/** Java Character.toUpperCase(int) (simple case mapping). */
export function toUpperCp(cp: number): number {
  if (cp < 0x80) return cp >= 0x61 && cp <= 0x7a ? cp - 32 : cp;
  const s = String.fromCodePoint(cp).toUpperCase();
  const u = s.codePointAt(0)!;
  // Multi-character full mappings (ß → SS, ŉ → ʼN, ...) have no single-code-point form here;
  // Java keeps such characters unchanged except where a simple mapping exists (handled below).
  if (s.length === (u > 0xffff ? 2 : 1)) return u;
  return SIMPLE_UPPER_EXCEPTIONS.get(cp) ?? cp;
}

// Characters whose full uppercase is several code points but whose simple uppercase differs
// from themselves (UnicodeData.txt field 12): Greek with ypogegrammeni/prosgegrammeni.
const SIMPLE_UPPER_EXCEPTIONS = new Map<number, number>();
for (let cp = 0x1f80; cp <= 0x1faf; cp++) {
  // ᾀ..ᾇ → ᾈ..ᾏ, ᾐ..ᾗ → ᾘ..ᾟ, ᾠ..ᾧ → ᾨ..ᾯ; titlecase forms map to themselves
  if ((cp & 0x0f) < 8) SIMPLE_UPPER_EXCEPTIONS.set(cp, cp + 8);
}
SIMPLE_UPPER_EXCEPTIONS.set(0x1fb3, 0x1fbc);
SIMPLE_UPPER_EXCEPTIONS.set(0x1fc3, 0x1fcc);
SIMPLE_UPPER_EXCEPTIONS.set(0x1ff3, 0x1ffc);

// Where String#toLowerCase (full mapping) differs from per-code-point simple mapping.
const LOWER_SPECIAL = /[\u0130\u03a3]/;
// Characters with multi-character full uppercase mappings (SpecialCasing.txt).
const UPPER_SPECIAL =
  /[\u00df\u0149\u01f0\u0390\u03b0\u0587\u1e96-\u1e9a\u1f50-\u1f56\u1f80-\u1fff\ufb00-\ufb17]/;

/** Lucene LowerCaseFilter on a whole term. */
export function lowerCaseTerm(s: string): string {
  if (!LOWER_SPECIAL.test(s)) return s.toLowerCase();
  let out = '';
  for (const ch of s) out += String.fromCodePoint(toLowerCp(ch.codePointAt(0)!));
  return out;
}

/** Lucene UpperCaseFilter on a whole term. */
export function upperCaseTerm(s: string): string {
  if (!UPPER_SPECIAL.test(s)) return s.toUpperCase();
  let out = '';
  for (const ch of s) out += String.fromCodePoint(toUpperCp(ch.codePointAt(0)!));
  return out;
}
