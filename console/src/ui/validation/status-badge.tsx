import type { ClaimStatus } from '@groundcheck/sdk';

const words: Record<ClaimStatus, string> = { supported: 'Supported', unsupported: 'Not in the sources', contradicted: 'Contradicted' };

export function StatusBadge({ status }: { status: ClaimStatus }) {
  return <span className={`status ${status}`}>{words[status]}</span>;
}
