// A claim for which retrieval finds no passage at all: nothing in the sources speaks about it.
import { type ClaimCheck, signal } from './check.js';

export const noEvidenceCheck: ClaimCheck = {
  name: 'no-evidence',
  kinds: { no_evidence: 'unsupported' },
  run: (claim) =>
    claim.candidates.length === 0 ? [signal('no_evidence', 'unsupported', 'Nothing in the sources speaks about this.')] : [],
};
