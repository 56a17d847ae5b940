// What the contract's request shape for a review action requires besides `action`: the facts a
// request must carry for the action to be accepted.
import { rawSpec } from '../../../test/support/spec.js';

export type ReviewFact = 'note' | 'corrections' | 'external_reference';

const schemas = (rawSpec() as any).components.schemas;

export function requiredFacts(action: string): ReviewFact[] {
  const variant = String(schemas.ReviewRequest.discriminator.mapping[action]).split('/').pop()!;
  return (schemas[variant].required as string[]).filter((field) => field !== 'action') as ReviewFact[];
}
