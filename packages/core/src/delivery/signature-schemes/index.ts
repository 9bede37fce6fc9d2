/**
 * Signing a delivery under its webhook's scheme: one file per scheme beside this one, each on the
 * primitives of `@latchkey/webhook-verifier` (which receivers verify with), so sender and verifier
 * cannot drift. The body is the same bytes under every scheme.
 */
import type { KeyObject } from 'node:crypto';
import { deliveryBody } from '../signing.js';
import { latchkeyHeaders } from './latchkey.js';
import { standardWebhooksHeaders } from './standard-webhooks.js';
import { ed25519Headers } from './standard-webhooks-ed25519.js';

/** What signs one attempt: the scheme and its opened keys. */
export type SigningMaterial =
  | { scheme: 'latchkey'; secret: string }
  | { scheme: 'standard-webhooks'; secrets: readonly string[] }
  | { scheme: 'standard-webhooks-ed25519'; privateKeys: readonly KeyObject[] };

/** A delivery ready to send under any scheme: the body and its headers. */
export interface SchemeSignedDelivery {
  body: string;
  headers: Record<string, string>;
}

/** Signs the event `json` (id first, as the store keeps it) for `timestamp` under `material`'s scheme. */
export function signForScheme(
  material: SigningMaterial,
  json: string,
  eventId: string,
  timestamp: number,
): SchemeSignedDelivery {
  const body = deliveryBody(json);
  const headers =
    material.scheme === 'latchkey'
      ? latchkeyHeaders(material.secret, body, eventId, timestamp)
      : material.scheme === 'standard-webhooks'
        ? standardWebhooksHeaders(material.secrets, body, eventId, timestamp)
        : ed25519Headers(material.privateKeys, body, eventId, timestamp);
  return { body, headers: { ...headers, 'Content-Type': 'application/json' } };
}

export { newStandardSecret } from './standard-webhooks.js';
export { newSigningKeyPair } from './standard-webhooks-ed25519.js';
