/**
 * Signing of audit webhook deliveries. The primitives come from `@latchkey/webhook-verifier`, the
 * package receivers verify with, so the sender and the receiver cannot drift apart.
 */
import { generateSigningSecret, type SignatureHeaders, signatureHeaders } from '@latchkey/webhook-verifier';

/** A delivery ready to send: the exact body bytes and the headers signed over them. */
export interface SignedDelivery {
  body: string;
  headers: SignatureHeaders & { 'Content-Type': 'application/json' };
}

/**
 * Serialises an event for delivery with `id` as the first member (the receiver's verifier then reads
 * the replay key without parsing the body) and signs it for `timestamp` (unix seconds). Every
 * delivery attempt is signed afresh with the time of that attempt.
 */
export function signDelivery(event: { id: string }, secret: string, timestamp: number): SignedDelivery {
  const { id, ...rest } = event;
  return signEventJson(JSON.stringify({ id, ...rest }), id, secret, timestamp);
}

/**
 * Signs an event already serialised (its JSON text as the store keeps it), sent as it is when `id`
 * comes first, as it does for every event the store seals; otherwise serialised again with `id` first.
 */
export function signEventJson(
  json: string,
  eventId: string,
  secret: string,
  timestamp: number,
): SignedDelivery {
  if (!json.startsWith('{"id":')) return signDelivery(JSON.parse(json) as { id: string }, secret, timestamp);
  return {
    body: json,
    headers: {
      ...signatureHeaders({ secret, body: json, eventId, timestamp }),
      'Content-Type': 'application/json',
    },
  };
}

/** The body sent for an event's JSON: as it is when `id` comes first, else serialised again so. */
export function deliveryBody(json: string): string {
  if (json.startsWith('{"id":')) return json;
  const { id, ...rest } = JSON.parse(json) as { id: string };
  return JSON.stringify({ id, ...rest });
}

/** A new signing secret: `whsec_` + 32 random bytes, base64url. The HMAC key is the whole string. */
export const newSigningSecret: () => string = generateSigningSecret;
