import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { StandardTokenizer } from '../../../../src/search/analysis/tokenizers/standard-tokenizer.js';
import {
  scanAscii,
  scanUnicode,
  type ScanResult,
} from '../../../../src/search/analysis/tokenizers/standard-grammar.js';

function tokens(text: string, max = 255): string[] {
  const t = new StandardTokenizer(max);
  t.reset(text);
  const out: string[] = [];
  while (t.next()) out.push(t.token.term);
  return out;
}

function typed(text: string): Array<[string, string]> {
  const t = new StandardTokenizer();
  t.reset(text);
  const out: Array<[string, string]> = [];
  while (t.next()) out.push([t.token.term, t.token.type]);
  return out;
}

function scanAll(scan: typeof scanAscii, text: string, max: number): string[] {
  const r: ScanResult = { start: 0, end: 0, type: '' };
  const out: string[] = [];
  let p = 0;
  while (scan(text, p, max, r)) {
    out.push(`${r.start}-${r.end}${r.type}`);
    p = r.end;
  }
  return out;
}

// Expected tokens are Lucene 7.7 TestStandardAnalyzer's.
describe('StandardTokenizer (Lucene TestStandardAnalyzer cases)', () => {
  const cases: Array<[string, string[]]> = [
    ['', []],
    ['.', []],
    [' ', []],
    ['B2B', ['B2B']],
    ['2B', ['2B']],
    ['some-dashed-phrase', ['some', 'dashed', 'phrase']],
    ['dogs,chase,cats', ['dogs', 'chase', 'cats']],
    ['ac/dc', ['ac', 'dc']],
    ["O'Reilly", ["O'Reilly"]],
    ["you're", ["you're"]],
    ["O'Reilly's", ["O'Reilly's"]],
    ['21.35', ['21.35']],
    ['R2D2 C3PO', ['R2D2', 'C3PO']],
    ['216.239.63.104', ['216.239.63.104']],
    ['foo      bar .  FOO <> BAR', ['foo', 'bar', 'FOO', 'BAR']],
    ['"QUOTED" word', ['QUOTED', 'word']],
    ['안녕하세요 한글입니다', ['안녕하세요', '한글입니다']],
    ['A:B', ['A:B']],
    ['A::B', ['A', 'B']],
    ['1.2', ['1.2']],
    ['A.B', ['A.B']],
    ['1..2', ['1', '2']],
    ['A..B', ['A', 'B']],
    ['1,2', ['1,2']],
    ['1,,2', ['1', '2']],
    ['A.:B', ['A', 'B']],
    ['A:.B', ['A', 'B']],
    ['1,.2', ['1', '2']],
    ['1.,2', ['1', '2']],
    ['A:B_A:B', ['A:B_A:B']],
    ['A:B_A::B', ['A:B_A', 'B']],
    ['1.2_1.2', ['1.2_1.2']],
    ['A.B_A.B', ['A.B_A.B']],
    ['1.2_1..2', ['1.2_1', '2']],
    ['A.B_A..B', ['A.B_A', 'B']],
    ['1,2_1,2', ['1,2_1,2']],
    ['1,2_1,,2', ['1,2_1', '2']],
    ['C_A.:B', ['C_A', 'B']],
    ['C_A:.B', ['C_A', 'B']],
    ['3_1,.2', ['3_1', '2']],
    ['3_1.,2', ['3_1', '2']],
    ['moͤchte', ['moͤchte']],
    ['ざ', ['ざ']],
    ['ザ', ['ザ']],
    ['壹゙', ['壹゙']],
    ['아゙', ['아゙']],
    [
      'Վիքիպեդիայի 13 միլիոն հոդվածները (4,600` հայերեն վիքիպեդիայում)',
      ['Վիքիպեդիայի', '13', 'միլիոն', 'հոդվածները', '4,600', 'հայերեն', 'վիքիպեդիայում'],
    ],
    [
      'ዊኪፔድያ የባለ ብዙ ቋንቋ የተሟላ ትክክለኛና ነጻ መዝገበ ዕውቀት (ኢንሳይክሎፒዲያ) ነው። ማንኛውም',
      [
        'ዊኪፔድያ',
        'የባለ',
        'ብዙ',
        'ቋንቋ',
        'የተሟላ',
        'ትክክለኛና',
        'ነጻ',
        'መዝገበ',
        'ዕውቀት',
        'ኢንሳይክሎፒዲያ',
        'ነው',
        'ማንኛውም',
      ],
    ],
    [
      'ویکی پدیای انگلیسی در تاریخ ۲۵ دی ۱۳۷۹ به صورت مکملی برای دانشنامهٔ تخصصی نوپدیا نوشته شد.',
      ['ویکی', 'پدیای', 'انگلیسی', 'در', 'تاریخ', '۲۵', 'دی', '۱۳۷۹', 'به', 'صورت', 'مکملی'].concat(
        ['برای', 'دانشنامهٔ', 'تخصصی', 'نوپدیا', 'نوشته', 'شد'],
      ),
    ],
    ['การที่ได้ต้องแสดงว่างานดี. แล้วเธอจะไปไหน? ๑๒๓๔', ['การที่ได้ต้องแสดงว่างานดี', 'แล้วเธอจะไปไหน', '๑๒๓๔']],
    ['ສາທາລະນະລັດ ປະຊາທິປະໄຕ ປະຊາຊົນລາວ', ['ສາທາລະນະລັດ', 'ປະຊາທິປະໄຕ', 'ປະຊາຊົນລາວ']],
    [
      'སྣོན་མཛོད་དང་ལས་འདིས་བོད་ཡིག་མི་ཉམས་གོང་འཕེལ་དུ་གཏོང་བར་ཧ་ཅང་དགེ་མཚན་མཆིས་སོ། །',
      [
        'སྣོན',
        'མཛོད',
        'དང',
        'ལས',
        'འདིས',
        'བོད',
        'ཡིག',
        'མི',
        'ཉམས',
        'གོང',
        'འཕེལ',
        'དུ',
        'གཏོང',
        'བར',
      ].concat(['ཧ', 'ཅང', 'དགེ', 'མཚན', 'མཆིས', 'སོ']),
    ],
    ['我是中国人。 １２３４ Ｔｅｓｔｓ ', ['我', '是', '中', '国', '人', '１２３４', 'Ｔｅｓｔｓ']],
    ['🇺🇸🇺🇸', ['🇺🇸', '🇺🇸']],
    ['#️⃣', ['#️⃣']],
    ['3️⃣', ['3️⃣']],
    ['#\uFE0E', []],
    ['3\uFE0E', ['3\uFE0E']],
    ['\u2B55\uFE0E', ['\u2B55']],
    ['\u2B55\uFE0E\u200D\u2B55\uFE0E', ['\u2B55', '\u200D\u2B55']],
    ['🏴󠁧󠁢󠁥󠁮󠁧󠁿', ['🏴󠁧󠁢󠁥󠁮󠁧󠁿']],
    ['👨🏼‍⚕️', ['👨🏼‍⚕️']],
    ['👩‍❤️‍👩', ['👩‍❤️‍👩']],
  ];
  for (const [input, expected] of cases) {
    it(JSON.stringify(input), () => expect(tokens(input)).toEqual(expected));
  }

  it('types and offsets', () => {
    const t = new StandardTokenizer();
    t.reset('David has 5000 bones');
    const got: Array<[string, number, number, string]> = [];
    while (t.next()) got.push([t.token.term, t.token.startOffset, t.token.endOffset, t.token.type]);
    expect(got).toEqual([
      ['David', 0, 5, '<ALPHANUM>'],
      ['has', 6, 9, '<ALPHANUM>'],
      ['5000', 10, 14, '<NUM>'],
      ['bones', 15, 20, '<ALPHANUM>'],
    ]);
  });

  it('CJK, kana, hangul, supplementary ideographs', () => {
    expect(typed('仮名遣い カタカナ')).toEqual([
      ['仮', '<IDEOGRAPHIC>'],
      ['名', '<IDEOGRAPHIC>'],
      ['遣', '<IDEOGRAPHIC>'],
      ['い', '<HIRAGANA>'],
      ['カタカナ', '<KATAKANA>'],
    ]);
    expect(typed('훈민정음')).toEqual([['훈민정음', '<HANGUL>']]);
    expect(typed('𩬅艱鍟')).toEqual([
      ['𩬅', '<IDEOGRAPHIC>'],
      ['艱', '<IDEOGRAPHIC>'],
      ['鍟', '<IDEOGRAPHIC>'],
    ]);
  });

  it('emoji', () => {
    expect(typed('💩 💩💩')).toEqual([
      ['💩', '<EMOJI>'],
      ['💩', '<EMOJI>'],
      ['💩', '<EMOJI>'],
    ]);
    expect(typed('poo💩poo')).toEqual([
      ['poo', '<ALPHANUM>'],
      ['💩', '<EMOJI>'],
      ['poo', '<ALPHANUM>'],
    ]);
    expect(typed('💩中國💩')).toEqual([
      ['💩', '<EMOJI>'],
      ['中', '<IDEOGRAPHIC>'],
      ['國', '<IDEOGRAPHIC>'],
      ['💩', '<EMOJI>'],
    ]);
    expect(typed('3\uFE0E')).toEqual([['3\uFE0E', '<NUM>']]);
  });

  it('Thai runs are <SOUTHEAST_ASIAN>, Thai digits <NUM>', () => {
    expect(typed('ภาษาไทย ๑๒')).toEqual([
      ['ภาษาไทย', '<SOUTHEAST_ASIAN>'],
      ['๑๒', '<NUM>'],
    ]);
  });

  it('tricky English input', () => {
    expect(
      tokens("O'Neil's wi-fi costs $1,000.50 (3.14%) at 10:30 e-mail: john.doe@example.com"),
    ).toEqual(
      ["O'Neil's", 'wi', 'fi', 'costs', '1,000.50', '3.14', 'at', '10', '30', 'e', 'mail'].concat([
        'john.doe',
        'example.com',
      ]),
    );
    expect(tokens('http://www.elastic.co/guide?q=a_b&x=1')).toEqual([
      'http',
      'www.elastic.co',
      'guide',
      'q',
      'a_b',
      'x',
      '1',
    ]);
    expect(typed('__init__ _1_ __')).toEqual([
      ['__init__', '<ALPHANUM>'],
      ['_1_', '<NUM>'],
    ]);
  });

  it('Hebrew quotes (WB7a-c)', () => {
    expect(tokens('א\'ב צה"ל א"')).toEqual(["א'ב", 'צה"ל', 'א']);
    expect(tokens("א'")).toEqual(["א'"]);
  });

  it('max token length splits long runs (testMaxTokenLengthDefault / NonDefault)', () => {
    const b = 'b'.repeat(255);
    expect(tokens(`x ${b} ${b}b`)).toEqual(['x', b, b, 'b']);
    expect(tokens('ab cd toolong xy z', 5)).toEqual(['ab', 'cd', 'toolo', 'ng', 'xy', 'z']);
    // the match is the longest one inside the window: "aaaa." cannot end on the MidNumLet
    expect(tokens('aaaa.b', 5)).toEqual(['aaaa', 'b']);
  });

  it('never splits a surrogate pair at the window edge', () => {
    expect(tokens('1234𩬅', 5)).toEqual(['1234', '𩬅']);
  });

  it('huge leading whitespace (testHugeDoc)', () => {
    expect(tokens(' '.repeat(4094) + 'testing 1234')).toEqual(['testing', '1234']);
  });
});

describe('ASCII fast path', () => {
  const asciiChars = fc.constantFrom(
    ...'aZ09_.,;:\'" -/\t\n!?#*@$%&()[]{}<>=+~`^|\\bB5x'.split(''),
    ...Array.from({ length: 128 }, (_, i) => String.fromCharCode(i)),
  );
  const asciiText = fc.array(asciiChars, { maxLength: 60 }).map((a) => a.join(''));

  it('gives the same tokens as the Unicode scanner on random ASCII', () => {
    fc.assert(
      fc.property(asciiText, fc.integer({ min: 1, max: 12 }), (text, max) => {
        expect(scanAll(scanAscii, text, max)).toEqual(scanAll(scanUnicode, text, max));
        expect(scanAll(scanAscii, text, 255)).toEqual(scanAll(scanUnicode, text, 255));
      }),
      { numRuns: 3000 },
    );
  });
});
