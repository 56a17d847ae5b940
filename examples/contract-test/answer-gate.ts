// Your integration: the code under test. Before a chatbot answer is shown, Groundcheck checks it;
// an answer with a high or critical issue is held back. When Groundcheck is busy or down the answer
// is shown with a warning (fail open); a credentials problem is a configuration error and throws.
import { BadRequestError, type GroundcheckClient, RateLimitError, ServerError } from '@groundcheck/sdk';

export interface Verdict {
  show: boolean;
  reason: string;
}

export async function gateAnswer(client: GroundcheckClient, question: string, answer: string, sourceText: string): Promise<Verdict> {
  try {
    const result = await client.validate({ mode: 'validate', question, chatbot_response: answer, inline_text: sourceText });
    if (result.severity === 'high' || result.severity === 'critical') {
      return { show: false, reason: `held back: ${result.issues.join('; ')}` };
    }
    return { show: true, reason: `${result.issue_count} issue(s), severity ${result.severity}` };
  } catch (error) {
    if (error instanceof RateLimitError || error instanceof ServerError) {
      return { show: true, reason: `not checked (${error.status} ${error.code})` };
    }
    if (error instanceof BadRequestError) return { show: false, reason: `not checkable: ${error.code}` };
    throw error;
  }
}
