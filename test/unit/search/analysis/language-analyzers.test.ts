import { describe, expect, it } from 'vitest';
import { AnalysisRegistry, analyzeToTokens } from '../../../../src/search/analysis/index.js';
import {
  frenchLightStem,
  italianLightStem,
  portugueseLightStem,
  spanishLightStem,
} from '../../../../src/search/analysis/stemmers/romance-light.js';
import {
  germanCaumannsStem,
  germanLightStem,
  germanNormalize,
} from '../../../../src/search/analysis/stemmers/german.js';
import {
  bulgarianStem,
  czechStem,
  latvianStem,
} from '../../../../src/search/analysis/stemmers/slavic-baltic.js';
import { soraniStem } from '../../../../src/search/analysis/stemmers/sorani.js';
import {
  hindiStem,
  soraniNormalize,
} from '../../../../src/search/analysis/filters/script-normalizers.js';
import { indonesianStem } from '../../../../src/search/analysis/stemmers/indonesian.js';
import {
  arabicStem,
  arabicNormalize,
} from '../../../../src/search/analysis/stemmers/arabic-persian.js';

const R = AnalysisRegistry.builtin;
const terms = (name: string, text: string, reg = R) =>
  analyzeToTokens(reg.analyzer(name)!, text).map((t) => t.token);

describe('language analyzers (ES analysis-common smoke words)', () => {
  it.each([
    ['arabic', 'كبيرة', ['كبير']],
    ['armenian', 'արծիվ', ['արծ']],
    ['basque', 'zaldiak', ['zaldi']],
    ['bulgarian', 'градове', ['град']],
    ['catalan', 'llengües', ['llengu']],
    ['chinese', 'only for old indices', ['only', 'old', 'indices']],
    ['cjk', '多くの', ['多く', 'くの']],
    ['czech', 'Pokud mluvime o volnem', ['mluvim', 'voln']],
    ['danish', 'undersøgelse', ['undersøg']],
    ['dutch', 'lidstaten', ['lidstat']],
    ['finnish', 'edeltäjiinsä', ['edeltäj']],
    ['french', 'sécuritaires', ['securitair']],
    ['german', 'Tischen', ['tisch']],
    ['greek', 'Μία', ['μια']],
    ['hungarian', 'babakocsi', ['babakocs']],
    ['indonesian', 'peledakan', ['ledak']],
    ['irish', 'siopadóireacht', ['siopadóir']],
    ['italian', 'abbandonata', ['abbandonat']],
    ['latvian', 'tirgiem', ['tirg']],
    ['norwegian', 'havnedistriktene', ['havnedistrikt']],
    ['persian', 'می\u200cخورد', ['خورد']],
    ['portuguese', 'quilométricas', ['quilometric']],
    ['romanian', 'absenţa', ['absenţ']],
    ['russian', 'Вместе с тем о', ['вмест']],
    ['spanish', 'chicana', ['chican']],
    ['swedish', 'jaktkarlarne', ['jaktkarl']],
    ['turkish', 'ağacı', ['ağaç']],
    ['thai', '๑๒๓๔', ['1234']],
    ['snowball', 'the brown foxes', ['brown', 'fox']],
    ['hindi', 'हिन्दी', ['हिंद']],
    ['sorani', 'پیاوە', ['پیاو']],
  ])('%s', (name, text, expected) => {
    expect(terms(name, text)).toEqual(expected);
  });

  it('snowball language, stopwords and stem_exclusion settings', () => {
    const reg = AnalysisRegistry.fromIndexSettings({
      analyzer: {
        nl: { type: 'snowball', language: 'Dutch' },
        fr: { type: 'french', stopwords: ['le'], stem_exclusion: ['chevaux'] },
      },
    });
    expect(terms('nl', 'de bruine vossen', reg)).toEqual(['bruin', 'voss']);
    expect(terms('snowball', "the fox's tails")).toEqual(['fox', 'tail']);
    expect(terms('fr', "le chevaux l'avion", reg)).toEqual(['chevaux', 'avion']);
  });

  it('default stop words of the language', () => {
    expect(terms('french', "Le chat de l'avion")).toEqual(['chat', 'avion']);
    expect(terms('spanish', 'los gatos de la casa')).toEqual(['gat', 'casa']);
    expect(terms('german', 'Die Häuser und das Tischen')).toEqual(['haus', 'tisch']);
    expect(terms('turkish', "Ağacı ve İstanbul'a")).toEqual(['ağaç', 'istanbul']);
    expect(terms('greek', 'Μία και το')).toEqual(['μια']);
  });

  it('german normalises stem_exclusion keywords too (marker before normalisation)', () => {
    const reg = AnalysisRegistry.fromIndexSettings({
      analyzer: { de: { type: 'german', stem_exclusion: ['häuser'] } },
    });
    expect(terms('de', 'Häuser', reg)).toEqual(['hauser']);
  });

  it('cjk bigrams carry offsets and the <DOUBLE> type', () => {
    expect(analyzeToTokens(R.analyzer('cjk')!, '多くの')).toEqual([
      { token: '多く', start_offset: 0, end_offset: 2, type: '<DOUBLE>', position: 0 },
      { token: 'くの', start_offset: 1, end_offset: 3, type: '<DOUBLE>', position: 1 },
    ]);
  });
});

