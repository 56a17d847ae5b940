// The README's first validation with the SDK: sign in as the demo user, validate an answer and ask for
// a fix. From the repository root, after `npm ci` and with `npm start` running in another terminal:
//   npx tsx examples/first-validation.mts
// GROUNDCHECK_URL points it at another server (default http://localhost:3000).
import { createClient } from '@groundcheck/sdk';

const baseUrl = process.env.GROUNDCHECK_URL ?? 'http://localhost:3000';
const { token } = await createClient({ baseUrl }).auth.login({
  email: 'uma.user@demo.example',
  password: 'demo-user-password',
  customer_id: 'demo',
});
const client = createClient({ baseUrl, token });

const result = await client.validate({
  mode: 'validate_and_fix',
  question: 'How many days of paid leave do full-time employees get?',
  chatbot_response: 'Full-time employees get 30 days of paid leave per year.',
  inline_text: 'Full-time employees are entitled to 25 days of paid leave per calendar year.',
});
for (const claim of result.claims) console.log(claim.status, claim.score, claim.text);
console.log('confidence', result.confidence_level, result.confidence_score, 'severity', result.severity, 'open issues', result.issue_count);
if (result.mode === 'validate_and_fix') console.log(result.corrected_response);
// contradicted 0.262 Full-time employees get 30 days of paid leave per year
// confidence low 0.262 severity high open issues 0
// Full-time employees get 25 days of paid leave per year.
