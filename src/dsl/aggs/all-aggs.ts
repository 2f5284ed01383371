/** Registers every aggregation type (import for side effects). */
import './metrics/stats-family.js';
import './metrics/value-count.js';
import './bucket/terms.js';
import './bucket/significant-terms.js';
import './bucket/histogram.js';
import './bucket/range.js';
import './bucket/single-bucket.js';
import './bucket/filters.js';
import './bucket/composite.js';
import './metrics/cardinality.js';
import './metrics/percentiles.js';
import './metrics/weighted-avg.js';
import './metrics/top-hits.js';
import './pipeline/common.js';
import './pipeline/bucket-metrics.js';
import './pipeline/bucket-script.js';
import './pipeline/sequential.js';
