/**
 * The Porter (1980) stemming algorithm as in Martin Porter's reference implementation, which
 * Lucene's PorterStemmer follows (including its departures from the paper: step 2 maps "bli" to
 * "ble" instead of "abli" to "able", and adds "logi" → "log"). Written from the algorithm's
 * definition: m() counts VC sequences of the stem, *v* / *d / *o are the paper's conditions.
 */

let b = ''; // the word being stemmed
let k = 0; // index of its last character
let j = 0; // end of the stem for the current suffix test

function cons(i: number): boolean {
  const c = b.charCodeAt(i);
  if (c === 97 || c === 101 || c === 105 || c === 111 || c === 117) return false; // aeiou
  if (c === 121) return i === 0 ? true : !cons(i - 1); // y
  return true;
}

/** Number of VC sequences in b[0..j]. */
function m(): number {
  let n = 0;
  let i = 0;
  for (;;) {
    if (i > j) return n;
    if (!cons(i)) break;
    i++;
  }
  i++;
  for (;;) {
    for (;;) {
      if (i > j) return n;
      if (cons(i)) break;
      i++;
    }
    i++;
    n++;
    for (;;) {
      if (i > j) return n;
      if (!cons(i)) break;
      i++;
    }
    i++;
  }
}

/** *v*: the stem b[0..j] contains a vowel. */
function vowelInStem(): boolean {
  for (let i = 0; i <= j; i++) if (!cons(i)) return true;
  return false;
}

/** *d: b[i-1..i] is a double consonant. */
function doublec(i: number): boolean {
  return i >= 1 && b[i] === b[i - 1] && cons(i);
}

/** *o: b[i-2..i] is consonant-vowel-consonant and the last is not w, x or y. */
function cvc(i: number): boolean {
  if (i < 2 || !cons(i) || cons(i - 1) || !cons(i - 2)) return false;
  const c = b[i];
  return c !== 'w' && c !== 'x' && c !== 'y';
}

function ends(s: string): boolean {
  const l = s.length;
  if (l > k + 1) return false;
  if (b.slice(k - l + 1, k + 1) !== s) return false;
  j = k - l;
  return true;
}

/** Replaces b[j+1..k] with s. */
function setto(s: string): void {
  b = b.slice(0, j + 1) + s + b.slice(k + 1);
  k = j + s.length;
}

function r(s: string): void {
  if (m() > 0) setto(s);
}

/** Step 1ab: plurals and -ed / -ing. */
function step1(): void {
  if (b[k] === 's') {
    if (ends('sses')) k -= 2;
    else if (ends('ies')) setto('i');
    else if (b[k - 1] !== 's') k--;
  }
  if (ends('eed')) {
    if (m() > 0) k--;
  } else if ((ends('ed') || ends('ing')) && vowelInStem()) {
    k = j;
    if (ends('at')) setto('ate');
    else if (ends('bl')) setto('ble');
    else if (ends('iz')) setto('ize');
    else if (doublec(k)) {
      k--;
      const c = b[k];
      if (c === 'l' || c === 's' || c === 'z') k++;
    } else if (m() === 1 && cvc(k)) setto('e');
  }
}

/** Step 1c: y → i when there is another vowel in the stem. */
function step2(): void {
  if (ends('y') && vowelInStem()) b = b.slice(0, k) + 'i' + b.slice(k + 1);
}

const STEP3: ReadonlyArray<readonly [string, string]> = [
  ['ational', 'ate'],
  ['tional', 'tion'],
  ['enci', 'ence'],
  ['anci', 'ance'],
  ['izer', 'ize'],
  ['bli', 'ble'],
  ['alli', 'al'],
  ['entli', 'ent'],
  ['eli', 'e'],
  ['ousli', 'ous'],
  ['ization', 'ize'],
  ['ation', 'ate'],
  ['ator', 'ate'],
  ['alism', 'al'],
  ['iveness', 'ive'],
  ['fulness', 'ful'],
  ['ousness', 'ous'],
  ['aliti', 'al'],
  ['iviti', 'ive'],
  ['biliti', 'ble'],
  ['logi', 'log'],
];

/** Paper step 2: double suffixes to single ones, when m > 0. */
function step3(): void {
  if (k === 0) return;
  for (const [suffix, repl] of STEP3) {
    if (ends(suffix)) {
      r(repl);
      return;
    }
  }
}

const STEP4: ReadonlyArray<readonly [string, string]> = [
  ['icate', 'ic'],
  ['ative', ''],
  ['alize', 'al'],
  ['iciti', 'ic'],
  ['ical', 'ic'],
  ['ful', ''],
  ['ness', ''],
];

/** Paper step 3: -ic-, -full, -ness etc. */
function step4(): void {
  for (const [suffix, repl] of STEP4) {
    if (ends(suffix)) {
      r(repl);
      return;
    }
  }
}

const STEP5 = [
  'al',
  'ance',
  'ence',
  'er',
  'ic',
  'able',
  'ible',
  'ant',
  'ement',
  'ment',
  'ent',
  'ion',
  'ou',
  'ism',
  'ate',
  'iti',
  'ous',
  'ive',
  'ize',
];

/** Paper step 4: removes -ant, -ence etc. when m > 1 (-ion only after s or t). */
function step5(): void {
  if (k === 0) return;
  let found = false;
  for (const suffix of STEP5) {
    if (ends(suffix)) {
      if (suffix === 'ion' && !(j >= 0 && (b[j] === 's' || b[j] === 't'))) {
        // -ion needs a preceding s or t; fall through to later suffixes of the same ending
        continue;
      }
      found = true;
      break;
    }
  }
  if (found && m() > 1) k = j;
}

/** Paper step 5: removes a final -e and -ll → -l when m > 1. */
function step6(): void {
  j = k;
  if (b[k] === 'e') {
    const a = m();
    if (a > 1 || (a === 1 && !cvc(k - 1))) k--;
  }
  if (b[k] === 'l' && doublec(k) && m() > 1) k--;
}

/** Stems a lower-case word. Words of one or two letters are left alone. */
export function porterStem(word: string): string {
  if (word.length <= 2) return word;
  b = word;
  k = word.length - 1;
  j = 0;
  step1();
  step2();
  step3();
  step4();
  step5();
  step6();
  return b.slice(0, k + 1);
}
