/**
 * Lucene's light stemmers whose reference vocabularies ship only as zips: words traced by hand
 * through Lucene 7.7's rules (the Norwegian ones are checked against Lucene's own vocabularies in
 * lucene-parity.test.ts).
 */
import { describe, expect, it } from 'vitest';
import {
  finnishLightStem,
  hungarianLightStem,
  russianLightStem,
} from '../../../../src/search/analysis/stemmers/savoy-light.js';
import {
  frenchMinimalStem,
  germanMinimalStem,
} from '../../../../src/search/analysis/stemmers/savoy-minimal.js';
import { swedishLightStem } from '../../../../src/search/analysis/stemmers/scandinavian-light.js';

describe('Savoy light stemmers', () => {
  it('Swedish: genitive -s then one ending', () => {
    expect(swedishLightStem('jaktkarlens')).toBe('jaktkarl');
    expect(swedishLightStem('jaktkarlarne')).toBe('jaktkarl');
    expect(swedishLightStem('hus')).toBe('hus');
  });
  it('Finnish: folds ä/ö, strips case endings and single-letter tails, undoubles k/p/t', () => {
    expect(finnishLightStem('edeltäjistään')).toBe('edeltajist');
    // shorter than 4: untouched, accents too
    expect(finnishLightStem('yö')).toBe('yö');
  });
  it('Hungarian: folds accents, strips case, possessive, plural and a final vowel', () => {
    expect(hungarianLightStem('babakocsijáért')).toBe('babakocs');
    expect(hungarianLightStem('babakocsi')).toBe('babakocs');
  });
  it('Russian light: one case ending, then a final ь/и or doubled н', () => {
    expect(russianLightStem('энергии')).toBe('энерг');
    expect(russianLightStem('дом')).toBe('дом');
  });
  it('German minimal: folds umlauts, strips plural endings', () => {
    expect(germanMinimalStem('häuser')).toBe('haus');
    expect(germanMinimalStem('tische')).toBe('tisch');
    expect(germanMinimalStem('haus')).toBe('haus');
  });
  it('French minimal: -aux → -al, a final doubled char undoubled', () => {
    expect(frenchMinimalStem('chevaux')).toBe('cheval');
    expect(frenchMinimalStem('abcdeff')).toBe('abcdef');
    expect(frenchMinimalStem('1234555')).toBe('123455');
  });
});
