// The one interface every check implements. A check reads a claim (or the whole answer) and returns
// typed signals; it never sees another check's signals, and only the aggregator turns signals into a
// claim's status.
import type { AnswerContext, ClaimReading } from '../claims/reading.js';
import type { ReadPassage } from '../evidence/retrieval.js';

/**
 * Which way a signal points: a flag's status; support that counts against flags; `confidence`,
 * support that only raises the claim's score; or a note that is no verdict (sources disagreeing).
 */
export type SignalVerdict = 'contradicted' | 'unsupported' | 'supported' | 'confidence' | 'note';

export interface Signal {
  /** The signal's kind: the aggregator weighs each kind (`aggregate/weights.json`). */
  kind: string;
  verdict: SignalVerdict;
  /** How strongly it holds, 0-1. */
  strength: number;
  /** For a reviewer: one sentence on what was found. */
  reason: string;
  /** The passage that shows it, if any. */
  passage?: ReadPassage;
  /** For a contradicted figure: the claim-relative span and the sources' value, for fixes. */
  replacement?: { start: number; end: number; text: string };
  /** For a claim the sources state more narrowly: their own sentence, which a fix puts in its place. */
  restatement?: string;
  /** Distinct sources that disagree with one another (a `note`). */
  conflictingSources?: number[];
}

export interface ClaimCheck {
  name: string;
  /** The signal kinds it may return and which way each points, for the aggregator and the ablation. */
  kinds: Readonly<Record<string, SignalVerdict>>;
  run(claim: ClaimReading): Signal[];
}

/** A check of the answer as a whole (does it answer the question at all). */
export interface AnswerCheck {
  name: string;
  kinds: Readonly<Record<string, SignalVerdict>>;
  run(context: AnswerContext): Signal[];
}

export function signal(kind: string, verdict: SignalVerdict, reason: string, extra: Partial<Signal> = {}): Signal {
  return { kind, verdict, strength: 1, reason, ...extra };
}
