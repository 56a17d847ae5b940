// Every outbound HTTP request of the server goes through this module.
export { type AddressVerdict, type Allowlist, checkAddress, classifyAddress, parseAllowlist } from './address-policy.js';
export {
  checkUrl,
  createOutboundClient,
  type OutboundClient,
  type OutboundClientOptions,
  type OutboundRequestOptions,
  type OutboundResponse,
} from './outbound-client.js';
export { type OutboundFetch, outboundFetch } from './outbound-fetch.js';
export { OutboundRefusal, type OutboundRefusalReason, skippedSourceReason } from './outbound-refusal.js';
