// Every outbound HTTP request of the server goes through this module.
export { classifyAddress, checkAddress, parseAllowlist, type AddressVerdict, type Allowlist } from './address-policy.js';
export {
  createOutboundClient,
  checkUrl,
  type OutboundClient,
  type OutboundClientOptions,
  type OutboundRequestOptions,
  type OutboundResponse,
} from './outbound-client.js';
export { outboundFetch, type OutboundFetch } from './outbound-fetch.js';
export { OutboundRefusal, skippedSourceReason, type OutboundRefusalReason } from './outbound-refusal.js';
