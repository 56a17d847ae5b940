// The checks, in the order their reasons are listed. Each is independent: adding, removing or
// reordering one changes no other's signals.
import { answerKindCheck } from './answer-kind.js';
import type { AnswerCheck, ClaimCheck, SignalVerdict } from './check.js';
import { comparisonCheck } from './comparison.js';
import { exclusionCheck } from './exclusion.js';
import { figuresCheck } from './figures.js';
import { linkedNamesCheck } from './linked-names.js';
import { namesCheck } from './names.js';
import { noEvidenceCheck } from './no-evidence.js';
import { optionsCheck } from './options.js';
import { polarityCheck } from './polarity.js';
import { relationCheck } from './relation.js';
import { restrictionsCheck } from './restrictions/index.js';
import { verbatimCheck } from './verbatim.js';
import { wordingCheck } from './wording.js';

export const claimChecks: readonly ClaimCheck[] = [
  noEvidenceCheck,
  verbatimCheck,
  figuresCheck,
  namesCheck,
  wordingCheck,
  polarityCheck,
  restrictionsCheck,
  relationCheck,
  linkedNamesCheck,
  exclusionCheck,
  optionsCheck,
  comparisonCheck,
];

export const answerChecks: readonly AnswerCheck[] = [answerKindCheck];

/** Which check returns each signal kind. */
export const checkOfKind: ReadonlyMap<string, string> = new Map(
  [...claimChecks, ...answerChecks].flatMap((check) => Object.keys(check.kinds).map((kind) => [kind, check.name] as const)),
);

function kindsWith(...verdicts: SignalVerdict[]): ReadonlySet<string> {
  return new Set(
    [...claimChecks, ...answerChecks].flatMap((check) =>
      Object.entries(check.kinds)
        .filter(([, verdict]) => verdicts.includes(verdict))
        .map(([kind]) => kind),
    ),
  );
}

/** Signal kinds that speak for a claim rather than against it. */
export const supportKinds = kindsWith('supported', 'confidence');
/** Support kinds that only raise a claim's score: the aggregator never lets them change a status. */
export const confidenceKinds = kindsWith('confidence');
/**
 * Kinds that grade how much of a claim the sources lack rather than find a fault: they rank claims by score but are
 * fitted after the flags, with the flags' weights held, so that the overlap between them and every flag kind does not
 * bend the flags' weights (fitted beside them, `coverage_gap` cost HaluEval 1.6 points and the realistic sets 0.3).
 */
export const gradingKinds: ReadonlySet<string> = new Set(['coverage_gap']);
