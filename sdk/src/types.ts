// Public names for the contract's schemas: one alias per schema (generated), friendlier names for the
// ones customers handle most, and the request shapes as methods take them (without credentials).
import type { components, ValidationFindingsEvent, ValidationResult } from '@groundcheck/contract';

export type * from '@groundcheck/contract/schemas';

type Schemas = components['schemas'];

/** A validation result, one shape per `mode` (the contract's `ValidationResult`). */
export type Validation = ValidationResult;
/** The payload of the `service.validation.findings` webhook. */
export type WebhookEvent = ValidationFindingsEvent;

/** A request body without `customer_id` and `api_key`: the client adds them itself. */
export type WithoutCredentials<T> = T extends unknown ? Omit<T, 'customer_id' | 'api_key'> : never;

/** A schema's body as methods take it: without credentials, which the client adds. */
export type RequestBody<Name extends keyof Schemas> = WithoutCredentials<Schemas[Name]>;
