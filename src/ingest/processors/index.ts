/** Every processor of ES 6.8's ingest-common module, by type name. */
import type { ProcessorFactory } from './common.js';
import { CONTROL_PROCESSORS } from './control.js';
import { DATE_PROCESSORS } from './dates.js';
import { FIELD_PROCESSORS } from './fields.js';
import { PARSING_PROCESSORS } from './parsing.js';
import { script } from './script.js';
import { STRING_PROCESSORS } from './strings.js';

export const PROCESSOR_FACTORIES: Readonly<Record<string, ProcessorFactory>> = {
  ...FIELD_PROCESSORS,
  ...STRING_PROCESSORS,
  ...DATE_PROCESSORS,
  ...PARSING_PROCESSORS,
  ...CONTROL_PROCESSORS,
  script,
};

/** Type names in ES's order (nodes info lists them sorted). */
export const PROCESSOR_TYPES: readonly string[] = Object.keys(PROCESSOR_FACTORIES).sort();
