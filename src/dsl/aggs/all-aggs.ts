/** Registers every aggregation type (import for side effects). */
import './metrics/stats-family.js';
import './metrics/value-count.js';
import './bucket/terms.js';
