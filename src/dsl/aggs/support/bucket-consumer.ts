/**
 * search.max_buckets accounting (ES MultiBucketConsumerService.MultiBucketConsumer): buckets are
 * counted while shards build results and again during the final reduce. A limit of -1 is 6.8's
 * default: no error, but a deprecation warning once more than 10000 buckets are created.
 */
import { tooManyBuckets } from '../../../common/errors.js';

export const SOFT_LIMIT_MAX_BUCKETS = 10000;
const BREAKER_CHECK_INTERVAL = 1024;

export class BucketConsumer {
  count = 0;
  private warned = false;
  private nextCheck = BREAKER_CHECK_INTERVAL;
  constructor(
    private readonly limit: number,
    private readonly warnings: string[] | undefined,
    /** Memory circuit breaker, called every 1024 buckets with the running count (ES 7 style). */
    private readonly breaker?: (buckets: number) => void,
  ) {}

  accept(n: number): void {
    this.count += n;
    if (this.breaker && this.count >= this.nextCheck) {
      this.nextCheck = this.count + BREAKER_CHECK_INTERVAL;
      this.breaker(this.count);
    }
    if (this.limit === -1) {
      if (!this.warned && this.count > SOFT_LIMIT_MAX_BUCKETS) {
        this.warned = true;
        addWarning(
          this.warnings,
          `This aggregation creates too many buckets (${this.count}) and will throw an error in future versions. You should update the [search.max_buckets] cluster setting or use the [composite] aggregation to paginate all buckets in multiple requests.`,
        );
      }
    } else if (this.count > this.limit) {
      throw tooManyBuckets(this.limit, this.count);
    }
  }
}

/** Adds a warning once (ES deduplicates identical Warning headers). */
export function addWarning(warnings: string[] | undefined, text: string): void {
  if (warnings && !warnings.includes(text)) warnings.push(text);
}
