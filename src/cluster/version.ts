/** Quarry's own version (package.json), which peers compare, and the Elasticsearch it speaks. */
export const QUARRY_VERSION = '0.1.0';
export const SPOKEN_ES_VERSION = '6.8.13';
