/**
 * The single-pass moments behind matrix_stats (ES aggs-matrix-stats RunningStats and
 * MatrixStatsResults, after Pébay, SAND2008-6212): per-field count, sum, mean and central moment
 * sums M2..M4 plus the co-moment sums of every field pair, updated per document, merged across
 * shards, and turned into variance/skewness/kurtosis/covariance/correlation. Every formula keeps
 * ES's operation order so results agree to the last bit.
 */

/** Running statistics over a fixed list of fields (in ES's HashMap iteration order). */
export interface RunningStats {
  docCount: number;
  readonly fields: readonly string[];
  readonly counts: Float64Array;
  readonly sums: Float64Array;
  readonly means: Float64Array;
  /** Sums of squared / cubed / 4th-power deviations (RunningStats.variances/skewness/kurtosis). */
  readonly m2: Float64Array;
  readonly m3: Float64Array;
  readonly m4: Float64Array;
  /** Co-moment sums, row-major k×k; only i < j is used (ES keeps an upper-triangular map). */
  readonly cov: Float64Array;
}

export function newRunningStats(fields: readonly string[]): RunningStats {
  const k = fields.length;
  return {
    docCount: 0,
    fields,
    counts: new Float64Array(k),
    sums: new Float64Array(k),
    means: new Float64Array(k),
    m2: new Float64Array(k),
    m3: new Float64Array(k),
    m4: new Float64Array(k),
    cov: new Float64Array(k * k),
  };
}

/**
 * RunningStats.add: one document's values (one per field, in `fields` order). `deltas` is
 * scratch space of at least k doubles, so collecting allocates nothing.
 */
export function addDoc(s: RunningStats, vals: Float64Array, deltas: Float64Array): void {
  const k = s.fields.length;
  const n = ++s.docCount;
  const { counts, sums, means, m2, m3, m4, cov } = s;
  for (let i = 0; i < k; i++) {
    const v = vals[i]!;
    counts[i]!++;
    sums[i] = v + sums[i]!;
    deltas[i] = v * n - sums[i]!;
    if (n === 1) {
      means[i] = v;
      m2[i] = 0;
      m3[i] = 0;
      m4[i] = 0;
      continue;
    }
    const mean = means[i]!;
    const d = v - mean;
    means[i] = mean + d / n;
    const dn = d / n;
    const t1 = d * dn * (n - 1);
    const M2 = m2[i]!;
    m2[i] = M2 + t1;
    const M3 = m3[i]!;
    m3[i] = M3 + (t1 * dn * (n - 2) - 3 * dn * M2);
    const dn2 = dn * dn;
    m4[i] = m4[i]! + (t1 * dn2 * (n * n - 3 * n + 3) + 6 * dn2 * M2 - 4 * dn * M3);
  }
  // RunningStats.updateCovariance: the first document only creates the (zero) entries
  if (n === 1) return;
  const f = 1.0 / (n * (n - 1.0));
  for (let i = 0; i < k; i++) {
    const dR = deltas[i]!;
    for (let j = i + 1; j < k; j++) cov[i * k + j] = cov[i * k + j]! + f * dR * deltas[j]!;
  }
}

function copyInto(into: RunningStats, from: RunningStats): void {
  into.docCount = from.docCount;
  into.counts.set(from.counts);
  into.sums.set(from.sums);
  into.means.set(from.means);
  into.m2.set(from.m2);
  into.m3.set(from.m3);
  into.m4.set(from.m4);
  into.cov.set(from.cov);
}

/**
 * RunningStats.merge: folds `b` (another shard's stats over the same fields) into `a`. The
 * reduce starts from empty stats, which simply take the first shard's values.
 */
