// Credentials go where the contract puts them: a bearer token in the Authorization header, or an API
// key in the JSON body of the operations marked `x-api-key: true`. Never in a URL or another header.

import { apiKeyPaths, openPaths } from '@groundcheck/contract';
import type { Middleware } from 'openapi-fetch';
import { PreparedRequest } from './prepared-request.js';

/** A bearer token, or a function returning the current one; it is called once per call. */
export type TokenSource = string | (() => string | Promise<string>);

export type Credentials = { token: TokenSource } | { customerId: string; apiKey: string } | null;

export function credentialsMiddleware(credentials: Credentials): Middleware {
  return {
    async onRequest({ request, schemaPath }) {
      if (!credentials || openPaths.includes(schemaPath as never)) return undefined;
      if ('token' in credentials) return withBearerToken(request, credentials.token);
      // saas/* and account/* need a person's token: the key is left out and the server answers 401.
      if (!apiKeyPaths.includes(schemaPath as never)) return undefined;
      return withApiKey(request, credentials);
    },
  };
}

async function withBearerToken(request: Request, source: TokenSource): Promise<Request> {
  const token = typeof source === 'function' ? await source() : source;
  request.headers.set('Authorization', `Bearer ${token}`);
  return request;
}

/** The request with the key added to its JSON body. */
async function withApiKey(request: Request, key: { customerId: string; apiKey: string }): Promise<Request> {
  const prepared = request instanceof PreparedRequest ? (request as unknown as PreparedRequest) : null;
  const text = await (prepared ?? request.clone()).text();
  const body = JSON.stringify({
    ...(text ? (JSON.parse(text) as Record<string, unknown>) : {}),
    customer_id: key.customerId,
    api_key: key.apiKey,
  });
  if (prepared) {
    prepared.body = body;
    prepared.headers.set('Content-Type', 'application/json');
    return request;
  }
  const headers = new Headers(request.headers);
  headers.set('Content-Type', 'application/json');
  return new Request(request, { body, headers });
}
