/** CollectOptions for tests: `numHits` hits by score, nothing else asked, overridable. */
import type { CollectOptions } from '../../src/search/collect/top-docs.js';

export const collectOptions = (
  numHits: number,
  extra: Partial<CollectOptions> = {},
): CollectOptions => ({
  numHits,
  sort: null,
  trackScores: false,
  needsScores: true,
  minScore: null,
  postFilter: null,
  searchAfter: null,
  terminateAfter: 0,
  ...extra,
});
