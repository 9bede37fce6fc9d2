/**
 * Where each kind of value sealed at rest is bound (the associated data of its AES-256-GCM seal), so
 * a sealed value copied to another record does not open. Written once here: the routes and the
 * delivery engine seal and open with them, backup and restore move values between them, and the
 * re-encrypt routine reseals under them.
 */

/** Where a webhook's sealed signing secret is bound: its webhook (by id). */
export const secretContext = (webhookId: string) => `audit_webhook:${webhookId}:signing_secret`;

/** Where a webhook's custom header value is bound: its webhook (by id) and the header's name, lower-cased. */
export const headerValueContext = (webhookId: string, name: string) =>
  `audit_webhook:${webhookId}:header:${name.toLowerCase()}`;

/** Where a webhook's mTLS client private key is bound: its webhook (by id). */
export const clientKeyContext = (webhookId: string) => `audit_webhook:${webhookId}:client_key`;

/** Where a secret value is bound: its environment (by id) and key. */
export const secretValueContext = (environmentId: string, key: string) =>
  `secret_value:${environmentId}:${key}`;

/** Where an organization's webhook signing private key is bound: its key (by id). */
export const signingKeyContext = (keyId: string) => `webhook_signing_key:${keyId}:private_key`;
