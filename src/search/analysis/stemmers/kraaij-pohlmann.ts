/**
 * The Kraaij-Pohlmann Dutch stemmer (W. Kraaij and R. Pohlmann, 1994), as Snowball published it
 * in 2002 and Lucene's KpStemmer runs it (ES `stemmer` language `dutch_kp` or `kp`, `snowball`
 * language `Kp`). Suffixes are removed in steps (plurals and -en/-es, diminutives -je, derivational
 * suffixes, adjective endings), a lost long vowel is restored ("mak" → "maak"), the ge- prefix or
 * infix of past participles goes, and final consonants are normalised (kt → k, dd → d, v → f).
 * The steps test the word's end backwards with a cursor, as Snowball programs do; R1 and R2 are
 * the regions after the first and second vowel-consonant boundaries.
 */

const V = new Set([...'aeiouy']);
const V_WX = new Set([...'aeiouywx']);
const AOU = new Set([...'aou']);
const AIOU = new Set([...'aiou']);

/** A word being stemmed, a cursor into it and the slice the steps rewrite. */
interface State {
  s: string;
  c: number;
  bra: number;
  ket: number;
  p1: number;
  p2: number;
}

// ---- backward-mode primitives (the cursor moves left) ----

const isV = (st: State, i: number) => i >= 0 && i < st.s.length && V.has(st.s[i]!);
/** The text just before the cursor is `t`: the cursor moves before it. */
function eqB(st: State, t: string): boolean {
  if (st.c < t.length || st.s.slice(st.c - t.length, st.c) !== t) return false;
  st.c -= t.length;
  return true;
}
/** The letter before the cursor is in `set` (or not, with `inSet` false): the cursor passes it. */
function groupB(st: State, set: Set<string>, inSet: boolean): boolean {
  if (st.c <= 0 || set.has(st.s[st.c - 1]!) !== inSet) return false;
  st.c -= 1;
  return true;
}
/** Runs `f`, restoring the cursor (measured from the end, as edits there shift it) after. */
function testB(st: State, f: () => boolean): boolean {
  const fromEnd = st.s.length - st.c;
  const ok = f();
  st.c = st.s.length - fromEnd;
  return ok;
}
/** Tries each alternative from the same place (Snowball `or`). */
function orB(st: State, ...alts: Array<() => boolean>): boolean {
  const fromEnd = st.s.length - st.c;
  for (const a of alts) {
    if (a()) return true;
    st.c = st.s.length - fromEnd;
  }
  return false;
}
/** Replaces the slice, moving the cursor as Snowball's replace_s does. */
function sliceFrom(st: State, t: string): void {
  const adj = t.length - (st.ket - st.bra);
  st.s = st.s.slice(0, st.bra) + t + st.s.slice(st.ket);
  if (st.c >= st.ket) st.c += adj;
  else if (st.c > st.bra) st.c = st.bra;
}
const del = (st: State) => sliceFrom(st, '');
/** Snowball `attach`: inserts at the cursor, which ends up after the inserted text. */
function attach(st: State, t: string): void {
  st.s = st.s.slice(0, st.c) + t + st.s.slice(st.c);
  if (st.c <= st.bra) st.bra += t.length;
  if (st.c <= st.ket) st.ket += t.length;
  st.c += t.length;
}
/** The longest of `endings` before the cursor: the slice is set on it, the cursor before it. */
function amongB(st: State, endings: readonly string[]): string | null {
  let best: string | null = null;
  for (const e of endings)
    if ((best === null || e.length > best.length) && st.c >= e.length && st.s.slice(st.c - e.length, st.c) === e) best = e; // prettier-ignore
  if (best === null) return null;
  st.ket = st.c;
  st.c -= best.length;
  st.bra = st.c;
  return best;
}

const R1 = (st: State) => st.c >= st.p1;
const R2 = (st: State) => st.c >= st.p2;
/** A vowel (or "ij") before the cursor. */
const Vb = (st: State) => testB(st, () => groupB(st, V, true) || eqB(st, 'ij'));
/** A vowel (or "ij") before the letter before the cursor. */
const VX = (st: State) =>
  testB(st, () => st.c > 0 && (st.c--, true) && (groupB(st, V, true) || eqB(st, 'ij')));
/** A consonant, not the j of "ij", before the cursor. */
const C = (st: State) => testB(st, () => !testB(st, () => eqB(st, 'ij')) && groupB(st, V, false));

/** Restores a long vowel lost with an ending: "mak" → "maak", "nem" → "neem". */
function lengthenV(st: State): void {
  testB(st, () => {
    if (!groupB(st, V_WX, false)) return false;
    st.ket = st.c;
    const ok = orB(
      st,
      () =>
        groupB(st, AOU, true) &&
        ((st.bra = st.c), true) &&
        testB(st, () => groupB(st, V, false) || st.c === 0),
      () =>
        eqB(st, 'e') &&
        ((st.bra = st.c), true) &&
        testB(
          st,
          () =>
            (groupB(st, V, false) || st.c === 0) &&
            !testB(st, () => groupB(st, AIOU, true)) &&
            !testB(st, () => st.c > 0 && (st.c--, true) && groupB(st, AIOU, true) && groupB(st, V, false)), // prettier-ignore
        ),
    );
    if (!ok) return false;
    const ch = st.s.slice(st.bra, st.ket);
    attach(st, ch);
    return true;
  });
}

