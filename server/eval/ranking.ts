// How well a score ranks answers: the area under the ROC curve, and precision and recall at fixed
// thresholds, so that a tenant can choose an operating point from a table.

/** A scored case: the higher `score`, the more likely `positive`. */
export interface Ranked {
  score: number;
  positive: boolean;
}

/**
 * The probability that a positive case scores above a negative one, ties counted half
 * (the Mann–Whitney statistic); null when either class is empty.
 */
export function auroc(cases: readonly Ranked[]): number | null {
  const positives = cases.filter((c) => c.positive).length;
  const negatives = cases.length - positives;
  if (positives === 0 || negatives === 0) return null;
  const sorted = [...cases].sort((a, b) => a.score - b.score);
  // Ranks from 1, ties given their average rank.
  let rankSum = 0;
  for (let i = 0; i < sorted.length; ) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1]!.score === sorted[i]!.score) j += 1;
    const rank = (i + j + 2) / 2;
    for (let k = i; k <= j; k += 1) if (sorted[k]!.positive) rankSum += rank;
    i = j + 1;
  }
  return (rankSum - (positives * (positives + 1)) / 2) / (positives * negatives);
}

export interface OperatingPoint {
  threshold: number;
  /** Of the cases above the threshold, the share that is positive; 1 when none is. */
  precision: number;
  /** Of the positive cases, the share above the threshold. */
  recall: number;
  flagged: number;
}

/**
 * Precision and recall when every case scoring above each threshold is flagged: for an answer's risk, what a
 * `supported_score` of one minus it flags (a claim is flagged when its score is below the point, and a supported
 * claim's score is never below it, so an answer exactly at the point is not flagged).
 */
export function operatingPoints(cases: readonly Ranked[], thresholds: readonly number[]): OperatingPoint[] {
  const positives = cases.filter((c) => c.positive).length;
  return thresholds.map((threshold) => {
    const flagged = cases.filter((c) => c.score > threshold);
    const hits = flagged.filter((c) => c.positive).length;
    return {
      threshold,
      precision: flagged.length === 0 ? 1 : hits / flagged.length,
      recall: positives === 0 ? 0 : hits / positives,
      flagged: flagged.length,
    };
  });
}
