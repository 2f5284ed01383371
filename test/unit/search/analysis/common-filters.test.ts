import { describe, expect, it } from 'vitest';
import { AnalysisRegistry, analyzeApi } from '../../../../src/search/analysis/index.js';
import { isEsError } from '../../../../src/common/errors.js';

type Tok = {
  token: string;
  position: number;
  start_offset: number;
  end_offset: number;
  type: string;
};
const R = AnalysisRegistry.builtin;
const run = (body: unknown, reg = R) => (analyzeApi(body, reg) as { tokens: Tok[] }).tokens;
const terms = (body: unknown, reg = R) => run(body, reg).map((t) => t.token);
const withFilter = (text: string, filter: unknown, tokenizer: unknown = 'keyword') =>
  terms({ text, tokenizer, filter: [filter] });

function errorOf(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    if (isEsError(e)) return e.reason ?? '';
    throw e;
  }
  throw new Error('expected an error');
}

describe('analysis-common token filters', () => {
  it('normalisers', () => {
    expect(withFilter('آجن', 'arabic_normalization')).toEqual(['اجن']);
    expect(withFilter('চাঁদ', 'bengali_normalization')).toEqual(['চাদ']);
    expect(withFilter('weißbier', 'german_normalization')).toEqual(['weissbier']);
    expect(withFilter('अँगरेज़ी', 'hindi_normalization')).toEqual(['अंगरेजि']);
    expect(withFilter('ত্\u200d', 'indic_normalization')).toEqual(['ৎ']);
    expect(withFilter('های', 'persian_normalization')).toEqual(['هاي']);
    expect(withFilter('ö', 'scandinavian_normalization')).toEqual(['ø']);
    expect(withFilter('räksmörgås', 'scandinavian_folding')).toEqual(['raksmorgas']);
    expect(withFilter('абвгдђежзијклљмнњопрстћуфхцчџш', 'serbian_normalization')).toEqual([
      'abvgddjezzijklljmnnjoprstcufhccdzs',
    ]);
    expect(withFilter('ي', 'sorani_normalization')).toEqual(['ی']);
    expect(withFilter('ｶﾀｶﾅ', 'cjk_width')).toEqual(['カタカナ']);
    expect(withFilter('١٢٣٤', 'decimal_digit')).toEqual(['1234']);
    expect(withFilter("foo's bar", 'apostrophe')).toEqual(['foo']);
  });

  it('stemmers', () => {
    expect(withFilter('الحسن', 'arabic_stem')).toEqual(['حسن']);
    expect(withFilter('angličtí', 'czech_stem')).toEqual(['anglick']);
    expect(withFilter('ophouden', 'dutch_stem')).toEqual(['ophoud']);
    expect(withFilter('chevaux', 'french_stem')).toEqual(['cheval']);
    expect(withFilter('abschließen', 'german_stem')).toEqual(['abschliess']);
    expect(withFilter('журналы', 'russian_stem')).toEqual(['журнал']);
    expect(withFilter('zoeken', { type: 'stemmer', language: 'dutch' })).toEqual(['zoek']);
    expect(withFilter('chevaux', { type: 'stemmer', language: 'light_french' })).toEqual([
      'cheval',
    ]);
    expect(
      terms({ text: 'This is troubled', tokenizer: 'standard', filter: ['snowball'] }),
    ).toEqual(['This', 'is', 'troubl']);
  });

  it('stemmer_override marks its stems as keywords', () => {
    const reg = AnalysisRegistry.fromIndexSettings({
      filter: {
        nl: { type: 'stemmer', language: 'dutch' },
        ov: { type: 'stemmer_override', rules: ['zoeken, zoekt => override'] },
      },
    });
    expect(terms({ text: 'zoeken', tokenizer: 'keyword', filter: ['ov', 'nl'] }, reg)).toEqual([
      'override',
    ]);
    expect(
      errorOf(() =>
        AnalysisRegistry.fromIndexSettings({
          filter: { x: { type: 'stemmer_override', rules: ['a b'] } },
        }),
      ),
    ).toBe('Invalid Keyword override Rule:a b');
  });

  it('elision, limit, keep, keep_types, common_grams', () => {
    expect(withFilter("l'avion", { type: 'elision', articles: ['l', 'm'] })).toEqual(['avion']);
    expect(withFilter("L'avion", { type: 'elision', articles: ['l'] })).toEqual(["L'avion"]);
    expect(
      withFilter("L'avion", { type: 'elision', articles: ['l'], articles_case: true }),
    ).toEqual(['avion']);
    expect(withFilter('a b c', { type: 'limit', max_token_count: 2 }, 'whitespace')).toEqual([
      'a',
      'b',
    ]);
    expect(
      withFilter('foo bar baz', { type: 'keep', keep_words: ['foo', 'bar'] }, 'whitespace'),
    ).toEqual(['foo', 'bar']);
    expect(withFilter('foo 123 bar', { type: 'keep_types', types: ['<NUM>'] }, 'standard')).toEqual(
      ['123'],
    );
    expect(
      withFilter(
        'foo 123 bar',
        { type: 'keep_types', types: ['<NUM>'], mode: 'exclude' },
        'standard',
      ),
    ).toEqual(['foo', 'bar']);
    const grams = run({
      text: 'a b c',
      tokenizer: 'whitespace',
      filter: [{ type: 'common_grams', common_words: ['a'] }],
    });
    expect(grams.map((t) => [t.token, t.position, t.type])).toEqual([
      ['a', 0, 'word'],
      ['a_b', 0, 'gram'],
      ['b', 1, 'word'],
      ['c', 2, 'word'],
    ]);
    expect(
      withFilter(
        'the rain in spain',
        { type: 'common_grams', common_words: ['the', 'in'], query_mode: true },
        'whitespace',
      ),
    ).toEqual(['the_rain', 'rain_in', 'in_spain']);
  });

  it('decompounder, pattern_capture, pattern_replace, delimited_payload', () => {
    expect(
      withFilter('foobar', { type: 'dictionary_decompounder', word_list: ['foo', 'bar'] }),
    ).toEqual(['foobar', 'foo', 'bar']);
    expect(
      withFilter('foo@bar.baz', {
        type: 'pattern_capture',
        preserve_original: false,
        patterns: ['([^@]+)'],
      }),
    ).toEqual(['foo', 'bar.baz']);
    expect(withFilter('aXa', { type: 'pattern_replace', pattern: 'a', replacement: 'b' })).toEqual([
      'bXb',
    ]);
    expect(
      withFilter('foo^bar', { type: 'delimited_payload', delimiter: '^', encoding: 'identity' }),
    ).toEqual(['foo']);
  });

  it('cjk_bigram', () => {
    expect(
      terms({ text: '多くの学生が試験に落ちた', tokenizer: 'standard', filter: ['cjk_bigram'] }),
    ).toEqual([
      '多く',
      'くの',
      'の学',
      '学生',
      '生が',
      'が試',
      '試験',
      '験に',
      'に落',
      '落ち',
      'ちた',
    ]);
  });

  it('word_delimiter and word_delimiter_graph', () => {
    const wd = run({
      text: 'the qu1ck brown fox',
      tokenizer: 'standard',
      filter: ['word_delimiter_graph'],
    });
    expect(wd.map((t) => [t.token, t.start_offset, t.end_offset, t.position])).toEqual([
      ['the', 0, 3, 0],
      ['qu', 4, 6, 1],
      ['1', 6, 7, 2],
      ['ck', 7, 9, 3],
      ['brown', 10, 15, 4],
      ['fox', 16, 19, 5],
    ]);
    expect(
      withFilter('qu1ck', { type: 'word_delimiter', split_on_numerics: false }, 'standard'),
    ).toEqual(['qu1ck']);
    expect(withFilter('PowerShot', 'word_delimiter', 'whitespace')).toEqual(['Power', 'Shot']);
    expect(withFilter("O'Neil's", 'word_delimiter', 'whitespace')).toEqual(['O', 'Neil']);
    expect(
      withFilter('wi-fi', { type: 'word_delimiter_graph', catenate_words: true }, 'whitespace'),
    ).toEqual(['wifi', 'wi', 'fi']);
  });

  it('word_delimiter type_table reclassifies characters', () => {
    const f = { type: 'word_delimiter', type_table: ['$ => DIGIT', '\\u002C => DIGIT'] };
    expect(withFilter('$10,000 foo-bar', f, 'whitespace')).toEqual(['$10,000', 'foo', 'bar']);
    expect(withFilter('$10,000', 'word_delimiter', 'whitespace')).toEqual(['10', '000']);
    expect(() => withFilter('x', { type: 'word_delimiter', type_table: ['ab => DIGIT'] })).toThrow(
      'Invalid Mapping Rule : [ab => DIGIT], only a single character is allowed.',
    );
  });

  it('multiplexer stacks each chain and drops duplicates', () => {
    const toks = run({
      text: 'The quick fox',
      tokenizer: 'standard',
      filter: [
        { type: 'multiplexer', filters: ['lowercase', 'uppercase'], preserve_original: false },
      ],
    });
    expect(toks.map((t) => [t.token, t.position])).toEqual([
      ['the', 0],
      ['THE', 0],
      ['quick', 1],
      ['QUICK', 1],
      ['fox', 2],
      ['FOX', 2],
    ]);
  });

  it('fingerprint filter', () => {
    expect(
      withFilter('A1 B2 A1 D4 C3', { type: 'fingerprint', separator: '_' }, 'whitespace'),
    ).toEqual(['A1_B2_C3_D4']);
  });
});

