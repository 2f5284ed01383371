/**
 * `/_sql` result formatting: txt (BasicFormatter), csv, tsv, json, yaml, per-value text rules and
 * the format/media-type selection. The HTTP layer owns headers (`Cursor`) and the cursor encoding;
 * the txt formatter state it must carry is `serializeTextFormatter(state)`.
 */
export * from './value-text.js';
export * from './text.js';
export * from './delimited.js';
export * from './json.js';
export * from './yaml.js';
export * from './media-type.js';
