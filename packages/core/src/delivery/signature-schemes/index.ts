/**
 * Signing a delivery under its webhook's scheme: `latchkey.ts` beside this one, and
 * `standard-webhooks.ts` for the two Standard Webhooks schemes, each on the
 * primitives of `@latchkey/webhook-verifier` (which receivers verify with), so sender and verifier
 * cannot drift. The body is the same bytes under every scheme.
 */
import { deliveryBody } from '../signing.js';
import { latchkeyHeaders } from './latchkey.js';
import { type StandardMaterial, standardHeaders } from './standard-webhooks.js';

/** What signs one attempt: the scheme and its opened keys. */
export type SigningMaterial = { scheme: 'latchkey'; secret: string } | StandardMaterial;

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
      : standardHeaders(material, body, eventId, timestamp);
  return { body, headers: { ...headers, 'Content-Type': 'application/json' } };
}

export { newSigningKeyPair, newStandardSecret } from './standard-webhooks.js';
