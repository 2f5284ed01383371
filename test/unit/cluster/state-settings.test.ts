import { describe, expect, it } from 'vitest';
import { fromStateSettings, toStateSettings } from '../../../src/cluster/state-settings.js';

describe('index settings in the cluster state', () => {
  it('keep a list as ES flat keys, so an element holding commas comes back whole', () => {
    const local = {
      'index.number_of_shards': '1',
      'index.analysis.filter.g.synonyms': ['automatic teller machine,atm,cash point', 'tv,television'], // prettier-ignore
      'index.analysis.analyzer.a.filter': ['lowercase'],
    };
    const state = toStateSettings(local);
    expect(state).toEqual({
      'index.number_of_shards': '1',
      'index.analysis.filter.g.synonyms.0': 'automatic teller machine,atm,cash point',
      'index.analysis.filter.g.synonyms.1': 'tv,television',
      'index.analysis.analyzer.a.filter.0': 'lowercase',
    });
    expect(fromStateSettings(state)).toEqual(local);
  });

  it('reads states written before (lists joined with commas) unchanged, and leaves gapped runs as keys', () => {
    expect(fromStateSettings({ 'index.routing.allocation.include._name': 'a,b' })).toEqual({
      'index.routing.allocation.include._name': 'a,b',
    });
    expect(fromStateSettings({ 'x.y.1': 'b' })).toEqual({ 'x.y.1': 'b' });
  });
});
