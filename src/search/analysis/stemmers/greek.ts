/**
 * Lucene 7.7's GreekStemmer (Georgios Ntais, "Development of a Stemmer for the Greek Language"):
 * input already lower-cased with accents and final sigma folded (GreekLowerCaseFilter). A row of
 * "short" rules, each cutting one ending unless the rest is an exception (then part of the ending
 * is put back); when none of them changed the word, one ending of the "long list" goes; last, the
 * comparative/superlative suffixes. The word is a char buffer with a length, as in Lucene, so an
 * ending "put back" is the original text again and a rewrite can leave chars beyond the length.
 */

const VOWELS = 'αεηιουω';
const VOWELS_NO_Y = 'αεηιοω';

const set = (words: string): ReadonlySet<string> => new Set(words.split(' '));

const EXC4 = set('θ δ ελ γαλ ν π ιδ παρ');
const EXC6 = set(
  'αλ αδ ενδ αμαν αμμοχαλ ηθ ανηθ αντιδ φυσ βρωμ γερ εξωδ καλπ καλλιν καταδ μουλ μπαν μπαγιατ ' +
    'μπολ μποσ νιτ ξικ συνομηλ πετσ πιτσ πικαντ πλιατσ ποστελν πρωτοδ σερτ συναδ τσαμ υποδ φιλον ' +
    'φυλοδ χασ',
);
const EXC7 = set('αναπ αποθ αποκ αποστ βουβ ξεθ ουλ πεθ πικρ ποτ σιχ χ');
const EXC8A = set('τρ τσ');
const EXC8B = set(
  'βετερ βουλκ βραχμ γ δραδουμ θ καλπουζ καστελ κορμορ λαοπλ μωαμεθ μ μουσουλμ ν ουλ π πελεκ πλ ' +
    'πολισ πορτολ σαρακατσ σουλτ τσαρλατ ορφ τσιγγ τσοπ φωτοστεφ χ ψυχοπλ αγ γαλ γερ δεκ διπλ ' +
    'αμερικαν ουρ πιθ πουριτ σ ζωντ ικ καστ κοπ λιχ λουθηρ μαιντ μελ σιγ σπ στεγ τραγ τσαγ φ ερ ' +
    'αδαπ αθιγγ αμηχ ανικ ανοργ απηγ απιθ ατσιγγ βασ βασκ βαθυγαλ βιομηχ βραχυκ διατ διαφ ενοργ ' +
    'θυσ καπνοβιομηχ καταγαλ κλιβ κοιλαρφ λιβ μεγλοβιομηχ μικροβιομηχ νταβ ξηροκλιβ ολιγοδαμ ' +
    'ολογαλ πενταρφ περηφ περιτρ πλατ πολυδαπ πολυμηχ στεφ ταβ τετ υπερηφ υποκοπ χαμηλοδαπ ψηλοταβ',
);
const EXC9 = set(
  'αβαρ βεν εναρ αβρ αδ αθ αν απλ βαρον ντρ σκ κοπ μπορ νιφ παγ παρακαλ σερπ σκελ συρφ τοκ υ δ ' +
    'εμ θαρρ θ',
);
const EXC12A = set('π απ συμπ ασυμπ ακαταπ αμεταμφ');
const EXC12B = set('αλ αρ εκτελ ζ μ ξ παρακαλ προ νισ');
const EXC13 = set('διαθ θ παρακαταθ προσθ συνθ');
const EXC14 = set(
  'φαρμακ χαδ αγκ αναρρ βρομ εκλιπ λαμπιδ λεχ μ πατ ρ λ μεδ μεσαζ υποτειν αμ αιθ ανηκ δεσποζ ' +
    'ενδιαφερ δε δευτερευ καθαρευ πλε τσα',
);
const EXC15A = set(
  'αβαστ πολυφ αδηφ παμφ ρ ασπ αφ αμαλ αμαλλι ανυστ απερ ασπαρ αχαρ δερβεν δροσοπ ξεφ νεοπ ' +
    'νομοτ ολοπ ομοτ προστ προσωποπ συμπ συντ τ υποτ χαρ αειπ αιμοστ ανυπ αποτ αρτιπ διατ εν ' +
    'επιτ κροκαλοπ σιδηροπ λ ναυ ουλαμ ουρ π τρ μ',
);
const EXC15B = set('ψοφ ναυλοχ');
const EXC16 = set('ν χερσον δωδεκαν ερημον μεγαλον επταν');
const EXC17 = set('ασβ σβ αχρ χρ απλ αειμν δυσχρ ευχρ κοινοχρ παλιμψ');
const EXC18 = set('ν ρ σπι στραβομουτσ κακομουτσ εξων');
const EXC19 = set('παρασουσ φ χ ωριοπλ αζ αλλοσουσ ασουσ');

