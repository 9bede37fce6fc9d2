/**
 * `@latchkey/core/webhooks`: the audit webhook delivery engine and its parts, kept out of the main
 * entry so undici and DNS load only where deliveries are sent.
 */

export { secretContext } from '../keyring/contexts.js';
export * from '../metrics/latency-histogram.js';
export * from '../metrics/rollup.js';
export type { WebhookLimit, WebhookLimits } from '../model/webhook-limits.js';
export { type AttemptServices, attemptDelivery, attemptRow, sendSigned } from './attempt.js';
export {
  type KeyringOption,
  toKeyring,
  type WebhookOptions,
  type WebhookSettings,
  webhookSettings,
} from './config.js';
export { createDeliveryEngine, type DeliveryEngine, type DeliveryEngineOptions } from './engine/engine.js';
export { lastDeliveryOf } from './last-delivery.js';
export * from './retry-schedule.js';
export {
  classifySendError,
  createUndiciTransport,
  type SendResult,
  type Transport,
  type UndiciTransportOptions,
} from './sending/sender.js';
export * from './sending/ssrf.js';
export { newSigningSecret, type SignedDelivery, signDelivery, signEventJson } from './signing.js';
export { webhookLimit } from './webhook-limits.js';
