// The client every example uses: the deployment from GROUNDCHECK_URL (default: the mock of
// `npm run mock`), with a signed-in user's GROUNDCHECK_TOKEN or GROUNDCHECK_CUSTOMER_ID and
// GROUNDCHECK_API_KEY. Copy it along with the example you take.
import { createClient, type GroundcheckClient } from '@groundcheck/sdk';

export function clientFromEnv(env: NodeJS.ProcessEnv = process.env): GroundcheckClient {
  const baseUrl = env.GROUNDCHECK_URL ?? 'http://127.0.0.1:4010';
  const { GROUNDCHECK_TOKEN: token, GROUNDCHECK_CUSTOMER_ID: customerId, GROUNDCHECK_API_KEY: apiKey } = env;
  if (token) return createClient({ baseUrl, token });
  if (customerId && apiKey) return createClient({ baseUrl, customerId, apiKey });
  throw new Error('Set GROUNDCHECK_TOKEN, or GROUNDCHECK_CUSTOMER_ID and GROUNDCHECK_API_KEY.');
}