const list = (words: string): readonly string[] => words.split(' ');
const R1_KEEP = list('οκ μαμ μαν μπαμπ πατερ γιαγι νταντ κυρ θει πεθερ');
const R2_BACK = list('οπ ιπ εμπ υπ γηπ δαπ κρασπ μιλ');
const R3_BACK = list('αρκ καλιακ πεταλ λιχ πλεξ σκ σ φλ φρ βελ λουλ χν σπ τραγ φε');
const R9_BACK = list(
  'οδ αιρ φορ ταθ διαθ σχ ενδ ευρ τιθ υπερθ ραθ ενθ ροθ σθ πυρ αιν συνδ συν συνθ χωρ πον βρ ' +
    'καθ ευθ εκθ νετ ρον αρκ βαρ βολ ωφελ',
);
const R13_BACK = list('σκωλ σκουλ ναρθ σφ οθ πιθ');
const R14_BACK = list('ποδαρ βλεπ πανταχ φρυδ μαντιλ μαλλ κυματ λαχ ληγ φαγ ομ πρωτ');
const R15_COND1 = list('οφ πελ χορτ λλ σφ ρπ φρ πρ λοχ σμην');

/** The long list: [minimum length exceeded, endings], longest first. */
const LONG_LIST: ReadonlyArray<readonly [number, readonly string[]]> = [
  [9, list('ιοντουσαν')],
  [8, list('ιομασταν ιοσασταν ιουμαστε οντουσαν')],
  [
    7,
    list('ιεμαστε ιεσαστε ιομουνα ιοσαστε ιοσουνα ιουνται ιουνταν ηθηκατε ομασταν οσασταν ουμαστε'),
  ],
  [6, list('ιομουν ιονταν ιοσουν ηθειτε ηθηκαν ομουνα οσαστε οσουνα ουνται ουνταν ουσατε')],
  [
    5,
    list(
      'αγατε ιεμαι ιεται ιεσαι ιοταν ιουμα ηθεισ ηθουν ηκατε ησατε ησουν ομουν ονται ονταν ' +
        'οσουν ουμαι ουσαν',
    ),
  ],
  [4, list('αγαν αμαι ασαι αται ειτε εσαι εται ηδεσ ηδων ηθει ηκαν ησαν ησει ησεσ ομαι οταν')],
  [3, list('αει εισ ηθω ησω ουν ουσ')],
  [2, list('αν ασ αω ει εσ ησ οι οσ ου υσ ων')],
];

/** Lucene's char buffer: `len` chars of `s` are the word; chars past it may be put back. */
class Buffer {
  readonly s: string[];
  len: number;
  constructor(word: string) {
    this.s = [...word];
    this.len = this.s.length;
  }
  ends(suffix: string): boolean {
    const n = suffix.length;
    if (n > this.len) return false;
    for (let i = 0; i < n; i++) if (this.s[this.len - n + i] !== suffix[i]) return false;
    return true;
  }
  endsAny(suffixes: readonly string[]): boolean {
    return suffixes.some((x) => this.ends(x));
  }
  /** The word is exactly one of `words` (Lucene CharArraySet.contains(s, 0, len)). */
  isIn(words: ReadonlySet<string>): boolean {
    return words.has(this.s.slice(0, this.len).join(''));
  }
  endsWithVowel(vowels = VOWELS): boolean {
    return this.len > 0 && vowels.includes(this.s[this.len - 1]!);
  }
  /** Writes `text` as the last chars of the word. */
  setEnd(text: string): void {
    for (let i = 0; i < text.length; i++) this.s[this.len - text.length + i] = text[i]!;
  }
  toString(): string {
    return this.s.slice(0, this.len).join('');
  }
}

