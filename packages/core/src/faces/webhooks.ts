/**
 * `@latchkey/core/webhooks`: the audit webhook delivery engine, kept out of the main entry so
 * undici and DNS load only where deliveries are sent. The engine and its options, the transport it
 * sends with (undici by default, or one of your own), the values those options take, and the
 * signature a delivery carries (made with the primitives receivers verify with).
 */
export type { KeyringOption, WebhookOptions } from '../delivery/config.js';
export {
  createDeliveryEngine,
  type DeliveryEngine,
  type DeliveryEngineOptions,
} from '../delivery/engine/engine.js';
export { DEFAULT_RETRY_POLICY, parseRetrySchedule, type RetryPolicy } from '../delivery/retry-schedule.js';
export {
  createUndiciTransport,
  type SendResult,
  type Transport,
  type UndiciTransportOptions,
} from '../delivery/sending/sender.js';
export { type AllowHosts, parseAllowHosts, type ResolveHost } from '../delivery/sending/ssrf.js';
export { type SignedDelivery, signDelivery } from '../delivery/signing.js';
export type { WebhookLimit, WebhookLimits } from '../model/webhook-limits.js';
