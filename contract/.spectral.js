// Spectral's OpenAPI rules and the OWASP API Security Top 10 ruleset, as `npx spectral lint
// openapi.yaml` (in contract/) and npm test (test/contract/spec-lint.test.ts) run them: the result must be empty.
// Every rule turned off here, everywhere or for part of the contract, says why; docs/decisions.md
// records the same reasons.
import { readFileSync } from 'node:fs';
import owasp from '@stoplight/spectral-owasp-ruleset';
import { oas } from '@stoplight/spectral-rulesets';
import { parse } from 'yaml';
import { pointersOutsideRequests } from './scripts/spec-usage.mjs';

const contract = 'openapi.yaml';
// Spectral bundles this file into CommonJS without `import.meta`; it finds it in the working directory.
const spec = parse(readFileSync(contract, 'utf8'));
const at = (...pointers) => pointers.map((pointer) => `${contract}#${pointer}`);
const off = (...rules) => Object.fromEntries(rules.map((rule) => [rule, 'off']));

export default {
  extends: [oas, owasp],
  rules: {
    // The API is called server to server: the reference server grants no cross-origin access and
    // sends no Access-Control-* headers, so declaring Access-Control-Allow-Origin would promise one.
    ...off('owasp:api8:2023-define-cors-origin'),
    // Free text (questions, answers, notes, names, descriptions, passwords) has no format or
    // pattern to declare; its length is bounded. Strings that have a form (ids, dates, URLs,
    // emails, hashes, codes) declare it.
    ...off('owasp:api4:2023-string-restricted'),
  },
  overrides: [
    {
      // Login is how a caller gets credentials; it is limited per account and per client address
      // instead (429 too_many_login_attempts).
      files: at('/paths/~1auth~1login/post/security'),
      rules: off('owasp:api2:2023-write-restricted'),
    },
    {
      // The health probes take no input and no credentials and are not rate limited, so they
      // answer no 400, 401 or 429 (decision 41).
      files: at('/paths/~1healthz', '/paths/~1readyz'),
      rules: off(
        'owasp:api2:2023-read-restricted',
        'owasp:api8:2023-define-error-responses-401',
        'owasp:api8:2023-define-error-validation',
        'owasp:api4:2023-rate-limit-responses-429',
        'owasp:api4:2023-rate-limit',
      ),
    },
    {
      // Refused before the call is counted: a 401 (the limit belongs to a tenant, and the caller
      // has none yet) and the HTTP layer's 408 and 431 (no operation is known yet) carry no
      // RateLimit-* headers.
      files: at('/components/responses/Unauthorized', '/components/responses/RequestTimeout', '/components/responses/HeadersTooLarge'),
      rules: off('owasp:api4:2023-rate-limit'),
    },
    {
      // What no request carries (responses, their headers, the webhook payload, documents the API
      // only describes): bounds there limit nothing a caller sends. Every string, array and integer
      // a request can carry is bounded (test/contract/conventions.test.ts checks it too).
      files: at(...pointersOutsideRequests(spec)),
      rules: off('owasp:api4:2023-string-limit', 'owasp:api4:2023-array-limit', 'owasp:api4:2023-integer-limit'),
    },
    {
      // Example values that the rule reads as schemas (a template's `schema.fields[].type: string`).
      files: at('/paths/~1api~1v1~1templates~1%7Bid%7D~1save/post/requestBody/content/application~1json/example'),
      rules: off('owasp:api4:2023-string-limit'),
    },
  ],
};