function step1(st: State): boolean {
  const e = amongB(st, ["'s", 's', 'ies', 'es', 'aus', 'en', 'nde']);
  switch (e) {
    case "'s":
      del(st);
      return true;
    case 's':
      if (!R1(st) || testB(st, () => eqB(st, 't') && R1(st)) || !C(st)) return false;
      del(st);
      return true;
    case 'ies':
      if (!R1(st)) return false;
      sliceFrom(st, 'ie');
      return true;
    case 'es':
      return orB(
        st,
        () => eqB(st, 'ar') && R1(st) && C(st) && ((st.bra = st.c), del(st), lengthenV(st), true),
        () => eqB(st, 'er') && R1(st) && C(st) && ((st.bra = st.c), del(st), true),
        () => R1(st) && C(st) && (sliceFrom(st, 'e'), true),
      );
    case 'aus':
      if (!R1(st) || !Vb(st)) return false;
      sliceFrom(st, 'au');
      return true;
    case 'en':
      return orB(
        st,
        () => eqB(st, 'hed') && R1(st) && ((st.bra = st.c), sliceFrom(st, 'heid'), true),
        () => eqB(st, 'nd') && (del(st), true),
        () => eqB(st, 'd') && R1(st) && C(st) && ((st.bra = st.c), del(st), true),
        () => (eqB(st, 'i') || eqB(st, 'j')) && Vb(st) && (del(st), true),
        () => R1(st) && C(st) && (del(st), lengthenV(st), true),
      );
    case 'nde':
      sliceFrom(st, 'nd');
      return true;
    default:
      return false;
  }
}

function step2(st: State): boolean {
  const e = amongB(st, ['je', 'ge', 'lijke', 'ische', 'de', 'te', 'se', 're', 'le', 'ene', 'ieve']); // prettier-ignore
  const mark = () => ((st.bra = st.c), true);
  switch (e) {
    case 'je':
      return orB(
        st,
        () => eqB(st, "'t") && mark() && (del(st), true),
        () => eqB(st, 'et') && mark() && R1(st) && C(st) && (del(st), true),
        () => eqB(st, 'rnt') && mark() && (sliceFrom(st, 'rn'), true),
        () => eqB(st, 't') && mark() && R1(st) && VX(st) && (del(st), true),
        () => eqB(st, 'ink') && mark() && (sliceFrom(st, 'ing'), true),
        () => eqB(st, 'mp') && mark() && (sliceFrom(st, 'm'), true),
        () => eqB(st, "'") && mark() && R1(st) && (del(st), true),
        () => mark() && R1(st) && C(st) && (del(st), true),
      );
    case 'ge':
      return R1(st) && (sliceFrom(st, 'g'), true);
    case 'lijke':
      return R1(st) && (sliceFrom(st, 'lijk'), true);
    case 'ische':
      return R1(st) && (sliceFrom(st, 'isch'), true);
    case 'de':
      return R1(st) && C(st) && (del(st), true);
    case 'te':
      return R1(st) && (sliceFrom(st, 't'), true);
    case 'se':
      return R1(st) && (sliceFrom(st, 's'), true);
    case 're':
      return R1(st) && (sliceFrom(st, 'r'), true);
    case 'le':
      return R1(st) && (del(st), attach(st, 'l'), lengthenV(st), true);
    case 'ene':
      return R1(st) && C(st) && (del(st), attach(st, 'en'), lengthenV(st), true);
    case 'ieve':
      return R1(st) && C(st) && (sliceFrom(st, 'ief'), true);
    default:
      return false;
  }
}

function step3(st: State): boolean {
  const e = amongB(st, ['atie', 'iteit', 'heid', 'sel', 'ster', 'rder', 'ing', 'isme', 'erij', 'arij', 'fie', 'gie', 'tst', 'dst']); // prettier-ignore
  switch (e) {
    case 'atie':
      return R1(st) && (sliceFrom(st, 'eer'), true);
    case 'iteit':
    case 'ing':
    case 'isme':
    case 'erij':
      return R1(st) && (del(st), lengthenV(st), true);
    case 'heid':
    case 'sel':
    case 'ster':
      return R1(st) && (del(st), true);
    case 'rder':
      sliceFrom(st, 'r');
      return true;
    case 'arij':
      return R1(st) && C(st) && (sliceFrom(st, 'aar'), true);
    case 'fie':
    case 'gie':
      return R2(st) && (del(st), attach(st, e[0]!), lengthenV(st), true);
    case 'tst':
    case 'dst':
      return R1(st) && C(st) && (sliceFrom(st, e[0]!), true);
    default:
      return false;
  }
}

