// One claim in full: its status and score, the reasons the engine gives (its findings), and each
// evidence passage with its relation to the claim and where it comes from.
import type { Claim, Finding, SourceUsed } from '@groundcheck/sdk';
import { EvidenceSpan } from './evidence-span';
import { StatusBadge } from './status-badge';

const relationWords: Record<string, string> = {
  supports: 'Supports the claim',
  contradicts: 'Contradicts the claim',
  related: 'Related',
};

// What `claim.verifier` means to a reviewer: the entailment model is weighed with the checks (the shipped one in the
// score only), the judge's verdict replaces theirs.
const verifierLabels: Record<NonNullable<Claim['verifier']>, string> = {
  deterministic: 'decided by the checks',
  onnx: 'decided by the checks with the entailment model',
  openai: 'decided by the judge',
};

export function ClaimDetails(props: {
  claim: Claim;
  index: number;
  findings: readonly Finding[];
  sources: readonly SourceUsed[];
  sourceTexts: Readonly<Record<string, string>>;
}) {
  const { claim, index, findings, sources, sourceTexts } = props;
  const reasons = findings.filter((finding) => finding.claim_index === index);
  const referenceOf = (sourceId: string) => {
    const source = sources.find((candidate) => candidate.source_id === sourceId);
    if (!source) return sourceId;
    return source.kind === 'inline_text' ? 'the source text' : source.reference;
  };
  return (
    <div className="stack claim-details">
      <p>
        <StatusBadge status={claim.status} /> <span className="muted">Claim {index + 1}</span>
      </p>
      <p className="claim-text">“{claim.text}”</p>
      <p className="muted">
        Support score {claim.score.toFixed(2)}
        {claim.verifier ? ` · ${verifierLabels[claim.verifier]}` : ''}
      </p>
      <h3>Reasons</h3>
      {reasons.length === 0 ? (
        <p className="muted">{claim.status === 'supported' ? 'The sources state this.' : 'No further reason given.'}</p>
      ) : (
        <ul>
          {reasons.map((finding) => (
            <li key={`${finding.category}-${finding.title}`}>
              <strong>{finding.title}</strong> {finding.description}
            </li>
          ))}
        </ul>
      )}
      <h3>Evidence</h3>
      {claim.evidence.length === 0 ? (
        <p className="muted">No passage of the sources speaks to this claim.</p>
      ) : (
        <ul className="evidence-list">
          {claim.evidence.map((evidence) => (
            <li key={`${evidence.source_id}-${evidence.start}-${evidence.end}`}>
              <p>
                <strong>{relationWords[evidence.relation] ?? evidence.relation}</strong>{' '}
                <span className="muted">from {referenceOf(evidence.source_id)}</span>
              </p>
              <EvidenceSpan evidence={evidence} sourceText={sourceTexts[evidence.source_id]} />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
