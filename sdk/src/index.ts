// The public surface of @groundcheck/sdk.

export type { components, operations, paths, webhooks } from '@groundcheck/contract';
export type { AuditChainResult, VerifyAuditChainOptions } from './audit-chain.js';
export { verifyAuditChain } from './audit-chain.js';
export type { ApiKeyCredentials, ClientOptions, NoCredentials, TokenCredentials } from './client.js';
export { createClient, GroundcheckClient } from './client.js';
export type { TokenSource } from './credentials.js';
export type { GroundcheckErrorInit } from './errors.js';
export {
  AuthenticationError,
  BadRequestError,
  ConflictError,
  ConnectionError,
  errorFromResponse,
  GroundcheckError,
  IdempotencyError,
  NotFoundError,
  PermissionError,
  RateLimitError,
  RequestAbortedError,
  ServerError,
  TimeoutError,
  WebhookVerificationError,
} from './errors.js';
export type { Page } from './pagination.js';
export type { Fetch, RequestOptions } from './request.js';
export type { Account, AccountExportDownload } from './resources/account.js';
export type { Analytics as AnalyticsResource } from './resources/analytics.js';
export type { Audit, AuditExportParams } from './resources/audit.js';
export type { Auth } from './resources/auth.js';
export type { Engine } from './resources/engine.js';
export type { History } from './resources/history.js';
export type { Saas, Users } from './resources/saas.js';
export type { SourceContentType, Sources, UploadData, UploadFileOptions } from './resources/sources.js';
export { sourceContentTypes } from './resources/sources.js';
export type { Templates } from './resources/templates.js';
export type { ValidateOptions } from './resources/validation.js';
export type { RateLimitInfo, ResponseInfo, WithResponse } from './response.js';
export type * from './types.js';
export type { VerifyWebhookOptions, WebhookBody, WebhookHeaders } from './webhooks.js';
export { parseWebhookEvent, verifyWebhook } from './webhooks.js';