export function mergeStats(a: RunningStats, b: RunningStats): void {
  if (a.docCount === 0) {
    copyInto(a, b);
    return;
  }
  const k = a.fields.length;
  const nA = a.docCount;
  const nB = b.docCount;
  const n = nA + nB;
  a.docCount = n;
  const deltas = new Float64Array(k);
  const n2 = n * n;
  const nA2 = nA * nA;
  const nB2 = nB * nB;
  for (let i = 0; i < k; i++) {
    const meanA = a.means[i]!;
    const varA = a.m2[i]!;
    const skewA = a.m3[i]!;
    const kurtA = a.m4[i]!;
    const meanB = b.means[i]!;
    const varB = b.m2[i]!;
    const skewB = b.m3[i]!;
    const kurtB = b.m4[i]!;
    a.counts[i] = a.counts[i]! + b.counts[i]!;
    a.means[i] = (nA * meanA + nB * meanB) / (nA + nB);
    deltas[i] = b.sums[i]! / nB - a.sums[i]! / nA;
    a.sums[i] = a.sums[i]! + b.sums[i]!;
    const d = meanB - meanA;
    const d2 = d * d;
    const d3 = d * d2;
    const d4 = d2 * d2;
    a.m2[i] = varA + varB + (d2 * nA * nB) / n;
    const newSkew = skewA + skewB + (d3 * nA * nB * (nA - nB)) / n2;
    a.m3[i] = newSkew + (3 * d * (nA * varB - nB * varA)) / n;
    const nk = kurtA + kurtB + (d4 * nA * nB * (nA2 - nA * nB + nB2)) / (n2 * n);
    a.m4[i] =
      nk + (6 * d2 * (nA2 * varB + nB2 * varA)) / n2 + (4 * d * (nA * skewB - nB * skewA)) / n;
  }
  // RunningStats.mergeCovariance
  const f = (nA * nB) / n;
  for (let i = 0; i < k; i++) {
    const dR = deltas[i]!;
    for (let j = i + 1; j < k; j++) {
      const at = i * k + j;
      a.cov[at] = a.cov[at]! + (b.cov[at]! + f * dR * deltas[j]!);
    }
  }
}

/** One field's final figures (MatrixStatsResults). */
export interface FieldResult {
  readonly name: string;
  readonly count: number;
  readonly mean: number;
  readonly variance: number;
  readonly skewness: number;
  readonly kurtosis: number;
}

export interface MatrixResults {
  readonly docCount: number;
  readonly fields: readonly FieldResult[];
  /** Sample covariance, k×k, symmetric; the diagonal is the variance. */
  readonly covariance: Float64Array;
  /** Pearson correlation, k×k, symmetric; the diagonal is 1. */
  readonly correlation: Float64Array;
}

/** MatrixStatsResults.compute: sample variance/covariance (n - 1), skewness, kurtosis, correlation. */
export function computeResults(s: RunningStats): MatrixResults {
  const k = s.fields.length;
  const n = s.docCount;
  const nM1 = n - 1;
  const variances = new Float64Array(k);
  const fields: FieldResult[] = [];
  for (let i = 0; i < k; i++) {
    const v = s.m2[i]!;
    variances[i] = v / nM1;
    fields.push({
      name: s.fields[i]!,
      count: s.counts[i]!,
      mean: s.means[i]!,
      variance: variances[i]!,
      skewness: (Math.sqrt(n) * s.m3[i]!) / Math.pow(v, 1.5),
      kurtosis: (n * s.m4[i]!) / (v * v),
    });
  }
  const covariance = new Float64Array(k * k);
  const correlation = new Float64Array(k * k);
  for (let i = 0; i < k; i++) {
    covariance[i * k + i] = variances[i]!;
    correlation[i * k + i] = 1;
    for (let j = i + 1; j < k; j++) {
      const c = s.cov[i * k + j]! / nM1;
      // no variance in either field: correlation is undefined (ES: NaN)
      const r =
        variances[i] === 0 || variances[j] === 0
          ? NaN
          : c / (Math.sqrt(variances[i]!) * Math.sqrt(variances[j]!));
      covariance[i * k + j] = covariance[j * k + i] = c;
      correlation[i * k + j] = correlation[j * k + i] = r;
    }
  }
  return { docCount: n, fields, covariance, correlation };
}

/** java.lang.String.hashCode. */
function javaStringHash(s: string): number {
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (Math.imul(31, h) + s.charCodeAt(i)) | 0;
  return h;
}

/**
 * The iteration order of a java.util.HashMap filled with `keys` in this order (default
 * capacity 16, load factor 0.75): by bucket (spread hash & (capacity - 1)), then insertion
 * order. ES hands matrix_stats fields around in HashMaps, so this is the order they are
 * collected and rendered in. Duplicates are dropped, as the map would.
 */
export function javaHashMapOrder(keys: readonly string[]): string[] {
  const unique = [...new Set(keys)];
  let cap = 16;
  while (unique.length > cap * 0.75) cap *= 2;
  const bucket = (k: string) => {
    const h = javaStringHash(k);
    return (h ^ (h >>> 16)) & (cap - 1);
  };
  return unique
    .map((k, i) => ({ k, i, b: bucket(k) }))
    .sort((x, y) => x.b - y.b || x.i - y.i)
    .map((e) => e.k);
}
