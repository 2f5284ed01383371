/** Property-test documents shared by the root-aggregation tests (terms, composite). */
import fc from 'fast-check';

/** Random docs with an optional keyword `k` (one of `keys`) and an optional long `v`. */
export function keyedDocs(keys: readonly string[]) {
  return fc.array(
    fc.record({
      k: fc.option(fc.constantFrom(...keys), { nil: undefined }),
      v: fc.option(fc.integer({ min: -1000, max: 200_000 }), { nil: undefined }),
    }),
    { minLength: 1, maxLength: 200 },
  );
}
