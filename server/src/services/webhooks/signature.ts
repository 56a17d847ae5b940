// Standard Webhooks signatures (standardwebhooks.com): `v1,` + base64 HMAC-SHA256 of
// `<webhook-id>.<webhook-timestamp>.<body>`, keyed with the base64 part of a `whsec_` secret.
import { createHmac } from 'node:crypto';

export const signingSecretPattern = /^whsec_[A-Za-z0-9+/]+={0,2}$/;

export function signWebhook(secret: string, id: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestampSeconds}.${body}`).digest('base64')}`;
}
