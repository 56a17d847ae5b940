// Credentials go where the contract puts them: a bearer token in the Authorization header, or an API
// key in the JSON body of the operations marked `x-api-key: true`. Never in a URL or another header.
import type { Middleware } from 'openapi-fetch';
import { apiKeyPaths, openPaths } from './generated/operations.js';
import { PreparedRequest } from './prepared-request.js';

/** A bearer token, or a function returning the current one; it is called once per call. */
export type TokenSource = string | (() => string | Promise<string>);

export type Credentials = { token: TokenSource } | { customerId: string; apiKey: string } | null;

export function credentialsMiddleware(credentials: Credentials): Middleware {
  return {
    async onRequest({ request, schemaPath }) {
      if (!credentials || openPaths.includes(schemaPath as never)) return undefined;
      if ('token' in credentials) {
        const token = typeof credentials.token === 'function' ? await credentials.token() : credentials.token;
        request.headers.set('Authorization', `Bearer ${token}`);
        return request;
      }
      // saas/* and account/* need a person's token: the key is left out and the server answers 401.
      if (!apiKeyPaths.includes(schemaPath as never)) return undefined;
      const prepared = request instanceof PreparedRequest ? (request as unknown as PreparedRequest) : null;
      const text = await (prepared ?? request.clone()).text();
      const body = JSON.stringify({
        ...(text ? (JSON.parse(text) as Record<string, unknown>) : {}),
        customer_id: credentials.customerId,
        api_key: credentials.apiKey,
      });
      if (prepared) {
        prepared.body = body;
        prepared.headers.set('Content-Type', 'application/json');
        return request;
      }
      const headers = new Headers(request.headers);
      headers.set('Content-Type', 'application/json');
      return new Request(request, { body, headers });
    },
  };
}