function rule0(b: Buffer): void {
  const L = b.len;
  const cut = (n: number) => (b.len -= n);
  if (L > 9 && b.endsAny(['καθεστωτοσ', 'καθεστωτων'])) return void cut(4);
  if (L > 8 && b.endsAny(['γεγονοτοσ', 'γεγονοτων'])) return void cut(4);
  if (L > 8 && b.ends('καθεστωτα')) return void cut(3);
  if (L > 7 && b.endsAny(['τατογιου', 'τατογιων'])) return void cut(4);
  if (L > 7 && b.ends('γεγονοτα')) return void cut(3);
  if (L > 7 && b.ends('καθεστωσ')) return void cut(2);
  // Lucene's parentheses: only the first ending is guarded by the length
  if (
    (L > 6 && b.ends('σκαγιου')) ||
    b.endsAny([
      'σκαγιων',
      'ολογιου',
      'ολογιων',
      'κρεατοσ',
      'κρεατων',
      'περατοσ',
      'περατων',
      'τερατοσ',
      'τερατων',
    ])
  ) {
    return void cut(4);
  }
  if (L > 6 && b.ends('τατογια')) return void cut(3);
  if (L > 6 && b.ends('γεγονοσ')) return void cut(2);
  if (L > 5 && b.endsAny(['φαγιου', 'φαγιων', 'σογιου', 'σογιων'])) return void cut(4);
  if (L > 5 && b.endsAny(['σκαγια', 'ολογια', 'κρεατα', 'περατα', 'τερατα'])) return void cut(3);
  if (L > 4 && b.endsAny(['φαγια', 'σογια', 'φωτοσ', 'φωτων'])) return void cut(3);
  if (L > 4 && b.endsAny(['κρεασ', 'περασ', 'τερασ'])) return void cut(2);
  if (L > 3 && b.ends('φωτα')) return void cut(2);
  if (L > 2 && b.ends('φωσ')) return void cut(1);
}

function rule1(b: Buffer): void {
  if (b.len > 4 && b.endsAny(['αδεσ', 'αδων'])) {
    b.len -= 4;
    if (!b.endsAny(R1_KEEP)) b.len += 2;
  }
}

function rule2(b: Buffer): void {
  if (b.len > 4 && b.endsAny(['εδεσ', 'εδων'])) {
    b.len -= 4;
    if (b.endsAny(R2_BACK)) b.len += 2;
  }
}

function rule3(b: Buffer): void {
  if (b.len > 5 && b.endsAny(['ουδεσ', 'ουδων'])) {
    b.len -= 5;
    if (b.endsAny(R3_BACK)) b.len += 3;
  }
}

function rule4(b: Buffer): void {
  if (b.len > 3 && b.endsAny(['εωσ', 'εων'])) {
    b.len -= 3;
    if (b.isIn(EXC4)) b.len++;
  }
}

function rule5(b: Buffer): void {
  if (b.len > 2 && b.ends('ια')) {
    b.len -= 2;
    if (b.endsWithVowel()) b.len++;
  } else if (b.len > 3 && b.endsAny(['ιου', 'ιων'])) {
    b.len -= 3;
    if (b.endsWithVowel()) b.len++;
  }
}

function rule6(b: Buffer): void {
  let removed = false;
  if (b.len > 3 && b.endsAny(['ικα', 'ικο'])) {
    b.len -= 3;
    removed = true;
  } else if (b.len > 4 && b.endsAny(['ικου', 'ικων'])) {
    b.len -= 4;
    removed = true;
  }
  if (removed && (b.endsWithVowel() || b.isIn(EXC6))) b.len += 2;
}

