// The checks, in the order their reasons are listed. Each is independent: adding, removing or
// reordering one changes no other's signals.
import { answerKindCheck } from './answer-kind.js';
import type { AnswerCheck, ClaimCheck } from './check.js';
import { exclusionCheck } from './exclusion.js';
import { figuresCheck } from './figures.js';
import { linkedNamesCheck } from './linked-names.js';
import { namesCheck } from './names.js';
import { noEvidenceCheck } from './no-evidence.js';
import { optionsCheck } from './options.js';
import { polarityCheck } from './polarity.js';
import { quantifiersCheck } from './quantifiers.js';
import { relationCheck } from './relation.js';
import { namingCheck } from './swapped-word.js';
import { verbatimCheck } from './verbatim.js';
import { wordingCheck } from './wording.js';

export const claimChecks: readonly ClaimCheck[] = [
  noEvidenceCheck,
  verbatimCheck,
  figuresCheck,
  namesCheck,
  wordingCheck,
  namingCheck,
  polarityCheck,
  quantifiersCheck,
  relationCheck,
  linkedNamesCheck,
  exclusionCheck,
  optionsCheck,
];

export const answerChecks: readonly AnswerCheck[] = [answerKindCheck];

/** Which check returns each signal kind. */
export const checkOfKind: ReadonlyMap<string, string> = new Map(
  [...claimChecks, ...answerChecks].flatMap((check) => check.kinds.map((kind) => [kind, check.name] as const)),
);

/** Signal kinds that speak for a claim rather than against it. */
export const supportKinds: ReadonlySet<string> = new Set(verbatimCheck.kinds);