describe('light stemmers', () => {
  // word/stem pairs of Lucene's TestFrenchLightStemmer
  const FRENCH_PAIRS =
    'chevaux cheval|cheval cheval|hiboux hibou|hibou hibou|chantés chant|chanter chant|chante chant|chant chant|baronnes baron|barons baron|baron baron|peaux peau|peau peau|anneaux aneau|anneau aneau|neveux neveu|neveu neveu|affreux afreu|affreuse afreu|investissement investi|investir investi|assourdissant asourdi|assourdir asourdi|pratiquement pratiqu|pratique pratiqu|administrativement administratif|administratif administratif|justificatrice justifi|justificateur justifi|justifier justifi|educatrice eduqu|eduquer eduqu|communicateur comuniqu|communiquer comuniqu|accompagnatrice acompagn|accompagnateur acompagn|administrateur administr|administrer administr|productrice product|producteur product|acheteuse achet|acheteur achet|planteur plant|plante plant|poreuse poreu|poreux poreu|plieuse plieu|bijoutière bijouti|bijoutier bijouti|caissière caisi|caissier caisi|abrasive abrasif|abrasif abrasif|folle fou|fou fou|personnelle person|personne person|complète complet|complet complet|aromatique aromat|faiblesse faibl|faible faibl|patinage patin|patin patin|sonorisation sono|ritualisation rituel|rituel rituel|nomination nomin|disposition dispos|dispose dispos|1234555 1234555|12333345 12333345|1234 1234|abcdeff abcdef|abcccddeef abcdef|créées cre|22hh00 22h00|propriétaire proprietair';
  it.each(FRENCH_PAIRS.split('|').map((p) => p.split(' ')))('French light: %s → %s', (w, stem) => {
    expect(frenchLightStem(w!)).toBe(stem);
  });
  // word/stem pairs of Lucene's TestSoraniStemFilter (normalised first, as there)
  const SORANI_PAIRS =
    'پیاوێک پیاو|دەرگایەک دەرگا|پیاوەكە پیاو|دەرگاكە دەرگا|کتاویە کتاوی|دەرگایە دەرگا|پیاوان پیاو|دەرگایان دەرگا|پیاوەکان پیاو|دەرگاکان دەرگا|پیاوانە پیاو|دەرگایانە دەرگا|هۆتیلی هۆتیل|هۆتیلێکی هۆتیل|هۆتیلانی هۆتیل|دوورەوە دوور|نیوەشەودا نیوەشەو|سۆرانا سۆران|پارەمان پارە|پارەتان پارە|پارەیان پارە';
  it.each(SORANI_PAIRS.split('|').map((p) => p.split(' ')))('Sorani: %s → %s', (w, stem) => {
    expect(soraniStem(soraniNormalize(w!))).toBe(stem);
  });
  // word/stem pairs of Lucene's TestArabicStemFilter
  const ARABIC_PAIRS =
    'الحسن حسن|والحسن حسن|بالحسن حسن|كالحسن حسن|فالحسن حسن|للاخر اخر|وحسن حسن|زوجها زوج|ساهدان ساهد|ساهدات ساهد|ساهدون ساهد|ساهدين ساهد|ساهديه ساهد|ساهدية ساهد|ساهده ساهد|ساهدة ساهد|ساهدي ساهد|وساهدون ساهد|ساهدهات ساهد|الو الو|English English|سلام سلام|السلام سلام|سلامة سلام|السلامة سلام|الوصل وصل|والصل صل';
  it.each(ARABIC_PAIRS.split('|').map((p) => p.split(' ')))('Arabic: %s → %s', (w, stem) => {
    expect(arabicStem(w!)).toBe(stem);
  });
  // word/stem pairs of Lucene's TestHindiStemmer
  const HINDI_PAIRS =
    'लडका लडक|लडके लडक|लडकों लडक|गुरु गुर|गुरुओं गुर|दोस्त दोस्त|दोस्तों दोस्त|लडकी लडक|लडकियों लडक|किताब किताब|किताबें किताब|किताबों किताब|आध्यापीका आध्यापीक|आध्यापीकाएं आध्यापीक|आध्यापीकाओं आध्यापीक|खाना खा|खाता खा|खाती खा|खा खा|कठिनाइयां कठिन|कठिन कठिन';
  it.each(HINDI_PAIRS.split('|').map((p) => p.split(' ')))('Hindi: %s → %s', (w, stem) => {
    expect(hindiStem(w!)).toBe(stem);
  });
  it('French (Savoy)', () => {
    expect(frenchLightStem('chevaux')).toBe('cheval');
    expect(frenchLightStem('sécuritaires')).toBe('securitair');
    expect(frenchLightStem('folle')).toBe('fou');
  });
  it('Spanish, Portuguese, Italian', () => {
    expect(spanishLightStem('luces')).toBe('luz');
    expect(portugueseLightStem('quilométricas')).toBe('quilometric');
    expect(portugueseLightStem('balões')).toBe('bala');
    expect(italianLightStem('abbandonata')).toBe('abbandonat');
  });
  it('German normalisation and light stemmer', () => {
    expect(germanNormalize('häuser')).toBe('hauser');
    expect(germanNormalize('haeuser')).toBe('hauser');
    expect(germanNormalize('straße')).toBe('strasse');
    expect(germanNormalize('quelle')).toBe('quelle');
    expect(germanLightStem('tischen')).toBe('tisch');
  });
  it('German (Caumanns) for german_stem', () => {
    expect(germanCaumannsStem('abschließen')).toBe('abschliess');
    expect(germanCaumannsStem('Häuser')).toBe('hau');
    expect(germanCaumannsStem('Matrizen')).toBe('matrix');
    expect(germanCaumannsStem('Schiffe')).toBe('schiff');
    expect(germanCaumannsStem('gegessen')).toBe('gess');
    expect(germanCaumannsStem('x1')).toBe('x1');
  });
  it('Czech, Bulgarian, Latvian, Indonesian, Arabic', () => {
    expect(czechStem('volnem')).toBe('voln');
    expect(bulgarianStem('градове')).toBe('град');
    expect(latvianStem('tirgiem')).toBe('tirg');
    expect(indonesianStem('peledakan')).toBe('ledak');
    expect(arabicStem(arabicNormalize('كبيرة'))).toBe('كبير');
    expect(arabicStem('والكتاب')).toBe('كتاب');
  });
});