function rule7(b: Buffer): void {
  if (b.len === 5 && b.ends('αγαμε')) {
    b.len -= 1;
    return;
  }
  if (b.len > 7 && b.ends('ηθηκαμε')) b.len -= 7;
  else if (b.len > 6 && b.ends('ουσαμε')) b.len -= 6;
  else if (b.len > 5 && b.endsAny(['αγαμε', 'ησαμε', 'ηκαμε'])) b.len -= 5;
  if (b.len > 3 && b.ends('αμε')) {
    b.len -= 3;
    if (b.isIn(EXC7)) b.len += 2;
  }
}

function rule8(b: Buffer): void {
  let removed = false;
  // Lucene's parentheses: only the first ending of each group is guarded by the length
  if (b.len > 8 && b.ends('ιουντανε')) {
    b.len -= 8;
    removed = true;
  } else if ((b.len > 7 && b.ends('ιοντανε')) || b.endsAny(['ουντανε', 'ηθηκανε'])) {
    b.len -= 7;
    removed = true;
  } else if ((b.len > 6 && b.ends('ιοτανε')) || b.endsAny(['οντανε', 'ουσανε'])) {
    b.len -= 6;
    removed = true;
  } else if ((b.len > 5 && b.ends('αγανε')) || b.endsAny(['ησανε', 'οτανε', 'ηκανε'])) {
    b.len -= 5;
    removed = true;
  }
  if (removed && b.isIn(EXC8A)) {
    b.len += 4;
    b.setEnd('αγαν');
  }
  if (b.len > 3 && b.ends('ανε')) {
    b.len -= 3;
    if (b.endsWithVowel(VOWELS_NO_Y) || b.isIn(EXC8B)) b.len += 2;
  }
}

function rule9(b: Buffer): void {
  if (b.len > 5 && b.ends('ησετε')) b.len -= 5;
  if (b.len > 3 && b.ends('ετε')) {
    b.len -= 3;
    if (b.isIn(EXC9) || b.endsWithVowel(VOWELS_NO_Y) || b.endsAny(R9_BACK)) b.len += 2;
  }
}

function rule10(b: Buffer): void {
  if (b.len > 5 && b.endsAny(['οντασ', 'ωντασ'])) {
    b.len -= 5;
    if (b.len === 3 && b.ends('αρχ')) {
      b.len += 3;
      b.s[b.len - 3] = 'ο';
    }
    if (b.ends('κρε')) {
      b.len += 3;
      b.s[b.len - 3] = 'ω';
    }
  }
}

function rule11(b: Buffer): void {
  if (b.len > 6 && b.ends('ομαστε')) {
    b.len -= 6;
    if (b.len === 2 && b.ends('ον')) b.len += 5;
  } else if (b.len > 7 && b.ends('ιομαστε')) {
    b.len -= 7;
    if (b.len === 2 && b.ends('ον')) {
      b.len += 5;
      b.setEnd('ομαστ');
    }
  }
}

function rule12(b: Buffer): void {
  if (b.len > 5 && b.ends('ιεστε')) {
    b.len -= 5;
    if (b.isIn(EXC12A)) b.len += 4;
  }
  if (b.len > 4 && b.ends('εστε')) {
    b.len -= 4;
    if (b.isIn(EXC12B)) b.len += 3;
  }
}

function rule13(b: Buffer): void {
  if (b.len > 6 && b.ends('ηθηκεσ')) b.len -= 6;
  else if (b.len > 5 && b.endsAny(['ηθηκα', 'ηθηκε'])) b.len -= 5;
  let removed = false;
  if (b.len > 4 && b.ends('ηκεσ')) {
    b.len -= 4;
    removed = true;
  } else if (b.len > 3 && b.endsAny(['ηκα', 'ηκε'])) {
    b.len -= 3;
    removed = true;
  }
  if (removed && (b.isIn(EXC13) || b.endsAny(R13_BACK))) b.len += 2;
}