describe('analysis-common tokenizers', () => {
  it('classic and uax_url_email stay linear on long runs (overlong tokens skipped)', () => {
    expect(terms({ text: 'a'.repeat(100000) + ' b', tokenizer: 'classic' })).toEqual(['b']);
    const mail = terms({
      text: 'a'.repeat(50000) + '@' + 'b'.repeat(50000),
      tokenizer: 'uax_url_email',
    });
    expect(mail.length).toBeGreaterThan(0);
    expect(
      terms({ text: 'x://'.repeat(20000), tokenizer: 'uax_url_email' }).length,
    ).toBeGreaterThan(0);
  });

  it('thai, classic, uax_url_email', () => {
    expect(terms({ text: 'ภาษาไทย', tokenizer: 'thai' })).toEqual(['ภาษา', 'ไทย']);
    expect(
      run({ text: "Brown-Foxes don't jump. U.S.A.", tokenizer: 'classic' }).map((t) => [
        t.token,
        t.type,
      ]),
    ).toEqual([
      ['Brown', '<ALPHANUM>'],
      ['Foxes', '<ALPHANUM>'],
      ["don't", '<APOSTROPHE>'],
      ['jump', '<ALPHANUM>'],
      ['U.S.A.', '<ACRONYM>'],
    ]);
    expect(terms({ text: "foo's bar", tokenizer: 'classic', filter: ['classic'] })).toEqual([
      'foo',
      'bar',
    ]);
    expect(
      run({
        text: 'Email me at john.smith@global-international.com or https://x.org/a',
        tokenizer: 'uax_url_email',
      }).map((t) => [t.token, t.type]),
    ).toEqual([
      ['Email', '<ALPHANUM>'],
      ['me', '<ALPHANUM>'],
      ['at', '<ALPHANUM>'],
      ['john.smith@global-international.com', '<EMAIL>'],
      ['or', '<ALPHANUM>'],
      ['https://x.org/a', '<URL>'],
    ]);
  });
});