function step4(st: State): boolean {
  return orB(
    st,
    () => {
      const e = amongB(st, ['ioneel', 'atief', 'baar', 'naar', 'laar', 'raar', 'tant', 'lijker', 'lijkst', 'achtig', 'achtiger', 'achtigst', 'eriger', 'erigst', 'erig', 'end']); // prettier-ignore
      switch (e) {
        case 'ioneel':
          return R1(st) && (sliceFrom(st, 'ie'), true);
        case 'atief':
          return R1(st) && (sliceFrom(st, 'eer'), true);
        case 'baar':
          return R1(st) && (del(st), true);
        case 'naar':
        case 'laar':
        case 'raar':
          return R1(st) && Vb(st) && (sliceFrom(st, e[0]!), true);
        case 'tant':
          return R1(st) && (sliceFrom(st, 'teer'), true);
        case 'lijker':
        case 'lijkst':
          return R1(st) && (sliceFrom(st, 'lijk'), true);
        case 'achtig':
        case 'achtiger':
        case 'achtigst':
          return R1(st) && (del(st), true);
        case 'eriger':
        case 'erigst':
        case 'erig':
        case 'end':
          return R1(st) && C(st) && (del(st), lengthenV(st), true);
        default:
          return false;
      }
    },
    () => amongB(st, ['iger', 'igst', 'ig']) !== null && R1(st) && C(st) && (del(st), lengthenV(st), true), // prettier-ignore
  );
}

function step7(st: State): boolean {
  const e = amongB(st, ['kt', 'ft', 'pt']);
  if (e === null) return false;
  sliceFrom(st, e[0]!);
  return true;
}

const STEP6 = [...'bcdfghjklmnpqrstvwxz'].map((c) => c + c).concat(['v', 'z']);
function step6(st: State): boolean {
  const e = amongB(st, STEP6);
  if (e === null) return false;
  sliceFrom(st, e === 'v' ? 'f' : e === 'z' ? 's' : e[0]!);
  return true;
}

function step1c(st: State): boolean {
  const e = amongB(st, ['d', 't']);
  if (e === null || !R1(st) || !C(st)) return false;
  const guard = e === 'd' ? 'n' : 'h';
  if (testB(st, () => eqB(st, guard) && R1(st))) return false;
  del(st);
  return true;
}

/** Runs a step from the word's end, keeping what it changed (Snowball `do` in `backwards`). */
function back(st: State, step: (st: State) => boolean): boolean {
  st.c = st.s.length;
  return step(st);
}

// ---- forward parts ----

/** p1 and p2: after each of the first two (consonants, vowels or "ij", consonant) runs. */
function measure(st: State): void {
  const s = st.s;
  st.p1 = st.p2 = s.length;
  let i = 0;
  const region = (): boolean => {
    while (i < s.length && !V.has(s[i]!)) i++;
    let n = 0;
    for (;;) {
      if (s.startsWith('ij', i)) i += 2;
      else if (i < s.length && V.has(s[i]!)) i += 1;
      else break;
      n++;
    }
    if (n === 0 || i >= s.length || V.has(s[i]!)) return false;
    i += 1;
    return true;
  };
  if (!region()) return;
  st.p1 = i;
  if (!region()) return;
  st.p2 = i;
}

/** Whether at least 3 letters follow `from` and they hold a vowel and a consonant after it. */
function geRemovable(s: string, from: number): boolean {
  if (s.length - from < 3) return false;
  let i = from;
  while (i < s.length && !V.has(s[i]!)) i++;
  if (i >= s.length) return false;
  while (i < s.length && V.has(s[i]!)) i++;
  return i < s.length;
}

export function kpStem(word: string): string {
  const st: State = { s: word, c: 0, bra: 0, ket: 0, p1: 0, p2: 0 };
  let yFound = false;
  // y as a consonant (initial, or after a vowel) is written Y meanwhile
  let chars = [...st.s];
  if (chars[0] === 'y') {
    chars[0] = 'Y';
    yFound = true;
  }
  for (let i = 0; i + 1 < chars.length; i++)
    if (V.has(chars[i]!) && chars[i + 1] === 'y') {
      chars[i + 1] = 'Y';
      yFound = true;
    }
  st.s = chars.join('');
  measure(st);
  let stemmed = false;
  for (const step of [step1, step2, step3, step4]) if (back(st, step)) stemmed = true;
  // the ge- prefix of a past participle
  if (st.s.startsWith('ge') && geRemovable(st.s, 2)) {
    st.s = st.s.slice(2);
    measure(st);
    back(st, step1c);
  }
  // the -ge- infix (first "ge" after the first letter)
  let geRemoved = false;
  const at = st.s.indexOf('ge', 1);
  if (at >= 1 && geRemovable(st.s, at + 2)) {
    st.s = st.s.slice(0, at) + st.s.slice(at + 2);
    geRemoved = true;
    measure(st);
    back(st, step1c);
  }
  if (back(st, step7)) stemmed = true;
  if (stemmed || geRemoved) back(st, step6);
  if (yFound) st.s = st.s.replace(/Y/g, 'y');
  return st.s;
}