function rule14(b: Buffer): void {
  let removed = false;
  if (b.len > 5 && b.ends('ουσεσ')) {
    b.len -= 5;
    removed = true;
  } else if (b.len > 4 && b.endsAny(['ουσα', 'ουσε'])) {
    b.len -= 4;
    removed = true;
  }
  if (removed && (b.isIn(EXC14) || b.endsWithVowel() || b.endsAny(R14_BACK))) b.len += 3;
}

function rule15(b: Buffer): void {
  let removed = false;
  if (b.len > 4 && b.ends('αγεσ')) {
    b.len -= 4;
    removed = true;
  } else if (b.len > 3 && b.endsAny(['αγα', 'αγε'])) {
    b.len -= 3;
    removed = true;
  }
  if (removed) {
    const cond1 = b.isIn(EXC15A) || b.endsAny(R15_COND1);
    const cond2 = b.isIn(EXC15B) || b.ends('κολλ');
    if (cond1 && !cond2) b.len += 2;
  }
}

function rule16(b: Buffer): void {
  let removed = false;
  if (b.len > 4 && b.ends('ησου')) {
    b.len -= 4;
    removed = true;
  } else if (b.len > 3 && b.endsAny(['ησε', 'ησα'])) {
    b.len -= 3;
    removed = true;
  }
  if (removed && b.isIn(EXC16)) b.len += 2;
}

function rule17(b: Buffer): void {
  if (b.len > 4 && b.ends('ηστε')) {
    b.len -= 4;
    if (b.isIn(EXC17)) b.len += 3;
  }
}

/** Rules 18 and 19: -ουνε / -ουμε (and -ησ/-ηθ forms), rewritten to -ουν / -ουμ after exceptions. */
function ruleOu(b: Buffer, long: readonly string[], short: string, exc: ReadonlySet<string>) {
  let removed = false;
  if (b.len > 6 && b.endsAny(long)) {
    b.len -= 6;
    removed = true;
  } else if (b.len > 4 && b.ends(short)) {
    b.len -= 4;
    removed = true;
  }
  if (removed && b.isIn(exc)) {
    b.len += 3;
    b.setEnd(short.slice(0, 3));
  }
}

function rule20(b: Buffer): void {
  if (b.len > 5 && b.endsAny(['ματων', 'ματοσ'])) b.len -= 3;
  else if (b.len > 4 && b.ends('ματα')) b.len -= 2;
}

function rule21(b: Buffer): void {
  for (const [min, endings] of LONG_LIST) {
    if (b.len > min && b.endsAny(endings)) {
      b.len -= endings[0]!.length;
      return;
    }
  }
  if (b.len > 1 && b.endsWithVowel()) b.len -= 1;
}

function rule22(b: Buffer): void {
  if (b.endsAny(['εστερ', 'εστατ'])) b.len -= 5;
  else if (b.endsAny(['οτερ', 'οτατ', 'υτερ', 'υτατ', 'ωτερ', 'ωτατ'])) b.len -= 4;
}

export function greekStem(word: string): string {
  const b = new Buffer(word);
  if (b.len < 4) return word;
  const origLen = b.len;
  rule0(b);
  rule1(b);
  rule2(b);
  rule3(b);
  rule4(b);
  rule5(b);
  rule6(b);
  rule7(b);
  rule8(b);
  rule9(b);
  rule10(b);
  rule11(b);
  rule12(b);
  rule13(b);
  rule14(b);
  rule15(b);
  rule16(b);
  rule17(b);
  ruleOu(b, ['ησουνε', 'ηθουνε'], 'ουνε', EXC18);
  ruleOu(b, ['ησουμε', 'ηθουμε'], 'ουμε', EXC19);
  rule20(b);
  if (b.len === origLen) rule21(b);
  rule22(b);
  return b.toString();
}
