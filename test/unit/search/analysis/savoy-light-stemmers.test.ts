/**
 * Lucene's light stemmers whose reference vocabularies ship only as zips: words traced by hand
 * through Lucene 7.7's rules (the Norwegian ones are checked against Lucene's own vocabularies in
 * lucene-parity.test.ts).
 */
import { describe, expect, it } from 'vitest';
import {
  finnishLightStem,
  hungarianLightStem,
} from '../../../../src/search/analysis/stemmers/savoy-light.js';
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
});
