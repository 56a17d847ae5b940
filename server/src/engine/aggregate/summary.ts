// Findings, issues, severity and confidence from the judged claims (decision rows 13, 14, 56-59).
import type { Claim, ConfidenceLevel, EngineThresholds, Finding, Severity } from '../types.js';

const severityOrder: Severity[] = ['none', 'low', 'medium', 'high', 'critical'];

export interface ClaimVerdict {
  claim: Claim;
  reasons: string[];
  conflictingSources: number[];
}

export interface Summary {
  findings: Finding[];
  issues: string[];
  issue_count: number;
  severity: Severity;
  confidence_level: ConfidenceLevel;
  confidence_score: number;
  source_conflict_count: number;
}

export function summarise(verdicts: ClaimVerdict[], extra: Finding[], thresholds: EngineThresholds): Summary {
  const findings = verdicts.flatMap((verdict, index) => claimFindings(verdict, index, thresholds));
  // Each pair of sources that disagree on a claim counts once.
  const conflicts = verdicts.reduce((sum, { conflictingSources: n }) => sum + (n.length * (n.length - 1)) / 2, 0);
  return summaryOf(
    [...findings, ...extra],
    verdicts.map((v) => v.claim.score),
    conflicts,
    thresholds,
  );
}

/** The findings of one judged claim: its status's finding, and a conflict among its sources. */
export function claimFindings(
  { claim, reasons, conflictingSources }: ClaimVerdict,
  index: number,
  thresholds: EngineThresholds,
): Finding[] {
  const findings: Finding[] = [];
  const quoted = quote(claim.text);
  if (claim.status === 'contradicted') {
    findings.push({
      category: 'contradicted_claim',
      status: 'failed',
      severity: thresholds.contradictedSeverity,
      claim_index: index,
      title: 'Claim contradicts the sources',
      description: `${quoted}: ${reasons.join(' ')}`.trim(),
    });
  } else if (claim.status === 'unsupported') {
    findings.push({
      category: 'unsupported_claim',
      status: 'warning',
      severity: thresholds.unsupportedSeverity,
      claim_index: index,
      title: 'Claim not supported by the sources',
      description: `${quoted}: ${reasons.join(' ')}`.trim(),
    });
  }
  if (conflictingSources.length > 1) {
    findings.push({
      category: 'source_conflict',
      status: 'warning',
      severity: thresholds.sourceConflictSeverity,
      claim_index: index,
      title: 'Sources disagree',
      description: `${conflictingSources.length} sources give different values for ${quoted}.`,
    });
  }
  return findings;
}

/** Issues, severity and confidence from the findings and the claims' scores. */
export function summaryOf(findings: Finding[], scores: number[], sourceConflicts: number, thresholds: EngineThresholds): Summary {
  const open = findings.filter((f) => f.status === 'failed' || f.status === 'warning');
  const issues = open.map((f) => `${f.title}: ${f.description}`);
  const severity = open.reduce<Severity>(
    (max, f) => (severityOrder.indexOf(f.severity) > severityOrder.indexOf(max) ? f.severity : max),
    'none',
  );
  // The weakest claim bounds the answer's confidence; the mean rewards answers that are solid overall.
  const confidence =
    scores.length === 0 ? 0 : Math.round(((Math.min(...scores) + scores.reduce((a, b) => a + b, 0) / scores.length) / 2) * 1000) / 1000;
  const confidence_level: ConfidenceLevel =
    confidence >= thresholds.highConfidence ? 'high' : confidence >= thresholds.mediumConfidence ? 'medium' : 'low';
  return {
    findings,
    issues,
    issue_count: issues.length,
    severity,
    confidence_level,
    confidence_score: confidence,
    source_conflict_count: sourceConflicts,
  };
}

function quote(text: string): string {
  return `"${text.length > 120 ? `${text.slice(0, 117)}...` : text}"`;
}
