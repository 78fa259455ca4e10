/**
 * Zipf-distributed ranks: P(rank r) ∝ 1 / r^s for r = 1..n. Word frequencies in natural text
 * and in log messages follow this closely (s ≈ 1), which is what makes a few terms match most
 * documents and most terms match few — the shape a search engine's query cost depends on.
 */
export class ZipfSampler {
  /** cumulative[r - 1] = P(rank ≤ r) */
  private readonly cumulative: Float64Array;

  constructor(
    readonly n: number,
    readonly exponent: number,
  ) {
    if (!Number.isInteger(n) || n < 1) throw new Error(`Zipf n must be a positive integer, got ${n}`);
    this.cumulative = new Float64Array(n);
    let sum = 0;
    for (let r = 1; r <= n; r++) {
      sum += 1 / Math.pow(r, exponent);
      this.cumulative[r - 1] = sum;
    }
    for (let i = 0; i < n; i++) this.cumulative[i] /= sum;
  }

  /** Probability of a rank (1-based). */
  probability(rank: number): number {
    return this.cumulative[rank - 1] - (rank > 1 ? this.cumulative[rank - 2] : 0);
  }

  /** A rank in 1..n for a uniform draw u in [0, 1). */
  rank(u: number): number {
    let lo = 0;
    let hi = this.n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.cumulative[mid] > u) hi = mid;
      else lo = mid + 1;
    }
    return lo + 1;
  }
}
